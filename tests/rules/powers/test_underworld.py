"""RULES.md §11.19: Underworld (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

from ..helpers import (
    LT,
    assert_cost,
    conquer,
    load,
    r,
    ratmen,
    refuse,
)


def test_underworld_caverns_adjacent_and_cheaper():
    spec = ratmen("Underworld", {6: r("ann", "Ratmen"), 15: LT}, hand_=5)
    assert_cost(spec, "ann", 15, 2)  # cavern hill far from 6: 2 + 1 LT - 1 = 2


def test_underworld_no_reach_to_non_caverns():
    spec = ratmen("Underworld", {6: r("ann", "Ratmen")}, hand_=5)
    refuse(load(spec), conquer("ann", 16), 16)


def test_underworld_normal_cost_off_caverns():
    spec = ratmen("Underworld", {6: r("ann", "Ratmen"), 7: LT}, hand_=5)
    assert_cost(spec, "ann", 7, 3)  # forest with a lost tribe next to 6: no discount
