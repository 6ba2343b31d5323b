"""RULES.md §11.8: Forest (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

from ..helpers import (
    active,
    end,
    income,
    load,
    r,
    ratmen,
    two,
)


def test_forest_bonus():
    spec = ratmen("Forest", {7: r("ann", "Ratmen"), 8: r("ann", "Ratmen"), 6: r("ann", "Ratmen")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 5  # 3 regions + forests 7 and 8


def test_forest_no_bonus_in_decline():
    spec = two(active("Orcs", "Spirit"), active("Humans", "Alchemist"),
               {18: r("ann", "Orcs"), 21: r("ann", "Ratmen", decline=True),
                22: r("ann", "Ratmen", decline=True), 20: r("bob", "Humans")},
               ann_decline=[{"race": "Ratmen", "power": "Forest"}])
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 3
