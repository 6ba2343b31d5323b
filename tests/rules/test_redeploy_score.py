"""RULES.md §6.5 redeployment, §7 scoring (E4, E5, race and power bonuses), Lost Tribes score
nobody."""

from __future__ import annotations

import pytest

import engine

from .helpers import (
    act,
    act_events,
    active,
    apply,
    build,
    coins,
    conquer,
    deploy,
    end,
    finish,
    hand,
    income,
    load,
    move,
    obs,
    owner,
    r,
    refuse,
    reinforce,
    scenario,
    seat,
    tokens,
)


def redeploy_state():
    # ann Ratmen holds 12 (1) and 18 (1) with 5 in hand; conquers 14 (empty mountain: 3)
    spec = build(
        seats={"ann": seat(act=active("Ratmen", "Spirit", hand=5)),
               "bob": seat(act=active("Orcs", "Alchemist"))},
        regions={12: r("ann", "Ratmen"), 18: r("ann", "Ratmen"), 20: r("bob", "Orcs")},
    )
    return act(load(spec), conquer("ann", 14))


def test_move_must_leave_one_token_per_region():
    state = redeploy_state()  # 14 holds 3
    refuse(state, move("ann", 14, 12, 3), 14)  # would empty 14
    state = act(state, move("ann", 14, 12, 2))
    assert tokens(state, 14) == 1 and tokens(state, 12) == 3


def test_move_needs_no_adjacency():
    state = act(redeploy_state(), move("ann", 14, 18, 2))  # 14 and 18 are far apart
    assert tokens(state, 18) == 3 and tokens(state, 14) == 1


def test_moves_are_free_in_any_order():
    # §6.5 "freely", §16 #34: a region that received tokens by a move may give again, and
    # one that gave may receive; only a move to the same region is refused (a no-op)
    state = act(redeploy_state(), move("ann", 14, 12, 2))  # 14: 1, 12: 3
    state = act(state, move("ann", 12, 18, 1))  # 12 received, now gives
    state = act(state, move("ann", 18, 14, 1))  # 14 gave, now receives
    assert (tokens(state, 12), tokens(state, 14), tokens(state, 18)) == (2, 2, 1)
    legal = engine.legal_actions(state)
    assert any(a.do == "move" and a.from_ == 12 and a.to == 14 for a in legal)
    refuse(state, move("ann", 12, 12, 1), 12)


def test_deploy_from_hand():
    state = act(redeploy_state(), deploy("ann", 18, 2))  # hand 5 - 3 = 2
    assert tokens(state, 18) == 3 and hand(state, "ann") == 0


def test_deploy_more_than_hand_refused():
    refuse(redeploy_state(), deploy("ann", 18, 3), 3)  # only 2 in hand


def test_deploy_zero_or_negative_refused():
    state = redeploy_state()
    before = obs(state, "ann")
    for bad in (0, -1):
        with pytest.raises((engine.RulesViolation, engine.InvalidAction, ValueError)):
            apply(state, deploy("ann", 18, bad))
    assert obs(state, "ann") == before


def test_deploy_only_on_own_active_regions():
    state = redeploy_state()
    refuse(state, deploy("ann", 20, 1), 20)  # bob's region
    refuse(state, deploy("ann", 17, 1), 17)  # empty region


def test_deploy_not_on_own_decline_region():
    state = act(load(scenario("conquest_misc")), conquer("ann", 14))
    refuse(state, deploy("ann", 7, 1), 7)  # 7 holds ann's In Decline Humans


def test_move_not_from_or_to_foreign_regions():
    state = redeploy_state()
    refuse(state, move("ann", 14, 20, 1), 20)
    refuse(state, move("ann", 20, 14, 1), 20)


def test_redeployment_ends_conquests():
    state = act(redeploy_state(), deploy("ann", 18, 1))
    refuse(state, conquer("ann", 17))  # 17 (empty swamp, cost 2) next to 12; 1 in hand anyway
    state = act(redeploy_state(), move("ann", 14, 12, 1))
    refuse(state, conquer("ann", 17))  # 2 tokens in hand, cost 2, but conquests are over


def test_scoring_one_per_region_including_decline():
    # ann: Ratmen on 2, 6, 18 + In Decline Orcs on 13, 16 -> 3 + 2 = 5 (no Forest bonus
    # from the declined badge; Lost Tribes on 3 and 7 score for nobody)
    state = load(scenario("score_basic"))
    state, got = income(state, "ann", end("ann"))
    assert got == 5
    assert coins(state, "bob") == 4  # bob does not score on ann's turn


def test_scoring_only_at_the_end_of_turn():
    state = load(scenario("conquest_costs"))
    state = act(state, conquer("ann", 14), conquer("ann", 15))
    assert coins(state, "ann") == 5  # nothing yet
    state, got = income(state, "ann", deploy("ann", 14, hand(state, "ann")), end("ann"))
    assert got == 3  # 12, 14, 15: 1 each; Spirit gives no coins


def test_e4_merchant_skeletons_three_regions():
    state = load(scenario("e4_merchant_skeletons"))
    _, got = income(state, "ann", end("ann"))
    assert got == 6  # 3 regions + 3 Merchant (E4)


def test_e5_hill_tritons_with_declined_merchant_skeletons():
    state = load(scenario("e5_hill_tritons"))
    _, got = income(state, "ann", end("ann"))
    # Tritons: 5 (hill) + 4 = 2 + 1 Hill bonus; In Decline Skeletons: 13 + 18 = 2, no
    # Merchant bonus and no Hill bonus for them (18 is a hill) -> 5
    assert got == 5


def test_lost_tribes_score_for_nobody():
    state = load(scenario("score_basic"))
    state = finish(state, "ann")
    _, got = income(state, "bob", end("bob"))
    assert got == 3  # Humans on 20 (a mountain, not farmland): 1 region + 2 Alchemist


def test_defender_scores_on_own_turn_only():
    state = load(scenario("defenders"))
    state = act(state, conquer("ann", 10))
    state, got = income(state, "bob", deploy("ann", 10, hand(state, "ann")), end("ann"))
    assert got == 0


def test_decline_tokens_do_not_move():
    state = act(load(scenario("conquest_misc")), conquer("ann", 14))
    refuse(state, move("ann", 7, 14, 1), 7)  # 7 holds ann's In Decline Humans


def test_end_puts_tokens_left_in_hand_on_the_map():
    # §6.4.5: after a failed final roll the remaining tokens go into a held region; §6.5
    # nothing stays in hand (Amazons aside). ann: 4 -> 1 on the board, 2 readied + 0 = 2 in
    # hand; region 11 (mountain, bob 1 Orc) costs 2 + 1 + 1 = 4: 2 short, die 0 fails.
    spec = build(seats={"ann": seat(5, active("Ratmen", "Hill")),
                        "bob": seat(5, active("Orcs", "Swamp"))},
                 regions={8: r("ann", "Ratmen", 3), 11: r("bob", "Orcs", 1)}, dice=[0])
    state = act(load(spec), reinforce("ann", 11))
    assert owner(state, 11) == "bob" and hand(state, "ann") == 2
    state = act(state, end("ann"))
    assert tokens(state, 8) == 3 and hand(state, "ann") == 0
    assert coins(state, "ann") == 5 + 1  # one region, no hill


FIVE = (1, 4, 8, 17, 18)  # mountain+mine, farmland+magic, forest+mine, swamp, hill


@pytest.mark.parametrize(("race", "power", "bonus"), [
    ("Ratmen", "Stout", 0), ("Dwarves", "Stout", 2), ("Humans", "Stout", 1),
    ("Wizards", "Stout", 1), ("Ratmen", "Forest", 1), ("Ratmen", "Hill", 1),
    ("Ratmen", "Swamp", 1), ("Ratmen", "Merchant", 5), ("Ratmen", "Alchemist", 2),
    ("Ratmen", "Wealthy", 0), ("Ratmen", "Fortified", 0), ("Orcs", "Pillaging", 0),
])
def test_race_and_power_bonuses_add_to_the_income(race: str, power: str, bonus: int) -> None:
    seats = {"ann": {"coins": 0, "active": active(race, power)}, "bob": {}}
    s = engine.load_scenario(build(seats=seats, regions={rid: r("ann", race, 1) for rid in FIVE},
                                   seed=3))
    s, ev = act_events(s, end("ann"))
    assert coins(s, "ann") == 5 + bonus


def test_moves_keep_one_per_region_and_are_free() -> None:
    # RULES §6.5 "freely", §16 #34: a region that took tokens may give, one that gave may take
    seats = {"ann": {"active": active("Ratmen", "Hill")}, "bob": {}}
    regions = {4: r("ann", "Ratmen", 4), 8: r("ann", "Ratmen", 1), 1: r("ann", "Ratmen", 2)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    s, _ = act_events(s, deploy("ann", 4, 3),
                      deploy("ann", 1, 1))  # the readied tokens go back first
    refuse(s, {"do": "move", "player": "ann", "from": 4, "to": 8, "count": 4}, "3",
           code="bad_count")
    refuse(s, {"do": "move", "player": "ann", "from": 4, "to": 4, "count": 1}, "4",
           code="not_your_region")
    s, _ = act_events(s, {"do": "move", "player": "ann", "from": 4, "to": 8, "count": 2})
    s, _ = act_events(s, {"do": "move", "player": "ann", "from": 8, "to": 1, "count": 1})
    s, _ = act_events(s, {"do": "move", "player": "ann", "from": 1, "to": 4, "count": 1})
    assert [obs(s)["regions"][rid]["tokens"] for rid in ("4", "8", "1")] == [3, 2, 2]
    s, _ = act_events(s, {"do": "move", "player": "ann", "from": 4, "to": 1, "count": 1})
    assert [obs(s)["regions"][rid]["tokens"] for rid in ("4", "8", "1")] == [2, 2, 3]
