"""Computer players for Small World: `choose(state, level, seed) -> Action`.

Pure like the engine (stdlib + engine only). A player sees only its seat's view: the
board, the row, public counts and its own coins. Everything hidden (other players' coins,
the order of the undrawn stacks, the engine's random state) is replaced by a sample drawn
from the seed and public facts before any decision is made, so the choice cannot depend
on it. Same state + level + seed gives the same action.
"""

from __future__ import annotations

import random
import time
import zlib

import engine
from engine import GameState

from .hidden import public_key, seat_view
from .policy import choose_action, make_ctx
from .search import choose_hard, choose_normal

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")


def choose(state: GameState, level: str = "normal", seed: int = 0, *,
           budget_s: float | None = None) -> engine.Action:
    """A legal action for `state.actor` chosen at `level` ("easy", "normal" or "hard").

    `budget_s` (hard only) stops the playouts early once that many seconds have passed;
    the choice is then the best found so far and may depend on the machine's speed.
    Without it, the same state, level and seed always give the same action.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; choose one of {', '.join(LEVELS)}")
    if state.actor is None:
        raise ValueError("the game is over: nobody has to act")
    me = state.players.index(state.actor)
    view = seat_view(state, me, seed)
    rng = random.Random(zlib.crc32(f"{level}:{seed}:{public_key(view)}".encode()))
    if level == "hard":
        deadline = None if budget_s is None else time.perf_counter() + budget_s
        action = choose_hard(view, me, seed, rng, deadline)
    elif level == "normal":
        action = choose_normal(view, rng)
    else:
        action = choose_action(make_ctx(view, level, rng))
    return _checked(view, action)


def _checked(view: GameState, action: engine.Action) -> engine.Action:
    """The action if the rules accept it, else the first legal one (never an illegal move)."""
    try:
        engine.apply(view, action)
        return action
    except engine.RulesViolation:
        return engine.legal_actions(view)[0]


__all__ = ["LEVELS", "choose"]
