"""The plainest moves: what the bot plays when nobody chooses — a moderator's skip, a vacant
seat's turn, survivors that can go only one way, an AI that failed to choose.

Pure (engine only), so the AI worker processes can plan a stint with exactly the moves the
game service will make (bot/game/ai_worker.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import engine

SKIP_ORDER = ("end", "deploy", "pick", "decline")


def dump(action: Any) -> dict[str, Any]:
    """An action as its protocol line (engine Action or dict)."""
    return action.model_dump(mode="json") if hasattr(action, "model_dump") else dict(action)


def skip_action(legal: Sequence[Any]) -> Any | None:
    """The plainest action that moves a turn towards its end (moderator skip, vacant seat)."""
    by_verb: dict[str, list[Any]] = defaultdict(list)
    for a in legal:
        by_verb[dump(a)["do"]].append(a)
    for verb in SKIP_ORDER:
        options = by_verb.get(verb)
        if not options:
            continue
        if verb == "deploy":
            return max(options, key=lambda a: dump(a)["count"])
        if verb == "pick":
            return min(options, key=lambda a: dump(a)["slot"])
        return options[0]
    for verb in ("place", "ally", "move"):
        if by_verb.get(verb):
            return None if verb == "move" else by_verb[verb][0]
    return None


def plain_action(state: engine.GameState) -> Any:
    """A legal action that keeps the game going when nothing better was chosen."""
    legal = engine.legal_actions(state)
    action = skip_action(legal)
    return action if action is not None else legal[0]


def only_placement(state: engine.GameState) -> Any | None:
    """Survivors' placement with one possible outcome (all on the one region left, or
    nothing but "done"), as the action that does it; None when the defender has a choice."""
    if state.finished or str(getattr(state.stage, "value", state.stage)) != "survivors":
        return None
    legal = [dump(a) for a in engine.legal_actions(state)]
    if len(legal) == 1 and legal[0]["do"] == "end":
        return engine.parse_action(legal[0])
    deploys = [a for a in legal if a["do"] == "deploy"]
    if deploys and len(deploys) == len(legal) and len({a["region"] for a in deploys}) == 1:
        return engine.parse_action(max(deploys, key=lambda a: a["count"]))
    return None


def forced_move(state: engine.GameState, vacant: frozenset[str] | set[str]) -> Any | None:
    """The move the bot makes by itself now, if any: a vacant seat's plainest step, or a
    placement that can go only one way."""
    if state.finished:
        return None
    if state.actor in vacant:
        return skip_action(engine.legal_actions(state))
    return only_placement(state)
