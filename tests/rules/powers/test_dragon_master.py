"""RULES.md §11.6, §16 #10: Dragon Master (one file per section of RULES.md §11 special
powers)."""

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
    dragon,
    end,
    finish,
    hand,
    income,
    load,
    obs,
    owner,
    pending_for,
    pick,
    pieces,
    r,
    ratmen,
    ratmen_first_pick,
    refuse,
    tokens,
    two,
)


def dragon_spec():
    return ratmen("Dragon Master",
                  {6: r("ann", "Ratmen"), 2: r("bob", "Orcs", 3), 10: r("bob", "Orcs")}, hand_=4)


def test_dragon_conquers_with_one_token():
    state = act(load(dragon_spec()), dragon("ann", 2))
    assert owner(state, 2) == "ann" and tokens(state, 2) == 1
    assert "dragon" in pieces(state, 2)
    assert hand(state, "ann") == 3  # 4 - 1
    assert hand(state, "bob") == 2  # defenders suffer the normal loss: 3 - 1


def test_dragon_once_per_turn():
    state = act(load(dragon_spec()), dragon("ann", 2))
    refuse(state, dragon("ann", 10))


def test_dragon_region_is_immune():
    state = act(load(dragon_spec()), dragon("ann", 2))
    state = finish(state, "ann")
    if pending_for(state, "bob"):
        state = act(state, deploy("bob", 20, 2))
    refuse(state, conquer("bob", 2), 2)


def test_dragon_needs_adjacency_and_land():
    state = load(dragon_spec())
    refuse(state, dragon("ann", 16), 16)  # not next to 6
    refuse(state, dragon("ann", 9), 9)  # the lake


def test_dragon_leaves_on_decline():
    spec = ratmen("Dragon Master", {6: r("ann", "Ratmen", 2, pieces=["dragon"])})
    state = act(load(spec), decline("ann"))
    assert "dragon" not in pieces(state, 6)


def test_dragon_ignores_mountain_and_defenders():
    spec = ratmen("Dragon Master", {12: r("ann", "Ratmen"), 11: r("bob", "Orcs", 4)}, hand_=3)
    state = act(load(spec), dragon("ann", 11))  # normally 2 + 4 + 1 mountain = 7
    assert owner(state, 11) == "ann" and tokens(state, 11) == 1
    assert hand(state, "bob") == 3


def test_dragon_moves_with_a_new_dragon_attack():
    spec = ratmen("Dragon Master", {6: r("ann", "Ratmen", pieces=["dragon"]),
                                    10: r("ann", "Ratmen")}, hand_=3)
    state = act(load(spec), dragon("ann", 2))
    assert "dragon" in pieces(state, 2) and "dragon" not in pieces(state, 6)


def test_dragon_needs_a_token_in_hand():
    spec = ratmen("Dragon Master", {6: r("ann", "Ratmen"), 2: r("bob", "Orcs", 3)})
    state = load(spec)
    assert hand(state, "ann") == 0
    refuse(state, dragon("ann", 2))


def test_dragon_cannot_attack_a_hero():
    spec = two(active("Ratmen", "Dragon Master", hand=3), active("Orcs", "Heroic"),
               {6: r("ann", "Ratmen"), 2: r("bob", "Orcs", pieces=["hero"]),
                20: r("bob", "Orcs")})
    refuse(load(spec), dragon("ann", 2), 2)


def test_dragon_attack_counts_as_a_conquest_for_orcs():
    spec = two(active("Orcs", "Dragon Master", hand=3), active("Ratmen", "Spirit"),
               {6: r("ann", "Orcs"), 2: r("bob", "Ratmen", 3), 20: r("bob", "Ratmen")})
    state = act(load(spec), dragon("ann", 2))
    _, got = income(state, "ann", deploy("ann", 6, hand(state, "ann")), end("ann"))
    assert got == 3  # 2 regions + 1 non-empty region conquered by the Orcs


def test_dragon_first_conquest_needs_an_entry_region():
    state = act(ratmen_first_pick("Dragon Master"), pick("ann", 0))
    refuse(state, dragon("ann", 16), 16)  # inland
    state = act(state, dragon("ann", 18))
    assert owner(state, 18) == "ann" and tokens(state, 18) == 1


def test_dragon_stays_when_not_moved():
    # §16 #10: moving the Dragon is optional
    spec = ratmen("Dragon Master", {6: r("ann", "Ratmen", pieces=["dragon"]),
                                    10: r("ann", "Ratmen")})
    state = act(load(spec), end("ann"))
    assert "dragon" in pieces(state, 6)


def test_dragon_master_one_token_and_immunity() -> None:
    seats = {"ann": {"active": active("Ratmen", "Dragon Master", 3)},
             "bob": {"active": active("Orcs", "Hill")}}
    regions = {4: r("ann", "Ratmen", 1), 1: r("bob", "Orcs", 4, pieces=[]), 11: r("bob", "Orcs", 1)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    s, _ = act_events(s, {"do": "dragon", "player": "ann", "region": 1})
    o = obs(s)
    assert o["regions"]["1"]["tokens"] == 1 and "dragon" in o["regions"]["1"]["pieces"]
    refuse(s, {"do": "dragon", "player": "ann", "region": 5}, code="already_used")
    s, _ = act_events(s, deploy("ann", 1, 2), end("ann"), deploy("bob", 11, 3))
    refuse(s, conquer("bob", 1), "Dragon", code="immune")
