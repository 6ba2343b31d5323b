"""What the search levels weigh: hard and expert also try the best first conquests by
region value, not only where each variant of the heuristic would start the turn."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import engine
from ai import choose, search
from ai.policy import conquest_value, make_ctx
from engine import GameState, Stage

NAMES = ["ann", "bob", "cid", "dee"]


def _turn_starts(board: str, players: int, seed: int, n: int) -> list[GameState]:
    """Positions where the current player is about to make a turn's first conquest."""
    s = engine.new_game(board, NAMES[:players], seed)
    out: list[GameState] = []
    steps = 0
    while not s.finished and len(out) < n:
        current = engine.observe(s, None)["current"]
        if (s.stage is Stage.CONQUEST and s.actor == current and search._turn_start(s)
                and s.seats[s.players.index(s.actor)].active is not None and s.round > 1):
            out.append(s)
        s = engine.apply(s, choose(s, "easy", seed * 1000 + steps)).state
        steps += 1
    return out


def test_hard_and_expert_widen_the_first_conquest_at_every_table() -> None:
    for players in (2, 3, 4, 5):
        assert search.depth_of("hard", players).first_conquests == 4
        assert search.depth_of("expert", players).first_conquests == 4
        assert search.depth_of("normal", players).first_conquests == 0


@pytest.mark.parametrize("players", [2, 4])
def test_the_best_first_conquests_are_weighed_beside_the_variants(players: int) -> None:
    depth = search.depth_of("hard", players)
    narrow = replace(depth, first_conquests=0)
    widened = 0
    states = _turn_starts(f"official-{players}p", players, 3, 12)
    assert len(states) >= 8
    for s in states:
        me = s.players.index(s.actor)
        h = s.seats[me].active
        assert h is not None
        c = make_ctx(s, "normal", random.Random(0))
        best = search.best_first_conquests(c, h.race, h.power, 4)
        # ranked by region value less a share of the cost, best first, at most four
        score = [conquest_value(c, a.region, True, h.race, h.power)
                 - search.FIRST_COST * next(o.cost for o in engine.legal_conquests(s)
                                            if o.action == a)
                 for a in best]
        assert score == sorted(score, reverse=True) and len(best) <= 4
        assert all(a.do == "conquer" for a in best)
        wide = [a for a, _ in search.candidates(s, me, depth, random.Random(1))]
        plain = [a for a, _ in search.candidates(s, me, narrow, random.Random(1))]
        assert wide[:len(plain)] == plain  # the variants' moves first, as before
        assert all(a in wide for a in best)
        assert len(set(map(repr, wide))) == len(wide)  # each move once
        widened += len(wide) > len(plain)
    assert widened >= len(states) // 2
