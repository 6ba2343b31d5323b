"""RULES.md §11.9, §16 #11: Fortified (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

import engine

from ..helpers import (
    abandon,
    act,
    act_events,
    active,
    assert_cost,
    build,
    coins,
    conquer,
    deploy,
    end,
    income,
    load,
    pieces,
    place,
    r,
    ratmen,
    refuse,
    two,
)


def fortified(**extra):
    regions = {6: r("ann", "Ratmen"), 10: r("ann", "Ratmen")}
    regions.update(extra)
    return load(ratmen("Fortified", regions))


def test_fortified_places_and_scores_the_same_turn():
    state = act(fortified(), place("ann", "fortress", 6))
    assert "fortress" in pieces(state, 6)
    _, got = income(state, "ann", end("ann"))
    assert got == 3  # 2 regions + 1 fortress


def test_fortified_once_per_turn():
    state = act(fortified(), place("ann", "fortress", 6))
    refuse(state, place("ann", "fortress", 10))


def test_fortified_one_per_region():
    state = load(ratmen("Fortified", {6: r("ann", "Ratmen", pieces=["fortress"]),
                                       10: r("ann", "Ratmen")}))
    refuse(state, place("ann", "fortress", 6), 6)


def test_fortress_scores_every_turn():
    state = load(ratmen("Fortified", {6: r("ann", "Ratmen", pieces=["fortress"]),
                                       10: r("ann", "Ratmen")}))
    _, got = income(state, "ann", end("ann"))
    assert got == 3


def test_fortress_defends_in_decline_but_scores_nothing():
    spec = two(active("Orcs", "Spirit"), active("Humans", "Alchemist", hand=8),
               {18: r("ann", "Orcs"), 6: r("ann", "Ratmen", decline=True, pieces=["fortress"]),
                2: r("bob", "Humans")},
               ann_decline=[{"race": "Ratmen", "power": "Fortified"}], current="bob")
    assert_cost(spec, "bob", 6, 4)  # 2 + 1 token + 1 fortress
    spec["current"] = "ann"
    spec["seats"]["bob"]["active"]["hand"] = 0
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 2  # Orcs 18 + Ratmen 6, no fortress coin in decline


def test_fortified_at_most_six_on_the_map():
    regions = {rid: r("ann", "Ratmen", pieces=["fortress"]) for rid in (2, 3, 4, 6, 8, 10)}
    regions[18] = r("ann", "Ratmen")
    state = load(ratmen("Fortified", regions))
    refuse(state, place("ann", "fortress", 18))


def test_fortress_defence_and_removal_on_abandon():
    state = load(ratmen("Fortified", {6: r("ann", "Ratmen", 2, pieces=["fortress"]),
                                       10: r("ann", "Ratmen")}))
    state = act(state, abandon("ann", 6))
    assert "fortress" not in pieces(state, 6)


def test_placing_a_fortress_ends_conquests():
    spec = ratmen("Fortified", {12: r("ann", "Ratmen")}, hand_=5)
    state = act(load(spec), place("ann", "fortress", 12))
    refuse(state, conquer("ann", 17))


def test_fortress_scores_and_the_score_event_is_private() -> None:
    seats = {"ann": {"coins": 0, "active": active("Humans", "Fortified")}, "bob": {}}
    s = engine.load_scenario(build(seats=seats,
                                   regions={4: r("ann", "Humans", 2),
                                            8: r("ann", "Humans", 1)}, seed=3))
    s, _ = act_events(s, {"do": "place", "player": "ann", "piece": "fortress", "region": 8})
    refuse(s, {"do": "place", "player": "ann", "piece": "fortress", "region": 4},
           code="already_used")
    s, ev = act_events(s, deploy("ann", 4, 1), end("ann"))
    # 2 regions + Humans farmland (4) 1 + fortress 1 = 4
    assert coins(s, "ann") == 4
    scored = next(e for e in ev if e["type"] == "scored")
    assert scored["private"] and engine.public_events([scored]) == [{"type": "scored",
                                                                     "player": "ann"}]
