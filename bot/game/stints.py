"""Stints: who must act now in a game, and the deadlines that belong to it.

A stint is one seat's stretch of acting: an AI's move, a member's turn (its limit and
reminders), a defender placing survivors. Its key names it; the service writes a stint's
deadlines once (bot.game.core), and a deadline that fires for a stint that is no longer the
game's is dropped (bot.game.autoplay). Pure: no store, no clock of its own.

What the member who must act set for all her games shapes her stint's deadlines (`Actor`):
a deadline that would run out in her quiet hours moves to their end, a reminder that would
then come at or after the limit is dropped, and her turn DM, held through her quiet hours,
gets a `wake` deadline at their end. While she is on vacation (her seat's `until`) her clock
waits: the limit and reminders count from her return. A paused game (a seat vote) has no
member deadlines at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.clock import ClockRules, Deadline, turn_rows
from bot.game.quiet import QuietHours
from bot.seats import auto_level
from bot.store import GameRow, GameStatus

OVER = "over"
AI_STINT = "ai:"  # how the key of an AI's stint begins


@dataclass(frozen=True, slots=True)
class Actor:
    """What the member who must act set for all her games that her deadlines follow."""

    quiet: QuietHours | None = None
    turn_dm: bool = False


def is_paused(game: GameRow) -> bool:
    """The table voted to pause the game's clock."""
    return game.opts.paused


def stint_key(game: GameRow, state: Any, now: float | None = None) -> str:
    """The key of the stint going on now ("over": the game is not running; an AI's key also
    names the version it must move from; a member's names her vacation, so that going away
    or coming back re-arms her deadlines)."""
    if game.status is not GameStatus.ACTIVE or state is None or state.finished:
        return OVER
    actor = state.actor
    current = state.players[state.current]
    placing = actor != current
    if auto_level(game, actor, now=now, placing=placing):
        return f"{AI_STINT}{actor}:{game.version}"
    seat = game.seat_named(actor)
    away = f":v{int(seat.until)}" if seat is not None and seat.until is not None else ""
    paused = "paused:" if is_paused(game) else ""
    if placing:
        return f"{paused}surv:{actor}:{state.round}:{current}{away}"
    return f"{paused}turn:{actor}:{state.round}{away}"


def stint(game: GameRow, state: Any, rules: ClockRules, now: float,
          actor: Actor | None = None) -> tuple[str, list[Deadline]]:
    """The stint going on now and the deadlines it should have."""
    key = stint_key(game, state, now)
    if key == OVER or key.startswith("paused:"):
        return key, []
    name = state.actor
    if key.startswith(AI_STINT):
        placing = name != state.players[state.current]
        return key, [Deadline(game.id, "ai", name, key, now if placing else now + rules.ai_delay)]
    actor = actor or Actor()
    seat = game.seat_named(name)
    start = max(now, seat.until) if seat is not None and seat.until is not None else now
    clock = game.opts.turn_clock
    rows: list[Deadline] = []
    if key.startswith("surv:"):
        if clock.on:
            rows = [Deadline(game.id, "survivors", name, key, start + rules.survivor_limit)]
    elif clock.on:
        rows = turn_rows(game.id, name, key, clock, start)
    if actor.quiet is not None:
        rows = quiet_rows(rows, actor.quiet)
        if actor.turn_dm and actor.quiet.contains(now):
            rows.append(Deadline(game.id, "wake", name, key, actor.quiet.end_after(now)))
    return key, rows


def quiet_rows(rows: list[Deadline], quiet: QuietHours) -> list[Deadline]:
    """The deadlines moved out of quiet hours: each to the window's end; a reminder that
    would then come at or after its limit is dropped."""
    moved = [Deadline(r.game_id, r.kind, r.seat, r.key, quiet.shift(r.due_at)) for r in rows]
    limit = next((r.due_at for r in moved if r.kind in ("turn", "survivors")), None)
    return [r for r in moved
            if not (r.kind in ("half", "near") and limit is not None and r.due_at >= limit)]
