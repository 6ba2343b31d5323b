"""RULES.md §10.1: Amazons (one file per section of RULES.md §10 races)."""

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
    finish,
    first_pick,
    hand,
    income,
    load,
    obs,
    on_board,
    pick,
    r,
    regions_of,
    spent,
    tokens,
    total,
    two,
)


def test_amazons_start_with_ten_plus_badge():
    state = act(load(first_pick("Amazons", "Spirit")), pick("ann", 0))
    assert hand(state, "ann") == 15  # 10 (incl. +4) + 5 Spirit (E10)


def amazon_turn():
    # ann Amazons/Alchemist: 6 (5 tokens), 10 (1) + 4 reserve -> hand 4 + 4 = 8, total 10
    spec = two(active("Amazons", "Alchemist", hand=4), active("Orcs", "Spirit"),
               {6: r("ann", "Amazons", 5), 10: r("ann", "Amazons", 1), 20: r("bob", "Orcs")})
    return load(spec)


def test_amazons_reserve_is_readied_for_attack():
    state = amazon_turn()
    assert hand(state, "ann") == 8  # 4 readied from region 6 + 4 reserve
    state, used = spent(state, "ann", 2)  # empty farmland next to 6
    assert used == 2


def test_amazons_remove_four_after_redeployment():
    state = act(amazon_turn(), conquer("ann", 2))  # hand 6
    state = act(state, deploy("ann", 2, 6), end("ann"))
    assert total(state, "ann") == 10
    assert on_board(state, "ann") == 6  # 10 - 4 removed: the 4 never defend
    assert hand(state, "ann") == 4
    assert regions_of(state, "ann") == {2, 6, 10}  # one left in every region


def test_amazons_four_come_back_next_turn():
    state = act(amazon_turn(), conquer("ann", 2))
    state = act(state, deploy("ann", 2, 6), end("ann"))
    state = finish(state, "bob")
    assert hand(state, "ann") == 4 + (6 - 3)  # reserve 4 + (6 on board - 1 per region)


def test_amazons_abandon_regions_when_four_cannot_leave_one_each():
    # §16 #21: 5 on the map over 3 regions; remove min(4, 5) = 4 -> 1 token, 1 region
    spec = two(active("Amazons", "Alchemist"), active("Orcs", "Spirit"),
               {6: r("ann", "Amazons", 3), 10: r("ann", "Amazons"), 2: r("ann", "Amazons"),
                20: r("bob", "Orcs")})
    state = load(spec)
    state = act(state, deploy("ann", 6, hand(state, "ann")), end("ann"))
    assert on_board(state, "ann") == 1
    assert len(regions_of(state, "ann")) == 1
    assert hand(state, "ann") == 4


def test_amazons_reserve_returns_to_tray_on_decline():
    spec = two(active("Amazons", "Alchemist", hand=4), active("Orcs", "Spirit"),
               {6: r("ann", "Amazons", 2), 10: r("ann", "Amazons"), 20: r("bob", "Orcs")})
    state = act(load(spec), decline("ann"))
    assert hand(state, "ann") == 0  # §16 #22
    assert tokens(state, 6) == 1 and tokens(state, 10) == 1


def test_amazons_abandoned_regions_do_not_score():
    # 5 Amazons on 3 regions: removing 4 leaves 1 region, which alone scores
    spec = two(active("Amazons", "Spirit"), active("Orcs", "Alchemist"),
               {6: r("ann", "Amazons", 3), 10: r("ann", "Amazons"), 2: r("ann", "Amazons"),
                20: r("bob", "Orcs")})
    state = load(spec)
    state, got = income(state, "ann", deploy("ann", 6, hand(state, "ann")), end("ann"))
    assert got == 1


def test_amazons_keep_four_back_after_redeployment() -> None:
    seats = {"ann": {"active": active("Amazons", "Hill", 4)}, "bob": {}}
    s = engine.load_scenario(build(seats=seats,
                                   regions={4: r("ann", "Amazons", 3),
                                            8: r("ann", "Amazons", 1)}, seed=3))
    assert obs(s)["players"]["ann"]["hand"] == 6
    s, _ = act_events(s, conquer("ann", 1))  # mountain: 3
    s, ev = act_events(s, deploy("ann", 1, 3), end("ann"))
    o = obs(s)
    assert o["players"]["ann"]["hand"] == 4
    assert o["players"]["ann"]["active"]["tokens_on_board"] == 8 - 4
    assert all(o["regions"][rid]["tokens"] >= 1 for rid in ("1", "4", "8"))
