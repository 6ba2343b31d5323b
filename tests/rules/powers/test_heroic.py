"""RULES.md §11.10, §16 #13: Heroic (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

from ..helpers import (
    act,
    active,
    conquer,
    decline,
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
