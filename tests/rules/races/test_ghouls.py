"""RULES.md §10.4: Ghouls (one file per section of RULES.md §10 races)."""

from __future__ import annotations

import json

import engine

from ..helpers import (
    LT,
    act,
    act_events,
    active,
    apply,
    build,
    coins,
    conquer,
    decline,
    declines,
    deploy,
    end,
    finish,
    hand,
    income,
    load,
    obs,
    owner,
    pending,
    pending_for,
    pick,
    r,
    refuse,
    region,
    reinforce,
    seat,
    tokens,
    two,
)


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
    # a second position: the readied Ghouls are in the decline hand,
    # a Ghoul left in hand stands again when the Active race acts, and no Ghoul conquest after it
    seats = {"ann": {"active": active("Ratmen", "Hill", 3),
                     "decline": [{"race": "Ghouls", "power": "Forest"}]},
             "bob": {}}
    regions = {4: r("ann", "Ghouls", 4, decline=True), 18: r("ann", "Ratmen", 1)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    o = obs(s)
    assert o["players"]["ann"]["decline"][0]["hand"] == 3
    s, _ = act_events(s, conquer("ann", 8, "decline"))
    assert obs(s)["regions"]["8"]["decline"] is True and obs(s)["regions"]["8"]["race"] == "Ghouls"
    # one Ghoul left in hand: when the Active race acts it stands again where it was lifted
    s2, _ = act_events(s, conquer("ann", 16))
    assert obs(s2)["regions"]["4"]["tokens"] == 2
    assert obs(s2)["players"]["ann"]["decline"][0]["hand"] == 0
    s, _ = act_events(s, deploy("ann", 4, 1), conquer("ann", 16))
    assert obs(s)["regions"]["4"]["tokens"] == 2
    refuse(s, conquer("ann", 5, "decline"), code="conquests_over")


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


def test_ghouls_conquer_only_with_their_own_readied_tokens():
    # Ghouls on 6 (3 tokens) ready 2; the Ratmen's 5 in hand cannot help them
    spec = ghoul_spec()
    spec["regions"]["3"] = LT  # swamp with a lost tribe next to 6: 2 + 1 = 3
    state = load(spec)
    refuse(state, conquer("ann", 3, race="decline"), 3)
    state = act(state, conquer("ann", 2, race="decline"))  # 2 tokens: enough
    assert region(state, 2)["tokens"] == 2


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


# Ghoul rules tested elsewhere: a Diplomat's peace does not bind the ally's In Decline Ghouls
# (powers/test_diplomat.py: test_diplomat_does_not_bind_declined_ghouls).


def ghouls_in_hand_spec(ratmen_hand: int = 0, own_target: bool = False) -> dict:
    regions = {18: r("ann", "Ratmen", 3), 6: r("ann", "Ghouls", 3, decline=True),
               3: r("ann", "Ghouls", 1, decline=True), 20: r("bob", "Orcs", 1)}
    if own_target:
        regions[7] = r("ann", "Ratmen", 1)
    return build(seats={"ann": seat(5, active("Ratmen", "Hill", ratmen_hand),
                                    [{"race": "Ghouls", "power": "Forest"}]),
                        "bob": seat(5, active("Orcs", "Alchemist"))},
                 regions=regions)


def test_ghoul_conquests_are_optional():
    # §10.4 / §16 #20: the In Decline Ghouls *may* conquer first. The Active Ratmen may act
    # at once; the Ghouls readied at the turn's start (6: 3 -> 1) stand there again.
    state = load(ghouls_in_hand_spec())
    assert tokens(state, 6) == 1
    legal = [a.model_dump(mode="json") for a in engine.legal_actions(state)]
    assert conquer("ann", 16) in legal  # farmland next to 18, cost 2, Ratmen hand 2
    state = act(state, conquer("ann", 16))
    assert owner(state, 16) == "ann" and tokens(state, 6) == 3
    refuse(state, conquer("ann", 2, race="decline"))  # too late for the Ghouls now
    state = act(state, end("ann"))
    assert tokens(state, 6) == 3


def test_active_race_attacking_own_ghouls_faces_all_of_them():
    # §6.3.6 + §16 #9: the own In Decline tokens count; the unused readied Ghouls stand
    # again, so region 6 costs 2 + 3 = 5. Ratmen: 18 readies 2 + 2 = 4 in hand: one short.
    state = load(ghouls_in_hand_spec(ratmen_hand=2, own_target=True))
    assert hand(state, "ann") == 4
    legal = [a.model_dump(mode="json") for a in engine.legal_actions(state)]
    assert conquer("ann", 6) not in legal and reinforce("ann", 6) in legal
    refuse(state, conquer("ann", 6), 6, 5, 4)
    state = load(ghouls_in_hand_spec(ratmen_hand=3, own_target=True))
    state = act(state, conquer("ann", 6))
    assert hand(state, "ann") == 0 and region(state, 6)["race"] == "Ratmen"
    # §6.3.4: the Ghouls lose 1 and place the other 2 on their region 3 at the turn's end
    state = act(state, end("ann"))
    assert [(p["player"], p["tokens"]) for p in pending(state)] == [("ann", 2)]
    state = act(state, deploy("ann", 3, 2))
    assert tokens(state, 3) == 3


def test_legal_actions_match_apply_with_ghouls_in_hand():
    # legal_actions lists exactly the actions apply accepts (regions 0-23, counts 1-6)
    for spec in (ghouls_in_hand_spec(), ghouls_in_hand_spec(2, True), ghouls_in_hand_spec(3, True)):
        state = load(spec)
        legal = {json.dumps(a.model_dump(mode="json"), sort_keys=True)
                 for a in engine.legal_actions(state)}
        tried = []
        for rid in range(24):
            tried += [conquer("ann", rid), conquer("ann", rid, "decline"), reinforce("ann", rid),
                      {"do": "reinforce", "player": "ann", "region": rid, "race": "decline"},
                      {"do": "abandon", "player": "ann", "region": rid}]
            tried += [deploy("ann", rid, c) for c in range(1, 7)]
        tried += [decline("ann"), end("ann")]
        for a in tried:
            key = json.dumps(a, sort_keys=True)
            try:
                apply(state, a)
                ok = True
            except engine.RulesViolation:
                ok = False
            assert ok == (key in legal), a


def test_spirit_decline_turn_puts_readied_ghouls_back():
    # §8 / DESIGN: on a decline turn the readied tokens count as never picked up; Spirit
    # (§11.16) keeps the In Decline Ghouls. Score: Orcs 4 and 8 + Ghouls 7 and 12 = 4.
    spec = build(seats={"ann": seat(5, active("Orcs", "Spirit"),
                                    [{"race": "Ghouls", "power": "Hill"}]),
                        "bob": seat(5, active("Ratmen", "Swamp"))},
                 regions={4: r("ann", "Orcs", 3), 8: r("ann", "Orcs", 2),
                          7: r("ann", "Ghouls", 3, decline=True),
                          12: r("ann", "Ghouls", 1, decline=True), 11: r("bob", "Ratmen", 2)})
    state = load(spec)
    assert tokens(state, 7) == 1
    state = act(state, decline("ann"))
    assert [tokens(state, x) for x in (4, 8, 7, 12)] == [1, 1, 3, 1]
    assert coins(state, "ann") == 5 + 4
    assert sorted(d["race"] for d in declines(state, "ann")) == ["Ghouls", "Orcs"]


def test_own_ghouls_attack_own_active_race_survivors_wait_for_turn_end() -> None:
    seats = {"ann": {"active": active("Elves", "Hill", 0),
                     "decline": [{"race": "Ghouls", "power": "Swamp"}]},
             "bob": {}}
    regions = {4: r("ann", "Ghouls", 6, decline=True), 8: r("ann", "Elves", 3),
               11: r("ann", "Elves", 1)}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    # Ghouls: 5 in hand; region 8 holds 1 Elf after readying: cost 2 + 1 = 3
    s, ev = act_events(s, conquer("ann", 8, "decline"))
    assert next(e for e in ev if e["type"] == "conquered")["lost"] == 0  # Active Elves
    assert obs(s)["players"]["ann"]["hand"] == 2 + 1  # readied 2 + 1 survivor
    s, _ = act_events(s, deploy("ann", 4, 2),
                      conquer("ann", 16))  # the survivor is not usable: 2 readied only
    refuse(s, conquer("ann", 12), code="no_tokens_in_hand")
    s, _ = act_events(s, end("ann"))
    assert s.actor == "ann" and obs(s)["pending"][0]["tokens"] == 1
    s, _ = act_events(s, deploy("ann", 16, 1))
    assert s.actor == "bob" and obs(s)["regions"]["16"]["tokens"] == 3
