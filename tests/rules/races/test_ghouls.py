"""RULES.md §10.4: Ghouls (one file per section of RULES.md §10 races)."""

from __future__ import annotations

from ..helpers import (
    LT,
    act,
    active,
    build,
    conquer,
    decline,
    deploy,
    end,
    finish,
    hand,
    income,
    load,
    obs,
    owner,
    pending_for,
    pick,
    r,
    refuse,
    region,
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
