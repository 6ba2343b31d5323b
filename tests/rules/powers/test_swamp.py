"""RULES.md §11.18: Swamp (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

from ..helpers import (
    end,
    income,
    load,
    r,
    ratmen,
)


def test_swamp_bonus():
    spec = ratmen("Swamp", {3: r("ann", "Ratmen"), 10: r("ann", "Ratmen"), 6: r("ann", "Ratmen")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 5  # 3 regions + swamps 3 and 10
