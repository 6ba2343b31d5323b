"""RULES.md §10.11: Sorcerers (one file per section of RULES.md §10 races)."""

from __future__ import annotations

import engine

from ..helpers import (
    LT,
    act,
    act_events,
    active,
    ally,
    build,
    deploy,
    enchant,
    end,
    hand,
    income,
    load,
    obs,
    owner,
    pieces,
    r,
    refuse,
    region,
    reinforce,
    seat,
    total,
    two,
)


def sorcerers(regions, *, ann_hand=2, on6=2, bob=("Orcs", "Alchemist"), bob_decline=None,
              dice=None):
    base = {6: r("ann", "Sorcerers", on6), 20: r("bob", bob[0])}
    base.update(regions)
    return load(two(active("Sorcerers", "Spirit", hand=ann_hand), active(*bob), base,
                    bob_decline=bob_decline, dice=dice))


def test_sorcerers_convert_a_lone_active_token():
    state = sorcerers({7: r("bob", "Orcs")})
    assert total(state, "bob") == 2
    state = act(state, enchant("ann", 7))
    reg = region(state, 7)
    assert reg["owner"] == "ann" and reg["race"] == "Sorcerers" and reg["tokens"] == 1
    assert hand(state, "ann") == 3  # readied 1 + 2: the new token came from the tray
    assert total(state, "ann") == 5  # 4 + 1 from the tray
    assert total(state, "bob") == 1 and hand(state, "bob") == 0  # the token is gone


def test_sorcerers_once_per_opponent_per_turn():
    state = act(sorcerers({7: r("bob", "Orcs"), 10: r("bob", "Orcs")}), enchant("ann", 7))
    refuse(state, enchant("ann", 10))


def test_sorcerers_need_a_lone_token():
    refuse(sorcerers({2: r("bob", "Orcs", 2)}), enchant("ann", 2), 2)


def test_sorcerers_cannot_convert_decline_or_lost_tribe():
    state = sorcerers({3: r("bob", "Humans", decline=True), 10: LT},
                      bob_decline=[{"race": "Humans", "power": "Forest"}])
    refuse(state, enchant("ann", 3), 3)
    refuse(state, enchant("ann", 10), 10)


def test_e12_lair_does_not_protect_and_is_removed():
    state = sorcerers({7: r("bob", "Trolls", pieces=["troll_lair"])}, bob=("Trolls", "Alchemist"))
    state = act(state, enchant("ann", 7))
    assert owner(state, 7) == "ann"
    assert "troll_lair" not in pieces(state, 7)


def test_e12_encampment_protects():
    state = sorcerers({7: r("bob", "Trolls", pieces=["troll_lair", "encampment"])},
                      bob=("Trolls", "Bivouacking"))
    refuse(state, enchant("ann", 7), 7)


def test_fortress_does_not_protect_against_sorcerers():
    state = sorcerers({7: r("bob", "Orcs", pieces=["fortress"])}, bob=("Orcs", "Fortified"))
    state = act(state, enchant("ann", 7))
    assert owner(state, 7) == "ann"


def test_lone_token_on_a_mountain_is_convertible():
    state = load(two(active("Sorcerers", "Spirit", hand=2), active("Orcs", "Alchemist"),
                     {10: r("ann", "Sorcerers"), 14: r("bob", "Orcs"), 20: r("bob", "Orcs")}))
    state = act(state, enchant("ann", 14))
    assert owner(state, 14) == "ann"


def test_e9_no_conversion_with_an_empty_tray():
    # 17 on 6 + 1 on 18: all 18 Sorcerers are ann's (16 readied in hand)
    state = sorcerers({18: r("ann", "Sorcerers"), 7: r("bob", "Orcs")}, on6=17, ann_hand=0)
    assert total(state, "ann") == 18
    refuse(state, enchant("ann", 7))


def test_conversion_possible_with_one_left_in_tray():
    state = sorcerers({18: r("ann", "Sorcerers"), 7: r("bob", "Orcs")}, on6=16, ann_hand=0)
    assert total(state, "ann") == 17
    state = act(state, enchant("ann", 7))
    assert total(state, "ann") == 18


def test_conversion_needs_a_token_in_hand():
    state = sorcerers({7: r("bob", "Orcs")}, on6=1, ann_hand=0)
    assert hand(state, "ann") == 0
    refuse(state, enchant("ann", 7))


def test_conversion_needs_adjacency():
    refuse(sorcerers({12: r("bob", "Orcs")}), enchant("ann", 12), 12)


def test_no_conversion_after_the_final_roll():
    state = sorcerers({7: r("bob", "Orcs"), 10: r("bob", "Orcs", 3)}, dice=[0])
    state = act(state, reinforce("ann", 10))  # 2 + 3 = 5 with 3 in hand: short by 2
    refuse(state, enchant("ann", 7))


def test_converted_elf_is_lost():
    state = sorcerers({7: r("bob", "Elves"), 2: r("bob", "Elves", 2)}, bob=("Elves", "Alchemist"))
    state = act(state, enchant("ann", 7))
    assert hand(state, "bob") == 0  # §16 #6: the Elf token is lost
    assert total(state, "bob") == 3  # 20 (1) + 2 (2)


def test_hero_protects_against_sorcerers():
    state = sorcerers({7: r("bob", "Orcs", pieces=["hero"])}, bob=("Orcs", "Heroic"))
    refuse(state, enchant("ann", 7), 7)


def test_sorcerer_conversion_counts_for_pillaging():
    spec = two(active("Sorcerers", "Pillaging", hand=0), active("Orcs", "Alchemist"),
               {6: r("ann", "Sorcerers", 2), 7: r("bob", "Orcs"), 20: r("bob", "Orcs")})
    state = act(load(spec), enchant("ann", 7))
    _, got = income(state, "ann", deploy("ann", 6, hand(state, "ann")), end("ann"))
    assert got == 3  # 2 regions + 1 Pillaging for the converted region (§10.11)


def test_sorcerer_conversion_is_an_attack_for_diplomat():
    spec = two(active("Sorcerers", "Diplomat", hand=0), active("Orcs", "Alchemist"),
               {6: r("ann", "Sorcerers", 2), 7: r("bob", "Orcs"), 20: r("bob", "Orcs")})
    state = act(load(spec), enchant("ann", 7))
    refuse(state, ally("ann", "bob"))


def test_sorcerers_once_per_each_opponent_three_players():
    # official-3p: 2 borders 1, 3, 8. One conversion per opponent: bob once, cid once.
    spec = build(
        seats={"ann": seat(5, active("Sorcerers", "Spirit", hand=1)),
               "bob": seat(5, active("Orcs", "Alchemist")),
               "cid": seat(5, active("Humans", "Forest"))},
        regions={2: r("ann", "Sorcerers", 2), 3: r("bob", "Orcs"), 1: r("bob", "Orcs"),
                 8: r("cid", "Humans"), 14: r("cid", "Humans")},
        players=("ann", "bob", "cid"), board="official-3p",
    )
    state = act(load(spec), enchant("ann", 3), enchant("ann", 8))
    assert owner(state, 3) == "ann" and owner(state, 8) == "ann"
    refuse(state, enchant("ann", 1))  # bob was already enchanted this turn


def test_conversion_removes_the_fortress():
    # §10.11 engine decision: a Fortress in the converted region is removed
    state = sorcerers({7: r("bob", "Orcs", pieces=["fortress"])}, bob=("Orcs", "Fortified"))
    state = act(state, enchant("ann", 7))
    assert "fortress" not in pieces(state, 7)


def test_enchant_needs_lone_token_without_encampment_and_tokens_in_tray() -> None:
    seats = {"ann": {"active": active("Sorcerers", "Alchemist", 1)},
             "bob": {"active": active("Trolls", "Bivouacking")}}
    regions = {4: r("ann", "Sorcerers", 16), 1: r("bob", "Trolls", 1, pieces=["encampment"]),
               8: r("bob", "Trolls", 1, pieces=["troll_lair"]), 5: r("bob", "Trolls", 2)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    assert obs(s)["players"]["ann"]["hand"] == 16  # readied 15 + 1; one left in the tray
    refuse(s, {"do": "enchant", "player": "ann", "region": 1}, "encampment", code="bad_target")
    refuse(s, {"do": "enchant", "player": "ann", "region": 5}, "2", code="bad_target")
    s2, _ = act_events(s, {"do": "enchant", "player": "ann", "region": 8})
    assert obs(s2)["regions"]["8"]["pieces"] == []  # the lair goes with the troll
    full = dict(regions)
    full[4] = r("ann", "Sorcerers", 17)
    s = engine.load_scenario(build(seats=seats, regions=full, seed=3))
    refuse(s, {"do": "enchant", "player": "ann", "region": 8}, code="tray_empty")
