"""The plainest moves: what the bot plays when nobody chooses — a moderator's skip, a vacant
seat's turn, survivors that can go only one way, an AI that failed to choose.

Pure (engine only), so the AI worker processes can plan a stint with exactly the moves the
game service will make (bot/game/ai_worker.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
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


def forced_move(state: engine.GameState, vacant: frozenset[str] | set[str],
                orders: Mapping[str, str] | None = None) -> Any | None:
    """The move the bot makes by itself now, if any: a vacant seat's plainest step, a
    placement that can go only one way, or a defender's survivors placed by her standing
    orders (`orders`: seat -> order)."""
    return forced_step(state, vacant, orders)[0]


def forced_step(state: engine.GameState, vacant: frozenset[str] | set[str],
                orders: Mapping[str, str] | None = None) -> tuple[Any | None, str | None]:
    """forced_move, and the standing order it follows (None: not one)."""
    if state.finished:
        return None, None
    if state.actor in vacant:
        return skip_action(engine.legal_actions(state)), None
    only = only_placement(state)
    if only is not None:
        return only, None
    order = (orders or {}).get(state.actor or "")
    found = order_placement(state, order) if order else None
    return found, order if found is not None else None


def is_placing(state: engine.GameState) -> bool:
    """A defender places survivors (or encampments) now."""
    return not state.finished and str(getattr(state.stage, "value", state.stage)) == "survivors"


ORDERS = ("strongest", "spread", "keep-together", "ask")


def order_placement(state: engine.GameState, order: str) -> Any | None:
    """The next deploy of a defender's survivors by her standing order (None: "ask", or
    nothing of hers to place now):

    - strongest: all on her region of that race holding the most tokens;
    - spread: one at a time, each on her region of that race holding the fewest;
    - keep-together: all on the region of that race with the most neighbours of the same
      race (the heart of her territory);

    ties go to the lowest region number."""
    if order not in ORDERS or order == "ask" or state.finished:
        return None
    if str(getattr(state.stage, "value", state.stage)) != "survivors":
        return None
    obs = engine.observe(state, None)
    need = next((p for p in obs.get("pending", ()) if p.get("player") == state.actor
                 and p.get("must") == "deploy" and p.get("tokens")), None)
    if need is None:
        return None
    deploys = [a for a in map(dump, engine.legal_actions(state)) if a["do"] == "deploy"]
    if not deploys:
        return None
    regions = obs.get("regions", {})
    mine = {int(r) for r in need.get("regions", ())}
    tokens = {a["region"]: int((regions.get(str(a["region"])) or {}).get("tokens", 0))
              for a in deploys}
    if order == "spread":
        region = min(tokens, key=lambda r: (tokens[r], r))
        count = 1
    else:
        if order == "strongest":
            region = min(tokens, key=lambda r: (-tokens[r], r))
        else:
            def heart(r: int) -> tuple[int, int, int]:
                near = set(state.board.regions[r].neighbours) & mine
                return (-len(near), -tokens[r], r)
            region = min(tokens, key=heart)
        count = max(a["count"] for a in deploys if a["region"] == region)
    chosen = next((a for a in deploys if a["region"] == region and a["count"] == count), None)
    return None if chosen is None else engine.parse_action(chosen)
