"""DESIGN.md scenario format: every field loads, a malformed scenario is refused with a
sentence, options switch the §16 alternatives."""

from __future__ import annotations

import io
import json
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
    build,
    coins,
    conquer,
    end,
    hand,
    load,
    obs,
    owner,
    pick,
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


def test_a_scenario_may_bring_its_own_map() -> None:
    m = {"board": "tiny", "turns": 2, "regions": [
        {"id": 0, "terrain": "hill", "features": [], "border": True, "entry": True,
         "neighbours": [1]},
        {"id": 1, "terrain": "forest", "features": ["lost_tribe"], "border": False, "entry": False,
         "neighbours": [0]}]}
    s = engine.load_scenario({"map": m, "players": ["a", "b"], "seed": 1})
    assert obs(s)["regions"]["1"] == {"lost_tribe": True} and obs(s)["rounds"] == 2
    assert obs(s)["board"] == "tiny"


def test_options_switch_the_section_16_alternatives() -> None:
    seats = {"ann": {"active": active("Ratmen", "Hill", 5),
                     "decline": [{"race": "Orcs", "power": "Swamp"}]},
             "bob": {"active": active("Elves", "Forest")}}
    base = build(seats=seats,
                 regions={4: r("ann", "Ratmen", 1), 8: r("ann", "Orcs", 1, decline=True)}, seed=3)
    s = engine.load_scenario(base)
    assert engine.conquest_cost(s, 0, 8, s.seats[0].active, True) == 3
    s = engine.load_scenario({**base, "options": {"own_decline_counts": False}})
    assert engine.conquest_cost(s, 0, 8, s.seats[0].active, True) == 2
    with pytest.raises(ValueError, match="unknown option"):
        engine.load_scenario({**base, "options": {"no_such_rule": True}})
    sorc = {"ann": {"active": active("Sorcerers", "Hill", 2)},
            "bob": {"active": active("Elves", "Forest")}}
    base = build(seats=sorc, regions={4: r("ann", "Sorcerers", 1), 8: r("bob", "Elves", 1),
                       11: r("bob", "Elves", 1)}, seed=3)
    s, _ = act_events(engine.load_scenario({**base, "options": {"elf_lost_to_sorcerers": False}}),
               {"do": "enchant", "player": "ann", "region": 8})
    assert obs(s)["players"]["bob"]["hand"] == 1  # kept, to be redeployed
