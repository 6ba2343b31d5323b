"""RULES.md §6.1-§6.3, §6.6, §16 #9, #19: conquest cost, legality and defenders."""

from __future__ import annotations

import pytest

import engine
from engine import Stage

from .helpers import (
    abandon,
    act,
    act_events,
    active,
    assert_cost,
    build,
    conquer,
    declines,
    deploy,
    end,
    finish,
    hand,
    is_lost_tribe,
    load,
    obs,
    on_board,
    owner,
    pending,
    pending_for,
    pick,
    pieces,
    place,
    r,
    ratmen,
    refuse,
    regions_of,
    scenario,
    seat,
    spent,
    tokens,
    total,
)

# conquest_costs: ann Ratmen/Spirit holds 12 (farmland, 1 token) with 12 in hand.
# Neighbours of 12: 7, 9 (lake), 10, 11, 14, 15, 17.


@pytest.mark.parametrize(
    ("rid", "expected"),
    [
        (14, 3),  # empty mountain: 2 base + 1 mountain = 3
        (15, 3),  # E2: hill with 1 Lost Tribe: 2 base + 1 lost tribe = 3
        (7, 3),  # forest with 1 Lost Tribe: 2 + 1 = 3
        (10, 4),  # 2 active Orc tokens: 2 + 2 = 4
        (17, 4),  # 1 Orc token + fortress: 2 + 1 token + 1 fortress = 4
        (11, 5),  # In Decline troll + lair on a mountain: 2 + 1 + 1 lair + 1 mountain = 5
    ],
)
def test_cost_formula(rid, expected):
    assert_cost(scenario("conquest_costs"), "ann", rid, expected)


@pytest.mark.parametrize(
    ("rid", "expected"),
    [
        (10, 5),  # 1 Orc token + 2 encampments: 2 + 1 + 2 = 5
        (14, 5),  # 2 Orc tokens on a mountain: 2 + 2 + 1 mountain = 5
        (17, 4),  # In Decline troll with its lair: 2 + 1 token + 1 lair = 4 (§6.2 example)
        (7, 3),  # own In Decline Humans token: 2 + 1 (§16 #9 counts own tokens) = 3
    ],
)
def test_cost_formula_more_terms(rid, expected):
    assert_cost(scenario("conquest_misc"), "ann", rid, expected)


def test_conquering_places_the_required_tokens_in_the_region():
    state, used = spent(load(scenario("conquest_costs")), "ann", 10)
    assert used == 4
    reg = obs(state)["regions"]["10"]
    assert reg["owner"] == "ann" and reg["race"] == "Ratmen" and reg["tokens"] == 4
    assert not reg.get("decline")
    assert hand(state, "ann") == 8  # 12 - 4


def test_water_cannot_be_conquered():
    state = load(scenario("conquest_costs"))
    refuse(state, conquer("ann", 9), 9)  # 9 is the lake, adjacent to 12


def test_target_must_be_adjacent():
    state = load(scenario("conquest_costs"))
    refuse(state, conquer("ann", 16), 16)  # 16 is not next to 12


def test_cannot_conquer_own_active_region():
    state = load(scenario("conquest_costs"))
    refuse(state, conquer("ann", 12), 12)


def test_in_decline_regions_give_no_adjacency():
    # §6.3.2: ann's decline Humans at 7 touch 6; her active Ratmen at 12 do not
    state = load(scenario("conquest_misc"))
    refuse(state, conquer("ann", 6), 6)


def test_conquest_needs_a_token_in_hand():
    state = load(scenario("score_basic"))  # ann: 3 regions, 1 token each, hand 0
    assert hand(state, "ann") == 0
    refuse(state, conquer("ann", 3))


def test_not_your_turn_refused():
    state = load(scenario("conquest_costs"))
    refuse(state, conquer("bob", 12))


def test_lost_tribe_is_removed_when_conquered():
    state = act(load(scenario("conquest_costs")), conquer("ann", 15))
    assert not is_lost_tribe(state, 15)
    assert owner(state, 15) == "ann" and tokens(state, 15) == 3


def test_fortress_and_lair_removed_with_the_conquest():
    # §6.3.8: troll lair and fortress are removed when an enemy conquers the region
    state = act(load(scenario("conquest_costs")), conquer("ann", 17), conquer("ann", 11))
    assert "fortress" not in pieces(state, 17)
    assert "troll_lair" not in pieces(state, 11)


def test_encampments_leave_the_conquered_region():
    # §11.3: encampments are never lost but do not stay in the conquered region
    state = act(load(scenario("conquest_misc")), conquer("ann", 10))
    assert "encampment" not in pieces(state, 10)


def test_mountain_keeps_defending_for_its_new_holder():
    # §6.3.7: bob attacks ann's single token on mountain 14: 2 + 1 mountain + 1 token = 4
    spec = build(
        seats={"ann": seat(act=active("Ratmen", "Spirit")),
               "bob": seat(act=active("Orcs", "Alchemist", hand=8))},
        regions={14: r("ann", "Ratmen", 1), 10: r("bob", "Orcs", 1)},
        current="bob",
    )
    assert_cost(spec, "bob", 14, 4)


def test_own_decline_token_is_lost_not_redeployed():
    # §6.3.6: conquering your own In Decline region loses that token
    state = act(load(scenario("conquest_misc")), conquer("ann", 7))
    assert owner(state, 7) == "ann" and not obs(state)["regions"]["7"].get("decline")
    assert all(d.get("tokens_on_board", 0) == 0 for d in declines(state, "ann"))
    state = finish(state, "ann")
    assert not pending_for(state, "ann")


# ------------------------------------------------------------ first conquest


def test_first_conquest_must_be_an_entry_region():
    state = act(load(scenario("pick_start")), pick("ann", 0))  # Ratmen/Spirit, 13 tokens
    refuse(state, conquer("ann", 16), 16)  # 16 farmland is inland (entry false)
    state = act(state, conquer("ann", 21))  # 21 is an entry region (sea shore), not an edge
    assert owner(state, 21) == "ann" and tokens(state, 21) == 2  # empty forest: 2


def test_first_conquest_not_on_a_sea_even_on_the_edge():
    state = act(load(scenario("pick_start")), pick("ann", 0))
    refuse(state, conquer("ann", 0), 0)  # region 0 is a sea on the edge


def test_first_conquest_on_entry_lost_tribe():
    state = act(load(scenario("pick_start")), pick("ann", 0))
    state, used = spent(state, "ann", 2)  # entry farmland with its lost tribe
    assert used == 3  # 2 + 1 lost tribe


def test_after_the_first_conquest_adjacency_applies():
    state = act(load(scenario("pick_start")), pick("ann", 0), conquer("ann", 21))
    refuse(state, conquer("ann", 18), 18)  # entry region but not next to 21
    state = act(state, conquer("ann", 17))  # 17 borders 21
    assert owner(state, 17) == "ann"


# ------------------------------------------------------------ defenders (§6.3.4-5)


def test_defender_loses_one_and_keeps_the_rest_in_hand():
    state = load(scenario("defenders"))
    state, used = spent(state, "ann", 2)
    assert used == 5  # 2 + 3 Orc tokens
    assert hand(state, "bob") == 2  # 3 - 1 discarded
    assert on_board(state, "bob") == 3  # 10 (1) + 22 (2)


def test_survivors_wait_until_the_end_of_the_attackers_turn():
    state = act(load(scenario("defenders")), conquer("ann", 2))
    refuse(state, deploy("bob", 22, 2))  # not yet: redeployed at the END of ann's turn


def test_survivors_are_pending_for_the_defender_after_the_turn():
    state = act(load(scenario("defenders")), conquer("ann", 2))
    state = finish(state, "ann")
    mine = pending_for(state, "bob")
    assert mine and mine[0]["must"] == "deploy" and mine[0]["tokens"] == 2


def test_defender_deploys_survivors_into_own_region():
    state = finish(act(load(scenario("defenders")), conquer("ann", 2)), "ann")
    refuse(state, deploy("bob", 6, 2), 6)  # region 6 is ann's
    refuse(state, deploy("bob", 22, 3))  # bob has only 2 survivors
    state = act(state, deploy("bob", 22, 2))
    assert not pending_for(state, "bob")
    assert owner(state, 22) == "bob"
    assert total(state, "bob") == 5  # 6 Orcs - 1 lost
    assert obs(state)["current"] == "bob"


def test_single_defender_is_discarded():
    state, used = spent(load(scenario("defenders")), "ann", 10)
    assert used == 3  # 2 + 1 token
    assert hand(state, "bob") == 0
    assert total(state, "bob") == 5  # 6 - 1, nothing to redeploy
    state = finish(state, "ann")
    assert not pending_for(state, "bob")


def test_pending_lists_only_real_survivors():
    state = finish(load(scenario("defenders")), "ann")  # no conquest at all
    assert pending(state) == []


def test_reentry_after_losing_all_regions():
    # §6.1(b): all regions lost -> tokens kept for the next turn, first-conquest rules
    state = act(load(scenario("reentry")), conquer("ann", 2))  # 2 + 4 tokens = 6
    assert hand(state, "bob") == 3 and not regions_of(state, "bob")
    state = finish(state, "ann")
    assert not pending_for(state, "bob")
    assert obs(state)["current"] == "bob"
    assert hand(state, "bob") == 3
    refuse(state, conquer("bob", 16), 16)  # inland: not an entry region
    state, used = spent(state, "bob", 18)  # entry hill
    assert used == 2


# ------------------------------------------------------------ abandon (§6.6, §16 #19)


def test_abandon_frees_all_tokens_and_restarts_entry_rules():
    spec = scenario("conquest_costs")
    spec["regions"]["12"]["tokens"] = 3
    spec["seats"]["ann"]["active"]["hand"] = 9  # 3 + 9 = 12 of the 13 Ratmen
    state = load(spec)
    assert hand(state, "ann") == 11  # 9 + (3 - 1) readied
    state = act(state, abandon("ann", 12))
    assert owner(state, 12) is None
    assert hand(state, "ann") == 12  # every token back in hand
    refuse(state, conquer("ann", 15), 15)  # all regions abandoned: entry rule again
    state = act(state, conquer("ann", 14))  # 14 is an entry mountain
    assert owner(state, 14) == "ann"


def test_abandon_only_before_the_first_conquest():
    spec = build(
        seats={"ann": seat(act=active("Ratmen", "Spirit", hand=6)),
               "bob": seat(act=active("Orcs", "Alchemist"))},
        regions={12: r("ann", "Ratmen"), 17: r("ann", "Ratmen"), 20: r("bob", "Orcs")},
    )
    state = act(load(spec), conquer("ann", 14))
    refuse(state, abandon("ann", 17))


def test_abandon_only_own_regions():
    state = load(scenario("conquest_costs"))
    refuse(state, abandon("ann", 10), 10)


def test_survivors_may_be_split_over_several_regions():
    # §6.3.4: redeployed into one or more regions still held by that race
    state = finish(act(load(scenario("defenders")), conquer("ann", 2)), "ann")
    state = act(state, deploy("bob", 22, 1), deploy("bob", 10, 1))
    assert not pending_for(state, "bob")
    assert total(state, "bob") == 5


def test_abandon_removes_lair_and_fortress():
    # §6.6: abandoning a region removes its Troll Lair / Fortress
    spec = build(
        seats={"ann": seat(act=active("Trolls", "Fortified")),
               "bob": seat(act=active("Orcs", "Alchemist"))},
        regions={6: r("ann", "Trolls", 2, pieces=["troll_lair", "fortress"]),
                 10: r("ann", "Trolls", pieces=["troll_lair"]), 20: r("bob", "Orcs")},
    )
    state = act(load(spec), abandon("ann", 6))
    assert owner(state, 6) is None
    assert pieces(state, 6) == []
    assert hand(state, "ann") == 2  # 1 readied from 6 + the 1 left standing on 6


def test_encampments_are_placed_again_by_their_owner():
    # §11.3 / §16 #12: never lost; their owner re-places them after the attacker's turn
    state = finish(act(load(scenario("conquest_misc")), conquer("ann", 10)), "ann")
    state = act(state, place("bob", "encampment", 14), place("bob", "encampment", 14))
    state = finish(state, "bob")  # bob's own turn leaves them where he put them
    assert pieces(state, 14).count("encampment") == 2


def test_own_decline_region_needs_adjacency_to_the_active_race():
    # §6.3.2 / §6.3.6: ann's In Decline Humans on 7 do not border her Ratmen on 18
    spec = build(
        seats={"ann": seat(act=active("Ratmen", "Spirit", hand=5),
                           decline=[{"race": "Humans", "power": "Forest"}]),
               "bob": seat(act=active("Orcs", "Alchemist"))},
        regions={18: r("ann", "Ratmen"), 7: r("ann", "Humans", decline=True),
                 20: r("bob", "Orcs")},
    )
    refuse(load(spec), conquer("ann", 7), 7)


def test_two_conquests_on_the_same_defender_accumulate_survivors():
    spec = scenario("defenders")
    spec["regions"]["7"] = {"owner": "bob", "race": "Orcs", "tokens": 2}
    spec["regions"].pop("22")
    state = act(load(spec), conquer("ann", 2), conquer("ann", 7))  # 5 + 4
    assert hand(state, "bob") == 3  # (3 - 1) + (2 - 1)
    state = finish(state, "ann")
    assert pending_for(state, "bob")[0]["tokens"] == 3
    state = act(state, deploy("bob", 10, 3))
    assert total(state, "bob") == 4  # 6 - 2 lost


def test_new_race_after_decline_enters_by_entry_even_next_to_decline_regions():
    # §8.7: the new race enters through a border region; decline regions give no adjacency
    spec = scenario("decline_tritons")
    spec["seats"]["ann"]["active"] = None
    spec["seats"]["ann"]["decline"] = [{"race": "Tritons", "power": "Hill"}]
    spec["regions"] = {"5": {"owner": "ann", "race": "Tritons", "tokens": 1, "decline": True},
                       "20": {"owner": "bob", "race": "Humans", "tokens": 1}}
    state = act(load(spec), pick("ann", 1))  # Ratmen/Spirit
    refuse(state, conquer("ann", 7), 7)  # 7 borders the declined 5 but is not an entry


def test_underworld_first_conquest_still_needs_entry():
    spec = scenario("pick_start")
    spec["row"][0] = {"race": "Ratmen", "power": "Underworld", "coins": 0}
    state = act(load(spec), pick("ann", 0))
    refuse(state, conquer("ann", 15), 15)  # inland cavern


def test_two_defenders_both_redeploy_after_the_turn():
    # official-3p: ann on 2 borders 3 and 8. bob loses 1 of 2 on 3 (2 + 2 = 4), cid loses 1
    # of 2 on mountain 8 (2 + 2 + 1 = 5). Both place their survivor after ann's turn.
    spec = build(
        seats={"ann": seat(5, active("Ratmen", "Spirit", hand=12)),
               "bob": seat(5, active("Orcs", "Alchemist")),
               "cid": seat(5, active("Humans", "Forest"))},
        regions={2: r("ann", "Ratmen"), 3: r("bob", "Orcs", 2), 15: r("bob", "Orcs"),
                 8: r("cid", "Humans", 2), 14: r("cid", "Humans")},
        players=("ann", "bob", "cid"), board="official-3p",
    )
    state, used = spent(load(spec), "ann", 3)
    assert used == 4
    state, used = spent(state, "ann", 8)
    assert used == 5
    state = finish(state, "ann")
    assert {x["player"] for x in pending(state)} == {"bob", "cid"}
    home = {"bob": 15, "cid": 14}
    for _ in range(2):
        who = state.actor
        state = act(state, deploy(who, home[who], 1))
    assert pending(state) == []
    assert obs(state)["current"] == "bob"
    assert total(state, "bob") == 2 and total(state, "cid") == 2


def test_abandon_refused_during_redeployment():
    spec = ratmen("Alchemist", {12: r("ann", "Ratmen"), 18: r("ann", "Ratmen")}, hand_=2)
    state = act(load(spec), deploy("ann", 12, 1))
    refuse(state, abandon("ann", 18))


def test_cost_counts_mountain_tokens_lair_and_fortress():
    # §6.2: 2 + mountain 1 + 2 Troll tokens + lair 1 + fortress 1 = 7
    spec = build(seats={"ann": seat(5, active("Ratmen", "Hill", 7)),
                        "bob": seat(5, active("Trolls", "Fortified"))},
                 regions={8: r("ann", "Ratmen", 1),
                          11: r("bob", "Trolls", 2, pieces=["troll_lair", "fortress"])})
    assert_cost(spec, "ann", 11, 7)


def test_cost_formula_terms_and_floor() -> None:
    seats = {"ann": {"active": active("Ratmen", "Commando", 10)},
             "bob": {"active": active("Trolls", "Fortified"), "decline": []}}
    regions = {4: r("ann", "Ratmen", 1),
               1: r("bob", "Trolls", 2, pieces=["troll_lair", "fortress"])}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    # 2 + mountain 1 + lair 1 + fortress 1 + 2 tokens - Commando 1 = 6
    assert engine.conquest_cost(s, 0, 1, s.seats[0].active, True) == 6
    s2, ev = act_events(s, conquer("ann", 1))
    assert obs(s2)["regions"]["1"]["tokens"] == 6
    assert obs(s2)["regions"]["1"]["pieces"] == []
    e = next(e for e in ev if e["type"] == "conquered")
    assert e["lost"] == 1 and e["defender"] == "bob"
    # Commando on an empty farmland: max(1, 2 - 1) = 1
    assert engine.conquest_cost(s, 0, 8, s.seats[0].active, True) == 1


def test_not_adjacent_and_not_entry_messages() -> None:
    seats = {"ann": {"active": active("Orcs", "Hill", 3)}, "bob": {}}
    s = engine.load_scenario(build(seats=seats, regions={4: r("ann", "Orcs", 1)}, seed=3))
    refuse(s, conquer("ann", 17), "17", "Orcs", code="not_adjacent")
    s = engine.load_scenario(build(seats=seats, regions={}, seed=3))
    refuse(s, conquer("ann", 5), "5", code="not_entry_region")
    refuse(s, conquer("ann", 0), "0", code="water")
    seats["ann"]["active"]["hand"] = 2
    s = engine.load_scenario(build(seats=seats,
                                   regions={5: {"lost_tribe": True},
                                            4: r("ann", "Orcs", 1)}, seed=3))
    err = refuse(s, conquer("ann", 5), "5", "3", "2", code="not_enough_tokens")  # hill + tribe = 3
    assert "in hand" in err.message


def test_defender_loses_one_and_redeploys_at_end_of_turn() -> None:
    seats = {"ann": {"active": active("Ratmen", "Alchemist", 8)},
             "bob": {"active": active("Orcs", "Hill")}}
    regions = {4: r("ann", "Ratmen", 1), 8: r("bob", "Orcs", 3), 11: r("bob", "Orcs", 1)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    s, _ = act_events(s, conquer("ann", 8))
    assert obs(s)["players"]["bob"]["hand"] == 2
    s, _ = act_events(s, deploy("ann", 8, 3), end("ann"))
    o = obs(s)
    assert o["stage"] == "survivors" and s.actor == "bob" and o["current"] == "ann"
    assert o["pending"][0] == {"player": "bob", "must": "deploy", "tokens": 2, "race": "Orcs",
                               "regions": [11]}
    refuse(s, end("bob"), "2", code="hand_not_empty")
    refuse(s, deploy("ann", 8, 1), "bob", code="not_your_turn")
    s, ev = act_events(s, deploy("bob", 11, 2))
    assert {"type": "deployed", "player": "bob", "region": 11, "count": 2, "survivors": True} in ev
    # bob's turn began: the 3 tokens on 11 were readied, one stays
    assert obs(s)["regions"]["11"]["tokens"] == 1 and obs(s)["players"]["bob"]["hand"] == 2
    assert s.actor == "bob"
    assert obs(s)["stage"] == "conquest"
    assert any(e["type"] == "turn_started" and e["player"] == "bob" for e in ev)


def test_defender_without_regions_keeps_tokens_in_hand() -> None:
    seats = {"ann": {"active": active("Ratmen", "Alchemist", 8)},
             "bob": {"active": active("Orcs", "Hill")}}
    s = engine.load_scenario(build(seats=seats,
                                   regions={4: r("ann", "Ratmen", 1),
                                            8: r("bob", "Orcs", 3)}, seed=3))
    s, _ = act_events(s, conquer("ann", 8), deploy("ann", 8, 3), end("ann"))
    assert obs(s)["pending"] == [] and s.actor == "bob"
    assert obs(s)["players"]["bob"]["hand"] == 2
    refuse(s, conquer("bob", 5), code="not_entry_region")
    s, _ = act_events(s, conquer("bob", 2))  # re-enter at the edge


def test_defender_in_survivors_step_may_only_place_survivors() -> None:
    seats = {"ann": {"active": active("Ratmen", "Alchemist", 8)},
             "bob": {"active": active("Orcs", "Stout")}}
    regions = {4: r("ann", "Ratmen", 1), 8: r("bob", "Orcs", 3), 11: r("bob", "Orcs", 1)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    s, _ = act_events(s, conquer("ann", 8), deploy("ann", 8, 3), end("ann"))
    assert s.actor == "bob" and s.stage is Stage.SURVIVORS
    refuse(s, {"do": "decline", "player": "bob"}, code="wrong_stage")
    refuse(s, conquer("bob", 13), code="wrong_stage")
    refuse(s, {"do": "move", "player": "bob", "from": 11, "to": 8, "count": 1}, code="wrong_stage")
    assert {a.do for a in engine.legal_actions(s)} == {"deploy"}


@pytest.mark.parametrize(("race", "power", "region", "cost"), [
    ("Giants", "Stout", 5, 1),  # next to the Giants' mountain 1
    ("Giants", "Stout", 8, 2),  # not next to it
    ("Tritons", "Stout", 8, 1),  # coastal (lake 9)
    ("Tritons", "Stout", 5, 1),  # coastal (lake 9) too
    ("Tritons", "Stout", 2, 2),
    ("Ratmen", "Mounted", 5, 1),  # hill
    ("Ratmen", "Mounted", 2, 1),  # farmland
    ("Ratmen", "Mounted", 8, 2),  # forest
    ("Ratmen", "Commando", 11, 2),  # mountain 3 - 1
    ("Giants", "Commando", 5, 1),  # floored at 1
])
def test_race_and_power_discounts_lower_the_conquest_cost(race: str, power: str, region: int,
                                                          cost: int) -> None:
    seats = {"ann": {"active": active(race, power, 5)}, "bob": {}}
    s = engine.load_scenario(build(seats=seats,
                                   regions={1: r("ann", race, 1), 4: r("ann", race, 1)}, seed=3))
    assert engine.conquest_cost(s, 0, region, s.seats[0].active, True) == cost
