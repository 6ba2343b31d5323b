"""Static game data from data/: boards, races, powers, components. Validated at load."""

from __future__ import annotations

import importlib.util
import json
import os
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

DATA_DIR_ENV = "SMALLWORLD_DATA_DIR"  # a documented setting (.env.example); blank = the default
PACKAGE = "smallworld_data"  # the repository's data/ folder, as installed (pyproject.toml)


def data_dir() -> Path:
    """Where boards, races, powers, components, geometry and fonts are read from: the
    SMALLWORLD_DATA_DIR setting if given, else the installed package `smallworld_data` (the
    checkout's data/ in an editable install, site-packages in a wheel), else the data/ folder
    beside this package (a checkout used without installing)."""
    override = os.environ.get(DATA_DIR_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    spec = importlib.util.find_spec(PACKAGE)
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return Path(__file__).resolve().parents[1] / "data"


DATA_DIR = data_dir()

Terrain = Literal["forest", "farmland", "hill", "swamp", "mountain", "sea", "lake"]
Symbol = Literal["cavern", "magic_source", "mine", "lost_tribe"]
WATER: frozenset[str] = frozenset({"sea", "lake"})

RACES: tuple[str, ...] = (
    "Amazons", "Dwarves", "Elves", "Ghouls", "Giants", "Halflings", "Humans",
    "Orcs", "Ratmen", "Skeletons", "Sorcerers", "Tritons", "Trolls", "Wizards",
)
POWERS: tuple[str, ...] = (
    "Alchemist", "Berserk", "Bivouacking", "Commando", "Diplomat", "Dragon Master",
    "Flying", "Forest", "Fortified", "Heroic", "Hill", "Merchant", "Mounted",
    "Pillaging", "Seafaring", "Spirit", "Stout", "Swamp", "Underworld", "Wealthy",
)
PIECES: tuple[str, ...] = ("troll_lair", "fortress", "encampment", "hero", "dragon", "hole")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Region(_Frozen):
    id: int = Field(ge=0)
    terrain: Terrain
    symbols: tuple[Symbol, ...] = ()
    edge: bool
    entry: bool
    neighbours: tuple[int, ...]

    @property
    def is_water(self) -> bool:
        return self.terrain in WATER


class Board(_Frozen):
    """A printed map: regions with terrain, symbols, edge/entry flags and adjacency."""

    id: str
    players: int = Field(ge=2, le=5)
    rounds: int = Field(ge=1, le=20)
    regions: tuple[Region, ...]
    grid: tuple[tuple[int | None, ...], ...] | None = None

    @model_validator(mode="after")
    def _check_graph(self) -> Board:
        ids = [r.id for r in self.regions]
        if ids != list(range(len(ids))):
            raise ValueError("region ids must be 0..n-1 in order")
        for r in self.regions:
            for n in r.neighbours:
                if n == r.id or n not in range(len(ids)):
                    raise ValueError(f"region {r.id}: bad neighbour {n}")
                if r.id not in self.regions[n].neighbours:
                    raise ValueError(f"adjacency {r.id}-{n} is not symmetric")
        return self


class RaceData(_Frozen):
    tokens: int = Field(ge=1)
    box: int = Field(ge=1)

    @model_validator(mode="after")
    def _fits(self) -> RaceData:
        if self.tokens > self.box:
            raise ValueError("banner value exceeds the tokens in the box")
        return self


class PowerData(_Frozen):
    tokens: int = Field(ge=0, le=5)


class Components(_Frozen):
    pieces: dict[str, int]
    lost_tribes: int
    die: tuple[int, ...]
    start_coins: int
    visible_combos: int

    @field_validator("pieces")
    @classmethod
    def _known_pieces(cls, v: dict[str, int]) -> dict[str, int]:
        if set(v) != set(PIECES):
            raise ValueError(f"pieces must be exactly {PIECES}")
        return v


def _read(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA_DIR / name).read_text(encoding="utf-8"))
    data.pop("_doc", None)
    return data


@cache
def races() -> dict[str, RaceData]:
    raw = _read("races.json")
    if set(raw) != set(RACES):
        raise ValueError(f"races.json must list exactly the 14 races, got {sorted(raw)}")
    return {name: RaceData.model_validate(v) for name, v in raw.items()}


@cache
def powers() -> dict[str, PowerData]:
    raw = _read("powers.json")
    if set(raw) != set(POWERS):
        raise ValueError(f"powers.json must list exactly the 20 powers, got {sorted(raw)}")
    return {name: PowerData.model_validate(v) for name, v in raw.items()}


@cache
def components() -> Components:
    return Components.model_validate(_read("components.json"))


BOARD_IDS: tuple[str, ...] = ("official-2p", "official-3p", "official-4p", "official-5p")


@cache
def board(board_id: str) -> Board:
    """Load a board by id ("official-3p") from data/boards/."""
    if board_id not in BOARD_IDS:
        raise KeyError(f"unknown board {board_id!r}; choose one of {', '.join(BOARD_IDS)}")
    return Board.model_validate(_read(f"boards/{board_id}.json"))


def board_from_reference(spec: dict[str, Any]) -> Board:
    """Build a Board from a map in the reference/maps format (a scenario's inline "map")."""
    regions = [
        {
            "id": r["id"],
            "terrain": r["terrain"],
            "symbols": sorted(r.get("features", r.get("symbols", []))),
            "edge": r.get("border", r.get("edge", False)),
            "entry": r["entry"],
            "neighbours": sorted(r["neighbours"]),
        }
        for r in sorted(spec["regions"], key=lambda r: r["id"])
    ]
    return Board.model_validate(
        {
            "id": spec.get("board", spec.get("id", "custom")),
            "players": spec.get("players", 2),
            "rounds": spec.get("turns", spec.get("rounds", 10)),
            "regions": regions,
            "grid": spec.get("grid"),
        }
    )
