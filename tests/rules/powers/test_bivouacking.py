"""RULES.md §11.3: Bivouacking (one file per section of RULES.md §11 special powers)."""

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
    spent,
    two,
)


def bivouac():
    return load(ratmen("Bivouacking", {6: r("ann", "Ratmen"), 10: r("ann", "Ratmen"),
                                        2: r("bob", "Orcs", 9)}))


def test_bivouacking_encampments_defend():
    state = act(bivouac(), place("ann", "encampment", 6), place("ann", "encampment", 6),
                end("ann"))
    assert pieces(state, 6).count("encampment") == 2
    state, used = spent(state, "bob", 6)  # bob readied 8 on 2
    assert used == 5  # 2 + 1 token + 2 encampments


def test_bivouacking_five_encampments_only():
    state = bivouac()
    for _ in range(5):
        state = act(state, place("ann", "encampment", 10))
    refuse(state, place("ann", "encampment", 6))  # a 6th does not exist


def test_bivouacking_only_in_own_regions():
    refuse(bivouac(), place("ann", "encampment", 2), 2)


def test_bivouacking_encampments_removed_on_decline():
    spec = ratmen("Bivouacking", {6: r("ann", "Ratmen", pieces=["encampment", "encampment"]),
                                  10: r("ann", "Ratmen")})
    state = act(load(spec), decline("ann"))
    assert "encampment" not in pieces(state, 6)


def test_placing_an_encampment_ends_conquests():
    spec = ratmen("Bivouacking", {12: r("ann", "Ratmen")}, hand_=5)
    state = act(load(spec), place("ann", "encampment", 12))
    refuse(state, conquer("ann", 17))


def test_encampments_still_shown_when_their_owners_turn_begins():
    # §16 #12: encampments are placed or moved during redeployment, so they stand until then
    spec = two(active("Ratmen", "Spirit"), active("Orcs", "Bivouacking"),
               {6: r("ann", "Ratmen"), 20: r("bob", "Orcs", pieces=["encampment"] * 2),
                22: r("bob", "Orcs")})
    state = act(load(spec), end("ann"))
    assert obs(state)["current"] == "bob"
    assert pieces(state, 20).count("encampment") == 2
