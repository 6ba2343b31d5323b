"""RULES.md §10.14: Wizards (one file per section of RULES.md §10 races)."""

from __future__ import annotations

from ..helpers import (
    active,
    end,
    income,
    load,
    r,
    two,
)


def test_wizards_score_magic():
    spec = two(active("Wizards", "Spirit"), active("Orcs", "Alchemist"),
               {3: r("ann", "Wizards"), 4: r("ann", "Wizards"), 6: r("ann", "Wizards"),
                20: r("bob", "Orcs")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 5  # 3 regions + magic sources on 3 and 4


def test_wizards_in_decline_no_bonus():
    spec = two(active("Ratmen", "Spirit"), active("Orcs", "Alchemist"),
               {18: r("ann", "Ratmen"), 3: r("ann", "Wizards", decline=True),
                4: r("ann", "Wizards", decline=True), 20: r("bob", "Orcs")},
               ann_decline=[{"race": "Wizards", "power": "Forest"}])
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 3
