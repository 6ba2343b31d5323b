"""RULES.md §11.11: Hill (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

from ..helpers import (
    end,
    income,
    load,
    r,
    ratmen,
)


def test_hill_bonus():
    spec = ratmen("Hill", {5: r("ann", "Ratmen"), 6: r("ann", "Ratmen"), 2: r("ann", "Ratmen")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 5  # 3 regions + hills 5 and 6
