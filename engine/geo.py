"""Board facts the rules read often (precomputed once per board), and what a scoring hook sees."""

from __future__ import annotations

from dataclasses import dataclass

from . import data


@dataclass(frozen=True, slots=True)
class Geo:
    """Board facts the rules read often, precomputed once per board."""

    n: int
    nbrs: tuple[frozenset[int], ...]
    terrain: tuple[str, ...]
    water: tuple[bool, ...]
    mountain: tuple[bool, ...]
    cavern: tuple[bool, ...]
    magic: tuple[bool, ...]
    mine: tuple[bool, ...]
    entry: tuple[bool, ...]
    coastal: tuple[bool, ...]
    caverns: frozenset[int]
    # region ids, in order: every region, the land ones, the entry ones, the land entry ones
    ids: tuple[int, ...]
    land: tuple[int, ...]
    entries: tuple[int, ...]
    land_entries: tuple[int, ...]
    waters: frozenset[int]
    mountain_nbrs: tuple[frozenset[int], ...]  # per region: its neighbours that are mountains

    @classmethod
    def of(cls, board: data.Board) -> Geo:
        regs = board.regions
        water = tuple(r.is_water for r in regs)
        return cls(
            n=len(regs),
            nbrs=tuple(frozenset(r.neighbours) for r in regs),
            terrain=tuple(r.terrain for r in regs),
            water=water,
            mountain=tuple(r.terrain == "mountain" for r in regs),
            cavern=tuple("cavern" in r.symbols for r in regs),
            magic=tuple("magic_source" in r.symbols for r in regs),
            mine=tuple("mine" in r.symbols for r in regs),
            entry=tuple(r.entry for r in regs),
            coastal=tuple(
                (not water[r.id]) and any(water[n] for n in r.neighbours) for r in regs
            ),
            caverns=frozenset(r.id for r in regs if "cavern" in r.symbols),
            ids=tuple(r.id for r in regs),
            land=tuple(r.id for r in regs if not water[r.id]),
            entries=tuple(r.id for r in regs if r.entry),
            land_entries=tuple(r.id for r in regs if r.entry and not water[r.id]),
            waters=frozenset(r.id for r in regs if water[r.id]),
            mountain_nbrs=tuple(frozenset(n for n in r.neighbours
                                          if regs[n].terrain == "mountain") for r in regs),
        )


@dataclass(slots=True)
class Income:
    """What a scoring hook may look at: the race's regions and this turn's conquests."""

    geo: Geo
    regions: tuple[int, ...]
    n_nonempty: int
    first_turn: bool
    fortresses: int
