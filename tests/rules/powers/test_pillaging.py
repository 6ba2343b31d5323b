"""RULES.md §11.14: Pillaging (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

from ..helpers import (
    LT,
    act,
    conquer,
    deploy,
    end,
    hand,
    income,
    load,
    r,
    ratmen,
)


def test_pillaging_non_empty_conquests():
    spec = ratmen("Pillaging", {6: r("ann", "Ratmen"), 7: LT}, hand_=6)
    state = act(load(spec), conquer("ann", 7), conquer("ann", 10))  # LT 3 + empty 2
    _, got = income(state, "ann", deploy("ann", 6, hand(state, "ann")), end("ann"))
    assert got == 4  # 3 regions + 1 non-empty (7); 10 was empty


def test_pillaging_own_decline_region_counts():
    spec = ratmen("Pillaging", {12: r("ann", "Ratmen"), 7: r("ann", "Humans", decline=True)},
                  hand_=4, ann_decline=[{"race": "Humans", "power": "Forest"}])
    state = act(load(spec), conquer("ann", 7))  # 2 + 1 own token
    _, got = income(state, "ann", deploy("ann", 7, hand(state, "ann")), end("ann"))
    assert got == 3  # 2 regions + 1 Pillaging (non-empty, §2.4)
