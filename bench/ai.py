"""AI decision times per level, from real games (prints figures; not a test).

For each level, plays seat-rotated 4-player games of that level against three normal
players and times every decision of the measured seat: p50/p95/max of `ai.choose`, and as
a floor measured on the same positions in the same run, one `engine.legal_actions` call.
Budgets (issue #8): easy and normal p95 <= 100 ms, hard p95 <= 1 s, on one core.
Run: python bench/ai.py [games_per_level] [board]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from ai import LEVELS, choose  # noqa: E402

BUDGET_MS = {"easy": 100, "normal": 100, "hard": 1000}


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def measure(level: str, games: int, board: str) -> tuple[list[float], list[float]]:
    n = int(board.split("-")[1][0])
    times, floor = [], []
    for g in range(games):
        specs = [level] + ["normal"] * (n - 1)
        specs = specs[g % n:] + specs[: g % n]
        s = engine.new_game(board, [f"{x}-{i}" for i, x in enumerate(specs)], 500 + g)
        k = 0
        while not s.finished:
            i = s.players.index(s.actor)
            if specs[i] == level and i == specs.index(level):
                t0 = time.perf_counter()
                engine.legal_actions(s)
                t1 = time.perf_counter()
                a = choose(s, level, g * 10_000 + k)
                t2 = time.perf_counter()
                floor.append(t1 - t0)
                times.append(t2 - t1)
            else:
                a = choose(s, "normal", g * 10_000 + k)
            s = engine.apply(s, a).state
            k += 1
    return times, floor


def main(games: int = 4, board: str = "official-4p") -> None:
    print(f"board {board}, {games} games per level, one process (one core); the measured seat "
          "plays against normal seats")
    print(f"{'level':<7} {'decisions':>9} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} "
          f"{'budget p95':>10} {'floor p50 µs':>12} {'p50/floor':>9}")
    for level in LEVELS:
        times, floor = measure(level, games, board)
        f50 = statistics.median(floor)
        print(f"{level:<7} {len(times):>9} {pct(times, .5) * 1e3:>8.2f} {pct(times, .95) * 1e3:>8.2f} "
              f"{max(times) * 1e3:>8.1f} {BUDGET_MS[level]:>7} ms {f50 * 1e6:>12.1f} "
              f"{pct(times, .5) / f50:>8.1f}x")
    print("floor: one engine.legal_actions call on the same positions, same run")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="?", type=int, default=4, help="games per level")
    ap.add_argument("board", nargs="?", default="4p", choices=["2p", "3p", "4p", "5p"])
    args = ap.parse_args()
    if args.games < 1:
        ap.error("games must be at least 1")
    main(args.games, f"official-{args.board}")
