"""RULES.md §10.13: Trolls (one file per section of RULES.md §10 races)."""

from __future__ import annotations

import engine

from ..helpers import (
    act,
    act_events,
    active,
    assert_cost,
    build,
    conquer,
    decline,
    deploy,
    load,
    obs,
    pieces,
    r,
    refuse,
    reinforce,
    two,
)


def test_trolls_build_a_lair_where_they_conquer():
    spec = two(active("Trolls", "Spirit", hand=6), active("Orcs", "Alchemist"),
               {6: r("ann", "Trolls", pieces=["troll_lair"]), 20: r("bob", "Orcs")})
    state = act(load(spec), conquer("ann", 10))
    assert "troll_lair" in pieces(state, 10)


def test_troll_lair_adds_one_defence():
    spec = two(active("Trolls", "Spirit"), active("Orcs", "Alchemist", hand=8),
               {10: r("ann", "Trolls", pieces=["troll_lair"]), 14: r("bob", "Orcs")},
               current="bob")
    assert_cost(spec, "bob", 10, 4)  # 2 + 1 troll + 1 lair = 4


def test_troll_lairs_stay_in_decline():
    spec = two(active("Trolls", "Spirit"), active("Orcs", "Alchemist"),
               {10: r("ann", "Trolls", 2, pieces=["troll_lair"]),
                6: r("ann", "Trolls", pieces=["troll_lair"]), 20: r("bob", "Orcs")})
    state = act(load(spec), decline("ann"))
    assert "troll_lair" in pieces(state, 10) and "troll_lair" in pieces(state, 6)


def test_trolls_lair_after_die_conquest():
    spec = two(active("Trolls", "Spirit", hand=1), active("Orcs", "Alchemist"),
               {6: r("ann", "Trolls", pieces=["troll_lair"]), 20: r("bob", "Orcs")}, dice=[3])
    state = act(load(spec), reinforce("ann", 10))  # 2 needed, 1 + 3
    assert "troll_lair" in pieces(state, 10)


def test_trolls_build_lairs_that_defend_and_stay_in_decline() -> None:
    seats = {"ann": {"active": active("Trolls", "Stout", 4)},
             "bob": {"active": active("Ratmen", "Hill", 9)}}
    s = engine.load_scenario(build(seats=seats,
                                   regions={4: r("ann", "Trolls", 1),
                                            18: r("bob", "Ratmen", 1)}, seed=3))
    s, _ = act_events(s, conquer("ann", 8))
    assert obs(s)["regions"]["8"]["pieces"] == ["troll_lair"]
    s, _ = act_events(s, deploy("ann", 8, 2), {"do": "decline", "player": "ann"})
    assert obs(s)["regions"]["8"] == {"owner": "ann", "race": "Trolls", "tokens": 1,
                                      "decline": True, "pieces": ["troll_lair"]}
    assert engine.conquest_cost(s, 1, 8, s.seats[1].active, True) == 2 + 1 + 1
    refuse(s, {"do": "place", "player": "bob", "piece": "troll_lair", "region": 18},
           code="not_your_power")
