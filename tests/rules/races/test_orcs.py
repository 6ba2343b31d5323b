"""RULES.md §10.8: Orcs (one file per section of RULES.md §10 races)."""

from __future__ import annotations

from ..helpers import (
    LT,
    act,
    active,
    conquer,
    deploy,
    end,
    hand,
    income,
    load,
    r,
    reinforce,
    two,
)


def test_orcs_score_non_empty_conquests():
    spec = two(active("Orcs", "Spirit", hand=9), active("Humans", "Alchemist"),
               {6: r("ann", "Orcs"), 7: LT, 2: r("bob", "Humans"), 20: r("bob", "Humans")})
    state = act(load(spec), conquer("ann", 7), conquer("ann", 2), conquer("ann", 10))
    _, got = income(state, "ann", deploy("ann", 6, hand(state, "ann")), end("ann"))
    # 4 regions (6, 7, 2, 10) + 2 non-empty conquered (7 lost tribe, 2 Humans) = 6
    assert got == 6


def test_e11_orcs_empty_mountain_gives_nothing():
    spec = two(active("Orcs", "Spirit", hand=5), active("Humans", "Alchemist"),
               {10: r("ann", "Orcs"), 20: r("bob", "Humans")})
    state = act(load(spec), conquer("ann", 14))  # empty mountain, cost 3
    _, got = income(state, "ann", deploy("ann", 14, hand(state, "ann")), end("ann"))
    assert got == 2  # 2 regions, the mountain was empty


def test_orcs_no_bonus_for_regions_held_before():
    spec = two(active("Orcs", "Spirit"), active("Humans", "Alchemist"),
               {10: r("ann", "Orcs"), 6: r("ann", "Orcs"), 20: r("bob", "Humans")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 2


def test_orcs_own_decline_region_counts_as_non_empty():
    spec = two(active("Orcs", "Spirit", hand=5), active("Humans", "Alchemist"),
               {12: r("ann", "Orcs"), 7: r("ann", "Wizards", decline=True),
                20: r("bob", "Humans")},
               ann_decline=[{"race": "Wizards", "power": "Forest"}])
    state = act(load(spec), conquer("ann", 7))  # 2 + 1 own token = 3
    _, got = income(state, "ann", deploy("ann", 7, hand(state, "ann")), end("ann"))
    assert got == 3  # 2 regions + 1 non-empty conquered (§2.4: own decline token counts)


def test_orcs_die_conquest_of_lost_tribe_counts():
    spec = two(active("Orcs", "Spirit", hand=2), active("Humans", "Alchemist"),
               {12: r("ann", "Orcs"), 15: LT, 20: r("bob", "Humans")}, dice=[1])
    state = act(load(spec), reinforce("ann", 15))  # 3 needed: 2 + die 1
    _, got = income(state, "ann", end("ann"))
    assert got == 3  # 2 regions + 1 non-empty conquered
