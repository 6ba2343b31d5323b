"""RULES.md §5 picking a combo (E1), §16 #27 unaffordable combos, §5.6 refill, §5.7 / §8.8
badge reshuffle, an empty row passes the turn."""

from __future__ import annotations

import random

import pytest

import engine
from engine import Stage

from .helpers import (
    act,
    act_events,
    active,
    active_of,
    apply,
    build,
    coins,
    conquer,
    current,
    deploy,
    end,
    hand,
    load,
    obs,
    pick,
    r,
    refuse,
    scenario,
)

# pick_start row: 0 Ratmen/Spirit, 1 Elves/Heroic, 2 Skeletons/Merchant,
# 3 Dwarves/Flying (1 coin on it), 4 Humans/Swamp, 5 Wizards/Hill (2 coins on it);
# stacks: races Orcs, Giants; powers Alchemist, Commando.


def combos(state):
    # coins lying on combos, as a seated player's observation shows them (DESIGN "row")
    return [(c["race"], c["power"], c["coins_on_combo"]) for c in obs(state, "ann")["row"]]


def test_e1_merchant_skeletons_in_slot_2_pays_2_and_gets_8_tokens():
    state = act(load(scenario("pick_start")), pick("ann", 2))
    assert coins(state, "ann") == 3  # 5 - 2 (one coin on each of the two combos above)
    assert hand(state, "ann") == 8  # Skeletons 6 + Merchant 2 = 8 (E1)
    a = active_of(state, "ann")
    assert a["race"] == "Skeletons" and a["power"] == "Merchant"
    assert a["tokens_on_board"] == 0


def test_e1_coins_are_laid_on_each_combo_above():
    state = act(load(scenario("pick_start")), pick("ann", 2))
    row = combos(state)
    assert row[0] == ("Ratmen", "Spirit", 1)  # 0 + 1 laid by ann
    assert row[1] == ("Elves", "Heroic", 1)  # 0 + 1 laid by ann


def test_row_closes_the_gap_and_refills_from_the_stacks():
    state = act(load(scenario("pick_start")), pick("ann", 2))
    assert combos(state) == [
        ("Ratmen", "Spirit", 1),
        ("Elves", "Heroic", 1),
        ("Dwarves", "Flying", 1),  # moved up from slot 3 with its coin
        ("Humans", "Swamp", 0),
        ("Wizards", "Hill", 2),  # moved up from slot 5 with its 2 coins
        ("Orcs", "Alchemist", 0),  # new combo from the stack tops
    ]
    assert [c["cost"] for c in obs(state)["row"]] == [0, 1, 2, 3, 4, 5]


def test_collects_the_coins_lying_on_the_chosen_combo():
    state = act(load(scenario("pick_start")), pick("ann", 3))
    assert coins(state, "ann") == 3  # 5 - 3 paid + 1 collected
    assert hand(state, "ann") == 8  # Dwarves 3 + Flying 5
    assert [c[2] for c in combos(state)[:3]] == [1, 1, 1]


def test_bottom_slot_costs_5_and_collects_its_coins():
    state = act(load(scenario("pick_start")), pick("ann", 5))
    assert coins(state, "ann") == 2  # 5 - 5 + 2 collected
    assert hand(state, "ann") == 9  # Wizards 5 + Hill 4
    row = combos(state)
    assert [c[2] for c in row] == [1, 1, 1, 2, 1, 0]  # 0,0,0,1,0 each +1; new bottom 0
    assert row[5][:2] == ("Orcs", "Alchemist")


def test_top_slot_is_free():
    state = act(load(scenario("pick_start")), pick("ann", 0))
    assert coins(state, "ann") == 5  # position 1 costs 0
    assert hand(state, "ann") == 13  # Ratmen 8 + Spirit 5
    assert [c[2] for c in combos(state)] == [0, 0, 1, 0, 2, 0]


def test_unaffordable_slot_refused():
    spec = scenario("pick_start")
    spec["seats"]["ann"]["coins"] = 2
    state = load(spec)
    refuse(state, pick("ann", 3), 3)  # slot 3 costs 3 > 2 coins (§16 #27)
    after = act(state, pick("ann", 2))  # slot 2 costs exactly 2: allowed
    assert coins(after, "ann") == 0


def test_coins_on_the_combo_cannot_pay_for_it():
    # §5.3 engine decision: position <= coins BEFORE the pick
    spec = scenario("pick_start")
    spec["seats"]["ann"]["coins"] = 4
    state = load(spec)
    refuse(state, pick("ann", 5), 5)  # costs 5, ann has 4 (the 2 coins on it do not count)


def test_second_pick_draws_next_stack_tops_and_finds_coins():
    state = load(scenario("pick_start"))
    state = act(state, pick("ann", 2), conquer("ann", 18))  # 18 is an entry hill
    state = act(state, deploy("ann", 18, hand(state, "ann")), end("ann"))
    assert current(state) == "bob"
    state = act(state, pick("bob", 0))  # Ratmen/Spirit with ann's coin on it
    assert coins(state, "bob") == 6  # 5 - 0 + 1
    assert combos(state)[5][:2] == ("Giants", "Commando")  # second stack tops


def test_pick_refused_out_of_turn():
    state = load(scenario("pick_start"))
    refuse(state, pick("bob", 0))


def test_pick_refused_with_an_active_race():
    state = load(scenario("conquest_costs"))  # ann already has Ratmen
    refuse(state, pick("ann", 0))


def test_pick_refused_twice_in_one_turn():
    state = act(load(scenario("pick_start")), pick("ann", 0))
    refuse(state, pick("ann", 0))


def test_must_pick_before_conquering():
    state = load(scenario("pick_start"))
    refuse(state, conquer("ann", 18))


def test_slot_out_of_range_is_rejected_without_change():
    state = load(scenario("pick_start"))
    before = obs(state, "ann")
    with pytest.raises((engine.InvalidAction, engine.RulesViolation)):
        apply(state, pick("ann", 6))
    assert obs(state, "ann") == before


def test_discarded_badges_are_reshuffled_when_the_badge_pile_runs_out():
    # §5.7 / §16 #17: with no badge left to form a combo, the discards become the new pile
    rnd = random.Random(0)
    state = engine.new_game("official-5p", ["a", "b", "c", "d", "e"], 0)
    while not state.finished:
        legal = engine.legal_actions(state)
        eager = [a for a in legal if a.do in ("decline", "pick")]
        before = engine.dump_state(state)
        step = engine.apply(state, rnd.choice(eager) if eager and rnd.random() < 0.5
                            else rnd.choice(legal))
        shuffled = [e for e in step.events if e["type"] == "reshuffled"]
        if shuffled:
            after = engine.dump_state(step.state)
            at = step.events.index(shuffled[0])
            drawn = [e["power"] for e in step.events[at:] if e["type"] == "drew"]
            assert before["badges"] == [] and drawn
            assert shuffled[0]["badges"] == len(after["badges"]) + len(drawn)
            assert set(before["discards"]) <= set(after["badges"]) | set(drawn)
            assert after["discards"] == [] and len(after["row"]) == 6
            return
        state = step.state
    pytest.fail("no reshuffle happened in the game")


def test_pick_pays_one_coin_per_combo_above_and_collects() -> None:
    row = [{"race": race, "power": p, "coins": c} for race, p, c in [
        ("Ratmen", "Merchant", 0), ("Orcs", "Hill", 0), ("Skeletons", "Commando", 4),
        ("Elves", "Forest", 0), ("Giants", "Swamp", 0), ("Trolls", "Wealthy", 0)]]
    s = engine.load_scenario(build(seats={"ann": {"coins": 2}, "bob": {}}, row=row, current="ann",
                                   stack={"races": ["Dwarves"], "powers": ["Flying"]}, seed=3))
    assert s.stage is Stage.PICK
    legal = {a.slot for a in engine.legal_actions(s)}
    assert legal == {0, 1, 2}
    refuse(s, {"do": "pick", "player": "ann", "slot": 3}, 3, 2, code="cannot_afford")
    s2, ev = act_events(s, {"do": "pick", "player": "ann", "slot": 2})
    o = obs(s2, "ann")
    assert o["players"]["ann"]["coins"] == 2 - 2 + 4
    assert [c["coins_on_combo"] for c in o["row"][:2]] == [1, 1]
    assert o["row"][-1]["race"] == "Dwarves" and o["row"][-1]["power"] == "Flying"
    assert o["players"]["ann"]["hand"] == 6 + 4  # Skeletons 6 + Commando 4
    assert any(e["type"] == "drew" for e in ev)
    assert engine.apply(s, engine.parse_action({"do": "pick", "player": "ann", "slot": 2})).reveals


def test_no_combo_left_to_pick_passes_the_turn() -> None:
    seats = {"ann": {"coins": 0, "decline": [{"race": "Orcs", "power": "Spirit"},
                                             {"race": "Elves", "power": "Hill"}]},
             "bob": {"active": active("Ratmen", "Swamp")}}
    regions = {4: r("ann", "Orcs", 1, decline=True), 8: r("ann", "Elves", 1, decline=True),
               18: r("bob", "Ratmen", 1)}
    d = build(seats=seats, regions=regions, seed=3)
    d["row"] = []  # an empty row: nothing to pick
    s = engine.load_scenario(d)
    assert s.stage is Stage.PICK
    assert [a.do for a in engine.legal_actions(s)] == ["end"]
    s, ev = act_events(s, end("ann"))
    assert coins(s, "ann") == 2 and s.actor == "bob"
