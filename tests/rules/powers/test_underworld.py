"""RULES.md §11.19: Underworld (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

import engine

from ..helpers import (
    LT,
    active,
    assert_cost,
    build,
    conquer,
    load,
    r,
    ratmen,
    refuse,
)


def test_underworld_caverns_adjacent_and_cheaper():
    spec = ratmen("Underworld", {6: r("ann", "Ratmen"), 15: LT}, hand_=5)
    assert_cost(spec, "ann", 15, 2)  # cavern hill far from 6: 2 + 1 LT - 1 = 2
    # a second position: every cavern is a legal target from region 1,
    # and an empty cavern costs 2 - 1 = 1
    seats = {"ann": {"active": active("Ratmen", "Underworld", 5)}, "bob": {}}
    s = engine.load_scenario(build(seats=seats, regions={1: r("ann", "Ratmen", 1)}, seed=3))
    legal = {a.region for a in engine.legal_actions(s) if a.do == "conquer"}
    assert {6, 13, 15} <= legal  # caverns far from region 1
    assert engine.conquest_cost(s, 0, 15, s.seats[0].active, True) == 1  # 2 - 1 (no tribe)


def test_underworld_no_reach_to_non_caverns():
    spec = ratmen("Underworld", {6: r("ann", "Ratmen")}, hand_=5)
    refuse(load(spec), conquer("ann", 16), 16)


def test_underworld_normal_cost_off_caverns():
    spec = ratmen("Underworld", {6: r("ann", "Ratmen"), 7: LT}, hand_=5)
    assert_cost(spec, "ann", 7, 3)  # forest with a lost tribe next to 6: no discount
