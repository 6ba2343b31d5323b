"""RULES.md §11.3: Bivouacking (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

import engine
from engine import Stage

from ..helpers import (
    act,
    act_events,
    active,
    build,
    conquer,
    decline,
    deploy,
    end,
    hand,
    load,
    obs,
    owner,
    pending,
    pieces,
    place,
    r,
    ratmen,
    refuse,
    seat,
    spent,
    two,
)


def bivouac():
    return load(ratmen("Bivouacking", {6: r("ann", "Ratmen"), 10: r("ann", "Ratmen"),
                                        2: r("bob", "Orcs", 9)}))


def test_bivouacking_encampments_defend():
    state = act(bivouac(), place("ann", "encampment", 6), place("ann", "encampment", 6),
                end("ann"))
    assert pieces(state, 6).count("encampment") == 2
    state, used = spent(state, "bob", 6)  # bob readied 8 on 2
    assert used == 5  # 2 + 1 token + 2 encampments


def test_bivouacking_five_encampments_only():
    state = bivouac()
    for _ in range(5):
        state = act(state, place("ann", "encampment", 10))
    refuse(state, place("ann", "encampment", 6))  # a 6th does not exist


def test_bivouacking_only_in_own_regions():
    refuse(bivouac(), place("ann", "encampment", 2), 2)


def test_bivouacking_encampments_removed_on_decline():
    spec = ratmen("Bivouacking", {6: r("ann", "Ratmen", pieces=["encampment", "encampment"]),
                                  10: r("ann", "Ratmen")})
    state = act(load(spec), decline("ann"))
    assert "encampment" not in pieces(state, 6)


def test_placing_an_encampment_ends_conquests():
    spec = ratmen("Bivouacking", {12: r("ann", "Ratmen")}, hand_=5)
    state = act(load(spec), place("ann", "encampment", 12))
    refuse(state, conquer("ann", 17))


def test_encampments_still_shown_when_their_owners_turn_begins():
    # §16 #12: encampments are placed or moved during redeployment, so they stand until then
    spec = two(active("Ratmen", "Spirit"), active("Orcs", "Bivouacking"),
               {6: r("ann", "Ratmen"), 20: r("bob", "Orcs", pieces=["encampment"] * 2),
                22: r("bob", "Orcs")})
    state = act(load(spec), end("ann"))
    assert obs(state)["current"] == "bob"
    assert pieces(state, 20).count("encampment") == 2


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


def test_bivouacking_camps_defend_and_are_replaced_after_an_attack() -> None:
    seats = {"ann": {"active": active("Ratmen", "Alchemist", 9)},
             "bob": {"active": active("Humans", "Bivouacking")}}
    regions = {4: r("ann", "Ratmen", 1),
               8: r("bob", "Humans", 1, pieces=["encampment", "encampment"]),
               11: r("bob", "Humans", 1)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    assert engine.conquest_cost(s, 0, 8, s.seats[0].active, True) == 2 + 1 + 2
    s, _ = act_events(s, conquer("ann", 8), deploy("ann", 8, 4), end("ann"))
    o = obs(s)
    assert o["pending"] == [{"player": "bob", "must": "place", "piece": "encampment", "count": 2}]
    s, _ = act_events(s, {"do": "place", "player": "bob", "piece": "encampment", "region": 11})
    assert s.stage is Stage.SURVIVORS
    s, _ = act_events(s, end("bob"))  # the last camp stays in the box for now
    assert s.actor == "bob" and s.stage is Stage.CONQUEST
    # bob's turn: camps are lifted and may be set up anew; unplaced ones go back at the end
    assert {a.region for a in engine.legal_actions(s) if a.do == "place"} == {11}
    s, _ = act_events(s, end("bob"))
    assert obs(s)["regions"]["11"]["pieces"] == ["encampment"]


def test_first_placement_sets_camps_and_heroes_up_anew() -> None:
    seats = {"ann": {"active": active("Ratmen", "Bivouacking")}, "bob": {}}
    regions = {4: r("ann", "Ratmen", 1, pieces=["encampment"] * 2),
               8: r("ann", "Ratmen", 1, pieces=["encampment"]), 1: r("ann", "Ratmen", 1)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    assert obs(s)["regions"]["4"]["pieces"] == ["encampment"] * 2  # still standing
    # two camps are still in the box: placing one adds it, the others stay (§11.3: moving is
    # optional)
    s, ev = act_events(s, {"do": "place", "player": "ann", "piece": "encampment", "region": 1})
    assert not any(e["type"] == "lifted" for e in ev)
    s, _ = act_events(s, end("ann"))
    camps = {k: v["pieces"].count("encampment") for k, v in obs(s)["regions"].items()}
    assert camps == {"1": 1, "4": 2, "8": 1}

    # all five on the map: the first placement sets them up anew; the ones not placed again
    # go back to where they stood
    regions = {4: r("ann", "Ratmen", 1, pieces=["encampment"] * 3),
               8: r("ann", "Ratmen", 1, pieces=["encampment"] * 2), 1: r("ann", "Ratmen", 1)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    s, ev = act_events(s, {"do": "place", "player": "ann", "piece": "encampment", "region": 1})
    assert any(e["type"] == "lifted" and e["regions"] == [4, 4, 4, 8, 8] for e in ev)
    s, _ = act_events(s, {"do": "place", "player": "ann", "piece": "encampment", "region": 1})
    s, _ = act_events(s, end("ann"))
    camps = {k: v["pieces"].count("encampment") for k, v in obs(s)["regions"].items()}
    assert camps == {"1": 2, "4": 3, "8": 0}

    seats = {"ann": {"active": active("Ratmen", "Heroic")}, "bob": {}}
    regions = {4: r("ann", "Ratmen", 1, pieces=["hero"]), 8: r("ann", "Ratmen", 1, pieces=["hero"]),
               1: r("ann", "Ratmen", 3)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    s, _ = act_events(s, {"do": "place", "player": "ann", "piece": "hero", "region": 1})
    s, ev = act_events(s, deploy("ann", 1, 2), end("ann"))
    heroes = sorted(int(k) for k, v in obs(s)["regions"].items() if "hero" in v["pieces"])
    assert heroes == [1, 4]  # the second Hero went back to its first old spot
