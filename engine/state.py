"""Game state: plain slotted classes, copied on write. The board is apart from the flow."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, TypeVar

from . import data
from .geo import Geo


class Stage(Enum):
    """Which step of the turn the game is in; it decides what is legal."""

    PICK = "pick"  # the current player has no Active race: pick a combo
    CONQUEST = "conquest"  # expand (or decline, at the very start)
    REDEPLOY = "redeploy"  # conquests are over: deploy, move, place, ally, end
    SURVIVORS = "survivors"  # defenders place their surviving tokens
    FINISHED = "finished"


# the stages as plain module constants: reading an Enum member through its class costs a
# descriptor call (~140 ns on Python 3.11), and the rules compare stages on every action
PICK, CONQUEST, REDEPLOY, SURVIVORS, FINISHED = (
    Stage.PICK, Stage.CONQUEST, Stage.REDEPLOY, Stage.SURVIVORS, Stage.FINISHED)


_new = object.__new__


class Hold:
    """A race banner held by a player, Active or In Decline, with its tokens off the board."""

    __slots__ = ("race", "power", "hand", "survivors", "holes_used", "kit")

    def __init__(self, race: str, power: str | None, hand: int = 0, survivors: int = 0,
                 holes_used: int = 0) -> None:
        self.race = race
        self.power = power
        self.hand = hand  # usable tokens in hand
        self.survivors = survivors  # defenders waiting to be placed at the end of a turn
        self.holes_used = holes_used
        # the rules of its race and power (engine/ability.py kit_of: a Kit), found on first
        # use: not part of the state (race and power never change), so copies share it.
        # Typed `Any` here: the rules build on this module, not this module on them
        self.kit: Any = None

    def copy(self) -> Hold:
        h = _new(Hold)  # without __init__: a copy is made on every write, and this is faster
        h.race = self.race
        h.power = self.power
        h.hand = self.hand
        h.survivors = self.survivors
        h.holes_used = self.holes_used
        h.kit = self.kit
        return h

    def key(self) -> tuple[Any, ...]:
        return (self.race, self.power, self.hand, self.survivors, self.holes_used)


class Seat:
    """One player: hidden coins, the Active race and the In Decline races."""

    __slots__ = ("name", "coins", "active", "declines")

    def __init__(self, name: str, coins: int, active: Hold | None = None,
                 declines: tuple[Hold, ...] = ()) -> None:
        self.name = name
        self.coins = coins
        self.active = active
        self.declines = declines

    def copy(self) -> Seat:
        s = _new(Seat)
        s.name = self.name
        s.coins = self.coins
        active, declines = self.active, self.declines
        s.active = active.copy() if active is not None else None
        s.declines = tuple([h.copy() for h in declines]) if declines else ()
        return s

    def key(self) -> tuple[Any, ...]:
        return (self.name, self.coins, self.active.key() if self.active else None,
                tuple(h.key() for h in self.declines))


class Area:
    """What stands in one region: a race's tokens or a Lost Tribe, and pieces."""

    __slots__ = ("owner", "race", "tokens", "decline", "lost_tribe", "pieces")

    def __init__(self, owner: int = -1, race: str | None = None, tokens: int = 0,
                 decline: bool = False, lost_tribe: bool = False,
                 pieces: tuple[str, ...] = ()) -> None:
        self.owner = owner
        self.race = race
        self.tokens = tokens
        self.decline = decline
        self.lost_tribe = lost_tribe
        self.pieces = pieces  # sorted names; "encampment" once per encampment

    def copy(self) -> Area:
        a = _new(Area)
        a.owner = self.owner
        a.race = self.race
        a.tokens = self.tokens
        a.decline = self.decline
        a.lost_tribe = self.lost_tribe
        a.pieces = self.pieces
        return a

    def key(self) -> tuple[Any, ...]:
        return (self.owner, self.race, self.tokens, self.decline, self.lost_tribe, self.pieces)

    def clear(self) -> None:
        self.owner, self.race, self.tokens, self.decline = -1, None, 0, False


T = TypeVar("T")


def _same(v: Any) -> Any:
    return v


class Part(Generic[T]):
    """One ability's fact about the current turn, kept on the `Turn` by the ability that owns
    it (the Berserk roll, the Dragon used, ...). `name` is also its key in `dump_state`;
    `dump`/`load` turn the value into JSON data and back. Values are immutable: a change
    puts a new value (the turn is copied on write)."""

    __slots__ = ("name", "default", "dump", "load")

    def __init__(self, name: str, default: T, dump: Callable[[T], Any] = _same,
                 load: Callable[[Any], T] = _same) -> None:
        if name in PARTS or name in Turn.__slots__:
            raise ValueError(f"a turn part named {name!r} exists already")
        self.name: str = name
        self.default = default
        self.dump = dump
        self.load = load
        PARTS[name] = self


PARTS: dict[str, Part[Any]] = {}


def dump_set(v: frozenset[Any]) -> list[Any]:
    return sorted(v)


def load_set(v: list[Any]) -> frozenset[Any]:
    return frozenset(v)


def dump_pairs(v: tuple[tuple[int, int], ...]) -> list[list[int]]:
    return [list(x) for x in v]


def load_pairs(v: list[list[int]]) -> tuple[tuple[int, int], ...]:
    return tuple((int(a), int(b)) for a, b in v)


def dump_ints(v: tuple[int, ...]) -> list[int]:
    return list(v)


def load_ints(v: list[int]) -> tuple[int, ...]:
    return tuple(v)


_NONE: frozenset[int] = frozenset()


class Turn:
    """Facts about the current turn that the rules look back at. The ones that belong to a
    single race or power are its `Part`s, in `parts` (absent: the part's default)."""

    __slots__ = ("picked", "expanded", "ended", "n_conquests", "n_nonempty", "attacked",
                 "ready", "moved_from", "moved_to", "parts")

    def __init__(self) -> None:
        self.picked = False  # the combo was picked this turn (first turn with it)
        self.expanded = False  # an expansion action was taken: no plain decline any more
        self.ended = False  # conquests are over (redeployment)
        self.n_conquests = 0  # conquests by the Active race
        self.n_nonempty = 0  # of them, regions that held a Lost Tribe or race tokens
        self.attacked: frozenset[int] = _NONE  # seats whose Active race was attacked
        self.ready: tuple[tuple[int, int], ...] = ()  # (region, tokens) lifted when readying
        # regions that gave and took tokens by a move this turn (facts only: moves are free)
        self.moved_from: frozenset[int] = _NONE
        self.moved_to: frozenset[int] = _NONE
        self.parts: dict[str, Any] = {}

    def copy(self) -> Turn:
        t = Turn.__new__(Turn)
        t.picked = self.picked
        t.expanded = self.expanded
        t.ended = self.ended
        t.n_conquests = self.n_conquests
        t.n_nonempty = self.n_nonempty
        t.attacked = self.attacked
        t.ready = self.ready
        t.moved_from = self.moved_from
        t.moved_to = self.moved_to
        t.parts = self.parts.copy()
        return t

    def get(self, part: Part[T]) -> T:
        value: T = self.parts.get(part.name, part.default)
        return value

    def put(self, part: Part[T], value: T) -> None:
        """Only on a writable turn (`GameState.turn_w()`)."""
        self.parts[part.name] = value

    def key(self) -> tuple[Any, ...]:
        own = tuple(getattr(self, f) for f in Turn.__slots__[:-1])
        return own + tuple((name, self.get(p)) for name, p in sorted(PARTS.items()))


@dataclass(frozen=True, slots=True)
class Pending:
    """A player who must act at the end of someone else's turn."""

    seat: int
    race: str | None  # survivors' race, or None for encampments only
    tokens: int = 0
    camps: int = 0


@dataclass(slots=True)
class Combo:
    """One visible combo of the row, with the coins lying on it."""

    race: str
    power: str
    coins: int = 0

    def key(self) -> tuple[Any, ...]:
        return (self.race, self.power, self.coins)


@dataclass(slots=True, eq=False)
class GameState:
    """A whole game position. Never mutated after `apply` returns it."""

    board: data.Board
    geo: Geo
    players: tuple[str, ...]
    seed: int
    options: dict[str, bool]
    rng: random.Random
    dice: tuple[int, ...]
    round: int
    current: int
    stage: Stage
    row: tuple[Combo, ...]
    banners: tuple[str, ...]
    badges: tuple[str, ...]
    discards: tuple[str, ...]
    seats: list[Seat]
    areas: list[Area]
    turn: Turn
    pending: tuple[Pending, ...] = ()
    peace: tuple[tuple[int, int], ...] = ()  # (diplomat seat, ally seat)
    version: int = 0
    ranking: tuple[dict[str, Any], ...] | None = None
    _own: set[str | int] | None = field(default=None, repr=False)  # what this fork copied
    _cache: dict[str, tuple[int, ...]] | None = field(default=None, repr=False)  # race -> regions, while unchanged
    _base: dict[str, tuple[int, ...]] | None = field(default=None, repr=False)  # the cache this fork started from
    _dirty: dict[int, str | None] | None = field(default=None, repr=False)  # region -> race before its write
    # facts counted once on a finished state (engine/queries.py: pieces on the map, tokens
    # of each race in use); a fork starts without them
    _memo: dict[str, dict[str, int]] | None = field(default=None, repr=False)

    # ------------------------------------------------------------ public properties

    @property
    def finished(self) -> bool:
        return self.stage is FINISHED

    @property
    def actor(self) -> str | None:
        """The player who must act now (None when the game is over)."""
        if self.stage is FINISHED:
            return None
        if self.stage is SURVIVORS:
            return self.players[self.pending[0].seat]
        return self.players[self.current]

    @property
    def winners(self) -> tuple[str, ...]:
        if not self.ranking:
            return ()
        return tuple(r["player"] for r in self.ranking if r["rank"] == 1)

    # ------------------------------------------------------------ copy on write

    def fork(self) -> GameState:
        """A shallow copy whose parts are copied the first time they are written."""
        s = GameState.__new__(GameState)
        s.board = self.board
        s.geo = self.geo
        s.players = self.players
        s.seed = self.seed
        s.options = self.options
        s.rng = self.rng
        s.dice = self.dice
        s.round = self.round
        s.current = self.current
        s.stage = self.stage
        s.row = self.row
        s.banners = self.banners
        s.badges = self.badges
        s.discards = self.discards
        s.seats = self.seats
        s.areas = self.areas
        s.turn = self.turn
        s.pending = self.pending
        s.peace = self.peace
        s.version = self.version
        s.ranking = self.ranking
        s._cache = s._base = self._cache
        s._dirty = None
        s._memo = None
        s._own = set()
        return s

    def seal(self) -> GameState:
        """Done writing: the race -> regions cache is carried over from the fork's start,
        updated for the regions that changed hands (cheaper than a full scan)."""
        base, dirty = self._base, self._dirty
        if dirty is not None and base is not None:
            areas = self.areas
            c = base
            for rid, old in dirty.items():
                new = areas[rid].race
                if new == old:
                    continue
                if c is base:
                    c = base.copy()
                if old is not None:
                    left = tuple([x for x in c[old] if x != rid])
                    if left:
                        c[old] = left
                    else:
                        del c[old]
                if new is not None:
                    c[new] = tuple(sorted((*c.get(new, ()), rid)))
            self._cache = c
        self._base = self._dirty = None
        self._own = None
        return self

    def area_w(self, rid: int) -> Area:
        """Region `rid`, writable (copied on the fork's first write to it)."""
        dirty = self._dirty
        if dirty is None:  # the fork's first area write: its own list, no cache any more
            self._cache = None
            self.areas = list(self.areas)
            dirty = self._dirty = {}
        elif rid in dirty:
            return self.areas[rid]
        a = self.areas[rid]
        dirty[rid] = a.race  # the race before the write, for seal()
        a = self.areas[rid] = a.copy()
        return a

    def seat_w(self, i: int) -> Seat:
        """Seat `i`, writable (copied on the fork's first write to it)."""
        own = self._own
        assert own is not None
        if i in own:  # seats are owned by index; the other keys are names
            return self.seats[i]
        if "seats" not in own:
            self.seats = list(self.seats)
            own.add("seats")
        seat = self.seats[i] = self.seats[i].copy()
        own.add(i)
        return seat

    def own_turn(self) -> None:
        """A fresh `Turn` was just put in: it is this fork's to write."""
        assert self._own is not None
        self._own.add("turn")

    def turn_w(self) -> Turn:
        own = self._own
        assert own is not None
        if "turn" not in own:
            self.turn = self.turn.copy()
            own.add("turn")
        return self.turn

    def rng_w(self) -> random.Random:
        own = self._own
        assert own is not None
        if "rng" not in own:
            r = random.Random()
            r.setstate(self.rng.getstate())
            self.rng = r
            own.add("rng")
        return self.rng

    # ------------------------------------------------------------ equality

    def key(self) -> tuple[Any, ...]:
        return (
            self.board, self.players, self.seed, tuple(sorted(self.options.items())),
            self.rng.getstate(), self.dice, self.round, self.current, self.stage,
            tuple(c.key() for c in self.row), self.banners, self.badges, self.discards,
            tuple(s.key() for s in self.seats), tuple(a.key() for a in self.areas),
            self.turn.key(), self.pending, self.peace, self.version,
            None if self.ranking is None else tuple(tuple(sorted(r.items())) for r in self.ranking),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self is other or self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]


# ---------------------------------------------------------------- dump / load


def dump_state(s: GameState) -> dict[str, Any]:
    """The whole state as JSON-able data (coins and stack order included)."""
    version, internal, gauss = s.rng.getstate()
    board = s.board.id if _is_official(s.board) else s.board.model_dump(mode="json")
    return {
        "format": "smallworld-state/1",
        "board": board,
        "players": list(s.players),
        "seed": s.seed,
        "options": dict(s.options),
        "rng": [version, list(internal), gauss],
        "dice": list(s.dice),
        "round": s.round,
        "current": s.current,
        "stage": s.stage.value,
        "row": [[c.race, c.power, c.coins] for c in s.row],
        "banners": list(s.banners),
        "badges": list(s.badges),
        "discards": list(s.discards),
        "seats": [
            {
                "name": st.name,
                "coins": st.coins,
                "active": list(st.active.key()) if st.active else None,
                "declines": [list(h.key()) for h in st.declines],
            }
            for st in s.seats
        ],
        "areas": [list(a.key()[:5]) + [list(a.pieces)] for a in s.areas],
        "turn": _dump_turn(s.turn),
        "pending": [[p.seat, p.race, p.tokens, p.camps] for p in s.pending],
        "peace": [list(p) for p in s.peace],
        "version": s.version,
        "ranking": None if s.ranking is None else [dict(r) for r in s.ranking],
    }


def _dump_turn(t: Turn) -> dict[str, Any]:
    out: dict[str, Any] = {
        "picked": t.picked, "expanded": t.expanded, "ended": t.ended,
        "n_conquests": t.n_conquests, "n_nonempty": t.n_nonempty,
        "attacked": sorted(t.attacked), "ready": dump_pairs(t.ready),
        "moved_from": sorted(t.moved_from), "moved_to": sorted(t.moved_to),
        # the Skeletons' bonus is handed out exactly when the conquests end; the key stays
        # for the snapshots stored before it was dropped from the turn
        "bonus_given": t.ended,
    }
    for name, part in PARTS.items():
        out[name] = part.dump(t.get(part))
    return out


def _load_turn(d: dict[str, Any]) -> Turn:
    t = Turn()
    t.picked, t.expanded, t.ended = bool(d["picked"]), bool(d["expanded"]), bool(d["ended"])
    t.n_conquests, t.n_nonempty = int(d["n_conquests"]), int(d["n_nonempty"])
    t.attacked = frozenset(d["attacked"])
    t.ready = load_pairs(d["ready"])
    t.moved_from, t.moved_to = frozenset(d["moved_from"]), frozenset(d["moved_to"])
    for name, v in d.items():
        part = PARTS.get(name)
        if part is not None:
            value = part.load(v)
            if value != part.default:
                t.parts[name] = value
        elif name not in _TURN_KEYS:
            raise ValueError(f"unknown turn fact {name!r} in a dumped state")
    return t


_TURN_KEYS = frozenset({*Turn.__slots__, "bonus_given"})


def _is_official(board: data.Board) -> bool:
    return board.id in data.BOARD_IDS and data.board(board.id) == board


def load_state(d: dict[str, Any]) -> GameState:
    """Rebuild a state from `dump_state` output."""
    b = d["board"]
    board = data.board(b) if isinstance(b, str) else data.Board.model_validate(b)
    rng = random.Random()
    v, internal, gauss = d["rng"]
    rng.setstate((v, tuple(internal), gauss))
    turn = _load_turn(d["turn"])

    def hold(k: list[Any] | None) -> Hold | None:
        return None if k is None else Hold(*k)

    def decline(k: list[Any]) -> Hold:
        return Hold(*k)

    return GameState(
        board=board,
        geo=geo_of(board),
        players=tuple(d["players"]),
        seed=d["seed"],
        options=dict(d["options"]),
        rng=rng,
        dice=tuple(d["dice"]),
        round=d["round"],
        current=d["current"],
        stage=Stage(d["stage"]),
        row=tuple(Combo(*c) for c in d["row"]),
        banners=tuple(d["banners"]),
        badges=tuple(d["badges"]),
        discards=tuple(d["discards"]),
        seats=[
            Seat(x["name"], x["coins"], hold(x["active"]), tuple(decline(h) for h in x["declines"]))
            for x in d["seats"]
        ],
        areas=[Area(a[0], a[1], a[2], a[3], a[4], tuple(a[5])) for a in d["areas"]],
        turn=turn,
        pending=tuple(Pending(*p) for p in d["pending"]),
        peace=tuple(tuple(p) for p in d["peace"]),
        version=d["version"],
        ranking=None if d["ranking"] is None else tuple(dict(r) for r in d["ranking"]),
    )


_GEO: dict[int, tuple[data.Board, Geo]] = {}


def geo_of(board: data.Board) -> Geo:
    """The precomputed facts of a board (cached per board object)."""
    hit = _GEO.get(id(board))
    if hit is not None and hit[0] is board:
        return hit[1]
    g = Geo.of(board)
    _GEO[id(board)] = (board, g)
    return g
