"""RULES.md §11.17, §16 #29: Stout (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

from ..helpers import (
    act,
    active_of,
    conquer,
    decline,
    deploy,
    hand,
    income,
    load,
    owner,
    pick,
    r,
    ratmen,
    ratmen_first_pick,
    region,
    tokens,
)


def test_stout_scores_then_declines_after_conquering():
    spec = ratmen("Stout", {12: r("ann", "Ratmen"), 7: r("ann", "Humans", decline=True)},
                  hand_=3, ann_decline=[{"race": "Humans", "power": "Forest"}])
    state = act(load(spec), conquer("ann", 14))  # empty mountain: 3
    state, got = income(state, "ann", decline("ann"))
    assert got == 3  # scoring first: Ratmen 12, 14 + old Humans 7
    assert region(state, 14)["decline"] is True and tokens(state, 14) == 1
    assert owner(state, 7) is None  # then the older decline race is removed
    assert not active_of(state, "ann")


def test_stout_allowed_on_the_pick_turn():
    state = act(ratmen_first_pick("Stout"), pick("ann", 0), conquer("ann", 18))
    state = act(state, deploy("ann", 18, hand(state, "ann")), decline("ann"))
    assert region(state, 18)["decline"] is True


def test_stout_may_still_decline_at_turn_start():
    spec = ratmen("Stout", {12: r("ann", "Ratmen"), 17: r("ann", "Ratmen")})
    state, got = income(load(spec), "ann", decline("ann"))
    assert got == 2 and region(state, 12)["decline"] is True
