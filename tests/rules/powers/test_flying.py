"""RULES.md §11.7, §16 #15: Flying (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

import engine

from ..helpers import (
    act,
    act_events,
    active,
    build,
    conquer,
    load,
    obs,
    owner,
    pick,
    r,
    ratmen,
    ratmen_first_pick,
    refuse,
    spent,
    two,
)


def test_flying_conquers_far_away():
    spec = ratmen("Flying", {6: r("ann", "Ratmen")}, hand_=5)
    state, used = spent(load(spec), "ann", 22)  # far from 6; empty forest
    assert used == 2


def test_flying_not_over_water():
    spec = ratmen("Flying", {6: r("ann", "Ratmen")}, hand_=5)
    refuse(load(spec), conquer("ann", 19), 19)


def test_flying_first_conquest_anywhere():
    state = act(ratmen_first_pick("Flying"), pick("ann", 0))
    state = act(state, conquer("ann", 16))  # inland
    assert owner(state, 16) == "ann"


def test_flying_does_not_bypass_immunity():
    spec = two(active("Ratmen", "Flying", hand=5), active("Orcs", "Heroic"),
               {6: r("ann", "Ratmen"), 20: r("bob", "Orcs", pieces=["hero"]),
                22: r("bob", "Orcs")})
    refuse(load(spec), conquer("ann", 20), 20)


def test_flying_enters_anywhere_but_water() -> None:
    seats = {"ann": {"active": active("Ratmen", "Flying", 5)}, "bob": {}}
    s = engine.load_scenario(build(seats=seats, regions={}, seed=3))
    targets = {a.region for a in engine.legal_actions(s) if a.do == "conquer"}
    assert 5 in targets and 11 in targets and not targets & {0, 9, 19}
    s, _ = act_events(s, conquer("ann", 11),
                      conquer("ann", 21))  # not adjacent to 11: Flying needs no adjacency
    assert obs(s)["regions"]["21"]["owner"] == "ann"
