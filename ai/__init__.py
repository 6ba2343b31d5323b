"""Computer players for Small World: `choose(state, level, seed) -> Action`.

Pure like the engine (stdlib + engine only). A player sees only its seat's view: the
board, the row, public counts and its own coins. Everything hidden (other players' coins,
the order of the undrawn stacks, the engine's random state) is replaced by a sample drawn
from the seed and public facts before any decision is made, so the choice cannot depend
on it. Same state + level + seed gives the same action.
"""

from __future__ import annotations

from .hint import REASONS, Hint, hint
from .moments import GameReview, review_game
from .player import LEVELS, choose
from .review import TurnReview, assess, evaluate, review_turn

__all__ = ["LEVELS", "REASONS", "GameReview", "Hint", "TurnReview", "assess", "choose",
           "evaluate", "hint", "review_game", "review_turn"]
