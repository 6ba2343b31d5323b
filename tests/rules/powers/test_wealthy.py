"""RULES.md §11.20, §16 #8: Wealthy (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

from ..helpers import (
    act,
    coins,
    conquer,
    deploy,
    end,
    finish,
    hand,
    income,
    pick,
    ratmen_first_pick,
)


def test_wealthy_seven_coins_once():
    state = act(ratmen_first_pick("Wealthy"), pick("ann", 0), conquer("ann", 18))
    state, got = income(state, "ann", deploy("ann", 18, hand(state, "ann")), end("ann"))
    assert got == 8  # 1 region + 7 Wealthy at the end of the first turn
    state = act(state, pick("bob", 0), conquer("bob", 4))
    state = finish(state, "bob")
    before = coins(state, "ann")
    state = finish(state, "ann")  # put the readied Ratmen back and end
    assert coins(state, "ann") - before == 1  # only once


def test_wealthy_not_paid_at_the_pick():
    state = act(ratmen_first_pick("Wealthy"), pick("ann", 0))
    assert coins(state, "ann") == 5  # the +7 comes at the END of the first turn
