"""RULES.md §10.6: Halflings (one file per section of RULES.md §10 races)."""

from __future__ import annotations

import engine

from ..helpers import (
    abandon,
    act,
    act_events,
    active,
    build,
    conquer,
    decline,
    deploy,
    enchant,
    end,
    first_pick,
    hand,
    load,
    obs,
    owner,
    pick,
    pieces,
    r,
    refuse,
    two,
)


def test_halflings_enter_anywhere_and_dig_two_holes():
    state = act(load(first_pick("Halflings", "Spirit")), pick("ann", 0))
    assert hand(state, "ann") == 11  # 6 + 5
    state = act(state, conquer("ann", 16))  # inland farmland: allowed for Halflings
    state = act(state, conquer("ann", 18), conquer("ann", 13))
    assert "hole" in pieces(state, 16)
    assert "hole" in pieces(state, 18)
    assert "hole" not in pieces(state, 13)  # only the first two conquests


def halfling_spec(current="bob"):
    return two(active("Halflings", "Alchemist"), active("Orcs", "Spirit", hand=8),
               {16: r("ann", "Halflings", pieces=["hole"]),
                18: r("ann", "Halflings", pieces=["hole"]),
                13: r("ann", "Halflings"), 11: r("bob", "Orcs")},
               current=current)


def test_halfling_holes_are_immune():
    state = load(halfling_spec())
    refuse(state, conquer("bob", 16), 16)
    state = act(state, conquer("bob", 13))  # no hole: 2 + 1 = 3
    assert owner(state, 13) == "bob"


def test_halfling_holes_removed_on_decline():
    state = act(load(halfling_spec(current="ann")), decline("ann"))
    assert "hole" not in pieces(state, 16) and "hole" not in pieces(state, 18)


def test_halfling_hole_removed_on_abandon():
    state = act(load(halfling_spec(current="ann")), abandon("ann", 16))
    assert "hole" not in pieces(state, 16)
    assert "hole" in pieces(state, 18)


def test_halflings_reenter_anywhere():
    # §10.6 engine decision: "enter anywhere" also after losing every region
    spec = two(active("Halflings", "Alchemist", hand=4), active("Orcs", "Spirit"),
               {20: r("bob", "Orcs")})
    state = act(load(spec), conquer("ann", 16))  # inland farmland
    assert owner(state, 16) == "ann"


def test_halflings_place_no_more_holes_after_two():
    # two holes already on the map: the race's first two conquests are behind it
    spec = two(active("Halflings", "Alchemist", hand=4), active("Orcs", "Spirit"),
               {16: r("ann", "Halflings", pieces=["hole"]),
                18: r("ann", "Halflings", pieces=["hole"]), 20: r("bob", "Orcs")})
    state = act(load(spec), conquer("ann", 22))
    assert "hole" not in pieces(state, 22)


def test_halfling_hole_immune_to_sorcerers():
    spec = two(active("Sorcerers", "Spirit", hand=2), active("Halflings", "Alchemist"),
               {6: r("ann", "Sorcerers", 2), 7: r("bob", "Halflings", pieces=["hole"]),
                20: r("bob", "Halflings")})
    refuse(load(spec), enchant("ann", 7), 7)


def test_halflings_no_new_hole_after_abandoning_one():
    # §16 #16: holes only on the race's first two conquests ever; never placed again
    spec = two(active("Halflings", "Alchemist", hand=4), active("Orcs", "Spirit"),
               {16: r("ann", "Halflings", pieces=["hole"]),
                18: r("ann", "Halflings", pieces=["hole"]), 20: r("bob", "Orcs")})
    state = act(load(spec), abandon("ann", 16), conquer("ann", 22))
    assert "hole" not in pieces(state, 22)
    assert "hole" not in pieces(state, 16)


def test_halflings_enter_anywhere_with_holes_then_immune() -> None:
    seats = {"ann": {"active": active("Halflings", "Hill", 9)},
             "bob": {"active": active("Orcs", "Swamp", 9)}}
    s = engine.load_scenario(build(seats=seats, regions={}, seed=3))
    s, _ = act_events(s, conquer("ann", 5), conquer("ann", 7), conquer("ann", 12))
    o = obs(s)
    assert "hole" in o["regions"]["5"]["pieces"] and "hole" in o["regions"]["7"]["pieces"]
    assert "hole" not in o["regions"]["12"]["pieces"]
    s, _ = act_events(s, deploy("ann", 12, obs(s)["players"]["ann"]["hand"]), end("ann"))
    s, _ = act_events(s, conquer("bob", 4))
    refuse(s, conquer("bob", 5), "5", code="immune")
