"""RULES.md §11.5, §16 #14: Diplomat (one file per section of RULES.md §11 special powers)."""

from __future__ import annotations

import engine

from ..helpers import (
    act,
    act_events,
    active,
    ally,
    build,
    conquer,
    deploy,
    enchant,
    end,
    finish,
    hand,
    load,
    obs,
    owner,
    r,
    refuse,
    two,
)


def diplomat():
    spec = two(active("Ratmen", "Diplomat"), active("Orcs", "Spirit"),
               {6: r("ann", "Ratmen"), 3: r("ann", "Humans", decline=True), 2: r("bob", "Orcs", 9)},
               ann_decline=[{"race": "Humans", "power": "Forest"}])
    return load(spec)


def test_diplomat_ally_cannot_attack_the_active_race():
    state = act(diplomat(), ally("ann", "bob"), end("ann"))
    refuse(state, conquer("bob", 6), 6)
    state = act(state, conquer("bob", 3))  # In Decline Humans are not protected
    assert owner(state, 3) == "bob"


def test_diplomat_cannot_ally_an_attacked_player():
    spec = two(active("Ratmen", "Diplomat", hand=6), active("Orcs", "Spirit"),
               {6: r("ann", "Ratmen"), 2: r("bob", "Orcs"), 20: r("bob", "Orcs")})
    state = act(load(spec), conquer("ann", 2))
    refuse(state, ally("ann", "bob"))


def test_diplomat_without_ally_no_protection():
    state = act(diplomat(), end("ann"))
    state = act(state, conquer("bob", 6))
    assert owner(state, 6) == "bob"


def test_diplomat_cannot_ally_self():
    refuse(diplomat(), ally("ann", "ann"))


def test_diplomat_peace_ends_at_the_diplomats_next_turn():
    state = act(diplomat(), ally("ann", "bob"), end("ann"))
    state = finish(state, "bob")  # bob keeps the peace
    state = act(state, end("ann"))  # ann names no ally this time
    state = act(state, conquer("bob", 6))
    assert owner(state, 6) == "bob"


def test_diplomat_ally_sorcerers_cannot_convert_the_diplomat():
    spec = two(active("Ratmen", "Diplomat"), active("Sorcerers", "Spirit"),
               {6: r("ann", "Ratmen"), 2: r("bob", "Sorcerers", 4)})
    state = act(load(spec), ally("ann", "bob"), end("ann"))
    refuse(state, enchant("bob", 6), 6)


def test_diplomat_does_not_bind_declined_ghouls():
    spec = two(active("Ratmen", "Diplomat"), active("Orcs", "Spirit"),
               {6: r("ann", "Ratmen"), 2: r("bob", "Ghouls", 5, decline=True),
                20: r("bob", "Orcs")},
               bob_decline=[{"race": "Ghouls", "power": "Forest"}])
    state = act(load(spec), ally("ann", "bob"), end("ann"))
    state = act(state, conquer("bob", 6, race="decline"))  # 2 + 1 = 3 of 4 readied
    assert owner(state, 6) == "bob"


def test_diplomat_may_ally_a_player_whose_decline_race_was_attacked():
    # §11.5: the ally must be an opponent whose ACTIVE race was not attacked this turn
    spec = two(active("Ratmen", "Diplomat", hand=4), active("Orcs", "Spirit"),
               {6: r("ann", "Ratmen"), 3: r("bob", "Humans", decline=True),
                2: r("bob", "Orcs", 9)},
               bob_decline=[{"race": "Humans", "power": "Forest"}])
    state = act(load(spec), conquer("ann", 3))  # bob's In Decline Humans
    state = act(state, deploy("ann", 3, hand(state, "ann")), ally("ann", "bob"))
    state = act(state, end("ann"))
    refuse(state, conquer("bob", 6), 6)  # peace holds


def test_naming_an_ally_ends_conquests():
    spec = two(active("Ratmen", "Diplomat", hand=4), active("Orcs", "Spirit"),
               {6: r("ann", "Ratmen"), 20: r("bob", "Orcs")})
    state = act(load(spec), ally("ann", "bob"))
    refuse(state, conquer("ann", 10))


def test_diplomat_peace_binds_ally_until_next_turn() -> None:
    seats = {"ann": {"active": active("Ratmen", "Diplomat", 3)},
             "bob": {"active": active("Orcs", "Hill", 6)}}
    regions = {4: r("ann", "Ratmen", 1), 8: r("bob", "Orcs", 1), 11: r("bob", "Orcs", 1)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    s1, _ = act_events(s, conquer("ann", 8))
    refuse(s1, {"do": "ally", "player": "ann", "target": "bob"}, "bob", code="bad_target")
    s, _ = act_events(s, {"do": "ally", "player": "ann", "target": "bob"}, deploy("ann", 4, 3),
                      end("ann"))
    assert obs(s)["peace"] == [{"player": "ann", "ally": "bob"}]
    refuse(s, conquer("bob", 4), "4", code="at_peace")
    s, _ = act_events(s, conquer("bob", 5))
    s, _ = act_events(s, deploy("bob", 5, obs(s)["players"]["bob"]["hand"]), end("bob"))
    assert obs(s)["peace"] == []
