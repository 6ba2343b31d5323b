"""RULES.md §11: the 20 special powers, positive effect + limit each (§16 #8, #10-16, #29, #31)."""

from __future__ import annotations

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
    dragon,
    enchant,
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
    place,
    r,
    refuse,
    region,
    reinforce,
    roll,
    seat,
    spent,
    tokens,
)


def two(ann_active=None, bob_active=None, regions=None, *, ann_decline=None, bob_decline=None,
        current="ann", dice=None):
    return build(
        seats={"ann": seat(5, ann_active, ann_decline), "bob": seat(5, bob_active, bob_decline)},
        regions=regions or {}, current=current, dice=dice,
    )


def ratmen(power, regions, hand_=0, **kw):
    base = {20: r("bob", "Orcs")}
    base.update(regions)
    return two(active("Ratmen", power, hand=hand_), active("Orcs", "Spirit"), base, **kw)


def first_pick(power):
    row = [{"race": "Ratmen", "power": power, "coins": 0}]
    races = ["Elves", "Dwarves", "Humans", "Wizards", "Orcs"]
    pw = [x for x in ("Alchemist", "Forest", "Swamp", "Hill", "Merchant", "Spirit") if x != power]
    row += [{"race": races[i], "power": pw[i], "coins": 0} for i in range(5)]
    return load(build(seats={"ann": seat(), "bob": seat()}, current=None, round=None, row=row))


# ---------------------------------------------------------------- Alchemist §11.1


def test_alchemist_two_coins_each_turn():
    spec = ratmen("Alchemist", {6: r("ann", "Ratmen"), 10: r("ann", "Ratmen")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 4  # 2 regions + 2 Alchemist


def test_alchemist_nothing_on_the_decline_turn():
    spec = ratmen("Alchemist", {6: r("ann", "Ratmen"), 10: r("ann", "Ratmen")})
    _, got = income(load(spec), "ann", decline("ann"))
    assert got == 2  # 2 regions, no Alchemist


# ---------------------------------------------------------------- Berserk §11.2, §16 #31


def berserk(dice, hand_=3):
    return load(ratmen("Berserk", {12: r("ann", "Ratmen")}, hand_, dice=dice))


def test_berserk_roll_reduces_the_next_conquest():
    state = act(berserk([2]), roll("ann"))
    state, used = spent(state, "ann", 11)
    assert used == 1  # empty mountain 3 - roll 2 = 1


def test_berserk_reduction_floor_is_one():
    state = act(berserk([3]), roll("ann"))
    state, used = spent(state, "ann", 14)
    assert used == 1  # 3 - 3 = 0 -> minimum 1


def test_berserk_may_conquer_without_rolling():
    state, used = spent(berserk([3]), "ann", 14)
    assert used == 3  # no roll: plain cost


def test_berserk_rolls_before_every_conquest():
    state = act(berserk([2, 1], hand_=4), roll("ann"), conquer("ann", 11))  # 3 - 2 = 1
    state = act(state, roll("ann"))
    state, used = spent(state, "ann", 14)
    assert used == 2  # 3 - 1 = 2


def test_berserk_target_must_be_within_reach_after_the_roll():
    # §16 #31: after the roll choose a target whose reduced cost <= tokens in hand
    state = act(berserk([0], hand_=2), roll("ann"))
    refuse(state, conquer("ann", 14), 14, 3)  # mountain 3 - 0 = 3 > 2 in hand
    state, used = spent(state, "ann", 17)  # empty swamp 2 - 0 = 2 <= 2
    assert used == 2


def test_berserk_nothing_in_reach_ends_conquests():
    # §16 #31: roll 0 with 1 token: every target costs >= 2 -> conquests end
    state = act(berserk([0, 3], hand_=1), roll("ann"))
    refuse(state, conquer("ann", 17))
    refuse(state, roll("ann"))
    state = act(state, deploy("ann", 12, 1), end("ann"))
    assert owner(state, 12) == "ann" and tokens(state, 12) == 2


def test_berserk_gets_no_extra_final_die_roll():
    refuse(berserk([3], hand_=2), reinforce("ann", 14))  # §11.2 engine decision 5


# ---------------------------------------------------------------- Bivouacking §11.3


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


# ---------------------------------------------------------------- Commando §11.4


def test_commando_minus_one():
    spec = ratmen("Commando", {12: r("ann", "Ratmen"), 15: LT}, hand_=6)
    assert_cost(spec, "ann", 11, 2)  # mountain 3 - 1
    assert_cost(spec, "ann", 15, 2)  # lost tribe 3 - 1


def test_commando_floor_is_one():
    spec = ratmen("Commando", {12: r("ann", "Ratmen")}, hand_=6)
    assert_cost(spec, "ann", 17, 1)  # empty 2 - 1 = 1 (never 0)


# ---------------------------------------------------------------- Diplomat §11.5, §16 #14


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


# ---------------------------------------------------------------- Dragon Master §11.6, §16 #10


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


# ---------------------------------------------------------------- Flying §11.7, §16 #15


def test_flying_conquers_far_away():
    spec = ratmen("Flying", {6: r("ann", "Ratmen")}, hand_=5)
    state, used = spent(load(spec), "ann", 22)  # far from 6; empty forest
    assert used == 2


def test_flying_not_over_water():
    spec = ratmen("Flying", {6: r("ann", "Ratmen")}, hand_=5)
    refuse(load(spec), conquer("ann", 19), 19)


def test_flying_first_conquest_anywhere():
    state = act(first_pick("Flying"), pick("ann", 0))
    state = act(state, conquer("ann", 16))  # inland
    assert owner(state, 16) == "ann"


# ---------------------------------------------------------------- Forest §11.8


def test_forest_bonus():
    spec = ratmen("Forest", {7: r("ann", "Ratmen"), 8: r("ann", "Ratmen"), 6: r("ann", "Ratmen")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 5  # 3 regions + forests 7 and 8


def test_forest_no_bonus_in_decline():
    spec = two(active("Orcs", "Spirit"), active("Humans", "Alchemist"),
               {18: r("ann", "Orcs"), 21: r("ann", "Ratmen", decline=True),
                22: r("ann", "Ratmen", decline=True), 20: r("bob", "Humans")},
               ann_decline=[{"race": "Ratmen", "power": "Forest"}])
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 3


# ---------------------------------------------------------------- Fortified §11.9, §16 #11


def fortified(**extra):
    regions = {6: r("ann", "Ratmen"), 10: r("ann", "Ratmen")}
    regions.update(extra)
    return load(ratmen("Fortified", regions))


def test_fortified_places_and_scores_the_same_turn():
    state = act(fortified(), place("ann", "fortress", 6))
    assert "fortress" in pieces(state, 6)
    _, got = income(state, "ann", end("ann"))
    assert got == 3  # 2 regions + 1 fortress


def test_fortified_once_per_turn():
    state = act(fortified(), place("ann", "fortress", 6))
    refuse(state, place("ann", "fortress", 10))


def test_fortified_one_per_region():
    state = load(ratmen("Fortified", {6: r("ann", "Ratmen", pieces=["fortress"]),
                                       10: r("ann", "Ratmen")}))
    refuse(state, place("ann", "fortress", 6), 6)


def test_fortress_scores_every_turn():
    state = load(ratmen("Fortified", {6: r("ann", "Ratmen", pieces=["fortress"]),
                                       10: r("ann", "Ratmen")}))
    _, got = income(state, "ann", end("ann"))
    assert got == 3


def test_fortress_defends_in_decline_but_scores_nothing():
    spec = two(active("Orcs", "Spirit"), active("Humans", "Alchemist", hand=8),
               {18: r("ann", "Orcs"), 6: r("ann", "Ratmen", decline=True, pieces=["fortress"]),
                2: r("bob", "Humans")},
               ann_decline=[{"race": "Ratmen", "power": "Fortified"}], current="bob")
    assert_cost(spec, "bob", 6, 4)  # 2 + 1 token + 1 fortress
    spec["current"] = "ann"
    spec["seats"]["bob"]["active"]["hand"] = 0
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 2  # Orcs 18 + Ratmen 6, no fortress coin in decline


# ---------------------------------------------------------------- Heroic §11.10, §16 #13


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


# ---------------------------------------------------------------- Hill §11.11


def test_hill_bonus():
    spec = ratmen("Hill", {5: r("ann", "Ratmen"), 6: r("ann", "Ratmen"), 2: r("ann", "Ratmen")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 5  # 3 regions + hills 5 and 6


# ---------------------------------------------------------------- Merchant §11.12


def test_merchant_one_per_region():
    spec = ratmen("Merchant", {6: r("ann", "Ratmen"), 2: r("ann", "Ratmen")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 4  # 2 regions + 2 Merchant


# ---------------------------------------------------------------- Mounted §11.13


def test_mounted_hill_and_farmland():
    spec = ratmen("Mounted", {6: r("ann", "Ratmen")}, hand_=6)
    assert_cost(spec, "ann", 2, 1)  # empty farmland 2 - 1
    assert_cost(spec, "ann", 3, 2)  # swamp: no discount


def test_mounted_no_discount_on_mountain():
    spec = ratmen("Mounted", {12: r("ann", "Ratmen")}, hand_=6)
    assert_cost(spec, "ann", 11, 3)


# ---------------------------------------------------------------- Pillaging §11.14


def test_pillaging_non_empty_conquests():
    spec = ratmen("Pillaging", {6: r("ann", "Ratmen"), 7: LT}, hand_=6)
    state = act(load(spec), conquer("ann", 7), conquer("ann", 10))  # LT 3 + empty 2
    _, got = income(state, "ann", deploy("ann", 6, hand(state, "ann")), end("ann"))
    assert got == 4  # 3 regions + 1 non-empty (7); 10 was empty


# ---------------------------------------------------------------- Seafaring §11.15


def test_seafaring_conquers_water_and_keeps_it_in_decline():
    spec = ratmen("Seafaring", {12: r("ann", "Ratmen")}, hand_=4)
    state, used = spent(load(spec), "ann", 9)
    assert used == 2  # the lake as an empty region
    state, got = income(state, "ann", deploy("ann", 9, hand(state, "ann")), end("ann"))
    assert got == 2  # 12 and the lake
    spec2 = ratmen("Seafaring", {12: r("ann", "Ratmen"), 9: r("ann", "Ratmen", 2)})
    state = act(load(spec2), decline("ann"))
    assert owner(state, 9) == "ann" and region(state, 9)["decline"] is True


# ---------------------------------------------------------------- Spirit §11.16


def test_spirit_second_decline_race_stays():
    spec = ratmen("Spirit", {6: r("ann", "Ratmen", 2), 14: r("ann", "Orcs", decline=True)},
                  ann_decline=[{"race": "Orcs", "power": "Alchemist"}])
    spec["seats"]["bob"]["active"] = active("Humans", "Forest")
    spec["regions"]["20"] = r("bob", "Humans")
    state, got = income(load(spec), "ann", decline("ann"))
    assert owner(state, 14) == "ann" and region(state, 6)["decline"] is True
    assert {d["race"] for d in declines(state, "ann")} == {"Orcs", "Ratmen"}
    assert got == 2  # 6 + 14


def test_spirit_stays_when_a_third_race_declines():
    spec = build(
        seats={"ann": seat(5, active("Humans", "Forest"),
                           [{"race": "Ratmen", "power": "Spirit"},
                            {"race": "Orcs", "power": "Alchemist"}]),
               "bob": seat(5, active("Elves", "Hill"))},
        regions={18: r("ann", "Humans"), 6: r("ann", "Ratmen", decline=True),
                 14: r("ann", "Orcs", decline=True), 20: r("bob", "Elves")},
    )
    state = act(load(spec), decline("ann"))
    assert owner(state, 6) == "ann"  # the Spirit race stays
    assert owner(state, 14) is None  # the other In Decline race goes
    assert {d["race"] for d in declines(state, "ann")} == {"Ratmen", "Humans"}


# ---------------------------------------------------------------- Stout §11.17, §16 #29


def test_stout_scores_then_declines_after_conquering():
    spec = ratmen("Stout", {12: r("ann", "Ratmen"), 7: r("ann", "Humans", decline=True)},
                  hand_=3, ann_decline=[{"race": "Humans", "power": "Forest"}])
    state = act(load(spec), conquer("ann", 14))  # empty mountain: 3
    state, got = income(state, "ann", decline("ann"))
    assert got == 3  # scoring first: Ratmen 12, 14 + old Humans 7
    assert region(state, 14)["decline"] is True and tokens(state, 14) == 1
    assert owner(state, 7) is None  # then the older decline race is removed
    assert not active_of(state, "ann")


def test_stout_allowed_on_the_pick_turn():
    state = act(first_pick("Stout"), pick("ann", 0), conquer("ann", 18))
    state = act(state, deploy("ann", 18, hand(state, "ann")), decline("ann"))
    assert region(state, 18)["decline"] is True


# ---------------------------------------------------------------- Swamp §11.18


def test_swamp_bonus():
    spec = ratmen("Swamp", {3: r("ann", "Ratmen"), 10: r("ann", "Ratmen"), 6: r("ann", "Ratmen")})
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 5  # 3 regions + swamps 3 and 10


# ---------------------------------------------------------------- Underworld §11.19


def test_underworld_caverns_adjacent_and_cheaper():
    spec = ratmen("Underworld", {6: r("ann", "Ratmen"), 15: LT}, hand_=5)
    assert_cost(spec, "ann", 15, 2)  # cavern hill far from 6: 2 + 1 LT - 1 = 2


def test_underworld_no_reach_to_non_caverns():
    spec = ratmen("Underworld", {6: r("ann", "Ratmen")}, hand_=5)
    refuse(load(spec), conquer("ann", 16), 16)


# ---------------------------------------------------------------- Wealthy §11.20, §16 #8


def test_wealthy_seven_coins_once():
    state = act(first_pick("Wealthy"), pick("ann", 0), conquer("ann", 18))
    state, got = income(state, "ann", deploy("ann", 18, hand(state, "ann")), end("ann"))
    assert got == 8  # 1 region + 7 Wealthy at the end of the first turn
    state = act(state, pick("bob", 0), conquer("bob", 4))
    state = finish(state, "bob")
    before = coins(state, "ann")
    state = finish(state, "ann")  # put the readied Ratmen back and end
    assert coins(state, "ann") - before == 1  # only once


# ---------------------------------------------------------------- more limits


def test_diplomat_cannot_ally_self():
    refuse(diplomat(), ally("ann", "ann"))


def test_diplomat_peace_ends_at_the_diplomats_next_turn():
    state = act(diplomat(), ally("ann", "bob"), end("ann"))
    state = finish(state, "bob")  # bob keeps the peace
    state = act(state, end("ann"))  # ann names no ally this time
    state = act(state, conquer("bob", 6))
    assert owner(state, 6) == "bob"


def test_heroes_only_in_own_regions():
    refuse(heroic(), place("ann", "hero", 2), 2)


def test_heroes_move_with_the_turn():
    spec = ratmen("Heroic", {6: r("ann", "Ratmen", pieces=["hero"]),
                             10: r("ann", "Ratmen", pieces=["hero"]),
                             3: r("ann", "Ratmen")})
    state = act(load(spec), place("ann", "hero", 3), place("ann", "hero", 10), end("ann"))
    assert "hero" in pieces(state, 3) and "hero" in pieces(state, 10)
    assert "hero" not in pieces(state, 6)


def test_fortified_at_most_six_on_the_map():
    regions = {rid: r("ann", "Ratmen", pieces=["fortress"]) for rid in (2, 3, 4, 6, 8, 10)}
    regions[18] = r("ann", "Ratmen")
    state = load(ratmen("Fortified", regions))
    refuse(state, place("ann", "fortress", 18))


def test_fortress_defence_and_removal_on_abandon():
    state = load(ratmen("Fortified", {6: r("ann", "Ratmen", 2, pieces=["fortress"]),
                                       10: r("ann", "Ratmen")}))
    state = act(state, abandon("ann", 6))
    assert "fortress" not in pieces(state, 6)


def test_mounted_tritons_coastal_hill_floor_one():
    spec = two(active("Tritons", "Mounted", hand=5), active("Orcs", "Spirit"),
               {4: r("ann", "Tritons"), 20: r("bob", "Orcs")})
    assert_cost(spec, "ann", 5, 1)  # hill on the lake: 2 - 1 Mounted - 1 Tritons = 0 -> 1


def test_underworld_normal_cost_off_caverns():
    spec = ratmen("Underworld", {6: r("ann", "Ratmen"), 7: LT}, hand_=5)
    assert_cost(spec, "ann", 7, 3)  # forest with a lost tribe next to 6: no discount


def test_pillaging_own_decline_region_counts():
    spec = ratmen("Pillaging", {12: r("ann", "Ratmen"), 7: r("ann", "Humans", decline=True)},
                  hand_=4, ann_decline=[{"race": "Humans", "power": "Forest"}])
    state = act(load(spec), conquer("ann", 7))  # 2 + 1 own token
    _, got = income(state, "ann", deploy("ann", 7, hand(state, "ann")), end("ann"))
    assert got == 3  # 2 regions + 1 Pillaging (non-empty, §2.4)


def test_wealthy_not_paid_at_the_pick():
    state = act(first_pick("Wealthy"), pick("ann", 0))
    assert coins(state, "ann") == 5  # the +7 comes at the END of the first turn


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


def test_flying_does_not_bypass_immunity():
    spec = two(active("Ratmen", "Flying", hand=5), active("Orcs", "Heroic"),
               {6: r("ann", "Ratmen"), 20: r("bob", "Orcs", pieces=["hero"]),
                22: r("bob", "Orcs")})
    refuse(load(spec), conquer("ann", 20), 20)


def test_alchemist_in_decline_pays_nothing():
    spec = two(active("Orcs", "Spirit"), active("Humans", "Forest"),
               {18: r("ann", "Orcs"), 6: r("ann", "Ratmen", decline=True), 20: r("bob", "Humans")},
               ann_decline=[{"race": "Ratmen", "power": "Alchemist"}])
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 2


def test_seafaring_water_gives_adjacency():
    spec = ratmen("Seafaring", {9: r("ann", "Ratmen")}, hand_=4)
    state = act(load(spec), conquer("ann", 5))  # 5 borders the lake
    assert owner(state, 5) == "ann"


def test_only_seafaring_may_attack_water():
    spec = two(active("Orcs", "Spirit", hand=6), active("Ratmen", "Seafaring"),
               {12: r("ann", "Orcs"), 9: r("bob", "Ratmen")})
    refuse(load(spec), conquer("ann", 9), 9)


def test_stout_may_still_decline_at_turn_start():
    spec = ratmen("Stout", {12: r("ann", "Ratmen"), 17: r("ann", "Ratmen")})
    state, got = income(load(spec), "ann", decline("ann"))
    assert got == 2 and region(state, 12)["decline"] is True


def test_commando_first_conquest_on_a_lost_tribe():
    state = act(first_pick("Commando"), pick("ann", 0))
    state, used = spent(state, "ann", 2)
    assert used == 2  # 2 + 1 lost tribe - 1 Commando


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


def test_placing_an_encampment_ends_conquests():
    spec = ratmen("Bivouacking", {12: r("ann", "Ratmen")}, hand_=5)
    state = act(load(spec), place("ann", "encampment", 12))
    refuse(state, conquer("ann", 17))


def test_placing_a_fortress_ends_conquests():
    spec = ratmen("Fortified", {12: r("ann", "Ratmen")}, hand_=5)
    state = act(load(spec), place("ann", "fortress", 12))
    refuse(state, conquer("ann", 17))


def test_abandon_refused_during_redeployment():
    spec = ratmen("Alchemist", {12: r("ann", "Ratmen"), 18: r("ann", "Ratmen")}, hand_=2)
    state = act(load(spec), deploy("ann", 12, 1))
    refuse(state, abandon("ann", 18))


def test_seafaring_declined_water_scores():
    spec = two(active("Orcs", "Spirit"), active("Humans", "Alchemist"),
               {18: r("ann", "Orcs"), 9: r("ann", "Ratmen", decline=True),
                20: r("bob", "Humans")},
               ann_decline=[{"race": "Ratmen", "power": "Seafaring"}])
    _, got = income(load(spec), "ann", end("ann"))
    assert got == 2  # Orcs 18 + the lake held by the In Decline Seafarers


def test_berserk_may_stop_after_rolling():
    state = act(berserk([3], hand_=2), roll("ann"), deploy("ann", 12, 2), end("ann"))
    assert tokens(state, 12) == 3 and owner(state, 12) == "ann"


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


def test_alchemist_pays_on_the_pick_turn():
    state = act(first_pick("Alchemist"), pick("ann", 0), conquer("ann", 18))
    _, got = income(state, "ann", deploy("ann", 18, hand(state, "ann")), end("ann"))
    assert got == 3  # 1 region + 2 Alchemist


def test_dragon_attack_counts_as_a_conquest_for_orcs():
    spec = two(active("Orcs", "Dragon Master", hand=3), active("Ratmen", "Spirit"),
               {6: r("ann", "Orcs"), 2: r("bob", "Ratmen", 3), 20: r("bob", "Ratmen")})
    state = act(load(spec), dragon("ann", 2))
    _, got = income(state, "ann", deploy("ann", 6, hand(state, "ann")), end("ann"))
    assert got == 3  # 2 regions + 1 non-empty region conquered by the Orcs


def test_dragon_first_conquest_needs_an_entry_region():
    state = act(first_pick("Dragon Master"), pick("ann", 0))
    refuse(state, dragon("ann", 16), 16)  # inland
    state = act(state, dragon("ann", 18))
    assert owner(state, 18) == "ann" and tokens(state, 18) == 1


def test_naming_an_ally_ends_conquests():
    spec = two(active("Ratmen", "Diplomat", hand=4), active("Orcs", "Spirit"),
               {6: r("ann", "Ratmen"), 20: r("bob", "Orcs")})
    state = act(load(spec), ally("ann", "bob"))
    refuse(state, conquer("ann", 10))


def test_dragon_stays_when_not_moved():
    # §16 #10: moving the Dragon is optional
    spec = ratmen("Dragon Master", {6: r("ann", "Ratmen", pieces=["dragon"]),
                                    10: r("ann", "Ratmen")})
    state = act(load(spec), end("ann"))
    assert "dragon" in pieces(state, 6)


def test_heroes_may_be_left_in_place():
    # §16 #13: re-placed (or left) at the end of each turn
    spec = ratmen("Heroic", {6: r("ann", "Ratmen", pieces=["hero"]),
                             10: r("ann", "Ratmen", pieces=["hero"])})
    state = act(load(spec), end("ann"))
    assert "hero" in pieces(state, 6) and "hero" in pieces(state, 10)


# ---------------------------------------------------------------- pieces stay on the map


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


def test_encampments_still_shown_when_their_owners_turn_begins():
    # §16 #12: encampments are placed or moved during redeployment, so they stand until then
    spec = two(active("Ratmen", "Spirit"), active("Orcs", "Bivouacking"),
               {6: r("ann", "Ratmen"), 20: r("bob", "Orcs", pieces=["encampment"] * 2),
                22: r("bob", "Orcs")})
    state = act(load(spec), end("ann"))
    assert obs(state)["current"] == "bob"
    assert pieces(state, 20).count("encampment") == 2


def test_own_ghouls_pay_for_own_encampments():
    # §6.2: +1 per encampment in the region; they have not moved yet (redeployment comes
    # later). ann's In Decline Ghouls attack her Active Bivouacking region 2:
    # 2 base + 1 Ratmen token (§16 #9 / D-16: every race token counts) + 2 encampments = 5
    spec = build(
        seats={"ann": seat(5, active("Ratmen", "Bivouacking"),
                           [{"race": "Ghouls", "power": "Forest"}]),
               "bob": seat(5, active("Orcs", "Spirit"))},
        regions={2: r("ann", "Ratmen", pieces=["encampment", "encampment"]),
                 6: r("ann", "Ghouls", 6, decline=True), 20: r("bob", "Orcs")},
    )
    state = act(load(spec), conquer("ann", 2, race="decline"))
    assert tokens(state, 2) == 5
