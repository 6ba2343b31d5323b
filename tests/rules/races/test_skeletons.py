"""RULES.md §10.10: Skeletons (one file per section of RULES.md §10 races)."""

from __future__ import annotations

import engine

from ..helpers import (
    LT,
    act,
    act_events,
    active,
    build,
    conquer,
    deploy,
    end,
    finish,
    hand,
    load,
    obs,
    owner,
    r,
    refuse,
    reinforce,
    tokens,
    total,
    two,
)


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


def test_e6_skeletons_take_a_mountain_with_the_die():
    # §6.4 / E6: Skeletons short of tokens name the mountain, roll, succeed; conquests end
    spec = two(active("Skeletons", "Spirit", hand=2), active("Humans", "Alchemist"),
               {10: r("ann", "Skeletons"), 20: r("bob", "Humans")}, dice=[2])
    state = act(load(spec), reinforce("ann", 14))  # 3 needed, 2 in hand, die 2
    assert owner(state, 14) == "ann" and tokens(state, 14) == 2
    refuse(state, conquer("ann", 12))


def test_skeletons_own_decline_region_counts_as_non_empty():
    # §2.4: a region holding only the attacker's own In Decline token is non-empty
    spec = two(active("Skeletons", "Spirit", hand=8), active("Humans", "Alchemist"),
               {12: r("ann", "Skeletons"), 7: r("ann", "Wizards", decline=True),
                15: LT, 20: r("bob", "Humans")},
               ann_decline=[{"race": "Wizards", "power": "Forest"}])
    state = act(load(spec), conquer("ann", 7), conquer("ann", 15))  # 3 + 3
    state = finish(state, "ann")
    assert total(state, "ann") == 10  # 9 + floor(2 / 2)


def test_skeletons_bonus_on_redeploy_capped_by_tray() -> None:
    seats = {"ann": {"active": active("Skeletons", "Hill", 9)}, "bob": {}}
    regions = {4: r("ann", "Skeletons", 1), 2: {"lost_tribe": True}, 5: {"lost_tribe": True}}
    s = engine.load_scenario(build(seats=seats, regions=regions, seed=3))
    s, _ = act_events(s, conquer("ann", 5), conquer("ann", 2), conquer("ann", 8))
    h = obs(s)["players"]["ann"]["hand"]
    s, ev = act_events(s, deploy("ann", 8, h))
    assert any(e["type"] == "bonus_tokens" and e["tokens"] == 1 for e in ev)
    assert obs(s)["players"]["ann"]["hand"] == 1
    s, ev = act_events(s, end("ann"))  # the bonus token left in hand goes on the thinnest region
    assert sum(e["count"] for e in ev if e["type"] == "deployed" and e.get("auto")) == 1
