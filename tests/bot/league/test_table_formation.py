"""bot.league.tables: property tests of round table formation (sizes, everyone once, AI only when
allowed, rematches and rating spread never worse than the plain sorted split)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.league.tables import (
    Candidate,
    cost,
    days_text,
    form_tables,
    met_counts,
    parse_days,
    repeats,
    round_days,
    table_sizes,
)

people = st.lists(st.tuples(st.integers(1, 60), st.floats(-10, 40, allow_nan=False)),
                  min_size=0, max_size=23, unique_by=lambda t: t[0])
history = st.lists(st.lists(st.integers(1, 60), min_size=2, max_size=5, unique=True),
                   max_size=12)


def baseline(cands: list[Candidate], preferred: int, allow_ai: bool) -> list[list[int]]:
    ordered = sorted(cands, key=lambda c: (-c.rating, c.user_id))
    sizes, _ = table_sizes(len(ordered), preferred, allow_ai)
    out, i = [], 0
    for s in sizes:
        out.append([c.user_id for c in ordered[i:i + s]])
        i += s
    return out


@settings(max_examples=150, deadline=None)
@given(people, history, st.integers(3, 5), st.booleans())
def test_tables_properties(raw, past, preferred, allow_ai) -> None:
    cands = [Candidate(u, r) for u, r in raw]
    met = met_counts(past)
    plan = form_tables(cands, met=met, preferred=preferred, allow_ai=allow_ai)
    seated = [u for t in plan.tables for u in t.players]
    # everyone available is seated exactly once, or benched when too few to play
    assert sorted(seated + list(plan.benched)) == sorted(u for u, _ in raw)
    assert len(seated) == len(set(seated))
    if len(raw) >= 3 or (allow_ai and len(raw) >= 2):
        assert not plan.benched
    else:
        assert not plan.tables
    for t in plan.tables:
        assert 3 <= t.seats <= 5
        if allow_ai:
            assert t.seats == preferred and len(t.players) >= 2
        else:
            assert t.ai_seats == 0
    if plan.tables and not allow_ai:
        sizes = [t.seats for t in plan.tables]
        assert max(sizes) - min(sizes) <= 1
    ratings = dict(raw)
    tables = [list(t.players) for t in plan.tables]
    base = baseline(cands, preferred, allow_ai)
    assert cost(tables, ratings, met) <= cost(base, ratings, met) + 1e-9
    assert repeats(tables, met) <= repeats(base, met)


@settings(max_examples=60, deadline=None)
@given(people, st.integers(3, 5), st.booleans())
def test_deterministic_and_order_independent(raw, preferred, allow_ai) -> None:
    cands = [Candidate(u, r) for u, r in raw]
    a = form_tables(cands, preferred=preferred, allow_ai=allow_ai)
    b = form_tables(list(reversed(cands)), preferred=preferred, allow_ai=allow_ai)
    assert a == b


def test_no_history_groups_similar_ratings() -> None:
    cands = [Candidate(u, float(u)) for u in range(1, 9)]
    plan = form_tables(cands)
    assert [t.players for t in plan.tables] == [(8, 7, 6, 5), (4, 3, 2, 1)]


def test_a_rematch_is_avoided_when_a_swap_exists() -> None:
    # last round 8-7-6-5 and 4-3-2-1 met; this round the same split would repeat all 12 pairs
    cands = [Candidate(u, float(u)) for u in range(1, 9)]
    met = met_counts([(8, 7, 6, 5), (4, 3, 2, 1)])
    plan = form_tables(cands, met=met)
    tables = [t.players for t in plan.tables]
    assert repeats(tables, met) < 12
    again = form_tables(cands, met=met_counts([(8, 7, 6, 5), (4, 3, 2, 1)] * 3))
    assert repeats([t.players for t in again.tables], met) <= repeats(tables, met)


def test_seven_players_make_a_four_and_a_three() -> None:
    plan = form_tables([Candidate(u, 0.0) for u in range(7)])
    assert sorted(t.seats for t in plan.tables) == [3, 4]


def test_ai_fill_only_when_allowed() -> None:
    two = [Candidate(1, 0.0), Candidate(2, 1.0)]
    assert form_tables(two).benched == (2, 1)
    plan = form_tables(two, allow_ai=True, preferred=3)
    assert plan.tables[0].players == (2, 1) and plan.tables[0].ai_seats == 1
    plan = form_tables([Candidate(u, 0.0) for u in range(7)], allow_ai=True)
    assert sorted((len(t.players), t.ai_seats) for t in plan.tables) == [(3, 1), (4, 0)]


def test_table_sizes_reject_a_bad_preference() -> None:
    with pytest.raises(ValueError):
        table_sizes(8, 6)
    for n in range(3, 40):
        sizes, _ = table_sizes(n)
        assert sum(sizes) == n and all(3 <= s <= 5 for s in sizes)


def test_met_counts_counts_each_meeting() -> None:
    met = met_counts([(1, 2, 3), (2, 1)])
    assert met == {(1, 2): 2, (1, 3): 1, (2, 3): 1}
    assert all(a < b for a, b in itertools.chain(met))


def test_availability_days() -> None:
    assert parse_days("any") == frozenset(range(7))
    hu = {"h": 0, "sze": 2, "szo": 5}
    assert parse_days("H, Sze szo", hu) == parse_days("mon wed sat", hu) == frozenset({0, 2, 5})
    assert parse_days("bármelyik  nap", hu, ["Bármelyik nap"]) == frozenset(range(7))
    with pytest.raises(ValueError, match="sze"):
        parse_days("sze")  # a language's own names only where they are given
    assert parse_days("Mon, wednesday sat") == frozenset({0, 2, 5})
    assert days_text(parse_days("sat mon")) == "mon sat"
    with pytest.raises(ValueError):
        parse_days("someday")
    assert round_days(5, 3) == frozenset({5, 6, 0})
    assert round_days(0, 30) == frozenset(range(7))
