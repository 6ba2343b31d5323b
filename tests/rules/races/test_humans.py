"""RULES.md §10.7: Humans (one file per section of RULES.md §10 races)."""

from __future__ import annotations

from ..helpers import (
    active,
    end,
    income,
    load,
    r,
    two,
)


def test_humans_score_farmland():
    spec = two(active("Humans", "Spirit"), active("Orcs", "Alchemist"),
               {2: r("ann", "Humans"), 4: r("ann", "Humans"), 6: r("ann", "Humans"),
                20: r("bob", "Orcs")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 5  # 3 regions + farmland 2 and 4 = 5


def test_humans_in_decline_no_bonus():
    spec = two(active("Ratmen", "Spirit"), active("Orcs", "Alchemist"),
               {18: r("ann", "Ratmen"), 2: r("ann", "Humans", decline=True),
                4: r("ann", "Humans", decline=True), 20: r("bob", "Orcs")},
               ann_decline=[{"race": "Humans", "power": "Forest"}])
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 3  # 1 + 2 regions, no farmland bonus
