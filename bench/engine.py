"""Engine speed: uniformly random legal games per board (prints figures; not a test).

For each board: median wall time of a whole game (choose uniformly among legal_actions
until finished), actions per game, and the median cost of one legal_actions + apply.
Run: python bench/engine.py [games_per_board]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402

BOARDS = {"official-2p": 2, "official-3p": 3, "official-4p": 4, "official-5p": 5}
NAMES = ["ann", "bob", "cid", "dee", "eve"]


def one_game(board: str, n: int, seed: int) -> tuple[float, int, list[float], float]:
    rnd = random.Random(seed)
    clock = time.perf_counter
    c0 = time.process_time()
    t0 = clock()
    s = engine.new_game(board, NAMES[:n], seed)
    steps = []
    while not s.finished:
        a0 = clock()
        legal = engine.legal_actions(s)
        s = engine.apply(s, rnd.choice(legal)).state
        steps.append(clock() - a0)
    return clock() - t0, len(steps), steps, time.process_time() - c0


def main(games: int = 200) -> None:
    print(f"{'board':<12} {'games':>5} {'median game':>12} {'(cpu)':>9} {'actions/game':>13} "
          f"{'median action':>14} {'mean action':>12}")
    for board, n in BOARDS.items():
        for seed in range(5):  # warm up caches
            one_game(board, n, 10_000 + seed)
        times, counts, per, cpu = [], [], [], []
        for seed in range(games):
            t, k, steps, c = one_game(board, n, seed)
            times.append(t)
            cpu.append(c)
            counts.append(k)
            per.extend(steps)
        print(f"{board:<12} {games:>5} {statistics.median(times) * 1e3:>9.2f} ms "
              f"{statistics.median(cpu) * 1e3:>6.2f} ms "
              f"{statistics.median(counts):>13.0f} {statistics.median(per) * 1e6:>11.1f} µs "
              f"{statistics.fmean(per) * 1e6:>9.1f} µs")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="?", type=int, default=200, help="games per board")
    main(ap.parse_args().games)
