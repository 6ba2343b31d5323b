"""RULES.md §11.16: Spirit (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

import engine

from ..helpers import (
    act,
    act_events,
    active,
    build,
    decline,
    declines,
    income,
    load,
    obs,
    owner,
    r,
    ratmen,
    region,
    seat,
)


def test_spirit_second_decline_race_stays():
    spec = ratmen("Spirit", {6: r("ann", "Ratmen", 2), 14: r("ann", "Orcs", decline=True)},
                  ann_decline=[{"race": "Orcs", "power": "Alchemist"}])
    spec["seats"]["bob"]["active"] = active("Humans", "Forest")
    spec["regions"]["20"] = r("bob", "Humans")
    state, got = income(load(spec), "ann", decline("ann"))
    assert owner(state, 14) == "ann" and region(state, 6)["decline"] is True
    assert {d["race"] for d in declines(state, "ann")} == {"Orcs", "Ratmen"}
    assert got == 2  # 6 + 14


def test_spirit_stays_when_a_third_race_declines():
    spec = build(
        seats={"ann": seat(5, active("Humans", "Forest"),
                           [{"race": "Ratmen", "power": "Spirit"},
                            {"race": "Orcs", "power": "Alchemist"}]),
               "bob": seat(5, active("Elves", "Hill"))},
        regions={18: r("ann", "Humans"), 6: r("ann", "Ratmen", decline=True),
                 14: r("ann", "Orcs", decline=True), 20: r("bob", "Elves")},
    )
    state = act(load(spec), decline("ann"))
    assert owner(state, 6) == "ann"  # the Spirit race stays
    assert owner(state, 14) is None  # the other In Decline race goes
    assert {d["race"] for d in declines(state, "ann")} == {"Ratmen", "Humans"}


def test_spirit_decline_is_kept_beside_another() -> None:
    seats = {"ann": {"active": active("Ratmen", "Spirit"),
                     "decline": [{"race": "Elves", "power": "Forest"}]},
             "bob": {}}
    regions = {4: r("ann", "Ratmen", 2), 1: r("ann", "Elves", 1, decline=True)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    s, _ = act_events(s, {"do": "decline", "player": "ann"})
    assert sorted(d["race"] for d in obs(s)["players"]["ann"]["decline"]) == ["Elves", "Ratmen"]
    assert "Spirit" not in s.discards
