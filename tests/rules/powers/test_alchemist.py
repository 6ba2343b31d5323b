"""RULES.md §11.1: Alchemist (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

from ..helpers import (
    act,
    active,
    conquer,
    decline,
    deploy,
    end,
    hand,
    income,
    load,
    pick,
    r,
    ratmen,
    ratmen_first_pick,
    two,
)


def test_alchemist_two_coins_each_turn():
    spec = ratmen("Alchemist", {6: r("ann", "Ratmen"), 10: r("ann", "Ratmen")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 4  # 2 regions + 2 Alchemist


def test_alchemist_nothing_on_the_decline_turn():
    spec = ratmen("Alchemist", {6: r("ann", "Ratmen"), 10: r("ann", "Ratmen")})
    _, got = income(load(spec), "ann", decline("ann"))
    assert got == 2  # 2 regions, no Alchemist


def test_alchemist_in_decline_pays_nothing():
    spec = two(active("Orcs", "Spirit"), active("Humans", "Forest"),
               {18: r("ann", "Orcs"), 6: r("ann", "Ratmen", decline=True), 20: r("bob", "Humans")},
               ann_decline=[{"race": "Ratmen", "power": "Alchemist"}])
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 2


def test_alchemist_pays_on_the_pick_turn():
    state = act(ratmen_first_pick("Alchemist"), pick("ann", 0), conquer("ann", 18))
    _, got = income(state, "ann", deploy("ann", 18, hand(state, "ann")), end("ann"))
    assert got == 3  # 1 region + 2 Alchemist
