"""RULES.md §6.4 final conquest with the reinforcement die, §16 #3, #4, #28."""

from __future__ import annotations

import engine

from .helpers import (
    act,
    act_events,
    active,
    apply,
    build,
    conquer,
    finish,
    hand,
    load,
    obs,
    owner,
    r,
    refuse,
    reinforce,
    scenario,
    tokens,
    total,
)

# die.json: ann Ratmen holds 12 (1 token) with 2 in hand. Around 12:
#   14 empty mountain: 2 + 1 = 3 (shortfall 1)
#   15 lost tribe hill: 2 + 1 = 3 (shortfall 1)
#   11 bob 2 Orcs on a mountain: 2 + 2 + 1 = 5 (shortfall 3)
#   10 bob 4 Orcs: 2 + 4 = 6 (shortfall 4)
#   17 empty swamp: 2 (no shortfall)


def with_dice(*faces, hand_=2):
    spec = scenario("die")
    spec["dice"] = list(faces)
    spec["seats"]["ann"]["active"]["hand"] = hand_
    return load(spec)


def test_success_when_die_plus_hand_reaches_cost():
    # die 1 + 2 in hand = 3 >= 3 (§16 #4)
    state = act(with_dice(1), reinforce("ann", 14))
    assert owner(state, 14) == "ann"
    assert tokens(state, 14) == 2  # all remaining tokens go in
    assert hand(state, "ann") == 0


def test_failure_when_die_plus_hand_is_short():
    # die 0 + 2 = 2 < 3
    state = act(with_dice(0), reinforce("ann", 14))
    assert owner(state, 14) is None
    assert total(state, "ann") == 3  # failure loses no tokens: 1 on 12 + 2


def test_failure_one_short():
    # hand 1: die 1 + 1 = 2 < 3 fails; die 2 + 1 = 3 succeeds
    failed = act(with_dice(1, hand_=1), reinforce("ann", 14))
    assert owner(failed, 14) is None
    won = act(with_dice(2, hand_=1), reinforce("ann", 14))
    assert owner(won, 14) == "ann" and tokens(won, 14) == 1


def test_shortfall_three_is_eligible():
    # 11 costs 5 with 2 in hand: short by 3; die 3 + 2 = 5 succeeds, bob loses 1 of 2
    state = act(with_dice(3), reinforce("ann", 11))
    assert owner(state, 11) == "ann" and tokens(state, 11) == 2
    assert hand(state, "bob") == 1


def test_shortfall_three_can_fail():
    state = act(with_dice(2), reinforce("ann", 11))  # 2 + 2 = 4 < 5
    assert owner(state, 11) == "bob" and tokens(state, 11) == 2


def test_shortfall_four_refused():
    # 10 costs 6 with 2 in hand: short by 4 > 3 (§16 #3)
    refuse(with_dice(3), reinforce("ann", 10), 10)


def test_no_shortfall_refused():
    # 17 costs 2 and ann holds 2: a plain conquest, not a die roll
    refuse(with_dice(3), reinforce("ann", 17), 17)


def test_no_token_in_hand_refused():
    refuse(with_dice(3, hand_=0), reinforce("ann", 14))


def test_die_target_must_be_adjacent():
    # 16 (empty farmland, cost 2) is short by 1 with 1 token but is not next to 12
    refuse(with_dice(3, hand_=1), reinforce("ann", 16), 16)


def test_target_cannot_be_water():
    refuse(with_dice(3, hand_=1), reinforce("ann", 9), 9)


def test_conquests_end_after_a_success():
    state = act(with_dice(3, hand_=2), reinforce("ann", 15))  # 3 + 2 >= 3
    refuse(state, reinforce("ann", 14))
    refuse(state, conquer("ann", 17))


def test_conquests_end_after_a_failure():
    state = act(with_dice(0), reinforce("ann", 14))
    refuse(state, conquer("ann", 17))  # 17 would cost only 2, but conquests are over
    refuse(state, reinforce("ann", 15))


def test_failed_tokens_end_the_turn_on_the_board():
    state = act(with_dice(0), reinforce("ann", 14))
    state = finish(state, "ann")
    assert total(state, "bob") == 6  # bob untouched (his turn has readied some)
    assert owner(state, 12) == "ann"
    assert total(state, "ann") == 3


def test_roll_is_recorded_and_reveals():
    step = apply(with_dice(1), reinforce("ann", 14))
    assert step.reveals is True
    assert any(e.get("type") == "rolled" for e in step.events)


def test_forced_dice_are_used_in_order():
    # first the 0 fails on ann's turn; bob later gets the 3
    spec = scenario("die")
    spec["dice"] = [0, 3]
    state = act(load(spec), reinforce("ann", 14))
    assert owner(state, 14) is None
    state = finish(state, "ann")
    # bob: 11 (2) and 10 (4) -> readied 1 + 3 = 4; 12 holds ann's 3 tokens: 2 + 3 = 5
    assert hand(state, "bob") == 4
    state = act(state, reinforce("bob", 12))  # short by 1, die 3 -> success
    assert owner(state, 12) == "bob"



def reentry_die(faces):
    # bob lost every region and holds 1 Orc: entry hill 18 costs 2 (short by 1)
    spec = scenario("reentry")
    spec["current"] = "bob"
    spec["dice"] = list(faces)
    spec["regions"] = {"6": {"owner": "ann", "race": "Ratmen", "tokens": 1}}
    spec["seats"]["ann"]["active"]["hand"] = 0
    spec["seats"]["bob"]["active"]["hand"] = 1
    return load(spec)


def test_failed_roll_with_no_region_keeps_tokens_in_hand():
    # §16 #28: tokens stay in hand; conquests end
    state = act(reentry_die([0]), reinforce("bob", 18))
    assert owner(state, 18) is None
    assert hand(state, "bob") == 1
    refuse(state, conquer("bob", 13))


def test_die_first_conquest_on_an_entry_region():
    state = act(reentry_die([1]), reinforce("bob", 18))  # 1 + 1 >= 2
    assert owner(state, 18) == "bob"


def test_die_first_conquest_still_needs_an_entry_region():
    refuse(reentry_die([3]), reinforce("bob", 16), 16)  # inland


def test_die_target_cannot_be_immune():
    spec = scenario("die")
    spec["seats"]["bob"]["active"]["power"] = "Heroic"
    spec["row"][0]["power"] = "Wealthy"  # Heroic leaves the row: bob holds it
    spec["regions"]["11"]["pieces"] = ["hero"]
    refuse(load(spec), reinforce("ann", 11), 11)


def test_reinforcement_die_success_and_failure() -> None:
    seats = {"ann": {"active": active("Ratmen", "Hill", 1)},
             "bob": {"active": active("Orcs", "Swamp")}}
    regions = {4: r("ann", "Ratmen", 1), 5: {"lost_tribe": True}, 8: r("bob", "Orcs", 3)}
    base = build(seats=seats, regions=regions, dice=[2, 0], seed=3)
    s = engine.load_scenario(base)
    assert obs(s)["players"]["ann"]["hand"] == 1
    refuse(s, {"do": "reinforce", "player": "ann", "region": 8}, "5", "4", code="not_eligible")
    s2, ev = act_events(s,
                        {"do": "reinforce", "player": "ann",
                         "region": 5})  # cost 3, short 2, roll 2
    assert [e["value"] for e in ev if e["type"] == "rolled"] == [2]
    assert obs(s2)["regions"]["5"]["owner"] == "ann" and obs(s2)["stage"] == "redeploy"
    refuse(s2, conquer("ann", 7), code="conquests_over")
    base["dice"] = [0]
    s3, ev = act_events(engine.load_scenario(base),
                        {"do": "reinforce", "player": "ann", "region": 5})
    assert any(e["type"] == "reinforce_failed" for e in ev)
    assert obs(s3)["players"]["ann"]["hand"] == 1 and obs(s3)["regions"]["5"]["lost_tribe"]
