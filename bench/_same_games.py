"""Seeded random games that both engines can play move for move (bench/engine.py and
bench/engine_same.py, each run against the engine of another revision).

Two rule fixes of issue 18 allow actions the engine at 8304b87 refused; a random game under
the new rules soon takes other turns (free moves are many). `OldRules` keeps the choice to
what the old rules allowed, in both engines alike:
- free redeployment (RULES §16 #34): a `move` out of a region that received tokens by a move
  this turn, or into one that gave, is left out (the turn's moves are tracked here);
- the Skeletons' bonus with the deploy that ends the conquests (§10.10): a `deploy` of more
  tokens than the hand held before the bonus is left out.
For an engine with the old rules the filter leaves nothing out (`left` counts it).
"""

from __future__ import annotations

from typing import Any


class OldRules:
    def __init__(self) -> None:
        self.gave: set[int] = set()
        self.took: set[int] = set()
        self.left = {"move": 0, "deploy": 0}

    def filter(self, s: Any, legal: list) -> list:
        """`legal` less what only the two rule fixes allow."""
        out = []
        surviving = s.stage.value == "survivors"
        gave, took = self.gave, self.took
        for a in legal:
            do = a.do
            if do == "move" and (a.from_ in took or a.to in gave):
                self.left["move"] += 1
                continue
            if do == "deploy" and not surviving:
                area = s.areas[a.region]
                if a.count > _hand_of(s, area.owner, area.race):
                    self.left["deploy"] += 1
                    continue
            out.append(a)
        return out

    def played(self, action: Any, events: list) -> None:
        """Track the turn's moves (a new turn starts afresh)."""
        if action.do == "move":
            self.gave.add(action.from_)
            self.took.add(action.to)
        if any(e["type"] == "turn_started" for e in events):
            self.gave.clear()
            self.took.clear()


def _hand_of(s: Any, me: int, race: str | None) -> int:
    seat = s.seats[me]
    for h in (seat.active, *seat.declines):
        if h is not None and h.race == race:
            return h.hand
    return 0
