"""Hard level: for now the normal player (search comes next)."""

from __future__ import annotations

import random

import engine
from engine import GameState

from .policy import choose_action, make_ctx


def choose_hard(view: GameState, me: int, seed: int, rng: random.Random) -> engine.Action:
    return choose_action(make_ctx(view, "normal", rng))
