"""Seat-rotated AI matches: `python -m ai match --seats hard,normal --games N --board 2p`."""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field

import engine
from engine.data import BOARD_IDS

from . import LEVELS, choose

SPECS = (*LEVELS, "random")


@dataclass
class SeatResult:
    spec: str
    rank: int
    share: float  # 1 for a sole win, 1/k for a k-way tie for first, else 0
    margin: int  # own coins minus the best other player's coins
    times: list[float] = field(default_factory=list)


def play(specs: list[str], board: str, seed: int) -> list[SeatResult]:
    """One game with `specs` in seat order; the result of each seat in that order."""
    names = [f"{spec}-{i + 1}" for i, spec in enumerate(specs)]
    s = engine.new_game(board, names, seed)
    rnd = random.Random(seed)
    times: list[list[float]] = [[] for _ in specs]
    n = 0
    while not s.finished:
        i = s.players.index(s.actor)
        t0 = time.perf_counter()
        if specs[i] == "random":
            a = rnd.choice(engine.legal_actions(s))
        else:
            a = choose(s, specs[i], seed * 7919 + n)
        times[i].append(time.perf_counter() - t0)
        s = engine.apply(s, a).state
        n += 1
    by_name = {r["player"]: r for r in s.ranking}
    n_first = sum(1 for r in s.ranking if r["rank"] == 1)
    out = []
    for i, name in enumerate(names):
        r = by_name[name]
        best_other = max(x["total"] for x in s.ranking if x["player"] != name)
        out.append(SeatResult(specs[i], r["rank"], 1 / n_first if r["rank"] == 1 else 0.0,
                              r["total"] - best_other, times[i]))
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


def run_match(specs: list[str], games: int, board: str, seed: int, out=sys.stdout,
              progress: bool = True) -> dict:
    n = len(specs)
    results: list[SeatResult] = []
    t0 = time.perf_counter()
    for g in range(games):
        k = g % n
        rotated = specs[k:] + specs[:k]  # every spec sits in every seat in turn
        results.extend(play(rotated, board, seed + g))
        if progress and (g + 1) % max(1, games // 10) == 0:
            sys.stderr.write(f"  {g + 1}/{games} games, {time.perf_counter() - t0:.0f} s\n")
    table = {}
    for spec in dict.fromkeys(specs):
        rs = [r for r in results if r.spec == spec]
        wins = sum(r.share for r in rs)
        lo, hi = wilson(wins, len(rs))
        times = [t for r in rs for t in r.times]
        table[spec] = {
            "seats": specs.count(spec), "seat_games": len(rs), "win_share": wins / len(rs),
            "ci": (lo, hi), "mean_rank": statistics.fmean(r.rank for r in rs),
            "margin": statistics.fmean(r.margin for r in rs),
            "p50_ms": pct(times, 0.5) * 1e3, "p95_ms": pct(times, 0.95) * 1e3,
            "decisions": len(times),
        }
    if out is not None:
        out.write(f"{games} games on {board}, seats {','.join(specs)} (rotated), seed {seed}\n")
        out.write(f"{'seat spec':<10} {'seats':>5} {'win share (per seat)':>22} {'95% CI':>15} "
                  f"{'mean rank':>9} {'coin margin':>11} {'p50 ms':>8} {'p95 ms':>8}\n")
        for spec, row in table.items():
            lo, hi = row["ci"]
            out.write(f"{spec:<10} {row['seats']:>5} {row['win_share'] * 100:>21.1f}% "
                      f"{lo * 100:>6.1f}-{hi * 100:<5.1f}% {row['mean_rank']:>9.2f} "
                      f"{row['margin']:>+11.1f} {row['p50_ms']:>8.1f} {row['p95_ms']:>8.1f}\n")
        out.write("win share: games won per seat of that spec (ties split); coin margin: own "
                  "coins minus the best other seat's\n")
        out.flush()
    return table


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m ai", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("match", help="play seat-rotated games between AI levels")
    m.add_argument("--seats", required=True,
                   help=f"comma-separated seat specs, 2-5 of: {', '.join(SPECS)}")
    m.add_argument("--games", type=int, default=20)
    m.add_argument("--board", default=None, help="2p, 3p, 4p, 5p (default: by seat count)")
    m.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    specs = [x.strip() for x in args.seats.split(",") if x.strip()]
    bad = [x for x in specs if x not in SPECS]
    if bad or not 2 <= len(specs) <= 5:
        p.error(f"--seats needs 2-5 of {', '.join(SPECS)}; got {args.seats!r}")
    board = args.board or f"{len(specs)}p"
    if not board.startswith("official-"):
        board = f"official-{board}"
    if board not in BOARD_IDS:
        p.error(f"unknown board {args.board!r}; choose 2p, 3p, 4p or 5p")
    if args.games < 1:
        p.error("--games must be at least 1")
    run_match(specs, args.games, board, args.seed)
    return 0
