"""League ratings with OpenSkill (Weng–Lin, Plackett–Luce model): pure, no I/O, no discord.

A rating is the library's (μ, σ) pair: μ is the estimated skill, σ the uncertainty. The
number the tables show is the conservative *ordinal* μ − 3σ, which starts at 0 (μ 25,
σ 25/3) and climbs as a player both wins and becomes well known.

Ratings are never stored: they are a fold over the match log in the order the games
finished. `Ledger.apply` is the incremental step and `recompute` the whole fold, so voiding a
game is nothing more than leaving it out of the log and folding again.

Ranks: a game's final ranking already applies the game's tie-break (coins, then race tokens
on the board); players still tied there share a rank. `counted_ranks` turns the ranks of the
seats that count (members, not AI or vacant seats) into 1-based ranks among themselves, ties
kept, which is what `PlackettLuce.rate(..., ranks=...)` takes (lower is better).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from openskill.models import PlackettLuce

#: the ordinal is μ − Z·σ (the library's own default)
Z = 3.0


@cache
def model() -> PlackettLuce:
    """The one model every league uses: the library's defaults (μ 25, σ 25/3, β 25/6, τ 25/300)."""
    return PlackettLuce()


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - Z * self.sigma

    @classmethod
    def initial(cls) -> Skill:
        m = model()
        return cls(float(m.mu), float(m.sigma))


def counted_ranks(ranks: Sequence[int]) -> list[int]:
    """1 + how many of the given players finished strictly ahead: ties share a rank and the
    next rank leaves a gap (1, 1, 3), whatever seats were left out in between."""
    return [1 + sum(1 for q in ranks if q < r) for r in ranks]


def rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """New skills of one free-for-all game (each player its own team) from ranks (1 = best)."""
    if len(skills) != len(ranks):
        raise ValueError("one rank per player")
    if len(skills) < 2:
        return list(skills)
    m = model()
    teams = [[m.create_rating([s.mu, s.sigma])] for s in skills]
    out = m.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(float(t[0].mu), float(t[0].sigma)) for t in out]


@dataclass(frozen=True, slots=True)
class Result:
    """One counted game of the log: (user id, rank as announced) for each member seat."""

    game_id: int
    placings: tuple[tuple[int, int], ...]


@dataclass(slots=True)
class Ledger:
    """Ratings after folding some games; history keeps each player's ordinal after each of
    their games (for trends and sparklines)."""

    skills: dict[int, Skill] = field(default_factory=dict)
    history: dict[int, list[float]] = field(default_factory=dict)
    games: int = 0

    def skill(self, user_id: int) -> Skill:
        return self.skills.get(user_id) or Skill.initial()

    def apply(self, result: Result) -> dict[int, tuple[Skill, Skill]]:
        """Fold one game in; -> user id -> (before, after)."""
        users = [u for u, _ in result.placings]
        if len(set(users)) != len(users):
            raise ValueError(f"game {result.game_id} lists a player twice")
        before = [self.skill(u) for u in users]
        ranks = counted_ranks([r for _, r in result.placings])
        after = rate(before, ranks)
        self.games += 1
        changes = {}
        for u, b, a in zip(users, before, after, strict=True):
            self.skills[u] = a
            self.history.setdefault(u, []).append(a.ordinal)
            changes[u] = (b, a)
        return changes

    def trend(self, user_id: int) -> float:
        """Ordinal change of the player's last game (0 before any)."""
        h = self.history.get(user_id, [])
        if not h:
            return 0.0
        prev = h[-2] if len(h) > 1 else Skill.initial().ordinal
        return h[-1] - prev


def recompute(results: Iterable[Result]) -> Ledger:
    """The ledger of the whole log, folded in order."""
    ledger = Ledger()
    for r in results:
        ledger.apply(r)
    return ledger


SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[float], width: int = 20) -> str:
    """A text sparkline of the last `width` values (flat series draw mid-height)."""
    vals = list(values)[-width:]
    if not vals:
        return ""
    lo, hi = min(vals), max(vals)
    if hi - lo < 1e-9:
        return SPARKS[3] * len(vals)
    return "".join(SPARKS[round((v - lo) / (hi - lo) * (len(SPARKS) - 1))] for v in vals)
