"""RULES.md §10.3: Elves (one file per section of RULES.md §10 races)."""

from __future__ import annotations

import engine

from ..helpers import (
    act,
    act_events,
    active,
    build,
    conquer,
    declines,
    deploy,
    finish,
    hand,
    load,
    obs,
    pending_for,
    r,
    refuse,
    spent,
    total,
    two,
)


def elves(regions, bob_decline=None):
    base = {6: r("ann", "Ratmen")}
    base.update(regions)
    return load(two(active("Ratmen", "Spirit", hand=12), active("Elves", "Alchemist"), base,
                    bob_decline=bob_decline))


def test_elves_lose_no_token():
    state = elves({2: r("bob", "Elves", 3), 22: r("bob", "Elves", 2)})
    state, used = spent(state, "ann", 2)
    assert used == 5  # 2 + 3 Elves
    assert hand(state, "bob") == 3  # all three back in hand, none discarded
    state = finish(state, "ann")
    assert [x["tokens"] for x in pending_for(state, "bob")] == [3]
    state = act(state, deploy("bob", 22, 3))
    assert total(state, "bob") == 5


def test_single_elf_is_not_discarded():
    state = elves({10: r("bob", "Elves"), 22: r("bob", "Elves", 2)})
    state = act(state, conquer("ann", 10))  # 2 + 1 = 3
    assert hand(state, "bob") == 1
    assert total(state, "bob") == 3


def test_elves_in_decline_lose_normally():
    spec = two(active("Ratmen", "Spirit", hand=12), active("Orcs", "Alchemist"),
               {6: r("ann", "Ratmen"), 3: r("bob", "Elves", decline=True),
                22: r("bob", "Orcs", 2)},
               bob_decline=[{"race": "Elves", "power": "Forest"}])
    state = act(load(spec), conquer("ann", 3))  # 2 + 1 token = 3
    assert hand(state, "bob") == 0
    assert all(d.get("tokens_on_board", 0) == 0 for d in declines(state, "bob"))
    state = finish(state, "ann")
    assert not pending_for(state, "bob")


def test_elves_with_no_region_left_keep_all_for_next_turn():
    state = elves({2: r("bob", "Elves", 3)})
    state = act(state, conquer("ann", 2))  # 2 + 3 = 5
    assert hand(state, "bob") == 3
    state = finish(state, "ann")
    assert not pending_for(state, "bob")
    assert hand(state, "bob") == 3  # bob's turn: all three still in hand


def test_elves_lose_nothing_but_converted_elf_is_lost() -> None:
    seats = {"ann": {"active": active("Sorcerers", "Alchemist", 10)},
             "bob": {"active": active("Elves", "Hill")}}
    regions = {4: r("ann", "Sorcerers", 1), 8: r("bob", "Elves", 2), 1: r("bob", "Elves", 1),
               11: r("bob", "Elves", 1)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    s2, ev = act_events(s, conquer("ann", 8))
    assert next(e for e in ev if e["type"] == "conquered")["lost"] == 0
    assert obs(s2)["players"]["bob"]["hand"] == 2
    s3, ev = act_events(s, {"do": "enchant", "player": "ann", "region": 1})
    assert obs(s3)["regions"]["1"] == {"owner": "ann", "race": "Sorcerers", "tokens": 1,
                                       "decline": False, "pieces": []}
    assert obs(s3)["players"]["bob"]["hand"] == 0
    assert obs(s3)["players"]["ann"]["hand"] == 10  # the new Sorcerer came from the tray
    refuse(s3, {"do": "enchant", "player": "ann", "region": 11}, "bob", code="already_used")
