"""What players see: observations (coins only to their owner) and public events."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, NotRequired, TypedDict

from .events import Event, is_private
from .powers import DRAGON_USED, ROLL
from .queries import race_regions
from .state import FINISHED, GameState


class ActiveRace(TypedDict):
    race: str
    power: str | None
    tokens_on_board: int


class DeclineRace(ActiveRace):
    hand: int


class PlayerView(TypedDict):
    coins: NotRequired[int]  # only in the viewer's own entry (all of them with reveal_all)
    hand: int
    active: ActiveRace | None
    decline: list[DeclineRace]


class RegionView(TypedDict, total=False):
    owner: str | None
    race: str | None
    tokens: int
    decline: bool
    lost_tribe: bool
    pieces: list[str]


class ComboView(TypedDict):
    race: str
    power: str
    # coins lying on the combo: public, and named apart from the players' secret totals
    # ("coins"), so that no public view holds a "coins" key
    coins_on_combo: int
    cost: int  # coins to pay for it: its position in the row


class PendingView(TypedDict, total=False):
    player: str
    must: str  # "deploy" (survivors) or "place" (encampments)
    tokens: int
    race: str
    regions: list[int]
    piece: str
    count: int


class TurnView(TypedDict):
    conquests: int
    conquests_over: bool
    roll: int | None
    picked: bool
    dragon_used: bool


class Observation(TypedDict):
    """What one viewer sees (DESIGN.md "Observation"); each public number has one name."""

    board: str
    version: int
    round: int
    rounds: int
    current: str
    actor: str | None
    stage: str
    finished: bool
    row: list[ComboView]
    stacks: dict[str, int]
    players: dict[str, PlayerView]
    regions: dict[str, RegionView]
    pending: list[PendingView]
    peace: list[dict[str, str]]
    turn: TurnView
    winners: list[str] | None  # set when the game is over (several: a shared victory)
    ranking: list[dict[str, Any]] | None


def observe(s: GameState, viewer: str | None = None, *, reveal_all: bool = False) -> Observation:
    """The observation of DESIGN.md; `viewer=None` is the public view with no coin totals."""
    board_tokens: dict[str, int] = {}
    for a in s.areas:
        if a.race is not None:
            board_tokens[a.race] = board_tokens.get(a.race, 0) + a.tokens
    players: dict[str, PlayerView] = {}
    for seat in s.seats:
        h = seat.active
        d: PlayerView = {
            "hand": (h.hand + h.survivors) if h else 0,
            "active": None if h is None else {
                "race": h.race, "power": h.power,
                "tokens_on_board": board_tokens.get(h.race, 0)},
            "decline": [
                {"race": x.race, "power": x.power,
                 "tokens_on_board": board_tokens.get(x.race, 0), "hand": x.hand + x.survivors}
                for x in seat.declines
            ],
        }
        if reveal_all or seat.name == viewer:
            d = {"coins": seat.coins, **d}
        players[seat.name] = d
    regions: dict[str, RegionView] = {}
    for i, a in enumerate(s.areas):
        if a.lost_tribe:
            r: RegionView = {"lost_tribe": True}
            if a.pieces:
                r["pieces"] = list(a.pieces)
            regions[str(i)] = r
        elif a.race is not None:
            regions[str(i)] = {"owner": s.players[a.owner], "race": a.race, "tokens": a.tokens,
                               "decline": a.decline, "pieces": list(a.pieces)}
        elif a.pieces:
            regions[str(i)] = {"owner": None, "race": None, "tokens": 0, "decline": False,
                               "pieces": list(a.pieces)}
    row: list[ComboView] = [{"race": c.race, "power": c.power, "coins_on_combo": c.coins,
                             "cost": i} for i, c in enumerate(s.row)]
    pending: list[PendingView] = []
    for p in s.pending:
        name = s.players[p.seat]
        if p.race is not None:
            pending.append({"player": name, "must": "deploy", "tokens": p.tokens,
                            "race": p.race, "regions": list(race_regions(s, p.race))})
        if p.camps:
            pending.append({"player": name, "must": "place", "piece": "encampment",
                            "count": p.camps})
    t = s.turn
    finished = s.stage is FINISHED
    return {
        "board": s.board.id,
        "version": s.version,
        "round": s.round,
        "rounds": s.board.rounds,
        "current": s.players[s.current],
        "actor": s.actor,
        "stage": s.stage.value,
        "finished": finished,
        "row": row,
        "stacks": {"races": len(s.banners), "powers": len(s.badges),
                   "discarded_powers": len(s.discards)},
        "players": players,
        "regions": regions,
        "pending": pending,
        "peace": [{"player": s.players[d], "ally": s.players[a]} for d, a in s.peace],
        "turn": {"conquests": t.n_conquests, "conquests_over": t.ended, "roll": t.get(ROLL),
                 "picked": t.picked, "dragon_used": t.get(DRAGON_USED)},
        "winners": list(s.winners) if finished else None,
        "ranking": [dict(r) for r in s.ranking] if s.ranking else None,
    }


def public_events(events: Sequence[dict[str, Any] | Event]) -> list[dict[str, Any] | Event]:
    """Events safe for everyone: private kinds (engine.events) keep only type and player.
    Works on stored dicts and on the engine's events alike (each is passed on as it came)."""
    out: list[dict[str, Any] | Event] = []
    for e in events:
        if is_private(e):
            out.append({"type": e["type"], "player": e.get("player")})
        else:
            out.append(e)
    return out


def sample_hidden(s: GameState, viewer: str, rng: random.Random,
                  coins: Callable[[int], int] | None = None) -> GameState:
    """A copy of `s` for look-ahead by `viewer`: what that seat cannot see is redrawn.

    Other players' coins become `coins(seat)` (0 without it), the undrawn banners and
    badges are reshuffled, the engine's random generator is reseeded and forced dice are
    dropped, all from `rng`; the rest (board, row, hands, turn) is shared copy-on-write, so
    the copy is cheap and `apply` on it never touches `s`.
    """
    me = s.players.index(viewer)
    v = s.fork()
    for i in range(len(s.seats)):
        if i != me:
            v.seat_w(i).coins = coins(i) if coins is not None else 0
    banners, badges = sorted(s.banners), sorted(s.badges)
    rng.shuffle(banners)
    rng.shuffle(badges)
    v.banners, v.badges = tuple(banners), tuple(badges)
    v.discards = tuple(sorted(s.discards))
    v.dice = ()
    v.rng = random.Random(rng.getrandbits(64))
    return v.seal()
