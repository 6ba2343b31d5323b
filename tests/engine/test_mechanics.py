"""Focused tests of tricky mechanics, on hand-built positions of the 2-player board.

2p board facts used here: 1 mountain (cavern, mine, edge), 2 farmland (lost tribe, edge),
4 farmland (magic, edge), 5 hill (lost tribe, inland), 7 forest (lost tribe, inland),
8 forest (mine, edge), 9 lake, 11 mountain (inland), 0 and 19 seas.
"""

from __future__ import annotations

import json

import pytest

import engine
from engine import Stage

ALL_R = engine.data.RACES
ALL_P = engine.data.POWERS


def spec(seats: dict, regions: dict | None = None, *, dice=None, current="ann", row=None,
         stack=None, round_=3) -> dict:
    used_r = {c["race"] for s in seats.values() for c in [s.get("active") or {}] if c}
    used_r |= {d["race"] for s in seats.values() for d in s.get("decline", [])}
    used_p = {c["power"] for s in seats.values() for c in [s.get("active") or {}] if c}
    used_p |= {d["power"] for s in seats.values() for d in s.get("decline", [])}
    free_r = [r for r in ALL_R if r not in used_r]
    free_p = [p for p in ALL_P if p not in used_p]
    d = {"board": "official-2p", "players": ["ann", "bob"], "seed": 3, "round": round_,
         "current": current, "seats": seats,
         "row": row or [{"race": free_r[i], "power": free_p[i], "coins": 0} for i in range(6)]}
    if regions is not None:
        d["regions"] = {str(k): v for k, v in regions.items()}
    if dice is not None:
        d["dice"] = dice
    if stack is not None:
        d["stack"] = stack
    return d


def act(race, power, hand=0):
    return {"race": race, "power": power, "hand": hand}


def reg(owner, race, tokens=1, decline=False, pieces=()):
    return {"owner": owner, "race": race, "tokens": tokens, "decline": decline,
            "pieces": list(pieces)}


def run(state, *lines):
    events = []
    for line in lines:
        step = engine.apply(state, engine.parse_action(line))
        state = step.state
        events += step.events
    return state, events


def refused(state, line, code=None, *parts):
    before = engine.dump_state(state)
    with pytest.raises(engine.RulesViolation) as info:
        engine.apply(state, engine.parse_action(line))
    assert engine.dump_state(state) == before
    if code:
        assert info.value.code == code, info.value.message
    for p in parts:
        assert str(p) in info.value.message, info.value.message
    return info.value


def C(p, r, race=None):
    d = {"do": "conquer", "player": p, "region": r}
    if race:
        d["race"] = race
    return d


def D(p, r, n):
    return {"do": "deploy", "player": p, "region": r, "count": n}


def END(p):
    return {"do": "end", "player": p}


def obs(s, viewer=None):
    return engine.observe(s, viewer)


def coins(s, p):
    return obs(s, p)["players"][p]["coins"]


# ---------------------------------------------------------------- picking


def test_pick_pays_one_coin_per_combo_above_and_collects() -> None:
    row = [{"race": r, "power": p, "coins": c} for r, p, c in [
        ("Ratmen", "Merchant", 0), ("Orcs", "Hill", 0), ("Skeletons", "Commando", 4),
        ("Elves", "Forest", 0), ("Giants", "Swamp", 0), ("Trolls", "Wealthy", 0)]]
    s = engine.load_scenario(spec({"ann": {"coins": 2}, "bob": {}}, row=row, current="ann",
                                  stack={"races": ["Dwarves"], "powers": ["Flying"]}))
    assert s.stage is Stage.PICK
    legal = {a.slot for a in engine.legal_actions(s)}
    assert legal == {0, 1, 2}
    refused(s, {"do": "pick", "player": "ann", "slot": 3}, "cannot_afford", 3, 2)
    s2, ev = run(s, {"do": "pick", "player": "ann", "slot": 2})
    o = obs(s2, "ann")
    assert o["players"]["ann"]["coins"] == 2 - 2 + 4
    assert [c["coins_on_combo"] for c in o["row"][:2]] == [1, 1]
    assert o["row"][-1]["race"] == "Dwarves" and o["row"][-1]["power"] == "Flying"
    assert o["players"]["ann"]["hand"] == 6 + 4  # Skeletons 6 + Commando 4
    assert any(e["type"] == "drew" for e in ev)
    assert engine.apply(s, engine.parse_action({"do": "pick", "player": "ann", "slot": 2})).reveals


def test_new_game_setup_from_seed() -> None:
    s = engine.new_game("official-5p", ["a", "b", "c", "d", "e"], 42)
    o = obs(s, None)
    assert len(o["row"]) == 6 and [c["cost"] for c in o["row"]] == list(range(6))
    lost = [int(k) for k, v in o["regions"].items() if v.get("lost_tribe")]
    b = engine.data.board("official-5p")
    assert sorted(lost) == [r.id for r in b.regions if "lost_tribe" in r.symbols]
    assert all(coins(s, p) == 5 for p in "abcde")
    assert o["rounds"] == 8 and o["round"] == 1 and s.actor == "a"
    assert engine.new_game("official-5p", list("abcde"), 43).row != s.row


# ---------------------------------------------------------------- costs


def test_cost_formula_terms_and_floor() -> None:
    seats = {"ann": {"active": act("Ratmen", "Commando", 10)},
             "bob": {"active": act("Trolls", "Fortified"), "decline": []}}
    regions = {4: reg("ann", "Ratmen", 1),
               1: reg("bob", "Trolls", 2, pieces=["troll_lair", "fortress"])}
    s = engine.load_scenario(spec(seats, regions))
    # 2 + mountain 1 + lair 1 + fortress 1 + 2 tokens - Commando 1 = 6
    assert engine.conquest_cost(s, 0, 1, s.seats[0].active, True) == 6
    s2, ev = run(s, C("ann", 1))
    assert obs(s2)["regions"]["1"]["tokens"] == 6
    assert obs(s2)["regions"]["1"]["pieces"] == []
    e = next(e for e in ev if e["type"] == "conquered")
    assert e["lost"] == 1 and e["defender"] == "bob"
    # Commando on an empty farmland: max(1, 2 - 1) = 1
    assert engine.conquest_cost(s, 0, 8, s.seats[0].active, True) == 1


def test_not_adjacent_and_not_entry_messages() -> None:
    seats = {"ann": {"active": act("Orcs", "Hill", 3)}, "bob": {}}
    s = engine.load_scenario(spec(seats, {4: reg("ann", "Orcs", 1)}))
    refused(s, C("ann", 17), "not_adjacent", "17", "Orcs")
    s = engine.load_scenario(spec(seats, {}))
    refused(s, C("ann", 5), "not_entry_region", "5")
    refused(s, C("ann", 0), "water", "0")
    seats["ann"]["active"]["hand"] = 2
    s = engine.load_scenario(spec(seats, {5: {"lost_tribe": True}, 4: reg("ann", "Orcs", 1)}))
    err = refused(s, C("ann", 5), "not_enough_tokens", "5", "3", "2")  # hill + tribe = 3
    assert "in hand" in err.message


def test_halflings_enter_anywhere_with_holes_then_immune() -> None:
    seats = {"ann": {"active": act("Halflings", "Hill", 9)}, "bob": {"active": act("Orcs", "Swamp", 9)}}
    s = engine.load_scenario(spec(seats, {}))
    s, _ = run(s, C("ann", 5), C("ann", 7), C("ann", 12))
    o = obs(s)
    assert "hole" in o["regions"]["5"]["pieces"] and "hole" in o["regions"]["7"]["pieces"]
    assert "hole" not in o["regions"]["12"]["pieces"]
    s, _ = run(s, D("ann", 12, obs(s)["players"]["ann"]["hand"]), END("ann"))
    s, _ = run(s, C("bob", 4))
    refused(s, C("bob", 5), "immune", "5")


# ---------------------------------------------------------------- defenders


def test_defender_loses_one_and_redeploys_at_end_of_turn() -> None:
    seats = {"ann": {"active": act("Ratmen", "Alchemist", 8)},
             "bob": {"active": act("Orcs", "Hill")}}
    regions = {4: reg("ann", "Ratmen", 1), 8: reg("bob", "Orcs", 3), 11: reg("bob", "Orcs", 1)}
    s = engine.load_scenario(spec(seats, regions))
    s, _ = run(s, C("ann", 8))
    assert obs(s)["players"]["bob"]["hand"] == 2
    s, _ = run(s, D("ann", 8, 3), END("ann"))
    o = obs(s)
    assert o["stage"] == "survivors" and s.actor == "bob" and o["current"] == "ann"
    assert o["pending"][0] == {"player": "bob", "must": "deploy", "tokens": 2, "race": "Orcs",
                               "regions": [11]}
    refused(s, END("bob"), "hand_not_empty", "2")
    refused(s, D("ann", 8, 1), "not_your_turn", "bob")
    s, ev = run(s, D("bob", 11, 2))
    assert {"type": "deployed", "player": "bob", "region": 11, "count": 2, "survivors": True} in ev
    # bob's turn began: the 3 tokens on 11 were readied, one stays
    assert obs(s)["regions"]["11"]["tokens"] == 1 and obs(s)["players"]["bob"]["hand"] == 2
    assert s.actor == "bob"
    assert obs(s)["stage"] == "conquest"
    assert any(e["type"] == "turn_started" and e["player"] == "bob" for e in ev)


def test_defender_without_regions_keeps_tokens_in_hand() -> None:
    seats = {"ann": {"active": act("Ratmen", "Alchemist", 8)},
             "bob": {"active": act("Orcs", "Hill")}}
    s = engine.load_scenario(spec(seats, {4: reg("ann", "Ratmen", 1), 8: reg("bob", "Orcs", 3)}))
    s, _ = run(s, C("ann", 8), D("ann", 8, 3), END("ann"))
    assert obs(s)["pending"] == [] and s.actor == "bob"
    assert obs(s)["players"]["bob"]["hand"] == 2
    refused(s, C("bob", 5), "not_entry_region")
    s, _ = run(s, C("bob", 2))  # re-enter at the edge


def test_elves_lose_nothing_but_converted_elf_is_lost() -> None:
    seats = {"ann": {"active": act("Sorcerers", "Alchemist", 10)},
             "bob": {"active": act("Elves", "Hill")}}
    regions = {4: reg("ann", "Sorcerers", 1), 8: reg("bob", "Elves", 2), 1: reg("bob", "Elves", 1),
               11: reg("bob", "Elves", 1)}
    s = engine.load_scenario(spec(seats, regions))
    s2, ev = run(s, C("ann", 8))
    assert next(e for e in ev if e["type"] == "conquered")["lost"] == 0
    assert obs(s2)["players"]["bob"]["hand"] == 2
    s3, ev = run(s, {"do": "enchant", "player": "ann", "region": 1})
    assert obs(s3)["regions"]["1"] == {"owner": "ann", "race": "Sorcerers", "tokens": 1,
                                       "decline": False, "pieces": []}
    assert obs(s3)["players"]["bob"]["hand"] == 0
    assert obs(s3)["players"]["ann"]["hand"] == 10  # the new Sorcerer came from the tray
    refused(s3, {"do": "enchant", "player": "ann", "region": 11}, "already_used", "bob")


def test_enchant_needs_lone_token_without_encampment_and_tokens_in_tray() -> None:
    seats = {"ann": {"active": act("Sorcerers", "Alchemist", 1)},
             "bob": {"active": act("Trolls", "Bivouacking")}}
    regions = {4: reg("ann", "Sorcerers", 16), 1: reg("bob", "Trolls", 1, pieces=["encampment"]),
               8: reg("bob", "Trolls", 1, pieces=["troll_lair"]), 5: reg("bob", "Trolls", 2)}
    s = engine.load_scenario(spec(seats, regions))
    assert obs(s)["players"]["ann"]["hand"] == 16  # readied 15 + 1; one left in the tray
    refused(s, {"do": "enchant", "player": "ann", "region": 1}, "bad_target", "encampment")
    refused(s, {"do": "enchant", "player": "ann", "region": 5}, "bad_target", "2")
    s2, _ = run(s, {"do": "enchant", "player": "ann", "region": 8})
    assert obs(s2)["regions"]["8"]["pieces"] == []  # the lair goes with the troll
    full = dict(regions)
    full[4] = reg("ann", "Sorcerers", 17)
    s = engine.load_scenario(spec(seats, full))
    refused(s, {"do": "enchant", "player": "ann", "region": 8}, "tray_empty")


# ---------------------------------------------------------------- the die


def test_reinforcement_die_success_and_failure() -> None:
    seats = {"ann": {"active": act("Ratmen", "Hill", 1)}, "bob": {"active": act("Orcs", "Swamp")}}
    regions = {4: reg("ann", "Ratmen", 1), 5: {"lost_tribe": True}, 8: reg("bob", "Orcs", 3)}
    base = spec(seats, regions, dice=[2, 0])
    s = engine.load_scenario(base)
    assert obs(s)["players"]["ann"]["hand"] == 1
    refused(s, {"do": "reinforce", "player": "ann", "region": 8}, "not_eligible", "5", "4")
    s2, ev = run(s, {"do": "reinforce", "player": "ann", "region": 5})  # cost 3, short 2, roll 2
    assert [e["value"] for e in ev if e["type"] == "rolled"] == [2]
    assert obs(s2)["regions"]["5"]["owner"] == "ann" and obs(s2)["stage"] == "redeploy"
    refused(s2, C("ann", 7), "conquests_over")
    base["dice"] = [0]
    s3, ev = run(engine.load_scenario(base), {"do": "reinforce", "player": "ann", "region": 5})
    assert any(e["type"] == "reinforce_failed" for e in ev)
    assert obs(s3)["players"]["ann"]["hand"] == 1 and obs(s3)["regions"]["5"]["lost_tribe"]


def test_berserk_rolls_before_each_conquest() -> None:
    seats = {"ann": {"active": act("Ratmen", "Berserk", 2)}, "bob": {}}
    s = engine.load_scenario(spec(seats, {4: reg("ann", "Ratmen", 1), 5: {"lost_tribe": True}},
                                  dice=[3, 1]))
    assert not any(a.do == "reinforce" for a in engine.legal_actions(s))
    s, _ = run(s, {"do": "roll", "player": "ann"})
    refused(s, {"do": "roll", "player": "ann"}, "already_used", "3")
    s, _ = run(s, C("ann", 5))  # cost 3 - 3 = 0 -> 1
    assert obs(s)["regions"]["5"]["tokens"] == 1
    s, _ = run(s, {"do": "roll", "player": "ann"})  # 1
    refused(s, C("ann", 1), "not_enough_tokens", "1", "roll of 1")  # 3 - 1 = 2 > 1


# ---------------------------------------------------------------- decline


def test_decline_keeps_one_per_region_removes_old_decline_and_scores() -> None:
    seats = {"ann": {"coins": 0, "active": act("Orcs", "Merchant", 2),
                     "decline": [{"race": "Elves", "power": "Forest"}]},
             "bob": {}}
    regions = {4: reg("ann", "Orcs", 3), 8: reg("ann", "Orcs", 2), 1: reg("ann", "Elves", 1, True)}
    s = engine.load_scenario(spec(seats, regions))
    assert obs(s)["players"]["ann"]["hand"] == 2 + 3
    s2, ev = run(s, {"do": "decline", "player": "ann"})
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
    seats = {"ann": {"active": act("Orcs", "Merchant", 3)}, "bob": {}}
    s = engine.load_scenario(spec(seats, {4: reg("ann", "Orcs", 1)}))
    s1, _ = run(s, C("ann", 8))
    refused(s1, {"do": "decline", "player": "ann"}, "cannot_decline")
    seats["ann"]["active"] = act("Orcs", "Stout", 3)
    seats["ann"]["coins"] = 0
    s = engine.load_scenario(spec(seats, {4: reg("ann", "Orcs", 1)}))
    s, _ = run(s, C("ann", 8))
    s, ev = run(s, D("ann", 8, 1), {"do": "decline", "player": "ann"})
    types = [e["type"] for e in ev]
    assert types.index("scored") < types.index("declined")
    # a token left in hand is put on a region before scoring (§6.5: nothing stays in hand)
    s2, ev = run(engine.load_scenario(spec(seats, {4: reg("ann", "Orcs", 1)})), C("ann", 8),
                 {"do": "decline", "player": "ann"})
    assert {"type": "deployed", "player": "ann", "region": 4, "count": 1, "auto": True} in ev
    assert coins(s2, "ann") == 2
    assert coins(s, "ann") == 2  # 2 regions; 8 was empty, so no Orc bonus
    assert obs(s)["regions"]["8"]["decline"] is True


def test_spirit_decline_is_kept_beside_another() -> None:
    seats = {"ann": {"active": act("Ratmen", "Spirit"), "decline": [{"race": "Elves", "power": "Forest"}]},
             "bob": {}}
    regions = {4: reg("ann", "Ratmen", 2), 1: reg("ann", "Elves", 1, True)}
    s = engine.load_scenario(spec(seats, regions))
    s, _ = run(s, {"do": "decline", "player": "ann"})
    assert sorted(d["race"] for d in obs(s)["players"]["ann"]["decline"]) == ["Elves", "Ratmen"]
    assert "Spirit" not in s.discards


def test_ghouls_in_decline_conquer_first() -> None:
    seats = {"ann": {"active": act("Ratmen", "Hill", 3), "decline": [{"race": "Ghouls", "power": "Forest"}]},
             "bob": {}}
    regions = {4: reg("ann", "Ghouls", 4, True), 18: reg("ann", "Ratmen", 1)}
    s = engine.load_scenario(spec(seats, regions))
    o = obs(s)
    assert o["players"]["ann"]["decline"][0]["hand"] == 3
    s, _ = run(s, C("ann", 8, "decline"))
    assert obs(s)["regions"]["8"]["decline"] is True and obs(s)["regions"]["8"]["race"] == "Ghouls"
    # one Ghoul left in hand: when the Active race acts it stands again where it was lifted
    s2, _ = run(s, C("ann", 16))
    assert obs(s2)["regions"]["4"]["tokens"] == 2 and obs(s2)["players"]["ann"]["decline"][0]["hand"] == 0
    s, _ = run(s, D("ann", 4, 1), C("ann", 16))
    assert obs(s)["regions"]["4"]["tokens"] == 2
    refused(s, C("ann", 5, "decline"), "conquests_over")


def test_ghouls_keep_all_tokens_on_decline() -> None:
    seats = {"ann": {"active": act("Ghouls", "Hill")}, "bob": {}}
    s = engine.load_scenario(spec(seats, {4: reg("ann", "Ghouls", 4), 8: reg("ann", "Ghouls", 2)}))
    s, _ = run(s, {"do": "decline", "player": "ann"})
    assert obs(s)["regions"]["4"]["tokens"] == 4 and obs(s)["regions"]["8"]["tokens"] == 2


# ---------------------------------------------------------------- races and powers


def test_amazons_keep_four_back_after_redeployment() -> None:
    seats = {"ann": {"active": act("Amazons", "Hill", 4)}, "bob": {}}
    s = engine.load_scenario(spec(seats, {4: reg("ann", "Amazons", 3), 8: reg("ann", "Amazons", 1)}))
    assert obs(s)["players"]["ann"]["hand"] == 6
    s, _ = run(s, C("ann", 1))  # mountain: 3
    s, ev = run(s, D("ann", 1, 3), END("ann"))
    o = obs(s)
    assert o["players"]["ann"]["hand"] == 4
    assert o["players"]["ann"]["active"]["tokens_on_board"] == 8 - 4
    assert all(o["regions"][r]["tokens"] >= 1 for r in ("1", "4", "8"))


def test_skeletons_bonus_on_redeploy_capped_by_tray() -> None:
    seats = {"ann": {"active": act("Skeletons", "Hill", 9)}, "bob": {}}
    regions = {4: reg("ann", "Skeletons", 1), 2: {"lost_tribe": True}, 5: {"lost_tribe": True}}
    s = engine.load_scenario(spec(seats, regions))
    s, _ = run(s, C("ann", 5), C("ann", 2), C("ann", 8))
    h = obs(s)["players"]["ann"]["hand"]
    s, ev = run(s, D("ann", 8, h))
    assert any(e["type"] == "bonus_tokens" and e["tokens"] == 1 for e in ev)
    assert obs(s)["players"]["ann"]["hand"] == 1
    s, ev = run(s, END("ann"))  # the bonus token left in hand goes on the thinnest region
    assert sum(e["count"] for e in ev if e["type"] == "deployed" and e.get("auto")) == 1


def test_dragon_master_one_token_and_immunity() -> None:
    seats = {"ann": {"active": act("Ratmen", "Dragon Master", 3)}, "bob": {"active": act("Orcs", "Hill")}}
    regions = {4: reg("ann", "Ratmen", 1), 1: reg("bob", "Orcs", 4, pieces=[]), 11: reg("bob", "Orcs", 1)}
    s = engine.load_scenario(spec(seats, regions))
    s, _ = run(s, {"do": "dragon", "player": "ann", "region": 1})
    o = obs(s)
    assert o["regions"]["1"]["tokens"] == 1 and "dragon" in o["regions"]["1"]["pieces"]
    refused(s, {"do": "dragon", "player": "ann", "region": 5}, "already_used")
    s, _ = run(s, D("ann", 1, 2), END("ann"), D("bob", 11, 3))
    refused(s, C("bob", 1), "immune", "Dragon")


def test_heroes_placed_at_end_make_regions_immune() -> None:
    seats = {"ann": {"active": act("Ratmen", "Heroic")}, "bob": {"active": act("Orcs", "Commando", 9)}}
    regions = {4: reg("ann", "Ratmen", 1), 8: reg("ann", "Ratmen", 1), 1: reg("ann", "Ratmen", 3),
               11: reg("bob", "Orcs", 1)}
    s = engine.load_scenario(spec(seats, regions))
    s, _ = run(s, {"do": "place", "player": "ann", "piece": "hero", "region": 4})
    refused(s, {"do": "place", "player": "ann", "piece": "hero", "region": 4}, "piece_limit", "4")
    s, ev = run(s, D("ann", 4, 2), END("ann"))
    o = obs(s)
    heroes = [r for r, v in o["regions"].items() if "hero" in v.get("pieces", [])]
    assert len(heroes) == 2 and "4" in heroes
    other = next(int(r) for r in heroes if r != "4")
    refused(s, C("bob", other), "immune")


def test_diplomat_peace_binds_ally_until_next_turn() -> None:
    seats = {"ann": {"active": act("Ratmen", "Diplomat", 3)}, "bob": {"active": act("Orcs", "Hill", 6)}}
    regions = {4: reg("ann", "Ratmen", 1), 8: reg("bob", "Orcs", 1), 11: reg("bob", "Orcs", 1)}
    s = engine.load_scenario(spec(seats, regions))
    s1, _ = run(s, C("ann", 8))
    refused(s1, {"do": "ally", "player": "ann", "target": "bob"}, "bad_target", "bob")
    s, _ = run(s, {"do": "ally", "player": "ann", "target": "bob"}, D("ann", 4, 3), END("ann"))
    assert obs(s)["peace"] == [{"player": "ann", "ally": "bob"}]
    refused(s, C("bob", 4), "at_peace", "4")
    s, _ = run(s, C("bob", 5))
    s, _ = run(s, D("bob", 5, obs(s)["players"]["bob"]["hand"]), END("bob"))
    assert obs(s)["peace"] == []


def test_fortified_wealthy_and_scoring_bonuses() -> None:
    seats = {"ann": {"coins": 0, "active": act("Humans", "Fortified")}, "bob": {}}
    s = engine.load_scenario(spec(seats, {4: reg("ann", "Humans", 2), 8: reg("ann", "Humans", 1)}))
    s, _ = run(s, {"do": "place", "player": "ann", "piece": "fortress", "region": 8})
    refused(s, {"do": "place", "player": "ann", "piece": "fortress", "region": 4}, "already_used")
    s, ev = run(s, D("ann", 4, 1), END("ann"))
    # 2 regions + Humans farmland (4) 1 + fortress 1 = 4
    assert coins(s, "ann") == 4
    scored = next(e for e in ev if e["type"] == "scored")
    assert scored["private"] and engine.public_events([scored]) == [{"type": "scored", "player": "ann"}]


def test_underworld_caverns_adjacent_and_cheaper() -> None:
    seats = {"ann": {"active": act("Ratmen", "Underworld", 5)}, "bob": {}}
    s = engine.load_scenario(spec(seats, {1: reg("ann", "Ratmen", 1)}))
    legal = {a.region for a in engine.legal_actions(s) if a.do == "conquer"}
    assert {6, 13, 15} <= legal  # caverns far from region 1
    assert engine.conquest_cost(s, 0, 15, s.seats[0].active, True) == 1  # 2 - 1 (no tribe)


def test_seafaring_conquers_water() -> None:
    seats = {"ann": {"active": act("Ratmen", "Seafaring", 3)}, "bob": {"active": act("Orcs", "Hill", 3)}}
    s = engine.load_scenario(spec(seats, {4: reg("ann", "Ratmen", 1), 8: reg("bob", "Orcs", 1)}))
    s, _ = run(s, C("ann", 0))
    assert obs(s)["regions"]["0"]["race"] == "Ratmen"


def test_game_ends_after_last_round_with_shared_win() -> None:
    seats = {"ann": {"coins": 10, "active": act("Orcs", "Hill")},
             "bob": {"coins": 10, "active": act("Ratmen", "Swamp")}}
    regions = {4: reg("ann", "Orcs", 2), 18: reg("bob", "Ratmen", 2)}
    s = engine.load_scenario(spec(seats, regions, round_=10, current="ann"))
    s, _ = run(s, D("ann", 4, 1), END("ann"))
    s, ev = run(s, D("bob", 18, 1), END("bob"))
    assert s.finished and s.actor is None and engine.legal_actions(s) == []
    # ann: 1 region, farmland 4 is not a hill -> 11; bob: 1 region, hill not swamp -> 11
    go = next(e for e in ev if e["type"] == "game_over")
    assert sorted(go["winners"]) == ["ann", "bob"]
    refused(s, END("ann"), "game_over")


def test_dump_load_roundtrip_and_equality() -> None:
    s = engine.new_game("official-3p", ["a", "b", "c"], 9)
    s, _ = run(s, {"do": "pick", "player": "a", "slot": 1})
    d = json.loads(json.dumps(engine.dump_state(s)))
    assert engine.load_state(d) == s
    s2, _ = run(s, engine.legal_actions(s)[0].model_dump(mode="json"))
    assert s2 != s


def test_custom_map_scenario() -> None:
    m = {"board": "tiny", "turns": 2, "regions": [
        {"id": 0, "terrain": "hill", "features": [], "border": True, "entry": True, "neighbours": [1]},
        {"id": 1, "terrain": "forest", "features": ["lost_tribe"], "border": False, "entry": False,
         "neighbours": [0]}]}
    s = engine.load_scenario({"map": m, "players": ["a", "b"], "seed": 1})
    assert obs(s)["regions"]["1"] == {"lost_tribe": True} and obs(s)["rounds"] == 2
    assert obs(s)["board"] == "tiny"


def test_defender_in_survivors_step_may_only_place_survivors() -> None:
    seats = {"ann": {"active": act("Ratmen", "Alchemist", 8)},
             "bob": {"active": act("Orcs", "Stout")}}
    regions = {4: reg("ann", "Ratmen", 1), 8: reg("bob", "Orcs", 3), 11: reg("bob", "Orcs", 1)}
    s = engine.load_scenario(spec(seats, regions))
    s, _ = run(s, C("ann", 8), D("ann", 8, 3), END("ann"))
    assert s.actor == "bob" and s.stage is Stage.SURVIVORS
    refused(s, {"do": "decline", "player": "bob"}, "wrong_stage")
    refused(s, C("bob", 13), "wrong_stage")
    refused(s, {"do": "move", "player": "bob", "from": 11, "to": 8, "count": 1}, "wrong_stage")
    assert {a.do for a in engine.legal_actions(s)} == {"deploy"}


# ---------------------------------------------------------------- incomes and costs by hook

FIVE = (1, 4, 8, 17, 18)  # mountain+mine, farmland+magic, forest+mine, swamp, hill


@pytest.mark.parametrize(("race", "power", "bonus"), [
    ("Ratmen", "Stout", 0), ("Dwarves", "Stout", 2), ("Humans", "Stout", 1),
    ("Wizards", "Stout", 1), ("Ratmen", "Forest", 1), ("Ratmen", "Hill", 1),
    ("Ratmen", "Swamp", 1), ("Ratmen", "Merchant", 5), ("Ratmen", "Alchemist", 2),
    ("Ratmen", "Wealthy", 0), ("Ratmen", "Fortified", 0), ("Orcs", "Pillaging", 0),
])
def test_income_hooks(race: str, power: str, bonus: int) -> None:
    seats = {"ann": {"coins": 0, "active": act(race, power)}, "bob": {}}
    s = engine.load_scenario(spec(seats, {r: reg("ann", race, 1) for r in FIVE}))
    s, ev = run(s, END("ann"))
    assert coins(s, "ann") == 5 + bonus


def test_dwarves_mines_score_in_decline_and_wealthy_pays_on_first_turn() -> None:
    seats = {"ann": {"coins": 0, "decline": [{"race": "Dwarves", "power": "Hill"}]}, "bob": {}}
    s = engine.load_scenario(spec(seats, {r: reg("ann", "Dwarves", 1, True) for r in (1, 8, 17)},
                                  row=[{"race": r, "power": p, "coins": 0} for r, p in [
                                      ("Ratmen", "Wealthy"), ("Orcs", "Forest"),
                                      ("Elves", "Swamp"), ("Giants", "Merchant"),
                                      ("Trolls", "Alchemist"), ("Humans", "Flying")]]))
    s, _ = run(s, {"do": "pick", "player": "ann", "slot": 0}, C("ann", 4))
    s, _ = run(s, D("ann", 4, obs(s)["players"]["ann"]["hand"]), END("ann"))
    # 3 Dwarf regions + 2 mines, 1 Ratmen region + 7 Wealthy
    assert coins(s, "ann") == 3 + 2 + 1 + 7


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
def test_cost_reduction_hooks(race: str, power: str, region: int, cost: int) -> None:
    seats = {"ann": {"active": act(race, power, 5)}, "bob": {}}
    s = engine.load_scenario(spec(seats, {1: reg("ann", race, 1), 4: reg("ann", race, 1)}))
    assert engine.conquest_cost(s, 0, region, s.seats[0].active, True) == cost


def test_trolls_build_lairs_that_defend_and_stay_in_decline() -> None:
    seats = {"ann": {"active": act("Trolls", "Stout", 4)}, "bob": {"active": act("Ratmen", "Hill", 9)}}
    s = engine.load_scenario(spec(seats, {4: reg("ann", "Trolls", 1), 18: reg("bob", "Ratmen", 1)}))
    s, _ = run(s, C("ann", 8))
    assert obs(s)["regions"]["8"]["pieces"] == ["troll_lair"]
    s, _ = run(s, D("ann", 8, 2), {"do": "decline", "player": "ann"})
    assert obs(s)["regions"]["8"] == {"owner": "ann", "race": "Trolls", "tokens": 1,
                                      "decline": True, "pieces": ["troll_lair"]}
    assert engine.conquest_cost(s, 1, 8, s.seats[1].active, True) == 2 + 1 + 1
    refused(s, {"do": "place", "player": "bob", "piece": "troll_lair", "region": 18},
            "not_your_power")


def test_bivouacking_camps_defend_and_are_replaced_after_an_attack() -> None:
    seats = {"ann": {"active": act("Ratmen", "Alchemist", 9)},
             "bob": {"active": act("Humans", "Bivouacking")}}
    regions = {4: reg("ann", "Ratmen", 1),
               8: reg("bob", "Humans", 1, pieces=["encampment", "encampment"]),
               11: reg("bob", "Humans", 1)}
    s = engine.load_scenario(spec(seats, regions))
    assert engine.conquest_cost(s, 0, 8, s.seats[0].active, True) == 2 + 1 + 2
    s, _ = run(s, C("ann", 8), D("ann", 8, 4), END("ann"))
    o = obs(s)
    assert o["pending"] == [{"player": "bob", "must": "place", "piece": "encampment", "count": 2}]
    s, _ = run(s, {"do": "place", "player": "bob", "piece": "encampment", "region": 11})
    assert s.stage is Stage.SURVIVORS
    s, _ = run(s, END("bob"))  # the last camp stays in the box for now
    assert s.actor == "bob" and s.stage is Stage.CONQUEST
    # bob's turn: camps are lifted and may be set up anew; unplaced ones go back at the end
    assert {a.region for a in engine.legal_actions(s) if a.do == "place"} == {11}
    s, _ = run(s, END("bob"))
    assert obs(s)["regions"]["11"]["pieces"] == ["encampment"]


def test_flying_enters_anywhere_but_water() -> None:
    seats = {"ann": {"active": act("Ratmen", "Flying", 5)}, "bob": {}}
    s = engine.load_scenario(spec(seats, {}))
    targets = {a.region for a in engine.legal_actions(s) if a.do == "conquer"}
    assert 5 in targets and 11 in targets and not targets & {0, 9, 19}
    s, _ = run(s, C("ann", 11), C("ann", 21))  # not adjacent to 11: Flying needs no adjacency
    assert obs(s)["regions"]["21"]["owner"] == "ann"


def test_pillaging_and_orcs_count_non_empty_conquests_only() -> None:
    seats = {"ann": {"coins": 0, "active": act("Orcs", "Pillaging", 9)}, "bob": {}}
    s = engine.load_scenario(spec(seats, {4: reg("ann", "Orcs", 1), 5: {"lost_tribe": True}}))
    s, _ = run(s, C("ann", 5), C("ann", 8), C("ann", 1))  # tribe, empty, empty mountain
    s, _ = run(s, D("ann", 1, obs(s)["players"]["ann"]["hand"]), END("ann"))
    assert coins(s, "ann") == 4 + 1 + 1  # 4 regions, Orcs +1, Pillaging +1


def test_options_switch_section_16_alternatives() -> None:
    seats = {"ann": {"active": act("Ratmen", "Hill", 5), "decline": [{"race": "Orcs", "power": "Swamp"}]},
             "bob": {"active": act("Elves", "Forest")}}
    base = spec(seats, {4: reg("ann", "Ratmen", 1), 8: reg("ann", "Orcs", 1, True)})
    s = engine.load_scenario(base)
    assert engine.conquest_cost(s, 0, 8, s.seats[0].active, True) == 3
    s = engine.load_scenario({**base, "options": {"own_decline_counts": False}})
    assert engine.conquest_cost(s, 0, 8, s.seats[0].active, True) == 2
    with pytest.raises(ValueError, match="unknown option"):
        engine.load_scenario({**base, "options": {"no_such_rule": True}})
    sorc = {"ann": {"active": act("Sorcerers", "Hill", 2)}, "bob": {"active": act("Elves", "Forest")}}
    base = spec(sorc, {4: reg("ann", "Sorcerers", 1), 8: reg("bob", "Elves", 1),
                       11: reg("bob", "Elves", 1)})
    s, _ = run(engine.load_scenario({**base, "options": {"elf_lost_to_sorcerers": False}}),
               {"do": "enchant", "player": "ann", "region": 8})
    assert obs(s)["players"]["bob"]["hand"] == 1  # kept, to be redeployed


def test_no_combo_left_to_pick_passes_the_turn() -> None:
    seats = {"ann": {"coins": 0, "decline": [{"race": "Orcs", "power": "Spirit"},
                                             {"race": "Elves", "power": "Hill"}]},
             "bob": {"active": act("Ratmen", "Swamp")}}
    regions = {4: reg("ann", "Orcs", 1, True), 8: reg("ann", "Elves", 1, True),
               18: reg("bob", "Ratmen", 1)}
    d = spec(seats, regions)
    d["row"] = []  # an empty row: nothing to pick
    s = engine.load_scenario(d)
    assert s.stage is Stage.PICK
    assert [a.do for a in engine.legal_actions(s)] == ["end"]
    s, ev = run(s, END("ann"))
    assert coins(s, "ann") == 2 and s.actor == "bob"


def test_own_ghouls_attack_own_active_race_survivors_wait_for_turn_end() -> None:
    seats = {"ann": {"active": act("Elves", "Hill", 0), "decline": [{"race": "Ghouls", "power": "Swamp"}]},
             "bob": {}}
    regions = {4: reg("ann", "Ghouls", 6, True), 8: reg("ann", "Elves", 3), 11: reg("ann", "Elves", 1)}
    s = engine.load_scenario(spec(seats, regions))
    # Ghouls: 5 in hand; region 8 holds 1 Elf after readying: cost 2 + 1 = 3
    s, ev = run(s, C("ann", 8, "decline"))
    assert next(e for e in ev if e["type"] == "conquered")["lost"] == 0  # Active Elves
    assert obs(s)["players"]["ann"]["hand"] == 2 + 1  # readied 2 + 1 survivor
    s, _ = run(s, D("ann", 4, 2), C("ann", 16))  # the survivor is not usable: 2 readied only
    refused(s, C("ann", 12), "no_tokens_in_hand")
    s, _ = run(s, END("ann"))
    assert s.actor == "ann" and obs(s)["pending"][0]["tokens"] == 1
    s, _ = run(s, D("ann", 16, 1))
    assert s.actor == "bob" and obs(s)["regions"]["16"]["tokens"] == 3


def test_last_decline_token_lost_sends_banner_to_the_short_row() -> None:
    seats = {"ann": {"active": act("Ratmen", "Hill", 5)},
             "bob": {"active": act("Orcs", "Swamp"), "decline": [{"race": "Elves", "power": "Forest"}]}}
    d = spec(seats, {4: reg("ann", "Ratmen", 1), 8: reg("bob", "Elves", 1, True),
                     18: reg("bob", "Orcs", 1)})
    d["row"] = d["row"][:5]  # a short row
    d["stack"] = {"races": [], "powers": ["Mounted"]}
    s = engine.load_scenario(d)
    s = engine.load_state({**engine.dump_state(s), "banners": []})  # no banner left in the stack
    s, ev = run(s, C("ann", 8))
    assert [e["type"] for e in ev if e["type"] in ("vanished", "drew")] == ["vanished", "drew"]
    assert obs(s)["row"][5]["race"] == "Elves" and obs(s)["row"][5]["power"] == "Mounted"
    assert obs(s)["players"]["bob"]["decline"] == []


def test_first_placement_sets_camps_and_heroes_up_anew() -> None:
    seats = {"ann": {"active": act("Ratmen", "Bivouacking")}, "bob": {}}
    regions = {4: reg("ann", "Ratmen", 1, pieces=["encampment"] * 2),
               8: reg("ann", "Ratmen", 1, pieces=["encampment"]), 1: reg("ann", "Ratmen", 1)}
    s = engine.load_scenario(spec(seats, regions))
    assert obs(s)["regions"]["4"]["pieces"] == ["encampment"] * 2  # still standing
    # two camps are still in the box: placing one adds it, the others stay (§11.3: moving is
    # optional)
    s, ev = run(s, {"do": "place", "player": "ann", "piece": "encampment", "region": 1})
    assert not any(e["type"] == "lifted" for e in ev)
    s, _ = run(s, END("ann"))
    camps = {k: v["pieces"].count("encampment") for k, v in obs(s)["regions"].items()}
    assert camps == {"1": 1, "4": 2, "8": 1}

    # all five on the map: the first placement sets them up anew; the ones not placed again
    # go back to where they stood
    regions = {4: reg("ann", "Ratmen", 1, pieces=["encampment"] * 3),
               8: reg("ann", "Ratmen", 1, pieces=["encampment"] * 2), 1: reg("ann", "Ratmen", 1)}
    s = engine.load_scenario(spec(seats, regions))
    s, ev = run(s, {"do": "place", "player": "ann", "piece": "encampment", "region": 1})
    assert any(e["type"] == "lifted" and e["regions"] == [4, 4, 4, 8, 8] for e in ev)
    s, _ = run(s, {"do": "place", "player": "ann", "piece": "encampment", "region": 1})
    s, _ = run(s, END("ann"))
    camps = {k: v["pieces"].count("encampment") for k, v in obs(s)["regions"].items()}
    assert camps == {"1": 2, "4": 3, "8": 0}

    seats = {"ann": {"active": act("Ratmen", "Heroic")}, "bob": {}}
    regions = {4: reg("ann", "Ratmen", 1, pieces=["hero"]), 8: reg("ann", "Ratmen", 1, pieces=["hero"]),
               1: reg("ann", "Ratmen", 3)}
    s = engine.load_scenario(spec(seats, regions))
    s, _ = run(s, {"do": "place", "player": "ann", "piece": "hero", "region": 1})
    s, ev = run(s, D("ann", 1, 2), END("ann"))
    heroes = sorted(int(k) for k, v in obs(s)["regions"].items() if "hero" in v["pieces"])
    assert heroes == [1, 4]  # the second Hero went back to its first old spot


def test_moves_keep_one_per_region_and_are_free() -> None:
    # RULES §6.5 "freely", §16 #34: a region that took tokens may give, one that gave may take
    seats = {"ann": {"active": act("Ratmen", "Hill")}, "bob": {}}
    regions = {4: reg("ann", "Ratmen", 4), 8: reg("ann", "Ratmen", 1), 1: reg("ann", "Ratmen", 2)}
    s = engine.load_scenario(spec(seats, regions))
    s, _ = run(s, D("ann", 4, 3), D("ann", 1, 1))  # the readied tokens go back first
    refused(s, {"do": "move", "player": "ann", "from": 4, "to": 8, "count": 4}, "bad_count", "3")
    refused(s, {"do": "move", "player": "ann", "from": 4, "to": 4, "count": 1}, "not_your_region",
            "4")
    s, _ = run(s, {"do": "move", "player": "ann", "from": 4, "to": 8, "count": 2})
    s, _ = run(s, {"do": "move", "player": "ann", "from": 8, "to": 1, "count": 1})
    s, _ = run(s, {"do": "move", "player": "ann", "from": 1, "to": 4, "count": 1})
    assert [obs(s)["regions"][r]["tokens"] for r in ("4", "8", "1")] == [3, 2, 2]
    s, _ = run(s, {"do": "move", "player": "ann", "from": 4, "to": 1, "count": 1})
    assert [obs(s)["regions"][r]["tokens"] for r in ("4", "8", "1")] == [2, 2, 3]
