"""RULES.md §11.2, §16 #31: Berserk (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

import engine

from ..helpers import (
    act,
    act_events,
    active,
    build,
    conquer,
    deploy,
    end,
    load,
    obs,
    owner,
    r,
    ratmen,
    refuse,
    reinforce,
    roll,
    spent,
    tokens,
)


def berserk(dice, hand_=3):
    return load(ratmen("Berserk", {12: r("ann", "Ratmen")}, hand_, dice=dice))


def test_berserk_roll_reduces_the_next_conquest():
    state = act(berserk([2]), roll("ann"))
    state, used = spent(state, "ann", 11)
    assert used == 1  # empty mountain 3 - roll 2 = 1


def test_berserk_reduction_floor_is_one():
    state = act(berserk([3]), roll("ann"))
    state, used = spent(state, "ann", 14)
    assert used == 1  # 3 - 3 = 0 -> minimum 1


def test_berserk_may_conquer_without_rolling():
    state, used = spent(berserk([3]), "ann", 14)
    assert used == 3  # no roll: plain cost


def test_berserk_rolls_before_every_conquest():
    state = act(berserk([2, 1], hand_=4), roll("ann"), conquer("ann", 11))  # 3 - 2 = 1
    state = act(state, roll("ann"))
    state, used = spent(state, "ann", 14)
    assert used == 2  # 3 - 1 = 2
    # a second position: no final die for Berserk, one roll per conquest, the refusal names the roll
    seats = {"ann": {"active": active("Ratmen", "Berserk", 2)}, "bob": {}}
    s = engine.load_scenario(build(seats=seats,
                                   regions={4: r("ann", "Ratmen", 1),
                                            5: {"lost_tribe": True}}, dice=[3, 1], seed=3))
    assert not any(a.do == "reinforce" for a in engine.legal_actions(s))
    s, _ = act_events(s, {"do": "roll", "player": "ann"})
    refuse(s, {"do": "roll", "player": "ann"}, "3", code="already_used")
    s, _ = act_events(s, conquer("ann", 5))  # cost 3 - 3 = 0 -> 1
    assert obs(s)["regions"]["5"]["tokens"] == 1
    s, _ = act_events(s, {"do": "roll", "player": "ann"})  # 1
    refuse(s, conquer("ann", 1), "1", "roll of 1", code="not_enough_tokens")  # 3 - 1 = 2 > 1


def test_berserk_target_must_be_within_reach_after_the_roll():
    # §16 #31: after the roll choose a target whose reduced cost <= tokens in hand
    state = act(berserk([0], hand_=2), roll("ann"))
    refuse(state, conquer("ann", 14), 14, 3)  # mountain 3 - 0 = 3 > 2 in hand
    state, used = spent(state, "ann", 17)  # empty swamp 2 - 0 = 2 <= 2
    assert used == 2


def test_berserk_nothing_in_reach_ends_conquests():
    # §16 #31: roll 0 with 1 token: every target costs >= 2 -> conquests end
    state = act(berserk([0, 3], hand_=1), roll("ann"))
    refuse(state, conquer("ann", 17))
    refuse(state, roll("ann"))
    state = act(state, deploy("ann", 12, 1), end("ann"))
    assert owner(state, 12) == "ann" and tokens(state, 12) == 2


def test_berserk_gets_no_extra_final_die_roll():
    refuse(berserk([3], hand_=2), reinforce("ann", 14))  # §11.2 engine decision 5


def test_berserk_may_stop_after_rolling():
    state = act(berserk([3], hand_=2), roll("ann"), deploy("ann", 12, 2), end("ann"))
    assert tokens(state, 12) == 3 and owner(state, 12) == "ann"
