"""ai.evaluate / ai.assess / ai.review_turn: the post-game review's numbers."""

from __future__ import annotations

import math

import pytest

import engine
from ai import assess, choose, evaluate, review_turn
from ai import value as V


def _game(seed: int, players: int = 3, level: str = "normal"):
    """A finished game and its turn starts: (state at the turn's first decision, actions)."""
    names = ["ann", "bob", "cid", "dee"][:players]
    s = engine.new_game(f"official-{players}p", names, seed)
    turns: list[tuple[engine.GameState, list]] = []
    key = None
    n = 0
    while not s.finished:
        if s.stage is not engine.Stage.SURVIVORS and (s.round, s.current) != key:
            key = (s.round, s.current)
            turns.append((s, []))
        a = choose(s, level, seed * 1000 + n)
        if s.actor == s.players[s.current] and s.stage is not engine.Stage.SURVIVORS:
            turns[-1][1].append(a)
        s = engine.apply(s, a).state
        n += 1
    return s, turns


def test_evaluate_gives_every_player_a_finite_expectation_and_is_repeatable():
    _, turns = _game(1)
    start = turns[len(turns) // 2][0]
    got = evaluate(start, seed=3, work=6)
    assert set(got) == set(start.players)
    assert all(math.isfinite(v) and v >= start.seats[i].coins
               for i, v in enumerate(got.values()))
    assert evaluate(start, seed=3, work=6) == got
    a = assess(start, seed=3, work=6)
    assert sum(a.wins.values()) == pytest.approx(1) and a.playouts == 6


def test_a_finished_game_evaluates_to_its_result():
    end, _ = _game(2, players=2)
    got = evaluate(end, seed=1, work=3)
    assert got == {r["player"]: float(r["total"]) for r in end.ranking}


def test_live_evaluation_from_a_seat_ignores_other_players_coins():
    _, turns = _game(4)
    s = turns[5][0]
    t = s.fork()
    t.seat_w(1).coins += 40
    t.seal()
    viewer = s.players[0]
    assert evaluate(s, seed=2, work=4, viewer=viewer) == evaluate(t, seed=2, work=4,
                                                                  viewer=viewer)


def test_review_of_the_ai_own_turn_finds_no_gain():
    """Replaying exactly what the AI would play gives the same end of turn: gain 0."""
    _, turns = _game(5)
    start, _ = turns[7]
    r = review_turn(start, seed=9, level="normal", work=4)
    assert r.ai_actions and r.player == start.actor and r.gain is None
    again = review_turn(start, list(r.ai_actions), seed=9, level="normal", work=4)
    assert again.gain == pytest.approx(0)
    assert again.ai_margin == pytest.approx(r.ai_margin)


def test_review_compares_with_the_turn_played():
    _, turns = _game(6)
    start, played = turns[9]
    r = review_turn(start, played, seed=1, level="normal", work=4)
    assert r.gain == pytest.approx(r.ai_margin - r.played_margin)
    legal_now = start
    for a in r.ai_actions:  # the AI's turn is legal from the start position
        assert a.model_dump(mode="json") in [x.model_dump(mode="json")
                                             for x in engine.legal_actions(legal_now)]
        legal_now = engine.apply(legal_now, a).state


def test_review_refuses_a_finished_game_and_an_unfinished_turn():
    end, turns = _game(7, players=2)
    with pytest.raises(ValueError, match="game is over"):
        review_turn(end)
    start, played = turns[3]
    with pytest.raises(ValueError, match="do not finish"):
        review_turn(start, played[:-1] if len(played) > 1 else [], level="normal", work=2)


def test_learned_evaluation_is_read_and_sane():
    """The shipped weights load; on the last turn a region is worth about a coin."""
    w = V._weights()
    assert set(w) == {2, 3, 4, 5}
    last = w[2][1]
    a_inc = V.FEATURES.index("a_inc")
    assert 0.5 < last[a_inc] < 1.5


def test_a_turn_is_cut_where_it_ended_even_when_its_mover_acts_next():
    """Ghouls in decline that lose a region in their own player's turn: she places their
    survivors right after her turn ended. The turn played ends at its "turn_ended" (a cut by
    actor changes ran on into the placement and refused the turn as unfinished)."""
    s = engine.new_game("official-3p", ["ann", "bob", "cid"], 1)
    k, first, played, found = 0, None, [], None
    while not s.finished and found is None:
        if first is None and s.stage is not engine.Stage.SURVIVORS:
            first, played = s, []
        a = choose(s, "easy", 1000 + k)
        k += 1
        step = engine.apply(s, a)
        s = step.state
        if first is None:  # survivors of the turn before
            continue
        played.append(a)
        mover = first.actor
        if any(e["type"] == "turn_ended" for e in step.events):
            if s.stage is engine.Stage.SURVIVORS and s.actor == mover:
                found = (first, list(played))
            first = None
    assert found is not None, "seed 1 has a mover placing survivors after her own turn"
    start, turn = found
    r = review_turn(start, turn, seed=2, level="normal", work=2)
    assert r.player == start.actor and r.played_margin is not None
    # the AI's own turn also stops at its "turn_ended", not at a change of actor
    s = start
    for i, a in enumerate(r.ai_actions):
        step = engine.apply(s, a)
        s = step.state
        assert any(e["type"] == "turn_ended" for e in step.events) == \
            (i == len(r.ai_actions) - 1)
