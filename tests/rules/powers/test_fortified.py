"""RULES.md §11.9, §16 #11: Fortified (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

from ..helpers import (
    abandon,
    act,
    active,
    assert_cost,
    conquer,
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
