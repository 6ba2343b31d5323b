"""RULES.md §11.13: Mounted (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

from ..helpers import (
    active,
    assert_cost,
    r,
    ratmen,
    two,
)


def test_mounted_hill_and_farmland():
    spec = ratmen("Mounted", {6: r("ann", "Ratmen")}, hand_=6)
    assert_cost(spec, "ann", 2, 1)  # empty farmland 2 - 1
    assert_cost(spec, "ann", 3, 2)  # swamp: no discount


def test_mounted_no_discount_on_mountain():
    spec = ratmen("Mounted", {12: r("ann", "Ratmen")}, hand_=6)
    assert_cost(spec, "ann", 11, 3)


def test_mounted_tritons_coastal_hill_floor_one():
    spec = two(active("Tritons", "Mounted", hand=5), active("Orcs", "Spirit"),
               {4: r("ann", "Tritons"), 20: r("bob", "Orcs")})
    assert_cost(spec, "ann", 5, 1)  # hill on the lake: 2 - 1 Mounted - 1 Tritons = 0 -> 1
