"""RULES.md §10.5: Giants (one file per section of RULES.md §10 races)."""

from __future__ import annotations

from ..helpers import (
    LT,
    active,
    assert_cost,
    load,
    r,
    spent,
    two,
)


def giants(regions, power="Spirit"):
    base = {20: r("bob", "Orcs")}
    base.update(regions)
    return two(active("Giants", power, hand=6), active("Orcs", "Alchemist"), base)


def test_giants_discount_next_to_their_mountain():
    spec = giants({11: r("ann", "Giants", 1)})
    assert_cost(spec, "ann", 16, 1)  # empty farmland next to mountain 11: 2 - 1 = 1


def test_giants_discount_on_lost_tribe():
    spec = giants({11: r("ann", "Giants", 1), 13: LT})
    assert_cost(spec, "ann", 13, 2)  # 2 + 1 lost tribe - 1 Giants = 2


def test_giants_no_discount_away_from_their_mountain():
    spec = giants({11: r("ann", "Giants", 1), 18: r("ann", "Giants", 1)})
    assert_cost(spec, "ann", 22, 2)  # 22 borders 18 (hill) but no Giant mountain


def test_giants_no_discount_from_someone_elses_mountain():
    spec = giants({16: r("ann", "Giants", 1), 11: r("bob", "Orcs", 1)})
    assert_cost(spec, "ann", 13, 2)  # 13 next to bob's mountain 11: plain 2


def test_giants_discount_floor_is_one():
    spec = giants({11: r("ann", "Giants", 1)}, power="Commando")
    assert_cost(spec, "ann", 16, 1)  # 2 - 1 Giants - 1 Commando = 0 -> minimum 1


def test_giants_in_decline_give_no_discount():
    spec = two(active("Ratmen", "Spirit", hand=5), active("Orcs", "Alchemist"),
               {11: r("ann", "Giants", decline=True), 16: r("ann", "Ratmen"),
                20: r("bob", "Orcs")},
               ann_decline=[{"race": "Giants", "power": "Forest"}])
    assert_cost(spec, "ann", 13, 2)  # next to 11, but the Giants are In Decline: 2


def test_giants_discount_from_a_mountain_taken_this_turn():
    spec = two(active("Giants", "Spirit", hand=6), active("Orcs", "Alchemist"),
               {10: r("ann", "Giants"), 20: r("bob", "Orcs")})
    state, used = spent(load(spec), "ann", 14)
    assert used == 3  # mountain 14: 2 + 1 (no Giant mountain next to it yet)
    state, used = spent(state, "ann", 17)
    assert used == 1  # empty swamp next to the Giants' new mountain 14: 2 - 1
