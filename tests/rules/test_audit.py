"""Independent audit of the engine against RULES.md and the DESIGN.md engine contract.

Every expectation is derived by hand from the rule cited in the test's comment; board facts
are those of official-2p (data/boards): e.g. 4 farmland next to 0 sea, 1, 5, 8; 8 forest next
to 4, 5, 9 lake, 11, 13; 11 a mountain next to 8, 9, 12, 13, 15, 16.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.__main__ import run as cli_run

from .helpers import (
    act,
    act_events,
    active,
    apply,
    assert_cost,
    build,
    coins,
    conquer,
    decline,
    declines,
    deploy,
    end,
    hand,
    load,
    move,
    obs,
    owner,
    pending,
    pick,
    pieces,
    place,
    r,
    refuse,
    region,
    reinforce,
    seat,
    tokens,
)

ROOT = Path(__file__).resolve().parents[2]


def subset(got: dict, want: dict) -> None:
    for k, v in want.items():
        assert k in got, f"{k!r} missing from {got!r}"
        assert got[k] == v, f"{k!r}: {got[k]!r} != {v!r}"


# ---------------------------------------------------------------- scenario loading (DESIGN)

FULL_ROW = [
    {"race": "Elves", "power": "Forest", "coins": 0},
    {"race": "Dwarves", "power": "Merchant", "coins": 1},
    {"race": "Giants", "power": "Alchemist", "coins": 0},
    {"race": "Wizards", "power": "Flying", "coins": 2},
    {"race": "Humans", "power": "Commando", "coins": 0},
    {"race": "Trolls", "power": "Wealthy", "coins": 0},
]


def full_spec() -> dict:
    return {
        "board": "official-2p", "players": ["ann", "bob"], "seed": 5, "dice": [2],
        "round": 4, "current": "bob",
        "row": [dict(c) for c in FULL_ROW],
        "stack": {"races": ["Halflings"], "powers": ["Heroic"]},
        "seats": {
            "ann": {"coins": 9, "active": {"race": "Orcs", "power": "Hill", "hand": 0},
                    "decline": [{"race": "Amazons", "power": "Swamp"}]},
            "bob": {"coins": 3, "active": {"race": "Ratmen", "power": "Bivouacking", "hand": 2}},
        },
        "regions": {
            "4": {"owner": "ann", "race": "Orcs", "tokens": 3},
            "8": {"owner": "bob", "race": "Ratmen", "tokens": 2,
                  "pieces": ["encampment", "encampment"]},
            "11": {"owner": "bob", "race": "Ratmen", "tokens": 1},
            "5": {"lost_tribe": True},
            "13": {"owner": "ann", "race": "Amazons", "tokens": 1, "decline": True},
        },
    }


def test_scenario_every_field_loads_into_the_observation():
    # DESIGN scenario + observation: round/current/row coins/seats/regions as given; the
    # position is the start of bob's turn and loading readied bob's Ratmen (8: 2 -> 1),
    # so bob's hand is his 2 plus 1 readied. ann's tokens are not readied (not her turn).
    state = engine.load_scenario(full_spec())
    o = engine.observe(state, "ann")
    subset(o, {"round": 4, "rounds": 10, "current": "bob", "stage": "conquest",
               "finished": False, "pending": [], "winners": None, "ranking": None})
    assert [(c["race"], c["power"], c["coins_on_combo"], c["cost"]) for c in o["row"]] == [
        (c["race"], c["power"], c["coins"], i) for i, c in enumerate(FULL_ROW)]
    ann, bob = o["players"]["ann"], o["players"]["bob"]
    assert list(o["players"]) == ["ann", "bob"]  # seat order
    subset(ann, {"coins": 9, "hand": 0,
                 "active": {"race": "Orcs", "power": "Hill", "tokens_on_board": 3}})
    assert len(ann["decline"]) == 1
    subset(ann["decline"][0], {"race": "Amazons", "power": "Swamp", "tokens_on_board": 1})
    assert "coins" not in bob  # only the viewer's own coins
    subset(bob, {"hand": 3,
                 "active": {"race": "Ratmen", "power": "Bivouacking", "tokens_on_board": 2}})
    regs = o["regions"]
    subset(regs["4"], {"owner": "ann", "race": "Orcs", "tokens": 3, "decline": False})
    subset(regs["8"], {"owner": "bob", "race": "Ratmen", "tokens": 1, "decline": False,
                       "pieces": ["encampment", "encampment"]})
    subset(regs["11"], {"owner": "bob", "race": "Ratmen", "tokens": 1})
    subset(regs["13"], {"owner": "ann", "race": "Amazons", "tokens": 1, "decline": True})
    assert regs["5"].get("lost_tribe") is True
    # with "regions" given, unlisted regions are empty: no lost tribe on 2, 3, 7, ...
    assert {k for k, v in regs.items() if v.get("lost_tribe")} == {"5"}
    assert engine.observe(state, "bob")["players"]["bob"]["coins"] == 3


def test_scenario_forced_die_and_survivors_without_a_region():
    # §6.4: bob (3 in hand) names ann's Orcs region 4 (2 + 3 tokens = 5, 2 short) and the
    # forced die gives 2: 2 + 3 >= 5, all 3 go in. §6.3.4: ann loses 1, keeps 2; her Orcs
    # hold no region any more, so the 2 wait in her hand for her next turn (§6.1 b).
    state = engine.load_scenario(full_spec())
    state, events = act_events(state, reinforce("bob", 4))
    rolled = [e for e in events if e["type"] == "rolled"]
    assert [e["value"] for e in rolled] == [2]
    assert owner(state, 4) == "bob" and tokens(state, 4) == 3
    state = act(state, end("bob"))
    # bob held 8, 11, 4: 3 coins (Bivouacking gives none) -> 3 + 3 = 6
    assert coins(state, "bob") == 6
    o = obs(state)
    assert o["round"] == 5 and o["current"] == "ann"  # bob was the last seat: round 5
    assert hand(state, "ann") == 2
    # first conquest again (§6.1 b): 16 is no entry region, 18 is
    refuse(state, conquer("ann", 16), 16)
    state = act(state, conquer("ann", 18))
    assert owner(state, 18) == "ann"


def test_scenario_stack_is_the_next_draw_and_coins_move_up():
    # §5.6: the combos below the taken one move up with their coins; the new bottom combo is
    # the top of the banner and badge stacks ("stack" in the scenario).
    spec = full_spec()
    spec["current"] = "ann"
    spec["seats"]["ann"] = {"coins": 9, "decline": [{"race": "Amazons", "power": "Swamp"}]}
    spec["regions"] = {"13": {"owner": "ann", "race": "Amazons", "tokens": 1, "decline": True}}
    state = engine.load_scenario(spec)
    assert obs(state)["stage"] == "pick"
    state = act(state, pick("ann", 0))
    row = obs(state, "ann")["row"]
    assert [(c["race"], c["coins_on_combo"]) for c in row[:5]] == [
        ("Dwarves", 1), ("Giants", 0), ("Wizards", 2), ("Humans", 0), ("Trolls", 0)]
    assert (row[5]["race"], row[5]["power"], row[5]["coins_on_combo"]) == ("Halflings", "Heroic", 0)
    # Elves 6 + Forest 4 = 10 tokens in hand
    assert hand(state, "ann") == 10


def test_scenario_region_race_and_decline_flag_may_be_inferred():
    # a region naming the owner's In Decline race stands In Decline; a region naming only the
    # owner takes the owner's one race
    spec = build(seats={"ann": seat(5, active("Orcs", "Hill"),
                                    [{"race": "Elves", "power": "Forest"}]),
                        "bob": seat(5, active("Ratmen", "Swamp"))},
                 regions={5: {"owner": "ann", "race": "Elves"}, 11: {"owner": "bob", "tokens": 2},
                          4: r("ann", "Orcs", 2)})
    state = load(spec)
    assert region(state, 5)["decline"] is True and region(state, 5)["race"] == "Elves"
    assert region(state, 11)["race"] == "Ratmen" and tokens(state, 11) == 2


BAD_SCENARIOS = [
    [],
    {"players": ["a", "b"]},
    {"board": "official-9p", "players": ["a", "b"]},
    {"board": "official-2p", "players": "ab"},
    {"board": "official-2p", "players": ["a"]},
    {"board": "official-2p", "players": ["a", "b", "c", "d", "e", "f"]},
    {"board": "official-2p", "players": ["a", "a"]},
    {"board": "official-2p", "players": ["a", "b"], "seats": []},
    {"board": "official-2p", "players": ["a", "b"], "seats": {"a": 5}},
    {"board": "official-2p", "players": ["a", "b"], "seats": {"z": {}}},
    {"board": "official-2p", "players": ["a", "b"], "seats": {"a": {"coins": -1}}},
    {"board": "official-2p", "players": ["a", "b"],
     "seats": {"a": {"active": {"race": "Orcs", "power": "Hill", "hand": -2}}}},
    {"board": "official-2p", "players": ["a", "b"],
     "seats": {"a": {"active": {"race": "Orcs"}}}},
    {"board": "official-2p", "players": ["a", "b"],
     "seats": {"a": {"active": {"race": "Orks", "power": "Hill"}}}},
    {"board": "official-2p", "players": ["a", "b"], "seats": {"a": {"decline": {"race": "Orcs"}}}},
    {"board": "official-2p", "players": ["a", "b"], "regions": []},
    {"board": "official-2p", "players": ["a", "b"], "regions": {"x": {}}},
    {"board": "official-2p", "players": ["a", "b"], "regions": {"99": {"lost_tribe": True}}},
    {"board": "official-2p", "players": ["a", "b"], "regions": {"1": 5}},
    {"board": "official-2p", "players": ["a", "b"], "regions": {"1": {"pieces": ["castle"]}}},
    {"board": "official-2p", "players": ["a", "b"],
     "regions": {"1": {"owner": "a", "race": "Orcs"}}},
    {"board": "official-2p", "players": ["a", "b"],
     "seats": {"a": {"active": {"race": "Orcs", "power": "Hill"}}},
     "regions": {"1": {"owner": "a", "race": "Orcs", "tokens": 0}}},
    {"board": "official-2p", "players": ["a", "b"],
     "seats": {"a": {"active": {"race": "Orcs", "power": "Hill"}}},
     "regions": {"1": {"owner": "a", "race": "Orcs", "tokens": 11}}},
    {"board": "official-2p", "players": ["a", "b"], "round": 0},
    {"board": "official-2p", "players": ["a", "b"], "round": 11},
    {"board": "official-2p", "players": ["a", "b"], "round": "x"},
    {"board": "official-2p", "players": ["a", "b"], "current": "zed"},
    {"board": "official-2p", "players": ["a", "b"], "dice": 3},
    {"board": "official-2p", "players": ["a", "b"], "dice": [9]},
    {"board": "official-2p", "players": ["a", "b"], "seed": "x"},
    {"board": "official-2p", "players": ["a", "b"], "row": [{"race": "Orcs"}]},
    {"board": "official-2p", "players": ["a", "b"], "row": [{"race": "Orcs", "power": "Hill"}] * 2},
    {"board": "official-2p", "players": ["a", "b"], "stack": {"races": "Orcs"}},
    {"board": "official-2p", "players": ["a", "b"], "options": {"nope": True}},
    {"map": 5, "players": ["a", "b"]},
    {"map": {}, "players": ["a", "b"]},
]


@pytest.mark.parametrize("spec", BAD_SCENARIOS, ids=range(len(BAD_SCENARIOS)))
def test_malformed_scenario_is_a_value_error_with_a_sentence(spec):
    # DESIGN: malformed scenarios give a clear error, not a traceback
    with pytest.raises(ValueError) as info:
        engine.load_scenario(spec)
    assert len(str(info.value)) > 8


def test_cli_reports_malformed_scenarios_without_a_traceback(tmp_path):
    for i, spec in enumerate([*BAD_SCENARIOS[:10], "not json at all"]):
        path = tmp_path / f"bad{i}.json"
        path.write_text(spec if isinstance(spec, str) else json.dumps(spec), encoding="utf-8")
        out = io.StringIO()
        rc = cli_run(str(path), ['{"do": "end", "player": "a"}'], out)
        lines = [json.loads(x) for x in out.getvalue().splitlines()]
        assert rc == 1
        assert lines[0]["ok"] is False and lines[0]["error"]["code"] == "invalid_scenario"
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "run", str(tmp_path / "bad7.json")],
        input="", capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert "Traceback" not in proc.stderr
    assert json.loads(proc.stdout.splitlines()[0])["error"]["code"] == "invalid_scenario"


def test_new_game_needs_two_to_five_players():
    for names in (["a"], ["a", "b", "c", "d", "e", "f"]):
        with pytest.raises(ValueError, match="2-5"):
            engine.new_game("official-2p", names, 1)


# ---------------------------------------------------------------- turn marker (§4, §16 #2)


@pytest.mark.parametrize("board,n,rounds", [("official-2p", 2, 10), ("official-5p", 5, 8)])
def test_game_lasts_exactly_the_track_rounds(board, n, rounds):
    # round 1 is played on space 1; the game ends after the last seat's turn of round `rounds`
    names = ["a", "b", "c", "d", "e"][:n]
    rnd = random.Random(3)
    state = engine.new_game(board, names, 3)
    assert obs(state)["round"] == 1
    turns = []
    while not state.finished:
        step = engine.apply(state, rnd.choice(engine.legal_actions(state)))
        turns += [(e["round"], e["player"]) for e in step.events if e["type"] == "turn_ended"]
        state = step.state
    assert turns == [(k, p) for k in range(1, rounds + 1) for p in names]
    assert obs(state)["round"] == rounds and obs(state)["finished"] is True


# ---------------------------------------------------------------- §6.2 cost formula


def test_cost_counts_mountain_tokens_lair_and_fortress():
    # §6.2: 2 + mountain 1 + 2 Troll tokens + lair 1 + fortress 1 = 7
    spec = build(seats={"ann": seat(5, active("Ratmen", "Hill", 7)),
                        "bob": seat(5, active("Trolls", "Fortified"))},
                 regions={8: r("ann", "Ratmen", 1),
                          11: r("bob", "Trolls", 2, pieces=["troll_lair", "fortress"])})
    assert_cost(spec, "ann", 11, 7)


# ---------------------------------------------------------------- §11.3 encampments


def bivouac_spec() -> dict:
    return build(seats={"ann": seat(5, active("Ratmen", "Bivouacking")),
                        "bob": seat(5, active("Orcs", "Hill", 4))},
                 regions={4: r("ann", "Ratmen", 3, pieces=["encampment", "encampment"]),
                          8: r("ann", "Ratmen", 2), 11: r("bob", "Orcs", 2)})


def test_encampments_standing_stay_when_another_is_placed():
    # §11.3 / §16 #12: placing an encampment from the box does not remove the ones standing
    # (moving them is optional). Readied: 4 -> 1, 8 -> 1, hand 3.
    state = load(bivouac_spec())
    assert hand(state, "ann") == 3
    state = act(state, deploy("ann", 4, 2), deploy("ann", 8, 1), place("ann", "encampment", 8))
    assert pieces(state, 4).count("encampment") == 2
    assert pieces(state, 8).count("encampment") == 1
    state = act(state, end("ann"))
    assert pieces(state, 4).count("encampment") == 2
    assert pieces(state, 8).count("encampment") == 1


def test_encampments_defend_and_return_after_the_attack():
    # §6.2: 8 holds 2 Ratmen + 1 encampment: 2 + 2 + 1 = 5 for bob (Orcs, 1 readied + 4).
    # §11.3: the encampment is not lost; ann re-places it at the end of bob's turn, after
    # placing her 1 surviving Ratman (§6.3.4: 1 lost, 1 survives).
    state = load(bivouac_spec())
    state = act(state, deploy("ann", 4, 2), deploy("ann", 8, 1), place("ann", "encampment", 8),
                end("ann"))
    assert hand(state, "bob") == 5
    state = act(state, conquer("bob", 8))
    assert hand(state, "bob") == 0 and owner(state, 8) == "bob"
    assert "encampment" not in pieces(state, 8)
    state = act(state, end("bob"))
    musts = [(p["player"], p["must"]) for p in pending(state)]
    assert musts == [("ann", "deploy"), ("ann", "place")]
    assert pending(state)[0]["tokens"] == 1
    state = act(state, deploy("ann", 4, 1), place("ann", "encampment", 4))
    assert pieces(state, 4).count("encampment") == 3
    assert obs(state)["current"] == "ann" and pending(state) == []


def test_all_encampments_standing_are_set_up_anew():
    # all 5 on the map: placing one sets them up anew; those not placed again go back where
    # they stood, so the camp on 8 moved to 11 and the others stand still
    spec = build(seats={"ann": seat(5, active("Ratmen", "Bivouacking")),
                        "bob": seat(5, active("Orcs", "Hill"))},
                 regions={4: r("ann", "Ratmen", 1, pieces=["encampment"] * 4),
                          8: r("ann", "Ratmen", 1, pieces=["encampment"]),
                          11: r("ann", "Ratmen", 1), 20: r("bob", "Orcs", 1)})
    state = act(load(spec), place("ann", "encampment", 11), end("ann"))
    camps = {rid: pieces(state, rid).count("encampment") for rid in (4, 8, 11)}
    assert camps == {4: 4, 8: 0, 11: 1}


# ---------------------------------------------------------------- §10.4 In Decline Ghouls


def ghoul_spec(ratmen_hand: int = 0, own_target: bool = False) -> dict:
    regions = {18: r("ann", "Ratmen", 3), 6: r("ann", "Ghouls", 3, decline=True),
               3: r("ann", "Ghouls", 1, decline=True), 20: r("bob", "Orcs", 1)}
    if own_target:
        regions[7] = r("ann", "Ratmen", 1)
    return build(seats={"ann": seat(5, active("Ratmen", "Hill", ratmen_hand),
                                    [{"race": "Ghouls", "power": "Forest"}]),
                        "bob": seat(5, active("Orcs", "Alchemist"))},
                 regions=regions)


def test_ghoul_conquests_are_optional():
    # §10.4 / §16 #20: the In Decline Ghouls *may* conquer first. The Active Ratmen may act
    # at once; the Ghouls readied at the turn's start (6: 3 -> 1) stand there again.
    state = load(ghoul_spec())
    assert tokens(state, 6) == 1
    legal = [a.model_dump(mode="json") for a in engine.legal_actions(state)]
    assert conquer("ann", 16) in legal  # farmland next to 18, cost 2, Ratmen hand 2
    state = act(state, conquer("ann", 16))
    assert owner(state, 16) == "ann" and tokens(state, 6) == 3
    refuse(state, conquer("ann", 2, race="decline"))  # too late for the Ghouls now
    state = act(state, end("ann"))
    assert tokens(state, 6) == 3


def test_active_race_attacking_own_ghouls_faces_all_of_them():
    # §6.3.6 + §16 #9: the own In Decline tokens count; the unused readied Ghouls stand
    # again, so region 6 costs 2 + 3 = 5. Ratmen: 18 readies 2 + 2 = 4 in hand: one short.
    state = load(ghoul_spec(ratmen_hand=2, own_target=True))
    assert hand(state, "ann") == 4
    legal = [a.model_dump(mode="json") for a in engine.legal_actions(state)]
    assert conquer("ann", 6) not in legal and reinforce("ann", 6) in legal
    refuse(state, conquer("ann", 6), 6, 5, 4)
    state = load(ghoul_spec(ratmen_hand=3, own_target=True))
    state = act(state, conquer("ann", 6))
    assert hand(state, "ann") == 0 and region(state, 6)["race"] == "Ratmen"
    # §6.3.4: the Ghouls lose 1 and place the other 2 on their region 3 at the turn's end
    state = act(state, end("ann"))
    assert [(p["player"], p["tokens"]) for p in pending(state)] == [("ann", 2)]
    state = act(state, deploy("ann", 3, 2))
    assert tokens(state, 3) == 3


def test_legal_actions_match_apply_with_ghouls_in_hand():
    # legal_actions lists exactly the actions apply accepts (regions 0-23, counts 1-6)
    for spec in (ghoul_spec(), ghoul_spec(2, True), ghoul_spec(3, True)):
        state = load(spec)
        legal = {json.dumps(a.model_dump(mode="json"), sort_keys=True)
                 for a in engine.legal_actions(state)}
        tried = []
        for rid in range(24):
            tried += [conquer("ann", rid), conquer("ann", rid, "decline"), reinforce("ann", rid),
                      {"do": "reinforce", "player": "ann", "region": rid, "race": "decline"},
                      {"do": "abandon", "player": "ann", "region": rid}]
            tried += [deploy("ann", rid, c) for c in range(1, 7)]
        tried += [decline("ann"), end("ann")]
        for a in tried:
            key = json.dumps(a, sort_keys=True)
            try:
                apply(state, a)
                ok = True
            except engine.RulesViolation:
                ok = False
            assert ok == (key in legal), a


def test_spirit_decline_turn_puts_readied_ghouls_back():
    # §8 / DESIGN: on a decline turn the readied tokens count as never picked up; Spirit
    # (§11.16) keeps the In Decline Ghouls. Score: Orcs 4 and 8 + Ghouls 7 and 12 = 4.
    spec = build(seats={"ann": seat(5, active("Orcs", "Spirit"),
                                    [{"race": "Ghouls", "power": "Hill"}]),
                        "bob": seat(5, active("Ratmen", "Swamp"))},
                 regions={4: r("ann", "Orcs", 3), 8: r("ann", "Orcs", 2),
                          7: r("ann", "Ghouls", 3, decline=True),
                          12: r("ann", "Ghouls", 1, decline=True), 11: r("bob", "Ratmen", 2)})
    state = load(spec)
    assert tokens(state, 7) == 1
    state = act(state, decline("ann"))
    assert [tokens(state, x) for x in (4, 8, 7, 12)] == [1, 1, 3, 1]
    assert coins(state, "ann") == 5 + 4
    assert sorted(d["race"] for d in declines(state, "ann")) == ["Ghouls", "Orcs"]


# ---------------------------------------------------------------- §8.5 vanished banner


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


# ---------------------------------------------------------------- refusals


def test_refusals_name_the_numbers():
    spec = build(seats={"ann": seat(3, None), "bob": seat(5, active("Orcs", "Hill"))},
                 regions={20: r("bob", "Orcs", 1)})
    refuse(load(spec), pick("ann", 4), 4, 3)  # slot 4 costs 4 coins; ann has 3
    spec = build(seats={"ann": seat(5, active("Ratmen", "Hill")), "bob": seat()},
                 regions={4: r("ann", "Ratmen", 3), 8: r("ann", "Ratmen", 1)})
    state = load(spec)  # hand 2
    refuse(state, deploy("ann", 4, 5), 2, 5)
    state = act(state, deploy("ann", 4, 2))
    refuse(state, move("ann", 4, 8, 3), 4, 3, 2)  # 3 tokens there, 1 must stay: at most 2


# ---------------------------------------------------------------- robustness (CLI, refusals)


GARBAGE = [
    "not json", "{}", "[]", "null", "5", '"end"', '{"do":"end"}', '{"do":"fly","player":"P"}',
    '{"do":"conquer","player":"P","region":"3"}', '{"do":"conquer","player":"P","region":-1}',
    '{"do":"conquer","player":"P","region":99999999999999999999999}',
    '{"do":"deploy","player":"P","region":3,"count":-2}',
    '{"do":"deploy","player":"P","region":3,"count":0}',
    '{"do":"move","player":"P","from":1,"to":2,"count":99999}',
    '{"do":"pick","player":"P","slot":7}', '{"do":"pick","player":"nobody","slot":0}',
    '{"do":"ally","player":"P","target":"P"}', '{"do":"place","player":"P","piece":"dragon",'
    '"region":1}', '{"do":"conquer","player":"P","region":1,"extra":1}', "\x00\x01",
    "[" * 3000, '{"do":"deploy","player":"P","region":1,"count":true}',
    '{"do":"enchant","player":"P","region":3}', '{"do":"dragon","player":"P","region":1}',
    '{"do":"roll","player":"P"}', '{"do":"reinforce","player":"P","region":2}',
    '{"do":"decline","player":"P"}', '{"do":"abandon","player":"P","region":0}',
]


def test_cli_never_crashes_on_weird_lines(tmp_path):
    # DESIGN: one reply line per action line, refusals as {"ok": false, ...}, a final
    # observation; never an internal error
    for seed in range(25):
        rnd = random.Random(seed)
        n = rnd.randint(2, 5)
        names = ["a", "b", "c", "d", "e"][:n]
        board = f"official-{n}p"
        state = engine.new_game(board, names, seed)
        lines: list[str] = []
        while not state.finished and len(lines) < 1500:
            if rnd.random() < 0.2:
                lines.append(rnd.choice(GARBAGE).replace('"P"', json.dumps(rnd.choice(names))))
                continue
            action = rnd.choice(engine.legal_actions(state))
            lines.append(json.dumps(action.model_dump(mode="json")))
            state = engine.apply(state, action).state
        path = tmp_path / f"s{seed}.json"
        path.write_text(json.dumps({"board": board, "players": names, "seed": seed}))
        out = io.StringIO()
        assert cli_run(str(path), lines, out) == 0
        replies = [json.loads(x) for x in out.getvalue().splitlines()]
        assert len(replies) == len([x for x in lines if x.strip()]) + 1
        assert "observation" in replies[-1]
        assert all(x.get("ok") or x["error"]["code"] != "internal_error" for x in replies[:-1])


def test_refused_actions_never_change_the_state():
    rnd = random.Random(7)
    kinds = ["pick", "abandon", "conquer", "reinforce", "roll", "decline", "deploy", "move",
             "enchant", "dragon", "place", "ally", "end"]
    for seed in range(6):
        state = engine.new_game("official-3p", ["a", "b", "c"], seed)
        while not state.finished:
            legal = engine.legal_actions(state)
            for _ in range(3):
                who = rnd.choice([state.actor, "a", "b", "c"])
                kind = rnd.choice(kinds)
                line = {"do": kind, "player": who, "region": rnd.randrange(31),
                        "slot": rnd.randrange(6), "count": rnd.choice([1, 2, 5, 40]),
                        "from": rnd.randrange(30), "to": rnd.randrange(30),
                        "piece": rnd.choice(["fortress", "encampment", "hero"]),
                        "target": rnd.choice(["a", "b", "c"])}
                fields = {"pick": ["slot"], "abandon": ["region"], "conquer": ["region"],
                          "reinforce": ["region"], "deploy": ["region", "count"],
                          "move": ["from", "to", "count"], "enchant": ["region"],
                          "dragon": ["region"], "place": ["piece", "region"],
                          "ally": ["target"]}.get(kind, [])
                action = engine.parse_action({"do": kind, "player": who,
                                              **{f: line[f] for f in fields}})
                before = json.dumps(engine.dump_state(state), sort_keys=True)
                try:
                    engine.apply(state, action)
                    assert action in legal, action
                except engine.RulesViolation as exc:
                    assert action not in legal, (action, exc)
                    assert json.dumps(engine.dump_state(state), sort_keys=True) == before
            state = engine.apply(state, rnd.choice(legal)).state


# ---------------------------------------------------------------- §6.4 / §6.5 tokens left in hand


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


# ---------------------------------------------------------------- §5.7 / §8.8 badge reshuffle


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
