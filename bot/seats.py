"""Seats and boards: the small pure rules of who sits where, shared by the game service, the
league and the database tools.

Nothing here reads the store or talks to Discord: names for seats, the board for a player
count, the state a game starts from, who plays a seat now, who left one.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from typing import Any

import engine
import i18n
from bot.store.rows import GameRow, Seat

MIN_PLAYERS = 2
MAX_PLAYERS = 5
NAME_LIMIT = 24
AI_LEVELS = ("easy", "normal", "hard", "expert")
TIMEOUT_LEVEL = "normal"  # the AI that plays a timed-out turn or an away seat


def ai_level(level: str) -> i18n.Msg | str:
    """An AI level ("easy", ...) as a placeholder value worded in the message's language."""
    return i18n.Msg(f"svc.ai_level.{level}") if level in AI_LEVELS else level


def engine_name(display_name: str, taken: Iterable[str]) -> str:
    """A short unique seat name from a display name (engine events use it)."""
    name = re.sub(r"\s+", " ", display_name).strip()
    name = "".join(ch for ch in name if ch.isprintable() and ch not in "`*_~|<>@#:\\")
    name = name[:NAME_LIMIT].strip() or "player"
    taken_set = {t.casefold() for t in taken}
    candidate, n = name, 2
    while candidate.casefold() in taken_set:
        suffix = f" {n}"
        candidate = name[: NAME_LIMIT - len(suffix)] + suffix
        n += 1
    return candidate


def board_for(n_players: int) -> str:
    return f"official-{n_players}p"


def new_state(game: GameRow) -> engine.GameState:
    """The state a started game began in (its seats in play order, its seed and options)."""
    board = game.board or board_for(len(game.players))
    return engine.new_game(board, [s.name for s in game.players], game.seed,
                           game.opts.engine or None)


def start_state(game: GameRow, snapshot0: dict[str, Any] | None) -> engine.GameState:
    """The state a game's log starts from: its snapshot at action 0 if stored, else as new."""
    return engine.load_state(snapshot0) if snapshot0 is not None else new_state(game)


def user_of(game: GameRow, name: str | None) -> int | None:
    """The member playing the seat called `name` (None: an AI, a vacant seat, nobody)."""
    if name is None:
        return None
    seat = game.seat_named(name)
    return seat.user_id if seat and seat.user_id else None


def auto_level(game: GameRow, name: str | None, *, now: float | None = None,
               placing: bool = False) -> str | None:
    """The AI level that plays this seat now: an AI seat's own; `normal` for a member's seat
    the AI keeps (after repeated timeouts, or by the table's vote), for a member on vacation
    in a game where the AI plays an away member's turns (its `vacation` option "ai"), and
    for an away member's survivors (`placing`: they cannot wait for her); else None (a
    person plays it)."""
    seat = game.seat_named(name) if name else None
    if seat is None:
        return None
    if seat.ai:
        return seat.ai
    if seat.away:
        return TIMEOUT_LEVEL
    if seat.until is not None and seat.away_at(time.time() if now is None else now) and (
            placing or game.opts.vacation == "ai"):
        return TIMEOUT_LEVEL
    return None


def actor_level(game: GameRow, state: Any, now: float | None = None) -> str | None:
    """The AI level playing the seat that must act in `state` now (None: a person, or
    nobody: the game is over)."""
    if state is None or state.finished or not state.actor:
        return None
    return auto_level(game, state.actor, now=now,
                      placing=state.actor != state.players[state.current])


def vacant_seats(game: GameRow) -> frozenset[str]:
    """Names of the seats whose member was removed without a replacement."""
    return frozenset(s.name for s in game.players if s.vacant)


def left_seat(seat: Seat) -> tuple[int, ...]:
    """The members who left `seat` mid-game once its member leaves it too (kicked or quit),
    so results can rank them last (bot.league)."""
    if seat.user_id > 0 and seat.user_id not in seat.left:
        return (*seat.left, seat.user_id)
    return seat.left
