"""RULES.md §4 rounds, §9 end of the game, §16 #2, #24."""

from __future__ import annotations

import random

import pytest

import engine

from .helpers import (
    act,
    act_events,
    active,
    active_of,
    apply,
    build,
    coins,
    decline,
    deploy,
    end,
    finish,
    hand,
    load,
    names,
    obs,
    on_board,
    pick,
    r,
    refuse,
    scenario,
    seat,
)

# end_last_round: round 10 of 10, bob (last seat) to play; ann Humans on 2 (2 tokens, 20
# coins); bob Ratmen/Spirit on 6 (1 token, 14 coins).


def last_turn(ann_coins=20, bob_coins=14, regions=None, ann_decline=None):
    spec = scenario("end_last_round")
    spec["seats"]["ann"]["coins"] = ann_coins
    spec["seats"]["bob"]["coins"] = bob_coins
    if regions is not None:
        spec["regions"] = {str(k): v for k, v in regions.items()}
    if ann_decline is not None:
        spec["seats"]["ann"]["decline"] = ann_decline
    return load(spec)


def test_game_ends_after_the_last_players_turn_of_the_last_round():
    state = last_turn()
    assert not obs(state)["finished"]
    state = finish(state, "bob")
    o = obs(state)
    assert o["finished"] is True and state.finished is True
    assert state.actor is None


def test_final_turn_scores_before_ranking():
    state = finish(last_turn(), "bob")
    assert coins(state, "bob") == 15  # 14 + 1 region (Spirit gives nothing)
    assert coins(state, "ann") == 20


def test_ranking_by_coins():
    state = finish(last_turn(), "bob")
    o = obs(state)
    assert names(o["ranking"])[:2] == ["ann", "bob"]  # 20 > 15
    assert names(o["winners"]) == ["ann"]


def test_ranking_by_coins_other_way():
    state = finish(last_turn(ann_coins=10), "bob")
    o = obs(state)
    assert names(o["ranking"])[:2] == ["bob", "ann"]  # 15 > 10
    assert names(o["winners"]) == ["bob"]


def test_tie_broken_by_tokens_on_board():
    # both end on 15 coins; ann has 2 tokens on the board, bob 1
    state = finish(last_turn(ann_coins=15), "bob")
    assert names(obs(state)["winners"]) == ["ann"]
    assert names(obs(state)["ranking"])[:2] == ["ann", "bob"]


def test_tie_break_counts_decline_tokens():
    # 15 coins each; ann: 1 Active + 1 In Decline token = 2 > bob's 1
    regions = {2: r("ann", "Humans", 1), 14: r("ann", "Orcs", 1, decline=True),
               6: r("bob", "Ratmen", 1)}
    state = finish(last_turn(ann_coins=15, regions=regions,
                             ann_decline=[{"race": "Orcs", "power": "Forest"}]), "bob")
    assert names(obs(state)["winners"]) == ["ann"]


def test_full_tie_is_shared():
    regions = {2: r("ann", "Humans", 1), 6: r("bob", "Ratmen", 1)}
    state = finish(last_turn(ann_coins=15, regions=regions), "bob")
    assert sorted(names(obs(state)["winners"])) == ["ann", "bob"]


def test_game_over_event():
    state = last_turn()
    events = []

    step = apply(state, end("bob"))
    events.extend(step.events)
    over = [e for e in events if e.get("type") == "game_over"]
    assert over and names(over[0]["winners"]) == ["ann"]
    assert names(over[0]["ranking"])[:2] == ["ann", "bob"]


def test_not_over_before_the_last_seat_plays():
    spec = scenario("end_last_round")
    spec["current"] = "ann"
    state = finish(load(spec), "ann")
    o = obs(state)
    assert o["finished"] is False and o["current"] == "bob" and o["round"] == 10


def test_round_advances_when_the_first_seat_starts_again():
    spec = scenario("end_last_round")
    spec["round"] = 9
    state = finish(load(spec), "bob")
    o = obs(state)
    assert o["round"] == 10 and o["current"] == "ann" and not o["finished"]


def test_no_action_after_the_end():
    state = finish(last_turn(), "bob")
    refuse(state, end("ann"))
    refuse(state, pick("ann", 0))


def test_five_player_board_lasts_eight_rounds():
    players = ("ann", "bob", "cid", "dee", "eve")
    combos = [("Ratmen", "Spirit"), ("Orcs", "Alchemist"), ("Humans", "Forest"),
              ("Elves", "Hill"), ("Dwarves", "Swamp")]
    seats = {p: seat(5, active(*c)) for p, c in zip(players, combos, strict=True)}
    regions = {18: r("eve", "Dwarves")}
    spec = build(seats=seats, regions=regions, current="eve", round=8, players=players,
                 board="official-5p")
    state = load(spec)
    assert obs(state)["rounds"] == 8
    state = act(state, end("eve"))
    assert obs(state)["finished"] is True


def test_game_can_end_on_a_decline_turn():
    state = act(last_turn(), decline("bob"))
    assert obs(state)["finished"] is True
    assert coins(state, "bob") == 15  # 14 + 1 declined region


def test_active_race_without_tokens_may_still_end_or_decline():
    # §16 #23: a race with no tokens anywhere: expansion turn with no conquests, or decline
    spec = scenario("end_last_round")
    spec["round"] = 5
    spec["regions"] = {"2": {"owner": "ann", "race": "Humans", "tokens": 2}}
    state = load(spec)
    assert hand(state, "bob") == 0 and on_board(state, "bob") == 0
    after = act(state, end("bob"))
    assert obs(after)["current"] == "ann"
    after = act(state, decline("bob"))
    assert not active_of(after, "bob")


def test_ranking_lists_every_player_three_seats():
    spec = build(
        seats={"ann": seat(9, active("Ratmen", "Spirit")),
               "bob": seat(12, active("Orcs", "Alchemist")),
               "cid": seat(3, active("Humans", "Forest"))},
        regions={2: r("ann", "Ratmen"), 15: r("bob", "Orcs"), 18: r("cid", "Humans")},
        players=("ann", "bob", "cid"), board="official-3p", round=10, current="cid",
    )
    state = finish(load(spec), "cid")
    # cid: 3 + 1 region (18) + Forest bonus if 18 is a forest
    o = obs(state)
    assert o["finished"] is True
    ranking = names(o["ranking"])
    assert sorted(ranking) == ["ann", "bob", "cid"]
    assert ranking[0] == "bob" and names(o["winners"]) == ["bob"]


def test_three_seat_round_advances_after_the_third_player():
    spec = build(
        seats={"ann": seat(5, active("Ratmen", "Spirit")),
               "bob": seat(5, active("Orcs", "Alchemist")),
               "cid": seat(5, active("Humans", "Forest"))},
        regions={2: r("ann", "Ratmen"), 15: r("bob", "Orcs"), 18: r("cid", "Humans")},
        players=("ann", "bob", "cid"), board="official-3p", round=4, current="bob",
    )
    state = finish(load(spec), "bob")
    assert obs(state)["round"] == 4 and obs(state)["current"] == "cid"
    state = finish(state, "cid")
    assert obs(state)["round"] == 5 and obs(state)["current"] == "ann"


def test_tie_break_ignores_tokens_in_hand():
    # §9: tokens ON THE BOARD. ann: 1 Amazon on the map + 4 in reserve; bob: 2 on the map
    spec = scenario("end_last_round")
    spec["seats"]["ann"] = {"coins": 15, "active": {"race": "Amazons", "power": "Alchemist",
                                                    "hand": 4}}
    spec["row"][0]["race"] = "Humans"
    spec["regions"] = {"2": {"owner": "ann", "race": "Amazons", "tokens": 1},
                       "6": {"owner": "bob", "race": "Ratmen", "tokens": 2}}
    state = load(spec)
    state = finish(state, "bob")  # bob: 14 + 1 = 15
    assert names(obs(state)["winners"]) == ["bob"]


@pytest.mark.parametrize("board,n,rounds", [("official-2p", 2, 10), ("official-5p", 5, 8)])
def test_game_lasts_exactly_the_track_rounds(board, n, rounds):
    # round 1 is played on space 1; the game ends after the last seat's turn of round `rounds`
    names = ["a", "b", "c", "d", "e"][:n]
    rnd = random.Random(3)
    state = engine.new_game(board, names, 3)
    assert obs(state)["round"] == 1
    turns = []
    while not state.finished:
        step = engine.apply(state, rnd.choice(engine.legal_actions(state)))
        turns += [(e["round"], e["player"]) for e in step.events if e["type"] == "turn_ended"]
        state = step.state
    assert turns == [(k, p) for k in range(1, rounds + 1) for p in names]
    assert obs(state)["round"] == rounds and obs(state)["finished"] is True


def test_game_ends_after_last_round_with_shared_win() -> None:
    seats = {"ann": {"coins": 10, "active": active("Orcs", "Hill")},
             "bob": {"coins": 10, "active": active("Ratmen", "Swamp")}}
    regions = {4: r("ann", "Orcs", 2), 18: r("bob", "Ratmen", 2)}
    s = engine.load_scenario(build(seats=seats, regions=regions, round=10, current="ann", seed=3))
    s, _ = act_events(s, deploy("ann", 4, 1), end("ann"))
    s, ev = act_events(s, deploy("bob", 18, 1), end("bob"))
    assert s.finished and s.actor is None and engine.legal_actions(s) == []
    # ann: 1 region, farmland 4 is not a hill -> 11; bob: 1 region, hill not swamp -> 11
    go = next(e for e in ev if e["type"] == "game_over")
    assert sorted(go["winners"]) == ["ann", "bob"]
    refuse(s, end("ann"), code="game_over")
