"""The board as one viewer may see it (docs/web.md "The snapshot"): pure, from a game row,
its engine state and what the service already worked out.

Built in two parts. `Public` is what every viewer of a version sees (the public observation,
seats, the row); it is made once per version and shared by every open board. `for_viewer`
adds what is hers alone: her own coins, and, when she must act, her moves. Nothing here ever
reads another seat's coins before the end: the public part comes from the public
observation, and `for_viewer` takes coins from the observation of her own seat.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import engine
from bot.game.panel import Target, combos
from bot.language import of_game
from bot.seats import auto_level
from bot.store import GameRow, GameStatus
from render.theme import player_colour

Act = dict[str, Any]
BOLD = re.compile(r"\*\*|__|~~|`")
MENTION = re.compile(r"<@!?(\d+)>")


def hex_colour(seat: int) -> str:
    r, g, b = player_colour(seat)
    return f"#{r:02x}{g:02x}{b:02x}"


@dataclass(frozen=True, slots=True)
class Public:
    """What every viewer of one game version sees (shared by all its open boards)."""

    game: GameRow
    version: int
    body: dict[str, Any]  # the snapshot less "me", "moves" and "lines"
    finished: bool


def dumps(message: Mapping[str, Any]) -> str:
    """A message as one compact JSON text frame."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def public(game: GameRow, state: engine.GameState | None, *, deadline: float | None,
           changed: Sequence[int] = (), hints: bool = False, names: Mapping[int, str] = {}
           ) -> Public:
    """The shared part of a game's snapshot at its current version. `names`: display names
    of the seated members (by user id), where the service knows them."""
    head = {"id": game.id, "channel": str(game.channel_id), "board": game.board,
            "status": game.status.value, "lang": of_game(game), "hints": hints}
    if state is None:  # a lobby: who sits down, nothing on the board yet
        seats = [{"name": s.name, "display": names.get(s.user_id, s.name),
                  "colour": hex_colour(i), "ai": s.ai} for i, s in enumerate(game.players)]
        body = {"game": head, "players": seats, "round": 0, "rounds": 0, "current": None,
                "actor": None, "stage": "lobby", "finished": False, "row": [], "regions": {},
                "pending": [], "turn": None, "clock": {"deadline": None}, "changed": [],
                "ranking": None, "story": None}
        return Public(game, game.version, body, False)
    finished = bool(state.finished)
    obs = engine.observe(state, None, reveal_all=finished)
    head["board"] = state.board.id
    counts: dict[str, int] = {}
    for reg in obs["regions"].values():
        owner = reg.get("owner")
        if owner is not None and reg.get("tokens", 0) > 0:
            counts[owner] = counts.get(owner, 0) + 1
    players = []
    for i, (name, p) in enumerate(obs["players"].items()):
        seat = game.seat_named(name)
        entry: dict[str, Any] = {
            "name": name,
            "display": names.get(seat.user_id, name) if seat and seat.user_id else name,
            "colour": hex_colour(i),
            "ai": seat.ai if seat else None,
            "away": bool(seat and (seat.away or seat.vacant)),
            "hand": p.get("hand", 0),
            "regions": counts.get(name, 0),
            "active": p.get("active"),
            "decline": [{k: v for k, v in d.items() if k != "hand"} for d in p["decline"]],
        }
        if finished:  # the reveal: everybody's coins, now public
            entry["coins"] = p.get("coins")
        players.append(entry)
    row = [{"slot": c.slot, "race": c.race, "power": c.power, "tokens": c.tokens,
            "cost": c.cost, "coins_on_combo": c.coins} for c in combos(obs, ())]
    body = {
        "game": head, "round": obs["round"], "rounds": obs["rounds"],
        "current": obs["current"], "actor": obs["actor"], "stage": obs["stage"],
        "finished": finished, "players": players, "row": row, "regions": obs["regions"],
        "pending": obs["pending"], "turn": obs["turn"],
        "clock": {"deadline": deadline}, "changed": sorted(set(changed)),
        "ranking": obs.get("ranking") if finished else None, "story": None,
    }
    return Public(game, game.version, body, finished)


def plain(line: str, names: Mapping[int, str]) -> str:
    """A chat line as page text: no markdown, mentions as names."""
    line = MENTION.sub(lambda m: "@" + names.get(int(m.group(1)), "?"), line)
    return BOLD.sub("", line)


def moves(state: engine.GameState, legal: Sequence[Act], targets: Sequence[Target], *,
          end_asks: bool, undo: bool) -> dict[str, Any]:
    """What the actor can do now, for the page (docs/web.md "moves")."""
    verbs = {a["do"] for a in legal}
    deploy: dict[str, int] = {}
    move: dict[str, dict[str, int]] = {}
    for a in legal:
        if a["do"] == "deploy":
            r = str(a["region"])
            deploy[r] = max(deploy.get(r, 0), int(a["count"]))
        elif a["do"] == "move":
            to = move.setdefault(str(a["from"]), {})
            to[str(a["to"])] = max(to.get(str(a["to"]), 0), int(a["count"]))
    clean = [{k: v for k, v in a.items() if k != "player"} for a in legal]
    obs_hand = 0
    if state.actor is not None:
        seat = next((s for s in state.seats if s.name == state.actor), None)
        if seat is not None and seat.active is not None:
            obs_hand = seat.active.hand + seat.active.survivors
    current = state.players[state.current] if not state.finished else None
    return {
        "pick": "pick" in verbs,
        "targets": [{"region": t.region,
                     "verb": "conquer_decline" if t.verb.endswith("(in decline)") else t.verb,
                     "cost": t.cost, "a": t.action} for t in targets],
        "deploy": deploy,
        "move": move,
        "abandon": sorted(a["region"] for a in clean if a["do"] == "abandon"),
        "place": [{"piece": a["piece"], "region": a["region"], "a": a}
                  for a in clean if a["do"] == "place"],
        "ally": sorted({a["target"] for a in clean if a["do"] == "ally"}),
        "roll": "roll" in verbs, "decline": "decline" in verbs, "end": "end" in verbs,
        "end_asks": end_asks, "undo": undo,
        "defender": current is not None and current != state.actor,
        "hand": obs_hand,
    }


def for_viewer(pub: Public, state: engine.GameState | None, *, user_id: int, name: str,
               lang: str, lines: Sequence[str], my_moves: dict[str, Any] | None
               ) -> dict[str, Any]:
    """The snapshot of `pub` for one member (her coins, and her moves when she acts)."""
    seat = pub.game.seat_of(user_id)
    me: dict[str, Any] = {"id": str(user_id), "name": name, "seat": seat.name if seat else None,
                          "acts": my_moves is not None, "lang": lang}
    if seat is not None and state is not None:  # her own coins: hers alone
        me["coins"] = next(s.coins for s in state.seats if s.name == seat.name)
    return {**pub.body, "me": me, "lines": list(lines), "moves": my_moves}


def viewer_acts(game: GameRow, state: engine.GameState | None, user_id: int) -> bool:
    """`user_id` is the member who must act now (not while the AI plays her seat)."""
    if state is None or state.finished or game.status is not GameStatus.ACTIVE:
        return False
    seat = game.seat_of(user_id)
    return seat is not None and state.actor == seat.name and not auto_level(game, seat.name)
