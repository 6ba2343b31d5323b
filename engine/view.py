"""What players see: observations (coins only to their owner) and public events."""

from __future__ import annotations

import random
from collections.abc import Callable

from .events import is_private
from .queries import race_regions
from .state import GameState, Stage


def observe(s: GameState, viewer: str | None = None, *, reveal_all: bool = False) -> dict:
    """The observation of DESIGN.md; `viewer=None` is the public view with no coin totals."""
    public = viewer is None and not reveal_all

    def show_coins(name: str) -> bool:
        return reveal_all or name == viewer

    board_tokens: dict[str, int] = {}
    for a in s.areas:
        if a.race is not None:
            board_tokens[a.race] = board_tokens.get(a.race, 0) + a.tokens
    players = {}
    for seat in s.seats:
        d: dict = {}
        if show_coins(seat.name):
            d["coins"] = seat.coins
        h = seat.active
        d["hand"] = (h.hand + h.survivors) if h else 0
        d["active"] = None if h is None else {
            "race": h.race, "power": h.power, "tokens_on_board": board_tokens.get(h.race, 0)}
        d["decline"] = [
            {"race": x.race, "power": x.power, "tokens_on_board": board_tokens.get(x.race, 0),
             "hand": x.hand + x.survivors}
            for x in seat.declines
        ]
        players[seat.name] = d
    regions = {}
    for i, a in enumerate(s.areas):
        if a.lost_tribe:
            r = {"lost_tribe": True}
            if a.pieces:
                r["pieces"] = list(a.pieces)
            regions[str(i)] = r
        elif a.race is not None:
            regions[str(i)] = {"owner": s.players[a.owner], "race": a.race, "tokens": a.tokens,
                               "decline": a.decline, "pieces": list(a.pieces)}
        elif a.pieces:
            regions[str(i)] = {"owner": None, "race": None, "tokens": 0, "decline": False,
                               "pieces": list(a.pieces)}
    row = []
    for i, c in enumerate(s.row):
        d = {"race": c.race, "power": c.power}
        if not public:
            d["coins"] = c.coins
        d["coins_on_combo"] = c.coins
        d["cost"] = i
        row.append(d)
    pending = []
    for p in s.pending:
        name = s.players[p.seat]
        if p.race is not None:
            pending.append({"player": name, "must": "deploy", "tokens": p.tokens,
                            "race": p.race, "regions": list(race_regions(s, p.race))})
        if p.camps:
            pending.append({"player": name, "must": "place", "piece": "encampment",
                            "count": p.camps})
    t = s.turn
    finished = s.stage is Stage.FINISHED
    winners = list(s.winners)
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
        "turn": {"conquests": t.n_conquests, "conquests_over": t.ended, "roll": t.roll,
                 "picked": t.picked, "dragon_used": t.dragon_used},
        "winner": None if not winners else (winners[0] if len(winners) == 1 else winners),
        "winners": winners if finished else None,
        "ranking": [dict(r) for r in s.ranking] if s.ranking else None,
    }


def public_events(events: list[dict]) -> list[dict]:
    """Events safe for everyone: private kinds (engine.events) keep only type and player."""
    out = []
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
