"""RULES.md §11.10, §16 #13: Heroic (one file per section of RULES.md §11 special powers)."""

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
    load,
    obs,
    pieces,
    place,
    r,
    ratmen,
    refuse,
    two,
)


def heroic():
    return load(ratmen("Heroic", {6: r("ann", "Ratmen"), 10: r("ann", "Ratmen"),
                                   2: r("bob", "Orcs", 9)}))


def test_heroes_make_regions_immune():
    state = act(heroic(), place("ann", "hero", 6), place("ann", "hero", 10), end("ann"))
    assert "hero" in pieces(state, 6) and "hero" in pieces(state, 10)
    refuse(state, conquer("bob", 6), 6)


def test_heroes_in_two_different_regions():
    state = act(heroic(), place("ann", "hero", 6))
    refuse(state, place("ann", "hero", 6), 6)


def test_heroes_removed_on_decline():
    spec = ratmen("Heroic", {6: r("ann", "Ratmen", pieces=["hero"]),
                             10: r("ann", "Ratmen", pieces=["hero"])})
    state = act(load(spec), decline("ann"))
    assert "hero" not in pieces(state, 6) and "hero" not in pieces(state, 10)


def test_heroes_only_in_own_regions():
    refuse(heroic(), place("ann", "hero", 2), 2)


def test_heroes_move_with_the_turn():
    spec = ratmen("Heroic", {6: r("ann", "Ratmen", pieces=["hero"]),
                             10: r("ann", "Ratmen", pieces=["hero"]),
                             3: r("ann", "Ratmen")})
    state = act(load(spec), place("ann", "hero", 3), place("ann", "hero", 10), end("ann"))
    assert "hero" in pieces(state, 3) and "hero" in pieces(state, 10)
    assert "hero" not in pieces(state, 6)


def test_heroes_may_be_left_in_place():
    # §16 #13: re-placed (or left) at the end of each turn
    spec = ratmen("Heroic", {6: r("ann", "Ratmen", pieces=["hero"]),
                             10: r("ann", "Ratmen", pieces=["hero"])})
    state = act(load(spec), end("ann"))
    assert "hero" in pieces(state, 6) and "hero" in pieces(state, 10)


def heroes_and_camps_for_bob():
    spec = two(active("Ratmen", "Spirit"), active("Orcs", "Heroic"),
               {6: r("ann", "Ratmen"), 20: r("bob", "Orcs", pieces=["hero"]),
                22: r("bob", "Orcs", pieces=["hero"])})
    return load(spec)


def test_heroes_still_shown_when_their_owners_turn_begins():
    # §11.10: the Heroes stay until their owner moves them at the END of a turn; the
    # observation (and the map posted after ann's turn) must still show them
    state = act(heroes_and_camps_for_bob(), end("ann"))
    assert obs(state)["current"] == "bob"
    assert "hero" in pieces(state, 20) and "hero" in pieces(state, 22)


def test_heroes_placed_at_end_make_regions_immune() -> None:
    seats = {"ann": {"active": active("Ratmen", "Heroic")},
             "bob": {"active": active("Orcs", "Commando", 9)}}
    regions = {4: r("ann", "Ratmen", 1), 8: r("ann", "Ratmen", 1), 1: r("ann", "Ratmen", 3),
               11: r("bob", "Orcs", 1)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    s, _ = act_events(s, {"do": "place", "player": "ann", "piece": "hero", "region": 4})
    refuse(s, {"do": "place", "player": "ann", "piece": "hero", "region": 4}, "4",
           code="piece_limit")
    s, ev = act_events(s, deploy("ann", 4, 2), end("ann"))
    o = obs(s)
    heroes = [rid for rid, v in o["regions"].items() if "hero" in v.get("pieces", [])]
    assert len(heroes) == 2 and "4" in heroes
    other = next(int(rid) for rid in heroes if rid != "4")
    refuse(s, conquer("bob", other), code="immune")
