"""RULES.md §11.14: Pillaging (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

import engine

from ..helpers import (
    LT,
    act,
    act_events,
    active,
    build,
    coins,
    conquer,
    deploy,
    end,
    hand,
    income,
    load,
    obs,
    r,
    ratmen,
)


def test_pillaging_non_empty_conquests():
    spec = ratmen("Pillaging", {6: r("ann", "Ratmen"), 7: LT}, hand_=6)
    state = act(load(spec), conquer("ann", 7), conquer("ann", 10))  # LT 3 + empty 2
    _, got = income(state, "ann", deploy("ann", 6, hand(state, "ann")), end("ann"))
    assert got == 4  # 3 regions + 1 non-empty (7); 10 was empty


def test_pillaging_own_decline_region_counts():
    spec = ratmen("Pillaging", {12: r("ann", "Ratmen"), 7: r("ann", "Humans", decline=True)},
                  hand_=4, ann_decline=[{"race": "Humans", "power": "Forest"}])
    state = act(load(spec), conquer("ann", 7))  # 2 + 1 own token
    _, got = income(state, "ann", deploy("ann", 7, hand(state, "ann")), end("ann"))
    assert got == 3  # 2 regions + 1 Pillaging (non-empty, §2.4)


def test_pillaging_and_orcs_count_non_empty_conquests_only() -> None:
    seats = {"ann": {"coins": 0, "active": active("Orcs", "Pillaging", 9)}, "bob": {}}
    s = engine.load_scenario(build(seats=seats,
                                   regions={4: r("ann", "Orcs", 1),
                                            5: {"lost_tribe": True}}, seed=3))
    s, _ = act_events(s, conquer("ann", 5), conquer("ann", 8),
                      conquer("ann", 1))  # tribe, empty, empty mountain
    s, _ = act_events(s, deploy("ann", 1, obs(s)["players"]["ann"]["hand"]), end("ann"))
    assert coins(s, "ann") == 4 + 1 + 1  # 4 regions, Orcs +1, Pillaging +1
