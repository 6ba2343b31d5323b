"""RULES.md §11.15: Seafaring (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

import engine

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
    income,
    load,
    obs,
    owner,
    r,
    ratmen,
    refuse,
    region,
    spent,
    two,
)


def test_seafaring_conquers_water_and_keeps_it_in_decline():
    spec = ratmen("Seafaring", {12: r("ann", "Ratmen")}, hand_=4)
    state, used = spent(load(spec), "ann", 9)
    assert used == 2  # the lake as an empty region
    state, got = income(state, "ann", deploy("ann", 9, hand(state, "ann")), end("ann"))
    assert got == 2  # 12 and the lake
    spec2 = ratmen("Seafaring", {12: r("ann", "Ratmen"), 9: r("ann", "Ratmen", 2)})
    state = act(load(spec2), decline("ann"))
    assert owner(state, 9) == "ann" and region(state, 9)["decline"] is True


def test_seafaring_water_gives_adjacency():
    spec = ratmen("Seafaring", {9: r("ann", "Ratmen")}, hand_=4)
    state = act(load(spec), conquer("ann", 5))  # 5 borders the lake
    assert owner(state, 5) == "ann"


def test_only_seafaring_may_attack_water():
    spec = two(active("Orcs", "Spirit", hand=6), active("Ratmen", "Seafaring"),
               {12: r("ann", "Orcs"), 9: r("bob", "Ratmen")})
    refuse(load(spec), conquer("ann", 9), 9)


def test_seafaring_declined_water_scores():
    spec = two(active("Orcs", "Spirit"), active("Humans", "Alchemist"),
               {18: r("ann", "Orcs"), 9: r("ann", "Ratmen", decline=True),
                20: r("bob", "Humans")},
               ann_decline=[{"race": "Ratmen", "power": "Seafaring"}])
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 2  # Orcs 18 + the lake held by the In Decline Seafarers


def test_seafaring_conquers_water() -> None:
    seats = {"ann": {"active": active("Ratmen", "Seafaring", 3)},
             "bob": {"active": active("Orcs", "Hill", 3)}}
    s = engine.load_scenario(build(seats=seats,
                                   regions={4: r("ann", "Ratmen", 1),
                                            8: r("bob", "Orcs", 1)}, seed=3))
    s, _ = act_events(s, conquer("ann", 0))
    assert obs(s)["regions"]["0"]["race"] == "Ratmen"
