"""RULES.md §10.12: Tritons (one file per section of RULES.md §10 races)."""

from __future__ import annotations

from ..helpers import (
    active,
    assert_cost,
    r,
    two,
)


def tritons(power="Spirit"):
    return two(active("Tritons", power, hand=6), active("Orcs", "Alchemist"),
               {12: r("ann", "Tritons"), 20: r("bob", "Orcs")})


def test_tritons_coastal_discount():
    assert_cost(tritons(), "ann", 11, 2)  # mountain on the lake: 3 - 1 = 2


def test_tritons_no_discount_inland():
    assert_cost(tritons(), "ann", 14, 3)  # mountain 14 touches no water: 3


def test_tritons_discount_floor_is_one():
    assert_cost(tritons("Commando"), "ann", 17, 1)  # coastal swamp: 2 - 1 - 1 = 0 -> 1


def test_tritons_no_discount_on_water():
    spec = two(active("Tritons", "Seafaring", hand=6), active("Orcs", "Alchemist"),
               {12: r("ann", "Tritons"), 20: r("bob", "Orcs")})
    assert_cost(spec, "ann", 9, 2)  # the lake is not a coastal region (§11.15): 2


def test_tritons_discount_next_to_a_sea():
    spec = two(active("Tritons", "Spirit", hand=6), active("Orcs", "Alchemist"),
               {4: r("ann", "Tritons"), 20: r("bob", "Orcs")})
    assert_cost(spec, "ann", 1, 2)  # mountain 1 on sea 0: 3 - 1
