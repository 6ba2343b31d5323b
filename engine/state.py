"""Game state: plain slotted classes, copied on write. The board is apart from the flow."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import Enum

from . import data
from .abilities import Geo


class Stage(Enum):
    """Which step of the turn the game is in; it decides what is legal."""

    PICK = "pick"  # the current player has no Active race: pick a combo
    CONQUEST = "conquest"  # expand (or decline, at the very start)
    REDEPLOY = "redeploy"  # conquests are over: deploy, move, place, ally, end
    SURVIVORS = "survivors"  # defenders place their surviving tokens
    FINISHED = "finished"


class Hold:
    """A race banner held by a player, Active or In Decline, with its tokens off the board."""

    __slots__ = ("race", "power", "hand", "survivors", "holes_used")

    def __init__(self, race: str, power: str | None, hand: int = 0, survivors: int = 0,
                 holes_used: int = 0) -> None:
        self.race = race
        self.power = power
        self.hand = hand  # usable tokens in hand
        self.survivors = survivors  # defenders waiting to be placed at the end of a turn
        self.holes_used = holes_used

    def copy(self) -> Hold:
        return Hold(self.race, self.power, self.hand, self.survivors, self.holes_used)

    def key(self) -> tuple:
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
        return Seat(
            self.name,
            self.coins,
            self.active.copy() if self.active else None,
            tuple(h.copy() for h in self.declines),
        )

    def key(self) -> tuple:
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
        return Area(self.owner, self.race, self.tokens, self.decline, self.lost_tribe,
                    self.pieces)

    def key(self) -> tuple:
        return (self.owner, self.race, self.tokens, self.decline, self.lost_tribe, self.pieces)

    def clear(self) -> None:
        self.owner, self.race, self.tokens, self.decline = -1, None, 0, False


@dataclass(slots=True)
class Turn:
    """Facts about the current turn that the rules look back at."""

    picked: bool = False  # the combo was picked this turn (first turn with it)
    expanded: bool = False  # an expansion action was taken: no plain decline any more
    ended: bool = False  # conquests are over (die roll, redeployment)
    n_conquests: int = 0  # conquests by the Active race
    n_nonempty: int = 0  # of them, regions that held a Lost Tribe or race tokens
    attacked: frozenset[int] = frozenset()  # seats whose Active race was attacked
    enchanted: frozenset[int] = frozenset()  # seats converted by Sorcerers
    dragon_used: bool = False
    fortress_placed: bool = False
    roll: int | None = None  # Berserk roll waiting for a conquest
    ghouls: int = 0  # In Decline Ghouls: 0 conquering, 1 redeploying, 2 done
    ready: tuple[tuple[int, int], ...] = ()  # (region, tokens) lifted when readying
    ghoul_ready: tuple[tuple[int, int], ...] = ()
    bonus_given: bool = False  # Skeletons' redeployment bonus
    moved_from: frozenset[int] = frozenset()
    moved_to: frozenset[int] = frozenset()
    heroes: tuple[int, ...] = ()  # where the Heroes stood before this turn's first `place hero`
    camps: tuple[int, ...] = ()  # where lifted encampments stood (one entry per encampment)
    lifted: frozenset[str] = frozenset()  # piece kinds picked up to be placed anew this turn
    displaced: tuple[tuple[int, int], ...] = ()  # (seat, encampments) knocked off this turn
    allied: bool = False

    def copy(self) -> Turn:
        t = Turn.__new__(Turn)
        t.picked = self.picked
        t.expanded = self.expanded
        t.ended = self.ended
        t.n_conquests = self.n_conquests
        t.n_nonempty = self.n_nonempty
        t.attacked = self.attacked
        t.enchanted = self.enchanted
        t.dragon_used = self.dragon_used
        t.fortress_placed = self.fortress_placed
        t.roll = self.roll
        t.ghouls = self.ghouls
        t.ready = self.ready
        t.ghoul_ready = self.ghoul_ready
        t.bonus_given = self.bonus_given
        t.moved_from = self.moved_from
        t.moved_to = self.moved_to
        t.heroes = self.heroes
        t.camps = self.camps
        t.lifted = self.lifted
        t.displaced = self.displaced
        t.allied = self.allied
        return t

    def key(self) -> tuple:
        return tuple(getattr(self, f) for f in Turn.__slots__)


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

    def key(self) -> tuple:
        return (self.race, self.power, self.coins)


@dataclass(slots=True, eq=False)
class GameState:
    """A whole game position. Never mutated after `apply` returns it."""

    board: data.Board
    geo: Geo
    players: tuple[str, ...]
    seed: int
    options: dict
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
    ranking: tuple[dict, ...] | None = None
    _own: set | None = field(default=None, repr=False)
    _cache: dict | None = field(default=None, repr=False)  # race -> regions, while unchanged
    _base: dict | None = field(default=None, repr=False)  # the cache this fork started from
    _dirty: dict | None = field(default=None, repr=False)  # region -> race before its write

    # ------------------------------------------------------------ public properties

    @property
    def finished(self) -> bool:
        return self.stage is Stage.FINISHED

    @property
    def actor(self) -> str | None:
        """The player who must act now (None when the game is over)."""
        if self.stage is Stage.FINISHED:
            return None
        if self.stage is Stage.SURVIVORS:
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
        s._own = set()
        return s

    def seal(self) -> GameState:
        """Done writing: the race -> regions cache is carried over from the fork's start,
        updated for the regions that changed hands (cheaper than a full scan)."""
        base, dirty = self._base, self._dirty
        if dirty is not None and base is not None:
            c = dict(base)
            areas = self.areas
            for rid, old in dirty.items():
                new = areas[rid].race
                if new == old:
                    continue
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
        self._cache = None
        own = self._own
        if "areas" not in own:
            self.areas = list(self.areas)
            own.add("areas")
        key = ("a", rid)
        if key not in own:
            old = self.areas[rid]
            if self._dirty is None:
                self._dirty = {}
            self._dirty[rid] = old.race
            self.areas[rid] = old.copy()
            own.add(key)
        return self.areas[rid]

    def seat_w(self, i: int) -> Seat:
        own = self._own
        if "seats" not in own:
            self.seats = list(self.seats)
            own.add("seats")
        key = ("s", i)
        if key not in own:
            self.seats[i] = self.seats[i].copy()
            own.add(key)
        return self.seats[i]

    def turn_w(self) -> Turn:
        if "turn" not in self._own:
            self.turn = self.turn.copy()
            self._own.add("turn")
        return self.turn

    def rng_w(self) -> random.Random:
        if "rng" not in self._own:
            r = random.Random()
            r.setstate(self.rng.getstate())
            self.rng = r
            self._own.add("rng")
        return self.rng

    # ------------------------------------------------------------ equality

    def key(self) -> tuple:
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


def dump_state(s: GameState) -> dict:
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
        "turn": {
            f: (sorted(v) if isinstance(v, frozenset)
                else [list(x) if isinstance(x, tuple) else x for x in v] if isinstance(v, tuple)
                else v)
            for f in Turn.__slots__
            for v in [getattr(s.turn, f)]
        },
        "pending": [[p.seat, p.race, p.tokens, p.camps] for p in s.pending],
        "peace": [list(p) for p in s.peace],
        "version": s.version,
        "ranking": None if s.ranking is None else [dict(r) for r in s.ranking],
    }


def _is_official(board: data.Board) -> bool:
    return board.id in data.BOARD_IDS and data.board(board.id) == board


def load_state(d: dict) -> GameState:
    """Rebuild a state from `dump_state` output."""
    b = d["board"]
    board = data.board(b) if isinstance(b, str) else data.Board.model_validate(b)
    rng = random.Random()
    v, internal, gauss = d["rng"]
    rng.setstate((v, tuple(internal), gauss))
    tdef = Turn()
    turn = Turn()
    for f, v in d["turn"].items():
        default = getattr(tdef, f)
        if isinstance(default, frozenset):
            v = frozenset(v)
        elif isinstance(default, tuple):
            v = tuple(tuple(x) if isinstance(x, list) else x for x in v)
        setattr(turn, f, v)

    def hold(k: list | None) -> Hold | None:
        return None if k is None else Hold(*k)

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
            Seat(x["name"], x["coins"], hold(x["active"]), tuple(hold(h) for h in x["declines"]))
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
