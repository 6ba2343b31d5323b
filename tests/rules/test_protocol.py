"""DESIGN.md engine contract: `python -m engine run` line protocol, observation privacy,
refusals (they name the numbers, never change the state, never crash the CLI), dump/load."""

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
    SCENARIOS,
    act,
    act_events,
    active,
    build,
    conquer,
    decline,
    deploy,
    end,
    finish,
    load,
    move,
    obs,
    pick,
    r,
    refuse,
    reinforce,
    scenario,
    seat,
)

ROOT = Path(__file__).resolve().parents[2]


def run_engine(scenario_path: Path, lines: list[str]) -> list[dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "run", str(scenario_path)],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def test_run_applies_lines_and_reports_errors():
    lines = [
        json.dumps({"do": "conquer", "player": "ann", "region": 14}),  # empty mountain: 3
        "this is not json",
        json.dumps({"do": "conquer", "player": "ann", "region": 16}),  # not next to 12
        json.dumps({"do": "fly", "player": "ann"}),  # unknown verb
        json.dumps({"do": "deploy", "player": "ann", "region": 14, "count": 9}),  # 12 - 3
        json.dumps({"do": "end", "player": "ann"}),
    ]
    out = run_engine(SCENARIOS / "conquest_costs.json", lines)
    assert len(out) == len(lines) + 1
    assert [o.get("ok") for o in out[:-1]] == [True, False, False, False, True, True]
    assert isinstance(out[0]["events"], list)
    assert out[1]["error"]["code"] == "invalid_action"
    assert out[3]["error"]["code"] == "invalid_action"
    assert "16" in out[2]["error"]["message"]
    assert out[2]["error"]["code"] != "invalid_action"
    final = out[-1]["observation"]
    # ann: 12 and 14 scored 1 each (Ratmen/Spirit): 5 + 2 = 7; bob untouched
    assert final["players"]["ann"]["coins"] == 7
    assert final["players"]["bob"]["coins"] == 5
    assert final["regions"]["14"]["owner"] == "ann"
    assert final["regions"]["14"]["tokens"] == 12  # 3 + 9 deployed


def test_run_error_leaves_state_unchanged():
    lines = [
        json.dumps({"do": "conquer", "player": "ann", "region": 9}),  # the lake: refused
        json.dumps({"do": "conquer", "player": "bob", "region": 14}),  # not bob's turn
    ]
    out = run_engine(SCENARIOS / "conquest_costs.json", lines)
    assert [o.get("ok") for o in out[:-1]] == [False, False]
    final = out[-1]["observation"]
    state = load(scenario("conquest_costs"))
    here = obs(state, None)
    assert final["regions"] == here["regions"]
    assert final["round"] == here["round"] and final["current"] == here["current"]
    assert {p: v["hand"] for p, v in final["players"].items()} == {"ann": 12, "bob": 0}
    assert final["players"]["ann"]["coins"] == 5


def contains_key(value, key: str) -> bool:
    if isinstance(value, dict):
        return key in value or any(contains_key(v, key) for v in value.values())
    if isinstance(value, list):
        return any(contains_key(v, key) for v in value)
    return False


def no_secret_coins(o: dict) -> bool:
    """The public view has no "coins" key anywhere (coin totals are private, §7, §16 #26)."""
    return not contains_key(o, "coins")


@pytest.mark.parametrize("name", ["pick_start", "conquest_costs", "end_last_round"])
def test_public_observation_has_no_coins(name):
    assert no_secret_coins(obs(load(scenario(name)), None))


def test_public_observation_has_no_coins_after_play_and_at_the_end():
    state = act(load(scenario("pick_start")), pick("ann", 2), conquer("ann", 18))
    assert no_secret_coins(obs(state, None))
    end_state = finish(load(scenario("end_last_round")), "bob")
    assert obs(end_state)["finished"] is True
    assert no_secret_coins(obs(end_state, None))


def test_viewer_sees_only_own_coins():
    state = load(scenario("score_basic"))
    view = obs(state, "ann")
    assert view["players"]["ann"]["coins"] == 7
    assert "coins" not in view["players"]["bob"]


@pytest.mark.parametrize(
    "line",
    [
        {"do": "pick", "player": "ann", "slot": 3},
        {"do": "conquer", "player": "ann", "region": 14},
        {"do": "conquer", "player": "ann", "region": 14, "race": "decline"},
        {"do": "reinforce", "player": "ann", "region": 14},
        {"do": "deploy", "player": "ann", "region": 14, "count": 2},
        {"do": "move", "player": "ann", "from": 12, "to": 14, "count": 1},
        {"do": "end", "player": "ann"},
    ],
)
def test_action_lines_round_trip(line):
    action = engine.parse_action(line)
    dumped = action.model_dump(mode="json")
    assert {k: v for k, v in dumped.items() if v is not None} == line


def test_malformed_action_is_invalid_action():
    with pytest.raises(engine.InvalidAction) as info:
        engine.parse_action({"do": "conquer", "player": "ann"})  # no region
    assert info.value.code == "invalid_action"


def test_turn_log_replays_to_the_same_state():
    spec = scenario("conquest_costs")
    actions = [conquer("ann", 14), deploy("ann", 14, 9), end("ann")]
    a = act(load(spec), *actions)
    b = act(load(spec), *actions)
    assert engine.dump_state(a) == engine.dump_state(b)


LEGAL_SCENARIOS = ["pick_start", "conquest_costs", "conquest_misc", "defenders", "die",
                   "score_basic", "decline_tritons", "end_last_round"]


@pytest.mark.parametrize("name", LEGAL_SCENARIOS)
def test_every_listed_legal_action_is_accepted(name):
    state = load(scenario(name))
    listed = engine.legal_actions(state)
    assert listed, "someone must be able to act"
    for action in listed:
        engine.apply(state, action)  # must not raise


def test_legal_conquests_match_the_rules():
    state = load(scenario("conquest_costs"))
    targets = {a.model_dump(mode="json")["region"] for a in engine.legal_actions(state)
               if a.model_dump(mode="json")["do"] == "conquer"}
    assert {7, 10, 11, 14, 15, 17} <= targets  # every land neighbour of 12 is affordable
    assert not targets & {9, 12, 16}  # lake, own region, not adjacent


def test_version_counts_applied_actions():
    state = load(scenario("conquest_costs"))
    assert obs(state)["version"] == 0 and state.version == 0
    state = act(state, conquer("ann", 14), deploy("ann", 14, 9))
    assert obs(state)["version"] == 2 and state.version == 2


def test_conquered_event():
    step = engine.apply(load(scenario("defenders")), engine.parse_action(conquer("ann", 2)))
    assert step.reveals is False
    ev = [e for e in step.events if e.get("type") == "conquered"]
    assert ev
    e = ev[0]
    assert (e["player"], e["region"], e["race"], e["tokens"]) == ("ann", 2, "Ratmen", 5)
    assert (e["defender"], e["defender_race"], e["lost"]) == ("bob", "Orcs", 1)


def test_turn_end_events_and_private_score():
    state = act(load(scenario("score_basic")))
    step = engine.apply(state, engine.parse_action(end("ann")))
    types = [e.get("type") for e in step.events]
    assert "turn_ended" in types
    scored = [e for e in step.events if e.get("type") == "scored"]
    assert scored and scored[0]["private"] is True and scored[0]["income"] == 5
    public = engine.public_events(step.events)
    assert not contains_key(public, "coins") and not contains_key(public, "income")
    ended = [e for e in step.events if e.get("type") == "turn_ended"][0]
    assert ended["player"] == "ann" and ended["round"] == 3


def _mid_game_states():
    out = []
    s = act(load(scenario("defenders")), conquer("ann", 2))
    out.append(("after a conquest", s))
    out.append(("survivors pending", finish(s, "ann")))
    out.append(("after a failed roll",
                act(load({**scenario("die"), "dice": [0]}), reinforce("ann", 14))))
    out.append(("after decline", act(load(scenario("decline_tritons")), decline("ann"))))
    out.append(("picking turn", finish(act(load(scenario("decline_tritons")), decline("ann")),
                                       "bob")))
    out.append(("after pick", act(load(scenario("pick_start")), pick("ann", 2))))
    out.append(("encampments to re-place",
                finish(act(load(scenario("conquest_misc")), conquer("ann", 10)), "ann")))
    return out


@pytest.mark.parametrize("idx", range(7))
def test_legal_actions_mid_game_are_accepted(idx):
    label, state = _mid_game_states()[idx]
    listed = engine.legal_actions(state)
    assert listed, label
    for action in listed:
        engine.apply(state, action)
    for action in listed:
        assert action.model_dump(mode="json")["player"] == state.actor, label


def test_pick_draws_and_reveals():
    step = engine.apply(load(scenario("pick_start")), engine.parse_action(pick("ann", 2)))
    assert step.reveals is True  # a new combo was drawn from the stacks
    assert any(e.get("type") == "drew" for e in step.events)


@pytest.mark.parametrize("idx", range(7))
def test_dump_load_round_trip_mid_game(idx):
    label, state = _mid_game_states()[idx]
    again = engine.load_state(json.loads(json.dumps(engine.dump_state(state))))
    assert again == state, label
    assert engine.observe(again, None) == engine.observe(state, None)
    assert [a.model_dump(mode="json") for a in engine.legal_actions(again)] == [
        a.model_dump(mode="json") for a in engine.legal_actions(state)]


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


def test_a_dumped_state_loads_back_equal() -> None:
    s = engine.new_game("official-3p", ["a", "b", "c"], 9)
    s, _ = act_events(s, {"do": "pick", "player": "a", "slot": 1})
    d = json.loads(json.dumps(engine.dump_state(s)))
    assert engine.load_state(d) == s
    s2, _ = act_events(s, engine.legal_actions(s)[0].model_dump(mode="json"))
    assert s2 != s
