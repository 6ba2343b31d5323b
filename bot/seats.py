"""Seats and boards: how many players a game seats, a seat's short unique name, the AI levels,
the board for a player count, and a game's starting state.

Pure (the engine and the catalogs only): the game service, the league and the database tools
all use these, so they live below all of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import engine
import i18n

if TYPE_CHECKING:  # the row type only: importing the store would load its drivers
    from bot.store.rows import GameRow

MIN_PLAYERS = 2
MAX_PLAYERS = 5
NAME_LIMIT = 24
AI_LEVELS = ("easy", "normal", "hard")
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


def new_state(game: GameRow) -> Any:
    """The engine state a started game begins from: its board, seats, seed and options."""
    board = game.board or board_for(len(game.players))
    return engine.new_game(
        board, [s.name for s in game.players], game.seed, game.options.get("engine") or None
    )


def start_state(game: GameRow, snapshot0: dict[str, Any] | None) -> Any:
    """A game's first state: its stored snapshot 0, else made anew from its setup."""
    if snapshot0 is not None:
        return engine.load_state(snapshot0)
    return new_state(game)
