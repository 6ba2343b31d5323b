"""OpenSkill ratings in the standard library: the Plackett-Luce update of Weng and Lin
("A Bayesian Approximation Method for Online Ranking", JMLR 12, 2011, Algorithm 4).

`ai/` may import only the standard library and the engine, so the gauntlet cannot use the
`openskill` package the bot depends on; this module implements the published update with
the package's defaults (mu 25, sigma 25/3, beta 25/6, kappa 0.0001, tau 25/300, gamma =
sigma/c), and tests/ai/test_gauntlet.py checks it against `openskill.models.PlackettLuce`.
One player per team: every seat of a game is one team.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
KAPPA = 0.0001
TAU = MU / 300


@dataclass
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate mu - 3 sigma (what leaderboards sort by)."""
        return self.mu - 3 * self.sigma


def rate(ratings: list[Rating], ranks: list[int]) -> list[Rating]:
    """New ratings after one game; `ranks[i]` is seat i's place (1 = first, ties equal)."""
    if len(ratings) != len(ranks) or len(ratings) < 2:
        raise ValueError("one rank per rating, at least two players")
    sig2 = [r.sigma ** 2 + TAU ** 2 for r in ratings]
    c = math.sqrt(sum(s + BETA ** 2 for s in sig2))
    ex = [math.exp(r.mu / c) for r in ratings]
    n = len(ratings)
    big_c = [sum(ex[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    a_q = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] > ranks[i]:
                continue
            p = ex[i] / big_c[q]
            omega += ((1.0 if q == i else 0.0) - p) / a_q[q]
            delta += p * (1 - p) / a_q[q]
        gamma = math.sqrt(sig2[i]) / c
        mu = ratings[i].mu + sig2[i] / c * omega
        s2 = sig2[i] * max(1 - gamma * sig2[i] / c ** 2 * delta, KAPPA)
        out.append(Rating(mu, math.sqrt(s2)))
    return out


def rate_specs(games: list[list[tuple[str, int]]]) -> dict[str, Rating]:
    """Ratings of seat specs over a list of games, each a list of (spec, rank) per seat.

    Copies of one spec in the same game (three `turtle` seats) are rated as separate
    players who share the spec's rating: the spec moves by the mean of their updates."""
    table: dict[str, Rating] = {}
    for game in games:
        before = [table.setdefault(spec, Rating()) for spec, _ in game]
        after = rate(before, [rank for _, rank in game])
        moves: dict[str, list[Rating]] = {}
        for (spec, _), r in zip(game, after, strict=True):
            moves.setdefault(spec, []).append(r)
        for spec, rs in moves.items():
            table[spec] = Rating(sum(r.mu for r in rs) / len(rs),
                                 sum(r.sigma for r in rs) / len(rs))
    return table
