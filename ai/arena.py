"""Playing games between seat specs: AI levels, `random` and the gauntlet styles.

Shared by `python -m ai match` (match.py) and `python -m ai gauntlet` (gauntlet/run.py).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypedDict

import engine
from engine import GameState

from . import LEVELS, choose
from .gauntlet.players import PLAYERS

SPECS = (*LEVELS, "random", *PLAYERS)

# a seat's player: `(state, seed) -> action` for `state.actor`
Actor = Callable[[GameState, int], engine.Action]


@dataclass
class SeatResult:
    spec: str
    rank: int
    share: float  # 1 for a sole win, 1/k for a k-way tie for first, else 0
    margin: int  # own coins minus the best other player's coins
    times: list[float] = field(default_factory=list)
    strays: int = 0  # gauntlet decisions the rules refused (a fallback answered them)


def actor(spec: str) -> Actor:
    """`(state, seed) -> action` for a seat spec: an AI level, `random` (uniform legal
    actions) or a gauntlet player (ai.gauntlet)."""
    if spec in LEVELS:
        return lambda s, seed: choose(s, spec, seed)
    if spec == "random":
        return lambda s, seed: random.Random(seed).choice(engine.legal_actions(s))
    if spec in PLAYERS:
        return PLAYERS[spec]().act
    raise ValueError(f"unknown seat spec {spec!r}; choose one of {', '.join(SPECS)}")


def play(specs: list[str], board: str, seed: int, players: list[Actor] | None = None
         ) -> list[SeatResult]:
    """One game with `specs` in seat order; the result of each seat in that order.
    `players` (optional) gives the seats' `(state, seed) -> action` callables instead."""
    names = [f"{spec}-{i + 1}" for i, spec in enumerate(specs)]
    s = engine.new_game(board, names, seed)
    if players is None:
        players = [actor(spec) for spec in specs]
    times: list[list[float]] = [[] for _ in specs]
    n = 0
    while not s.finished:
        i = s.players.index(s.actor)
        t0 = time.perf_counter()
        a = players[i](s, seed * 7919 + n)
        times[i].append(time.perf_counter() - t0)
        s = engine.apply(s, a).state
        n += 1
    ranking = s.ranking
    assert ranking is not None  # a finished game is ranked
    by_name = {r["player"]: r for r in ranking}
    n_first = sum(1 for r in ranking if r["rank"] == 1)
    out = []
    for i, name in enumerate(names):
        r = by_name[name]
        best_other = max(x["total"] for x in ranking if x["player"] != name)
        strays = getattr(getattr(players[i], "__self__", None), "strays", 0)
        out.append(SeatResult(specs[i], r["rank"], 1 / n_first if r["rank"] == 1 else 0.0,
                              r["total"] - best_other, times[i], strays))
    return out


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


class Figures(TypedDict):
    """A seat spec's figures over some games (a match's or a gauntlet's row)."""

    win_share: float
    ci: tuple[float, float]  # 95% Wilson interval of the win share
    mean_rank: float
    margin: float
    p50_ms: float
    p95_ms: float


def figures(results: list[SeatResult]) -> Figures:
    """Win share with its interval, mean rank, coin margin and decision times of `results`
    (one seat's result per game)."""
    wins = sum(r.share for r in results)
    times = [t for r in results for t in r.times]
    return {"win_share": wins / len(results), "ci": wilson(wins, len(results)),
            "mean_rank": statistics.fmean(r.rank for r in results),
            "margin": statistics.fmean(r.margin for r in results),
            "p50_ms": pct(times, 0.5) * 1e3, "p95_ms": pct(times, 0.95) * 1e3}
