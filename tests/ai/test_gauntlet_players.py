"""The gauntlet's two strong players: the strategist's judgements and the ISMCTS search."""

from __future__ import annotations

import random

import pytest
from aihelp import scenario

import engine
from ai.gauntlet import PLAYERS
from ai.gauntlet.base import Seen
from ai.gauntlet.ismcts import Ismcts, chance_first, guess_coins
from ai.gauntlet.strategist import Strategist, fresh_regions
from ai.gauntlet.styles import Decliner


class QuickIsmcts(Ismcts):
    """The ISMCTS player with few iterations, so that whole games stay quick in tests."""

    K = {**Ismcts.K, "pick": 6, "decline": 4}


def _finished(seed: int) -> engine.GameState:
    s = engine.new_game("official-3p", ["a", "b", "c"], seed)
    players = [Decliner() for _ in range(3)]
    n = 0
    while not s.finished:
        s = engine.apply(s, players[s.players.index(s.actor)].act(s, n)).state
        n += 1
    return s


def test_both_are_named_among_the_gauntlet_players():
    assert PLAYERS["strategist"] is Strategist and PLAYERS["ismcts"] is Ismcts
    assert {"greedy", "decliner", "turtle", "aggressor"} < set(PLAYERS)


def test_the_strategist_declines_a_tired_race_for_a_fresh_last_turns_run():
    """Three turns from the end, Ratmen that would take two or three regions go into
    decline so that a fresh race makes the last turns' big run; with a full hand they
    stay; early in the game the same small hand stays (its chain still takes land); and
    on the last turn no race declines."""
    def first(hand: int, round_: int) -> str:
        return Strategist().act(scenario("Ratmen", "Hill", hand=hand, round_=round_), 1).do

    assert first(6, 8) == "decline"
    assert first(10, 8) == "conquer"
    assert first(6, 3) == "conquer"
    assert first(0, 10) != "decline"


def test_fresh_regions_count_the_cheapest_land_a_hand_can_take():
    s = engine.new_game("official-4p", ["a", "b", "c", "d"], 4)
    costs = sorted(2 + a.tokens + len(a.pieces) + (1 if a.lost_tribe else 0)
                   for r, a in enumerate(s.areas) if not s.geo.water[r])
    assert fresh_regions(s, 0, costs[0] - 1) == 0.5  # nothing whole, a die roll's half
    assert fresh_regions(s, 0, costs[0] + costs[1]) == 2
    assert fresh_regions(s, 0, 10) < fresh_regions(s, 0, 15)


def test_chance_first_is_the_result_once_the_game_is_over():
    s = _finished(6)
    assert s.ranking is not None
    firsts = [r["player"] for r in s.ranking if r["rank"] == 1]
    for i, name in enumerate(s.players):
        assert chance_first(s, i) == (1 / len(firsts) if name in firsts else 0.0)


def test_chance_first_grows_with_the_lead_while_the_game_runs():
    s = engine.new_game("official-4p", ["a", "b", "c", "d"], 4)
    chances = []
    for coins in (0, 5, 10, 20):
        t = s.fork()
        t.seat_w(0).coins = coins
        chances.append(chance_first(t.seal(), 0))
    assert chances == sorted(chances) and chances[0] < 0.5 < chances[-1]


def test_coins_are_guessed_from_the_table_only():
    s = engine.new_game("official-4p", ["a", "b", "c", "d"], 4)
    assert guess_coins(s, 1) == 5  # round 1: what everyone starts with
    t = s.fork()
    t.seat_w(1).coins = 77  # hidden: the guess cannot move
    assert guess_coins(t.seal(), 1) == 5


def test_the_search_tries_every_candidate_and_answers_with_the_best_mean():
    s = engine.new_game("official-4p", ["a", "b", "c", "d"], 9)
    p = QuickIsmcts()
    view = engine.sample_hidden(s, s.actor, random.Random(1))
    d = Seen(view, 0, "a", random.Random(1))
    moves = p.moves(view, 0, "pick", d.rng)
    assert len(moves) == min(p.K["picks"], len(view.row)) and moves[0].do == "pick"
    root = p.tree(Seen(view, 0, "a", random.Random(2)), "pick", moves)
    kids = [root.children[repr(a)] for a in moves]
    assert all(k.visits >= 1 for k in kids)
    assert sum(k.visits for k in kids) == p.K["pick"]
    chosen = p.search(Seen(view, 0, "a", random.Random(2)), "pick", moves)
    means = [k.total / k.visits for k in kids]
    assert means[moves.index(chosen)] == max(means)


def test_the_search_weighs_declining_at_a_turn_start():
    s = scenario("Ratmen", "Hill", hand=4, round_=6)
    p = QuickIsmcts()
    assert p.kind(s, 0) == "decline"
    moves = p.moves(s, 0, "decline", random.Random(0))
    assert moves[0].do == "decline" and moves[1].do != "decline"
    assert p.kind(scenario("Ratmen", "Hill", hand=4, round_=10), 0) is None  # last turn


@pytest.mark.parametrize("cls", [Strategist, QuickIsmcts])
def test_whole_games_are_legal_and_end(cls):
    s = engine.new_game("official-5p", [f"p{i}" for i in range(5)], 3)
    players = [cls() if i % 2 == 0 else Decliner() for i in range(5)]
    n = 0
    while not s.finished:
        i = s.players.index(s.actor)
        a = players[i].act(s, n)
        legal = [x.model_dump(mode="json") for x in engine.legal_actions(s)]
        assert a.model_dump(mode="json") in legal
        s = engine.apply(s, a).state
        n += 1
    assert all(p.strays == 0 for p in players)
