"""RULES.md §10: the 14 races, one positive effect and one limit each (at least)."""

from __future__ import annotations

import engine

from .helpers import (
    LT,
    abandon,
    act,
    active,
    active_of,
    ally,
    assert_cost,
    build,
    coins,
    conquer,
    decline,
    declines,
    deploy,
    enchant,
    end,
    finish,
    hand,
    income,
    load,
    obs,
    on_board,
    owner,
    pending_for,
    pick,
    pieces,
    r,
    refuse,
    region,
    regions_of,
    reinforce,
    seat,
    spent,
    tokens,
    total,
)


def two(ann_active=None, bob_active=None, regions=None, *, ann_decline=None, bob_decline=None,
        current="ann", dice=None, ann_coins=5, bob_coins=5, row=None):
    return build(
        seats={"ann": seat(ann_coins, ann_active, ann_decline),
               "bob": seat(bob_coins, bob_active, bob_decline)},
        regions=regions or {}, current=current, dice=dice, row=row,
    )


def first_pick(race, power):
    """Start of game; the given combo sits in slot 0."""
    row = [{"race": race, "power": power, "coins": 0}]
    others = [x for x in ("Ratmen", "Elves", "Dwarves", "Humans", "Wizards", "Orcs") if x != race]
    pw = [x for x in ("Alchemist", "Forest", "Swamp", "Hill", "Merchant", "Wealthy") if x != power]
    row += [{"race": others[i], "power": pw[i], "coins": 0} for i in range(5)]
    return build(seats={"ann": seat(), "bob": seat()}, regions=None, current=None, round=None,
                 row=row)


# ---------------------------------------------------------------- Amazons §10.1


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


# ---------------------------------------------------------------- Dwarves §10.2


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


# ---------------------------------------------------------------- Elves §10.3


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


# ---------------------------------------------------------------- Ghouls §10.4


def test_ghouls_keep_all_tokens_on_decline():
    spec = two(active("Ghouls", "Alchemist"), active("Orcs", "Spirit"),
               {6: r("ann", "Ghouls", 3), 10: r("ann", "Ghouls", 2), 20: r("bob", "Orcs")})
    state = act(load(spec), decline("ann"))
    assert tokens(state, 6) == 3 and tokens(state, 10) == 2
    assert region(state, 6)["decline"] is True


def ghoul_spec(ghouls_on_6=3):
    return two(active("Ratmen", "Spirit", hand=5), active("Orcs", "Alchemist"),
               {6: r("ann", "Ghouls", ghouls_on_6, decline=True), 18: r("ann", "Ratmen"),
                20: r("bob", "Orcs")},
               ann_decline=[{"race": "Ghouls", "power": "Forest"}])


def test_ghouls_in_decline_conquer_first():
    state = act(load(ghoul_spec()), conquer("ann", 2, race="decline"))  # empty farmland: 2
    reg = region(state, 2)
    assert reg["owner"] == "ann" and reg["race"] == "Ghouls" and reg["decline"] is True
    assert reg["tokens"] == 2
    state = act(state, conquer("ann", 13))  # then the Active Ratmen from 18
    assert owner(state, 13) == "ann"


def test_ghouls_cannot_conquer_after_the_active_race():
    # the Ghouls put their readied tokens back, the Ratmen conquer, then it is too late
    state = act(load(ghoul_spec()), deploy("ann", 6, 2), conquer("ann", 13))
    assert owner(state, 13) == "ann"
    refuse(state, conquer("ann", 2, race="decline"))


def test_ghouls_need_adjacency_to_ghoul_regions():
    state = load(ghoul_spec())
    refuse(state, conquer("ann", 16, race="decline"), 16)  # next to Ratmen 18, not Ghouls 6


def test_declined_non_ghouls_cannot_conquer():
    spec = two(active("Ratmen", "Spirit", hand=5), active("Orcs", "Alchemist"),
               {6: r("ann", "Humans", 1, decline=True), 18: r("ann", "Ratmen"),
                20: r("bob", "Orcs")},
               ann_decline=[{"race": "Humans", "power": "Forest"}])
    refuse(load(spec), conquer("ann", 2, race="decline"))


# ---------------------------------------------------------------- Giants §10.5


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


# ---------------------------------------------------------------- Halflings §10.6


def test_halflings_enter_anywhere_and_dig_two_holes():
    state = act(load(first_pick("Halflings", "Spirit")), pick("ann", 0))
    assert hand(state, "ann") == 11  # 6 + 5
    state = act(state, conquer("ann", 16))  # inland farmland: allowed for Halflings
    state = act(state, conquer("ann", 18), conquer("ann", 13))
    assert "hole" in pieces(state, 16)
    assert "hole" in pieces(state, 18)
    assert "hole" not in pieces(state, 13)  # only the first two conquests


def halfling_spec(current="bob"):
    return two(active("Halflings", "Alchemist"), active("Orcs", "Spirit", hand=8),
               {16: r("ann", "Halflings", pieces=["hole"]),
                18: r("ann", "Halflings", pieces=["hole"]),
                13: r("ann", "Halflings"), 11: r("bob", "Orcs")},
               current=current)


def test_halfling_holes_are_immune():
    state = load(halfling_spec())
    refuse(state, conquer("bob", 16), 16)
    state = act(state, conquer("bob", 13))  # no hole: 2 + 1 = 3
    assert owner(state, 13) == "bob"


def test_halfling_holes_removed_on_decline():
    state = act(load(halfling_spec(current="ann")), decline("ann"))
    assert "hole" not in pieces(state, 16) and "hole" not in pieces(state, 18)


# ---------------------------------------------------------------- Humans §10.7


def test_humans_score_farmland():
    spec = two(active("Humans", "Spirit"), active("Orcs", "Alchemist"),
               {2: r("ann", "Humans"), 4: r("ann", "Humans"), 6: r("ann", "Humans"),
                20: r("bob", "Orcs")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 5  # 3 regions + farmland 2 and 4 = 5


def test_humans_in_decline_no_bonus():
    spec = two(active("Ratmen", "Spirit"), active("Orcs", "Alchemist"),
               {18: r("ann", "Ratmen"), 2: r("ann", "Humans", decline=True),
                4: r("ann", "Humans", decline=True), 20: r("bob", "Orcs")},
               ann_decline=[{"race": "Humans", "power": "Forest"}])
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 3  # 1 + 2 regions, no farmland bonus


# ---------------------------------------------------------------- Orcs §10.8


def test_orcs_score_non_empty_conquests():
    spec = two(active("Orcs", "Spirit", hand=9), active("Humans", "Alchemist"),
               {6: r("ann", "Orcs"), 7: LT, 2: r("bob", "Humans"), 20: r("bob", "Humans")})
    state = act(load(spec), conquer("ann", 7), conquer("ann", 2), conquer("ann", 10))
    _, got = income(state, "ann", deploy("ann", 6, hand(state, "ann")), end("ann"))
    # 4 regions (6, 7, 2, 10) + 2 non-empty conquered (7 lost tribe, 2 Humans) = 6
    assert got == 6


def test_e11_orcs_empty_mountain_gives_nothing():
    spec = two(active("Orcs", "Spirit", hand=5), active("Humans", "Alchemist"),
               {10: r("ann", "Orcs"), 20: r("bob", "Humans")})
    state = act(load(spec), conquer("ann", 14))  # empty mountain, cost 3
    _, got = income(state, "ann", deploy("ann", 14, hand(state, "ann")), end("ann"))
    assert got == 2  # 2 regions, the mountain was empty


def test_orcs_no_bonus_for_regions_held_before():
    spec = two(active("Orcs", "Spirit"), active("Humans", "Alchemist"),
               {10: r("ann", "Orcs"), 6: r("ann", "Orcs"), 20: r("bob", "Humans")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 2


# ---------------------------------------------------------------- Ratmen §10.9


def test_ratmen_many_tokens_no_bonus():
    state = act(load(first_pick("Ratmen", "Spirit")), pick("ann", 0))
    assert hand(state, "ann") == 13  # 8 + 5
    state = act(state, conquer("ann", 18), conquer("ann", 16))
    _, got = income(state, "ann", deploy("ann", 18, hand(state, "ann")), end("ann"))
    assert got == 2  # 2 regions, no race bonus


# ---------------------------------------------------------------- Skeletons §10.10


def skeletons(hand_, regions, on6=1):
    base = {6: r("ann", "Skeletons", on6), 20: r("bob", "Humans"), 2: r("bob", "Humans")}
    base.update(regions)
    return load(two(active("Skeletons", "Spirit", hand=hand_), active("Humans", "Alchemist"),
                    base))


def test_e3_skeletons_two_non_empty_give_one():
    state = skeletons(8, {7: LT})
    assert total(state, "ann") == 9
    state = act(state, conquer("ann", 7), conquer("ann", 2))  # 3 + 3
    state = finish(state, "ann")
    assert total(state, "ann") == 10  # floor(2 / 2) = 1 new Skeleton


def test_skeletons_bonus_counts_for_the_deploy_that_ends_the_conquests():
    # §10.10, §12.1 step 5: the first deploy ends the conquests, which hands out the new
    # Skeleton, so that deploy may already place it
    state = skeletons(8, {7: LT})
    state = act(state, conquer("ann", 7), conquer("ann", 2))  # 3 + 3: 2 left, 1 to come
    assert hand(state, "ann") == 2
    legal = engine.legal_actions(state)
    assert any(a.do == "deploy" and a.region == 7 and a.count == 3 for a in legal)
    assert not any(a.do == "deploy" and a.count == 4 for a in legal)
    refuse(state, deploy("ann", 7, 4), 4)
    state = act(state, deploy("ann", 7, 3))
    assert tokens(state, 7) == 6 and hand(state, "ann") == 0
    assert total(state, "ann") == 10


def test_skeletons_one_non_empty_gives_none():
    state = skeletons(8, {7: LT})
    state = act(state, conquer("ann", 7), conquer("ann", 3))  # lost tribe + empty swamp
    state = finish(state, "ann")
    assert total(state, "ann") == 9  # floor(1 / 2) = 0


def test_skeletons_four_non_empty_give_two():
    state = skeletons(13, {7: LT, 3: LT, 10: LT})  # 1 token stays in hand
    state = act(state, conquer("ann", 7), conquer("ann", 2), conquer("ann", 3),
                conquer("ann", 10))  # 3 + 3 + 3 + 3 = 12
    state = finish(state, "ann")
    assert total(state, "ann") == 16  # 14 + floor(4 / 2)


def test_skeletons_bonus_with_an_empty_hand_then_end():
    # hand is 0 after the last conquest; `end` must still work and add floor(4/2) = 2
    state = skeletons(12, {7: LT, 3: LT, 10: LT})
    state = act(state, conquer("ann", 7), conquer("ann", 2), conquer("ann", 3),
                conquer("ann", 10))  # 3 + 3 + 3 + 3 = 12
    state = finish(state, "ann")
    assert total(state, "ann") == 15  # 13 + floor(4 / 2)


def test_skeletons_capped_by_the_box():
    # 19 of the 20 Skeletons are ann's: 4 non-empty would give 2, the tray holds 1
    state = skeletons(11, {7: LT, 3: LT, 10: LT}, on6=8)
    assert total(state, "ann") == 19
    state = act(state, conquer("ann", 7), conquer("ann", 2), conquer("ann", 3),
                conquer("ann", 10))
    state = finish(state, "ann")
    assert total(state, "ann") == 20


def test_skeletons_empty_mountain_does_not_count():
    spec = two(active("Skeletons", "Spirit", hand=6), active("Humans", "Alchemist"),
               {10: r("ann", "Skeletons"), 12: LT, 20: r("bob", "Humans")})
    state = act(load(spec), conquer("ann", 14), conquer("ann", 12))  # 3 + 3
    state = finish(state, "ann")
    assert total(state, "ann") == 7  # only 1 non-empty: floor(1 / 2) = 0


# ---------------------------------------------------------------- Sorcerers §10.11


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


# ---------------------------------------------------------------- Tritons §10.12


def tritons(power="Spirit"):
    return two(active("Tritons", power, hand=6), active("Orcs", "Alchemist"),
               {12: r("ann", "Tritons"), 20: r("bob", "Orcs")})


def test_tritons_coastal_discount():
    assert_cost(tritons(), "ann", 11, 2)  # mountain on the lake: 3 - 1 = 2


def test_tritons_no_discount_inland():
    assert_cost(tritons(), "ann", 14, 3)  # mountain 14 touches no water: 3


def test_tritons_discount_floor_is_one():
    assert_cost(tritons("Commando"), "ann", 17, 1)  # coastal swamp: 2 - 1 - 1 = 0 -> 1


# ---------------------------------------------------------------- Trolls §10.13


def test_trolls_build_a_lair_where_they_conquer():
    spec = two(active("Trolls", "Spirit", hand=6), active("Orcs", "Alchemist"),
               {6: r("ann", "Trolls", pieces=["troll_lair"]), 20: r("bob", "Orcs")})
    state = act(load(spec), conquer("ann", 10))
    assert "troll_lair" in pieces(state, 10)


def test_troll_lair_adds_one_defence():
    spec = two(active("Trolls", "Spirit"), active("Orcs", "Alchemist", hand=8),
               {10: r("ann", "Trolls", pieces=["troll_lair"]), 14: r("bob", "Orcs")},
               current="bob")
    assert_cost(spec, "bob", 10, 4)  # 2 + 1 troll + 1 lair = 4


def test_troll_lairs_stay_in_decline():
    spec = two(active("Trolls", "Spirit"), active("Orcs", "Alchemist"),
               {10: r("ann", "Trolls", 2, pieces=["troll_lair"]),
                6: r("ann", "Trolls", pieces=["troll_lair"]), 20: r("bob", "Orcs")})
    state = act(load(spec), decline("ann"))
    assert "troll_lair" in pieces(state, 10) and "troll_lair" in pieces(state, 6)


# ---------------------------------------------------------------- Wizards §10.14


def test_wizards_score_magic():
    spec = two(active("Wizards", "Spirit"), active("Orcs", "Alchemist"),
               {3: r("ann", "Wizards"), 4: r("ann", "Wizards"), 6: r("ann", "Wizards"),
                20: r("bob", "Orcs")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 5  # 3 regions + magic sources on 3 and 4


def test_wizards_in_decline_no_bonus():
    spec = two(active("Ratmen", "Spirit"), active("Orcs", "Alchemist"),
               {18: r("ann", "Ratmen"), 3: r("ann", "Wizards", decline=True),
                4: r("ann", "Wizards", decline=True), 20: r("bob", "Orcs")},
               ann_decline=[{"race": "Wizards", "power": "Forest"}])
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 3


def test_scenario_coins_and_tokens_on_board():
    spec = two(active("Ratmen", "Spirit"), active("Orcs", "Alchemist"), {18: r("ann", "Ratmen")},
               ann_coins=9)
    assert coins(load(spec), "ann") == 9
    assert active_of(load(spec), "ann")["tokens_on_board"] == 1


# ---------------------------------------------------------------- more limits


def test_elves_with_no_region_left_keep_all_for_next_turn():
    state = elves({2: r("bob", "Elves", 3)})
    state = act(state, conquer("ann", 2))  # 2 + 3 = 5
    assert hand(state, "bob") == 3
    state = finish(state, "ann")
    assert not pending_for(state, "bob")
    assert hand(state, "bob") == 3  # bob's turn: all three still in hand


def test_halfling_hole_removed_on_abandon():
    state = act(load(halfling_spec(current="ann")), abandon("ann", 16))
    assert "hole" not in pieces(state, 16)
    assert "hole" in pieces(state, 18)


def test_ghouls_in_decline_may_attack_own_active_race():
    spec = two(active("Ratmen", "Spirit", hand=5), active("Orcs", "Alchemist"),
               {6: r("ann", "Ghouls", 6, decline=True), 2: r("ann", "Ratmen"),
                18: r("ann", "Ratmen"), 20: r("bob", "Orcs")},
               ann_decline=[{"race": "Ghouls", "power": "Forest"}])
    state = act(load(spec), conquer("ann", 2, race="decline"))
    assert region(state, 2)["race"] == "Ghouls" and region(state, 2)["decline"] is True


def test_ghoul_conquests_score_one_per_region():
    state = act(load(ghoul_spec()), conquer("ann", 2, race="decline"))
    state, got = income(state, "ann", deploy("ann", 18, hand(state, "ann")), end("ann"))
    assert got == 3  # Ghouls 6 and 2 + Ratmen 18, no bonuses


def test_giants_in_decline_give_no_discount():
    spec = two(active("Ratmen", "Spirit", hand=5), active("Orcs", "Alchemist"),
               {11: r("ann", "Giants", decline=True), 16: r("ann", "Ratmen"),
                20: r("bob", "Orcs")},
               ann_decline=[{"race": "Giants", "power": "Forest"}])
    assert_cost(spec, "ann", 13, 2)  # next to 11, but the Giants are In Decline: 2


def test_tritons_no_discount_on_water():
    spec = two(active("Tritons", "Seafaring", hand=6), active("Orcs", "Alchemist"),
               {12: r("ann", "Tritons"), 20: r("bob", "Orcs")})
    assert_cost(spec, "ann", 9, 2)  # the lake is not a coastal region (§11.15): 2


def test_orcs_own_decline_region_counts_as_non_empty():
    spec = two(active("Orcs", "Spirit", hand=5), active("Humans", "Alchemist"),
               {12: r("ann", "Orcs"), 7: r("ann", "Wizards", decline=True),
                20: r("bob", "Humans")},
               ann_decline=[{"race": "Wizards", "power": "Forest"}])
    state = act(load(spec), conquer("ann", 7))  # 2 + 1 own token = 3
    _, got = income(state, "ann", deploy("ann", 7, hand(state, "ann")), end("ann"))
    assert got == 3  # 2 regions + 1 non-empty conquered (§2.4: own decline token counts)


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


def test_halflings_reenter_anywhere():
    # §10.6 engine decision: "enter anywhere" also after losing every region
    spec = two(active("Halflings", "Alchemist", hand=4), active("Orcs", "Spirit"),
               {20: r("bob", "Orcs")})
    state = act(load(spec), conquer("ann", 16))  # inland farmland
    assert owner(state, 16) == "ann"


def test_halflings_place_no_more_holes_after_two():
    # two holes already on the map: the race's first two conquests are behind it
    spec = two(active("Halflings", "Alchemist", hand=4), active("Orcs", "Spirit"),
               {16: r("ann", "Halflings", pieces=["hole"]),
                18: r("ann", "Halflings", pieces=["hole"]), 20: r("bob", "Orcs")})
    state = act(load(spec), conquer("ann", 22))
    assert "hole" not in pieces(state, 22)


def test_e6_skeletons_take_a_mountain_with_the_die():
    # §6.4 / E6: Skeletons short of tokens name the mountain, roll, succeed; conquests end
    spec = two(active("Skeletons", "Spirit", hand=2), active("Humans", "Alchemist"),
               {10: r("ann", "Skeletons"), 20: r("bob", "Humans")}, dice=[2])
    state = act(load(spec), reinforce("ann", 14))  # 3 needed, 2 in hand, die 2
    assert owner(state, 14) == "ann" and tokens(state, 14) == 2
    refuse(state, conquer("ann", 12))


def test_amazons_abandoned_regions_do_not_score():
    # 5 Amazons on 3 regions: removing 4 leaves 1 region, which alone scores
    spec = two(active("Amazons", "Spirit"), active("Orcs", "Alchemist"),
               {6: r("ann", "Amazons", 3), 10: r("ann", "Amazons"), 2: r("ann", "Amazons"),
                20: r("bob", "Orcs")})
    state = load(spec)
    state, got = income(state, "ann", deploy("ann", 6, hand(state, "ann")), end("ann"))
    assert got == 1


def test_ghouls_after_a_pick_conquer_before_the_new_race():
    # §12.1: no Active race -> pick, then the In Decline Ghouls, then the new race
    spec = build(seats={"ann": seat(5, None, [{"race": "Ghouls", "power": "Forest"}]),
                        "bob": seat(5, active("Orcs", "Alchemist"))},
                 regions={6: r("ann", "Ghouls", 3, decline=True), 20: r("bob", "Orcs")})
    state = act(load(spec), pick("ann", 0))
    state = act(state, conquer("ann", 2, race="decline"))
    assert region(state, 2)["race"] == "Ghouls"


def test_no_decline_after_ghoul_conquests():
    # §10.4: a Decline turn has no Ghoul conquests; conquering makes it an Expand turn
    state = act(load(ghoul_spec()), conquer("ann", 2, race="decline"))
    refuse(state, decline("ann"))


def test_declined_ghouls_lose_one_and_redeploy_the_rest():
    # §6.3.4 applies to In Decline race tokens too (§12.4)
    # official-3p, seats ann, cid, bob: after ann's turn cid plays, so bob's Ghouls are
    # not readied again before we look. 2 borders 1, 3, 7, 8, 10.
    spec = build(
        seats={"ann": seat(5, active("Ratmen", "Spirit", hand=8)),
               "cid": seat(5, active("Humans", "Forest")),
               "bob": seat(5, active("Orcs", "Alchemist"),
                           [{"race": "Ghouls", "power": "Hill"}])},
        regions={2: r("ann", "Ratmen"), 3: r("bob", "Ghouls", 3, decline=True),
                 8: r("bob", "Ghouls", 1, decline=True), 15: r("bob", "Orcs"),
                 18: r("cid", "Humans")},
        players=("ann", "cid", "bob"), board="official-3p",
    )
    state = act(load(spec), conquer("ann", 3))  # 2 + 3 = 5
    state = finish(state, "ann")
    mine = pending_for(state, "bob")
    assert mine and mine[0]["tokens"] == 2  # 3 - 1 lost
    state = act(state, deploy("bob", 8, 2))
    assert obs(state)["current"] == "cid"
    assert tokens(state, 8) == 3 and region(state, 8)["decline"] is True


def test_own_ghouls_ignore_own_hero():
    # §16 #30: immunity applies against other players only
    spec = two(active("Ratmen", "Heroic", hand=2), active("Orcs", "Alchemist"),
               {6: r("ann", "Ghouls", 5, decline=True), 2: r("ann", "Ratmen", pieces=["hero"]),
                18: r("ann", "Ratmen", pieces=["hero"]), 20: r("bob", "Orcs")},
               ann_decline=[{"race": "Ghouls", "power": "Forest"}])
    state = act(load(spec), conquer("ann", 2, race="decline"))
    assert region(state, 2)["race"] == "Ghouls"


def test_halfling_hole_immune_to_sorcerers():
    spec = two(active("Sorcerers", "Spirit", hand=2), active("Halflings", "Alchemist"),
               {6: r("ann", "Sorcerers", 2), 7: r("bob", "Halflings", pieces=["hole"]),
                20: r("bob", "Halflings")})
    refuse(load(spec), enchant("ann", 7), 7)


def test_orcs_die_conquest_of_lost_tribe_counts():
    spec = two(active("Orcs", "Spirit", hand=2), active("Humans", "Alchemist"),
               {12: r("ann", "Orcs"), 15: LT, 20: r("bob", "Humans")}, dice=[1])
    state = act(load(spec), reinforce("ann", 15))  # 3 needed: 2 + die 1
    _, got = income(state, "ann", end("ann"))
    assert got == 3  # 2 regions + 1 non-empty conquered


def test_trolls_lair_after_die_conquest():
    spec = two(active("Trolls", "Spirit", hand=1), active("Orcs", "Alchemist"),
               {6: r("ann", "Trolls", pieces=["troll_lair"]), 20: r("bob", "Orcs")}, dice=[3])
    state = act(load(spec), reinforce("ann", 10))  # 2 needed, 1 + 3
    assert "troll_lair" in pieces(state, 10)


def test_giants_discount_from_a_mountain_taken_this_turn():
    spec = two(active("Giants", "Spirit", hand=6), active("Orcs", "Alchemist"),
               {10: r("ann", "Giants"), 20: r("bob", "Orcs")})
    state, used = spent(load(spec), "ann", 14)
    assert used == 3  # mountain 14: 2 + 1 (no Giant mountain next to it yet)
    state, used = spent(state, "ann", 17)
    assert used == 1  # empty swamp next to the Giants' new mountain 14: 2 - 1


def test_halflings_no_new_hole_after_abandoning_one():
    # §16 #16: holes only on the race's first two conquests ever; never placed again
    spec = two(active("Halflings", "Alchemist", hand=4), active("Orcs", "Spirit"),
               {16: r("ann", "Halflings", pieces=["hole"]),
                18: r("ann", "Halflings", pieces=["hole"]), 20: r("bob", "Orcs")})
    state = act(load(spec), abandon("ann", 16), conquer("ann", 22))
    assert "hole" not in pieces(state, 22)
    assert "hole" not in pieces(state, 16)


def test_tritons_discount_next_to_a_sea():
    spec = two(active("Tritons", "Spirit", hand=6), active("Orcs", "Alchemist"),
               {4: r("ann", "Tritons"), 20: r("bob", "Orcs")})
    assert_cost(spec, "ann", 1, 2)  # mountain 1 on sea 0: 3 - 1


def test_conversion_removes_the_fortress():
    # §10.11 engine decision: a Fortress in the converted region is removed
    state = sorcerers({7: r("bob", "Orcs", pieces=["fortress"])}, bob=("Orcs", "Fortified"))
    state = act(state, enchant("ann", 7))
    assert "fortress" not in pieces(state, 7)


def test_ghouls_conquer_only_with_their_own_readied_tokens():
    # Ghouls on 6 (3 tokens) ready 2; the Ratmen's 5 in hand cannot help them
    spec = ghoul_spec()
    spec["regions"]["3"] = LT  # swamp with a lost tribe next to 6: 2 + 1 = 3
    state = load(spec)
    refuse(state, conquer("ann", 3, race="decline"), 3)
    state = act(state, conquer("ann", 2, race="decline"))  # 2 tokens: enough
    assert region(state, 2)["tokens"] == 2


def test_skeletons_own_decline_region_counts_as_non_empty():
    # §2.4: a region holding only the attacker's own In Decline token is non-empty
    spec = two(active("Skeletons", "Spirit", hand=8), active("Humans", "Alchemist"),
               {12: r("ann", "Skeletons"), 7: r("ann", "Wizards", decline=True),
                15: LT, 20: r("bob", "Humans")},
               ann_decline=[{"race": "Wizards", "power": "Forest"}])
    state = act(load(spec), conquer("ann", 7), conquer("ann", 15))  # 3 + 3
    state = finish(state, "ann")
    assert total(state, "ann") == 10  # 9 + floor(2 / 2)
