"""RULES.md §11.12: Merchant (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

from ..helpers import (
    end,
    income,
    load,
    r,
    ratmen,
)


def test_merchant_one_per_region():
    spec = ratmen("Merchant", {6: r("ann", "Ratmen"), 2: r("ann", "Ratmen")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 4  # 2 regions + 2 Merchant
