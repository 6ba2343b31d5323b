"""Forming the tables of a league round: pure and deterministic, no I/O.

Input: the players who can play this round (already filtered by availability and "sit out
this round"), each with a rating, and how often each pair has already met this season.
Output: tables of 3–5 seats and the players benched (only when nobody can be seated).

- Table sizes: as close to the preferred size (default 4) as the count allows, every table
  3–5 seats. With AI fill allowed, every table has exactly the preferred size and the seats
  the members don't fill are AI seats (at least 2 members per table, so every game rates
  someone); without it the members are spread over tables of 3–5 and nobody is an AI.
- Balance: tables group players of similar rating (Swiss style: the strongest play each
  other), so every game is a close one and a new player does not meet the top three first.
- Repeat pairings: a local search swaps players between tables while that lowers
  `REPEAT_WEIGHT × (pairs who already met, counted per earlier meeting) + rating spread`, so
  avoiding a rematch beats a tighter rating spread, and never makes either worse than the
  plain rating-sorted split it starts from.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

MIN_TABLE = 3
MAX_TABLE = 5
REPEAT_WEIGHT = 1000.0


@dataclass(frozen=True, slots=True)
class Candidate:
    user_id: int
    rating: float


@dataclass(frozen=True, slots=True)
class Table:
    players: tuple[int, ...]  # members, best rated first
    ai_seats: int = 0

    @property
    def seats(self) -> int:
        return len(self.players) + self.ai_seats


@dataclass(frozen=True, slots=True)
class Plan:
    tables: tuple[Table, ...]
    benched: tuple[int, ...]  # available but not seated (too few players)


def pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def met_counts(games: Sequence[Sequence[int]]) -> dict[tuple[int, int], int]:
    """How often each pair of members sat at the same table (from the games' player lists)."""
    out: dict[tuple[int, int], int] = {}
    for players in games:
        for a, b in itertools.combinations(sorted(set(players)), 2):
            out[(a, b)] = out.get((a, b), 0) + 1
    return out


def table_sizes(n: int, preferred: int = 4, allow_ai: bool = False) -> tuple[list[int], int]:
    """(member count of each table, AI seats per table total) for n players; [] when nobody
    can be seated. With AI, tables have `preferred` seats and ≥ 2 members each."""
    if not MIN_TABLE <= preferred <= MAX_TABLE:
        raise ValueError(f"table size must be {MIN_TABLE}-{MAX_TABLE}")
    if allow_ai:
        if n < 2:
            return [], 0
        k = -(-n // preferred)
        while k > 1 and n < 2 * k:
            k -= 1
        base, extra = divmod(n, k)
        sizes = [base + (1 if i < extra else 0) for i in range(k)]
        return sizes, sum(preferred - s for s in sizes)
    if n < MIN_TABLE:
        return [], 0
    ks = [k for k in range(1, n // MIN_TABLE + 1) if MIN_TABLE * k <= n <= MAX_TABLE * k]
    k = min(ks, key=lambda k: (abs(n / k - preferred), k))
    base, extra = divmod(n, k)
    return [base + (1 if i < extra else 0) for i in range(k)], 0


def cost(tables: Sequence[Sequence[int]], ratings: Mapping[int, float],
         met: Mapping[tuple[int, int], int]) -> float:
    total = 0.0
    for t in tables:
        if not t:
            continue
        total += REPEAT_WEIGHT * sum(met.get(pair(a, b), 0)
                                     for a, b in itertools.combinations(t, 2))
        rs = [ratings[u] for u in t]
        total += max(rs) - min(rs)
    return total


def repeats(tables: Sequence[Sequence[int]], met: Mapping[tuple[int, int], int]) -> int:
    return sum(met.get(pair(a, b), 0) for t in tables for a, b in itertools.combinations(t, 2))


def form_tables(candidates: Sequence[Candidate], *, met: Mapping[tuple[int, int], int] | None = None,
                preferred: int = 4, allow_ai: bool = False) -> Plan:
    """The round's tables (see the module doc); deterministic for the same input."""
    met = met or {}
    seen: set[int] = set()
    people = []
    for c in candidates:
        if c.user_id not in seen:
            seen.add(c.user_id)
            people.append(c)
    people.sort(key=lambda c: (-c.rating, c.user_id))
    ratings = {c.user_id: c.rating for c in people}
    sizes, _ = table_sizes(len(people), preferred, allow_ai)
    if not sizes:
        return Plan((), tuple(c.user_id for c in people))
    tables: list[list[int]] = []
    i = 0
    for s in sizes:
        tables.append([c.user_id for c in people[i:i + s]])
        i += s
    improved = True
    while improved:  # every accepted swap lowers the total cost, so this ends
        improved = False
        for ti, tj in itertools.combinations(range(len(tables)), 2):
            pair_cost = cost((tables[ti], tables[tj]), ratings, met)  # only these two change
            for a, b in itertools.product(range(len(tables[ti])), range(len(tables[tj]))):
                tables[ti][a], tables[tj][b] = tables[tj][b], tables[ti][a]
                swapped = cost((tables[ti], tables[tj]), ratings, met)
                if swapped < pair_cost - 1e-9:
                    pair_cost, improved = swapped, True
                else:
                    tables[ti][a], tables[tj][b] = tables[tj][b], tables[ti][a]
    out = []
    for t in tables:
        members = tuple(sorted(t, key=lambda u: (-ratings[u], u)))
        out.append(Table(members, preferred - len(members) if allow_ai else 0))
    out.sort(key=lambda t: (-max(ratings[u] for u in t.players), t.players))
    return Plan(tuple(out), ())


WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def parse_days(text: str, local: Mapping[str, int] | None = None,
               any_words: Iterable[str] = ()) -> frozenset[int]:
    """'mon wed sat' / 'Mon,Tue' / 'any' -> weekday numbers (Monday 0); `local` adds a
    language's own names (lower case, no final dot -> weekday) and `any_words` its "any day".
    ValueError naming the first unknown word."""
    whole = " ".join(text.replace(",", " ").lower().split())
    if not whole or whole == "any" or whole in {w.lower() for w in any_words}:
        return frozenset(range(7))
    local = local or {}
    days = set()
    for w in whole.split():
        if w.rstrip(".") in local:
            days.add(local[w.rstrip(".")])
        elif len(w) >= 3 and w[:3] in WEEKDAYS:
            days.add(WEEKDAYS.index(w[:3]))
        else:
            raise ValueError(w)
    return frozenset(days)


def days_text(days: frozenset[int]) -> str:
    if len(days) == 7:
        return "any day"
    return " ".join(WEEKDAYS[d] for d in sorted(days))


def round_days(start_weekday: int, length_days: int) -> frozenset[int]:
    """The weekdays a round covers: from its start weekday for `length_days` days."""
    return frozenset((start_weekday + i) % 7 for i in range(max(1, min(length_days, 7))))
