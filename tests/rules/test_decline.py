"""RULES.md §8 going into decline (E8), §16 #22."""

from __future__ import annotations

import engine

from .helpers import (
    abandon,
    act,
    act_events,
    active,
    active_of,
    build,
    coins,
    conquer,
    current,
    decline,
    declines,
    deploy,
    end,
    finish,
    hand,
    income,
    load,
    obs,
    owner,
    pick,
    r,
    refuse,
    region,
    scenario,
    seat,
    spent,
)

# decline_tritons: ann Hill Tritons on 5 (hill, 3 tokens) and 8 (forest, 2 tokens), 2 more
# in hand; her older In Decline Orcs on 14; bob Humans/Swamp on 20. ann has 6 coins.


def declined():
    return act(load(scenario("decline_tritons")), decline("ann"))


def test_e8_one_token_per_region_flipped():
    state = declined()
    for rid in (5, 8):
        reg = region(state, rid)
        assert reg["owner"] == "ann" and reg["race"] == "Tritons"
        assert reg["tokens"] == 1 and reg["decline"] is True
    assert not active_of(state, "ann")
    tritons = [d for d in declines(state, "ann") if d["race"] == "Tritons"]
    assert tritons and tritons[0]["tokens_on_board"] == 2


def test_older_decline_race_is_removed():
    state = declined()
    assert owner(state, 14) is None  # the Orcs' last token went back to the tray
    assert [d["race"] for d in declines(state, "ann")] == ["Tritons"]


def test_tokens_in_hand_return_to_the_tray():
    state = declined()
    assert hand(state, "ann") == 0  # §16 #22


def test_decline_turn_scores_regions_without_bonuses():
    state = load(scenario("decline_tritons"))
    _, got = income(state, "ann", decline("ann"))
    # 2 newly declined regions = 2; no Hill bonus for 5; old Orcs on 14 removed first
    assert got == 2


def test_decline_ends_the_turn():
    state = declined()
    assert current(state) == "bob"
    refuse(state, conquer("ann", 4))


def test_no_conquest_then_decline():
    state = load(scenario("decline_tritons"))
    state = act(state, conquer("ann", 4))  # empty coastal farmland
    refuse(state, decline("ann"))  # decline replaces the expansion (§8.1)


def test_next_turn_must_pick():
    state = finish(declined(), "bob")
    assert current(state) == "ann"
    refuse(state, conquer("ann", 4))  # no active race yet
    refuse(state, decline("ann"))  # nothing to put into decline
    state = act(state, pick("ann", 1))  # Ratmen/Spirit, cost 1
    assert active_of(state, "ann")["race"] == "Ratmen"
    assert hand(state, "ann") == 13  # 8 + 5


def test_new_race_enters_by_an_entry_region():
    state = act(finish(declined(), "bob"), pick("ann", 1))
    refuse(state, conquer("ann", 16), 16)  # inland
    state, used = spent(state, "ann", 18)
    assert used == 2


def test_next_turn_scores_new_race_and_decline_remnants():
    state = act(finish(declined(), "bob"), pick("ann", 1), conquer("ann", 18))
    before = coins(state, "ann")
    state = finish(state, "ann")
    # Ratmen on 18: 1; In Decline Tritons on 5 and 8: 2 -> 3
    assert coins(state, "ann") - before == 3


def test_decline_refused_on_the_pick_turn():
    state = act(load(scenario("pick_start")), pick("ann", 0))  # Ratmen/Spirit, not Stout
    refuse(state, decline("ann"))


def test_decline_refused_out_of_turn():
    refuse(load(scenario("decline_tritons")), decline("bob"))


def test_decline_keeps_regions_for_scoring_later():
    state = finish(declined(), "bob")
    assert obs(state)["regions"]["5"]["decline"] is True
    assert obs(state)["regions"]["8"]["tokens"] == 1


def test_end_needs_a_race_or_a_pick():
    state = finish(declined(), "bob")
    refuse(state, end("ann"))  # first turn steps are mandatory: pick first (D-38)


def test_e7_vanished_banner_returns_to_the_banner_pile():
    # §8.5 / E7: all 14 banners are in the row or in play (the banner pile is empty). bob
    # conquers the last In Decline Skeleton (2 + 1 = 3); its banner goes to the bottom of the
    # (empty) pile, so ann's pick reveals it as the new bottom combo.
    state = load(scenario("e7_vanished_banner_5p"))
    state = act(state, conquer("bob", 6))
    assert not [d for d in declines(state, "ann") if d.get("tokens_on_board")]
    state = finish(state, "bob")
    assert current(state) == "ann"
    state = act(state, pick("ann", 0))
    assert obs(state, "ann")["row"][5]["race"] == "Skeletons"


def test_no_decline_after_abandoning():
    # §12.1: abandoning belongs to an Expand turn; decline replaces the expansion
    state = act(load(scenario("decline_tritons")), abandon("ann", 8))
    refuse(state, decline("ann"))


def test_decline_allowed_with_no_region_left():
    # D-09 / §16 #23: a race that lost every region may still go into decline
    spec = scenario("reentry")
    state = finish(act(load(spec), conquer("ann", 2)), "ann")
    assert hand(state, "bob") == 3
    state = act(state, decline("bob"))
    assert not active_of(state, "bob")
    assert hand(state, "bob") == 0


def test_vanished_banner_fills_a_short_row():
    # §8.5 / §16 #18: no banner left anywhere, so the row shows 5 combos; when ann's last
    # In Decline Skeleton is conquered its banner fills the lowest empty slot (cost 5)
    state = load(scenario("e7_short_row_5p"))
    assert len(obs(state, "ann")["row"]) == 5
    state = act(state, conquer("bob", 6))  # 2 + 1 token
    row = obs(state, "ann")["row"]
    assert len(row) == 6
    assert row[5]["race"] == "Skeletons" and row[5]["cost"] == 5


def test_vanished_decline_banner_goes_to_the_bottom_of_the_stack():
    # §8.5 / E7: the last token of ann's In Decline Elves is conquered (2 + 1 = 3): the banner
    # goes to the bottom of the banner stack
    spec = build(seats={"ann": seat(5, active("Orcs", "Hill"),
                                    [{"race": "Elves", "power": "Forest"}]),
                        "bob": seat(5, active("Ratmen", "Swamp", 3))},
                 regions={5: r("ann", "Elves", 1, decline=True), 20: r("ann", "Orcs", 2),
                          8: r("bob", "Ratmen", 1)}, current="bob")
    state, events = act_events(load(spec), conquer("bob", 5))
    assert {"type": "vanished", "race": "Elves"} in events
    assert engine.dump_state(state)["banners"][-1] == "Elves"
    assert declines(state, "ann") == []


def test_decline_keeps_one_per_region_removes_old_decline_and_scores() -> None:
    seats = {"ann": {"coins": 0, "active": active("Orcs", "Merchant", 2),
                     "decline": [{"race": "Elves", "power": "Forest"}]},
             "bob": {}}
    regions = {4: r("ann", "Orcs", 3), 8: r("ann", "Orcs", 2),
               1: r("ann", "Elves", 1, decline=True)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    assert obs(s)["players"]["ann"]["hand"] == 2 + 3
    s2, ev = act_events(s, {"do": "decline", "player": "ann"})
    o = obs(s2, "ann")
    assert o["players"]["ann"]["active"] is None
    assert [d["race"] for d in o["players"]["ann"]["decline"]] == ["Orcs"]
    assert o["regions"]["4"] == {"owner": "ann", "race": "Orcs", "tokens": 1, "decline": True,
                                 "pieces": []}
    assert "1" not in o["regions"]
    assert o["players"]["ann"]["coins"] == 2  # 1 per region, no Merchant bonus
    assert any(e["type"] == "vanished" and e["race"] == "Elves" for e in ev)
    assert s2.banners[-1] == "Elves"
    assert s2.actor == "bob"


def test_no_decline_after_expanding_or_on_pick_turn_but_stout_may() -> None:
    seats = {"ann": {"active": active("Orcs", "Merchant", 3)}, "bob": {}}
    s = engine.load_scenario(build(seats=seats, regions={4: r("ann", "Orcs", 1)}, seed=3))
    s1, _ = act_events(s, conquer("ann", 8))
    refuse(s1, {"do": "decline", "player": "ann"}, code="cannot_decline")
    seats["ann"]["active"] = active("Orcs", "Stout", 3)
    seats["ann"]["coins"] = 0
    s = engine.load_scenario(build(seats=seats, regions={4: r("ann", "Orcs", 1)}, seed=3))
    s, _ = act_events(s, conquer("ann", 8))
    s, ev = act_events(s, deploy("ann", 8, 1), {"do": "decline", "player": "ann"})
    types = [e["type"] for e in ev]
    assert types.index("scored") < types.index("declined")
    # a token left in hand is put on a region before scoring (§6.5: nothing stays in hand)
    s2, ev = act_events(engine.load_scenario(build(seats=seats, regions={4: r("ann", "Orcs", 1)},
                                                   seed=3)), conquer("ann", 8),
                 {"do": "decline", "player": "ann"})
    assert {"type": "deployed", "player": "ann", "region": 4, "count": 1, "auto": True} in ev
    assert coins(s2, "ann") == 2
    assert coins(s, "ann") == 2  # 2 regions; 8 was empty, so no Orc bonus
    assert obs(s)["regions"]["8"]["decline"] is True


def test_last_decline_token_lost_sends_banner_to_the_short_row() -> None:
    seats = {"ann": {"active": active("Ratmen", "Hill", 5)},
             "bob": {"active": active("Orcs", "Swamp"),
                     "decline": [{"race": "Elves", "power": "Forest"}]}}
    d = build(seats=seats, regions={4: r("ann", "Ratmen", 1), 8: r("bob", "Elves", 1, decline=True),
                     18: r("bob", "Orcs", 1)}, seed=3)
    d["row"] = d["row"][:5]  # a short row
    d["stack"] = {"races": [], "powers": ["Mounted"]}
    s = engine.load_scenario(d)
    s = engine.load_state({**engine.dump_state(s), "banners": []})  # no banner left in the stack
    s, ev = act_events(s, conquer("ann", 8))
    assert [e["type"] for e in ev if e["type"] in ("vanished", "drew")] == ["vanished", "drew"]
    assert obs(s)["row"][5]["race"] == "Elves" and obs(s)["row"][5]["power"] == "Mounted"
    assert obs(s)["players"]["bob"]["decline"] == []
