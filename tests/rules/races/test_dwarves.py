"""RULES.md §10.2: Dwarves (one file per section of RULES.md §10 races)."""

from __future__ import annotations

import engine

from ..helpers import (
    act_events,
    active,
    build,
    coins,
    conquer,
    decline,
    deploy,
    end,
    income,
    load,
    obs,
    r,
    two,
)


def test_dwarves_score_mines():
    spec = two(active("Dwarves", "Spirit"), active("Orcs", "Alchemist"),
               {8: r("ann", "Dwarves"), 1: r("ann", "Dwarves"), 4: r("ann", "Dwarves"),
                20: r("bob", "Orcs")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 5  # 3 regions + mines on 8 and 1 (4 has none) = 5


def test_dwarves_mines_score_in_decline():
    spec = two(active("Ratmen", "Spirit"), active("Orcs", "Alchemist"),
               {18: r("ann", "Ratmen"), 8: r("ann", "Dwarves", decline=True),
                10: r("ann", "Dwarves", decline=True), 20: r("bob", "Orcs")},
               ann_decline=[{"race": "Dwarves", "power": "Forest"}])
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 5  # Ratmen 1 + Dwarves 2 regions + 2 mines (8, 10); no Forest bonus


def test_dwarves_mines_score_on_the_decline_turn():
    spec = two(active("Dwarves", "Alchemist"), active("Orcs", "Spirit"),
               {8: r("ann", "Dwarves", 2), 1: r("ann", "Dwarves"), 20: r("bob", "Orcs")})
    _, got = income(load(spec), "ann", decline("ann"))
    assert got == 4  # 2 regions + 2 mines; Alchemist's +2 stops (§8.6)


def test_dwarves_mines_score_in_decline_and_wealthy_pays_on_first_turn() -> None:
    seats = {"ann": {"coins": 0, "decline": [{"race": "Dwarves", "power": "Hill"}]}, "bob": {}}
    regions = {rid: r("ann", "Dwarves", 1, decline=True) for rid in (1, 8, 17)}
    row = [{"race": race, "power": p, "coins": 0} for race, p in [
        ("Ratmen", "Wealthy"), ("Orcs", "Forest"), ("Elves", "Swamp"), ("Giants", "Merchant"),
        ("Trolls", "Alchemist"), ("Humans", "Flying")]]
    s = engine.load_scenario(build(seats=seats, regions=regions, row=row, seed=3))
    s, _ = act_events(s, {"do": "pick", "player": "ann", "slot": 0}, conquer("ann", 4))
    s, _ = act_events(s, deploy("ann", 4, obs(s)["players"]["ann"]["hand"]), end("ann"))
    # 3 Dwarf regions + 2 mines, 1 Ratmen region + 7 Wealthy
    assert coins(s, "ann") == 3 + 2 + 1 + 7
