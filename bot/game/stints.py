"""Stints: who must act now in a game, and the deadlines that belong to it.

A stint is one seat's stretch of acting: an AI's move, a member's turn (its limit and
reminders), a defender placing survivors. Its key names it; the service writes a stint's
deadlines once (bot.game.core), and a deadline that fires for a stint that is no longer the
game's is dropped (bot.game.autoplay). Pure: no store, no clock of its own.
"""

from __future__ import annotations

from typing import Any

from bot.clock import ClockRules, Deadline, clock_of, turn_rows
from bot.seats import auto_level
from bot.store import GameRow, GameStatus

OVER, OFF = "over", "off"


def stint_key(game: GameRow, state: Any) -> str:
    """The key of the stint going on now ("over": the game is not running; an AI's key also
    names the version it must move from)."""
    if game.status is not GameStatus.ACTIVE or state is None or state.finished:
        return OVER
    actor = state.actor
    current = state.players[state.current]
    if auto_level(game, actor):
        return f"ai:{actor}:{game.version}"
    if actor != current:
        return f"surv:{actor}:{state.round}:{current}"
    return f"turn:{actor}:{state.round}"


def stint(game: GameRow, state: Any, rules: ClockRules, now: float
          ) -> tuple[str, list[Deadline]]:
    """The stint going on now and the deadlines it should have (none for "over", "off")."""
    key = stint_key(game, state)
    if key == OVER:
        return key, []
    actor = state.actor
    if key.startswith("ai:"):
        placing = actor != state.players[state.current]
        return key, [Deadline(game.id, "ai", actor, key, now if placing else now + rules.ai_delay)]
    clock = clock_of(game.options.get("clock"))
    if not clock.on:
        return OFF, []
    if key.startswith("surv:"):
        return key, [Deadline(game.id, "survivors", actor, key, now + rules.survivor_limit)]
    return key, turn_rows(game.id, actor, key, clock, now)
