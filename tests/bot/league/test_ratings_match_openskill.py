"""bot.league.ratings against the openskill library's own API: same numbers for the same games, ties
and tie-breaks mapped to ranks, and a fold over the log equal to rating game by game."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from bot.league.ratings import Ledger, Result, Skill, counted_ranks, rate, recompute, sparkline
from bot.league.standings import Placing, PlayedGame, build_table, results


def lib_rate(ratings: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    m = PlackettLuce()
    teams = [[m.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    out = m.rate(teams, ranks=ranks)
    return [(t[0].mu, t[0].sigma) for t in out]


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def test_initial_skill_is_the_library_default_and_ordinal_is_mu_minus_3_sigma() -> None:
    m = PlackettLuce()
    s = Skill.initial()
    assert (s.mu, s.sigma) == (m.rating().mu, m.rating().sigma)
    assert close(s.ordinal, m.rating().ordinal())
    assert close(Skill(30.0, 4.0).ordinal, 18.0)


@pytest.mark.parametrize("ranks", [[1, 2], [1, 2, 3], [2, 1, 3, 4], [1, 2, 3, 4, 5],
                                   [1, 1, 3], [1, 2, 2, 4], [3, 1, 1, 1, 5]])
def test_one_game_matches_the_library(ranks: list[int]) -> None:
    start = [(25.0 + 3 * i, 8.333 - 0.7 * i) for i in range(len(ranks))]
    ours = rate([Skill(mu, s) for mu, s in start], ranks)
    theirs = lib_rate(start, ranks)
    for o, (mu, sigma) in zip(ours, theirs, strict=True):
        assert close(o.mu, mu) and close(o.sigma, sigma)


def test_winner_gains_loser_loses_and_tied_players_move_together() -> None:
    a, b, c = rate([Skill.initial()] * 3, [1, 1, 3])
    assert a == b and a.mu > 25 > c.mu
    solo = rate([Skill.initial()], [1])
    assert solo == [Skill.initial()]


def test_counted_ranks_keep_ties_and_gap_over_left_out_seats() -> None:
    # the engine's ranking after its tie-break: ann 1, bob and cid tied 2, dan 4
    assert counted_ranks([1, 2, 2, 4]) == [1, 2, 2, 4]
    # an AI seat ranked 1 is left out: the members are re-ranked among themselves
    assert counted_ranks([2, 3, 3]) == [1, 2, 2]
    assert counted_ranks([2, 4, 5]) == [1, 2, 3]
    # two tied winners: the next member is third, as in the game
    assert counted_ranks([1, 1, 3]) == [1, 1, 3]


def test_tie_break_order_reaches_the_library_as_distinct_ranks() -> None:
    # coins tie broken by tokens on the board: the engine ranks them 1 and 2, not 1 and 1
    game = PlayedGame(7, 1, "t", (Placing(10, "ann", 1, 9), Placing(11, "bob", 2, 9)))
    ledger = Ledger()
    changes = ledger.apply(results([game])[0])
    (mu_a, _), (mu_b, _) = lib_rate([(25.0, 25 / 3)] * 2, [1, 2])
    assert close(changes[10][1].mu, mu_a) and close(changes[11][1].mu, mu_b)
    assert changes[10][1].mu > changes[11][1].mu


def test_ledger_over_three_games_equals_the_library_step_by_step() -> None:
    games = [Result(1, ((1, 1), (2, 2), (3, 3))), Result(2, ((2, 1), (3, 1), (4, 3))),
             Result(3, ((1, 2), (4, 1), (2, 3), (3, 4), (5, 5)))]
    m = PlackettLuce()
    lib = {}
    for g in games:
        users = [u for u, _ in g.placings]
        teams = [[lib.get(u) or m.rating()] for u in users]
        out = m.rate(teams, ranks=[r for _, r in g.placings])
        for u, t in zip(users, out, strict=True):
            lib[u] = t[0]
    ledger = recompute(games)
    for u, r in lib.items():
        assert close(ledger.skill(u).mu, r.mu) and close(ledger.skill(u).sigma, r.sigma)
        assert close(ledger.skill(u).ordinal, r.ordinal())
    assert len(ledger.history[1]) == 2 and ledger.games == 3


placings = st.lists(st.integers(1, 5), min_size=2, max_size=5)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.permutations(range(1, 9)), placings), min_size=1, max_size=12))
def test_recompute_from_the_log_equals_incremental(raw) -> None:
    log = []
    for gid, (people, ranks) in enumerate(raw, 1):
        log.append(Result(gid, tuple(zip(people[:len(ranks)], ranks, strict=False))))
    incremental = Ledger()
    for r in log:
        incremental.apply(r)
    assert recompute(log) == incremental
    # and a voided game is exactly "recompute without it"
    if len(log) > 1:
        games = [PlayedGame(r.game_id, 1, str(r.game_id),
                            tuple(Placing(u, f"p{u}", k, 0) for u, k in r.placings),
                            voided=(i == 0)) for i, r in enumerate(log)]
        table = {row.user_id: row.skill for row in build_table(games)}
        without = recompute(log[1:])
        assert table == {u: without.skill(u) for u in table}


def test_ledger_refuses_a_player_listed_twice() -> None:
    with pytest.raises(ValueError):
        Ledger().apply(Result(1, ((1, 1), (1, 2))))


def test_sparkline_shape() -> None:
    assert sparkline([]) == ""
    assert sparkline([1.0, 1.0]) == "▄▄"
    assert sparkline([0.0, 5.0, 10.0]) == "▁▅█"
