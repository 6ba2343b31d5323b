"""RULES.md §11.4: Commando (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

from ..helpers import (
    LT,
    act,
    assert_cost,
    pick,
    r,
    ratmen,
    ratmen_first_pick,
    spent,
)


def test_commando_minus_one():
    spec = ratmen("Commando", {12: r("ann", "Ratmen"), 15: LT}, hand_=6)
    assert_cost(spec, "ann", 11, 2)  # mountain 3 - 1
    assert_cost(spec, "ann", 15, 2)  # lost tribe 3 - 1


def test_commando_floor_is_one():
    spec = ratmen("Commando", {12: r("ann", "Ratmen")}, hand_=6)
    assert_cost(spec, "ann", 17, 1)  # empty 2 - 1 = 1 (never 0)


def test_commando_first_conquest_on_a_lost_tribe():
    state = act(ratmen_first_pick("Commando"), pick("ann", 0))
    state, used = spent(state, "ann", 2)
    assert used == 2  # 2 + 1 lost tribe - 1 Commando
