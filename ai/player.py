"""`choose(state, level, seed)`: the action of an AI level for the state's actor."""

from __future__ import annotations

import random
import time
import zlib

import engine
from engine import GameState

from .hidden import public_key, seat_view
from .policy import choose_action, make_ctx
from .search import decide

LEVELS: tuple[str, ...] = ("easy", "normal", "hard", "expert")


def choose(state: GameState, level: str = "normal", seed: int = 0, *,
           budget_s: float | None = None) -> engine.Action:
    """A legal action for `state.actor` chosen at `level` (see LEVELS).

    `budget_s` (hard and expert) stops the look-ahead early once that many seconds have
    passed; the choice is then the best found so far and may depend on the machine's speed.
    Without it, the same state, level and seed always give the same action.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; choose one of {', '.join(LEVELS)}")
    if state.actor is None:
        raise ValueError("the game is over: nobody has to act")
    me = state.players.index(state.actor)
    view = seat_view(state, me, seed)
    rng = random.Random(zlib.crc32(f"{level}:{seed}:{public_key(view)}".encode()))
    if level == "easy":
        action = choose_action(make_ctx(view, level, rng))
    else:
        deadline = None if budget_s is None else time.perf_counter() + budget_s
        action = decide(view, me, level, seed, rng, deadline)
    return _checked(view, action)


def _checked(view: GameState, action: engine.Action) -> engine.Action:
    """The action if the rules accept it, else the first legal one (never an illegal move)."""
    try:
        engine.apply(view, action)
        return action
    except engine.RulesViolation:
        return engine.legal_actions(view)[0]


