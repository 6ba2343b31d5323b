"""RULES.md §10.9: Ratmen (one file per section of RULES.md §10 races)."""

from __future__ import annotations

from ..helpers import (
    act,
    conquer,
    deploy,
    end,
    first_pick,
    hand,
    income,
    load,
    pick,
)


def test_ratmen_many_tokens_no_bonus():
    state = act(load(first_pick("Ratmen", "Spirit")), pick("ann", 0))
    assert hand(state, "ann") == 13  # 8 + 5
    state = act(state, conquer("ann", 18), conquer("ann", 16))
    _, got = income(state, "ann", deploy("ann", 18, hand(state, "ann")), end("ann"))
    assert got == 2  # 2 regions, no race bonus
