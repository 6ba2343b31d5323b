"""Small read-only questions about a state: whose regions, how many pieces, which hold.

The lowest layer of the turn procedure (checks, turn, rules build on it); nothing here changes
a state except `hold_w`, which makes a seat writable before a hold is changed."""

from __future__ import annotations

from . import data
from . import errors as E
from .ability import race_rule
from .state import GameState, Hold

OPTIONS: dict[str, bool] = {
    "own_decline_counts": True,  # §16 #9: own In Decline tokens add +1 to the cost
    "elf_lost_to_sorcerers": True,  # §16 #6: a converted Elf token is lost
}


IMMUNE_PIECES = ("hole", "hero", "dragon")


DEFENCE_PIECES = ("troll_lair", "fortress", "encampment")


_LIMITS = None


def limits() -> dict[str, int]:
    global _LIMITS
    if _LIMITS is None:
        _LIMITS = dict(data.components().pieces)
    return _LIMITS


def race_regions(s: GameState, race: str) -> tuple[int, ...]:
    """Regions holding tokens of `race` (a banner belongs to one player at a time)."""
    c = s._cache  # valid while no area of this state was written (area_w drops it)
    if c is None:
        if s._own is not None:  # being changed: the fork's starting cache + written regions
            base = s._base
            if base is None:
                return tuple([i for i, a in enumerate(s.areas) if a.race == race])
            got = base.get(race, ())
            dirty = s._dirty
            if dirty:
                areas = s.areas
                now = {r for r in got if r not in dirty}
                now.update(r for r in dirty if areas[r].race == race)
                got = tuple(sorted(now))
            return got
        # one pass finds every race's regions
        found: dict[str, list[int]] = {}
        for i, a in enumerate(s.areas):
            r = a.race
            if r is not None:
                if r in found:
                    found[r].append(i)
                else:
                    found[r] = [i]
        c = s._cache = {r: tuple(v) for r, v in found.items()}
    return c.get(race, ())


def _memo(s: GameState, fact: str) -> dict[str, int] | None:
    """The counts `fact` of a finished state (None while it is being changed: no memo)."""
    if s._own is not None:
        return None
    memo = s._memo
    if memo is None:
        memo = s._memo = {}
    counts = memo.get(fact)
    if counts is None:
        counts = memo[fact] = _PIECES(s) if fact == "pieces" else _USED(s)
    return counts


def _count_pieces(s: GameState) -> dict[str, int]:
    counts: dict[str, int] = {}
    for a in s.areas:
        for p in a.pieces:
            counts[p] = counts.get(p, 0) + 1
    return counts


def _count_used(s: GameState) -> dict[str, int]:
    """Tokens of each race out of the box: on the map, in hand, waiting as survivors."""
    used: dict[str, int] = {}
    for a in s.areas:
        r = a.race
        if r is not None:
            used[r] = used.get(r, 0) + a.tokens
    for seat in s.seats:
        for h in (seat.active, *seat.declines):
            if h is not None:
                used[h.race] = used.get(h.race, 0) + h.hand + h.survivors
    return used


_PIECES, _USED = _count_pieces, _count_used


def n_pieces(s: GameState, piece: str) -> int:
    counts = _memo(s, "pieces")
    if counts is not None:
        return counts.get(piece, 0)
    return sum(a.pieces.count(piece) for a in s.areas if a.pieces)


def in_tray(s: GameState, race: str) -> int:
    """Tokens of `race` still in the box."""
    counts = _memo(s, "used")
    if counts is not None:
        return race_rule(race).box - counts.get(race, 0)
    used = sum(a.tokens for a in s.areas if a.race == race)
    for seat in s.seats:
        for h in (seat.active, *seat.declines):
            if h is not None and h.race == race:
                used += h.hand + h.survivors
    return race_rule(race).box - used


def hold_of(s: GameState, me: int, race: str) -> Hold | None:
    seat = s.seats[me]
    if seat.active is not None and seat.active.race == race:
        return seat.active
    for h in seat.declines:
        if h.race == race:
            return h
    return None


def hold_w(s: GameState, me: int, race: str) -> Hold:
    """The writable hold of `race` in seat `me` (copying the seat first)."""
    s.seat_w(me)
    h = hold_of(s, me, race)
    assert h is not None
    return h


def pieces_without(pieces: tuple[str, ...], drop: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(p for p in pieces if p not in drop)


def pieces_with(pieces: tuple[str, ...], piece: str) -> tuple[str, ...]:
    return tuple(sorted((*pieces, piece)))


def player_name(s: GameState, i: int) -> str:
    return s.players[i]


def check_region(s: GameState, rid: int) -> None:
    if not 0 <= rid < s.geo.n:
        raise E.UnknownRegion.refuse("unknown_region", region=rid, last=s.geo.n - 1)
