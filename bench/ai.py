"""AI decision times per level, from real games (prints figures; not a test).

For each level, plays seat-rotated games of that level against normal players and times
every decision of the measured seat: p50/p95/max of `ai.choose`, and as a floor measured
on the same positions in the same run, one `engine.legal_actions` call. `hint` times
`ai.hint` (normal-level reasoning plus the explanation) on the positions of the normal
seat. Budgets: easy and normal p95 <= 100 ms, hard p95 <= 1 s, expert p95 <= 5 s, a hint
within 2 s, all on one core. `--cpu` times with the process's CPU clock instead of the
wall clock: a run that other jobs slow down or pause (SIGSTOP) still gives one core's time.
Run: python bench/ai.py [games_per_level] [board] [--levels easy,normal,hard,expert,hint]
[--cpu]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from ai import LEVELS, choose, hint  # noqa: E402

BUDGET_MS = {"easy": 100, "normal": 100, "hard": 1000, "expert": 5000, "hint": 2000}


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def measure(level: str, games: int, board: str, clock: Callable[[], float] = time.perf_counter
            ) -> tuple[list[float], list[float]]:
    n = int(board.split("-")[1][0])
    measured = "normal" if level == "hint" else level
    times, floor = [], []
    for g in range(games):
        specs = [measured] + ["normal"] * (n - 1)
        specs = specs[g % n:] + specs[: g % n]
        seat = (n - g % n) % n
        s = engine.new_game(board, [f"{x}-{i}" for i, x in enumerate(specs)], 500 + g)
        k = 0
        while not s.finished:
            i = s.players.index(s.actor)
            seed = g * 10_000 + k
            if i == seat:
                t0 = clock()
                engine.legal_actions(s)
                t1 = clock()
                a = hint(s, seed=seed).action if level == "hint" else choose(s, level, seed)
                t2 = clock()
                floor.append(t1 - t0)
                times.append(t2 - t1)
            else:
                a = choose(s, "normal", seed)
            s = engine.apply(s, a).state
            k += 1
    return times, floor


def main(games: int = 4, board: str = "official-4p", levels: list[str] | None = None,
         cpu: bool = False) -> None:
    levels = levels or [*LEVELS, "hint"]
    clock = time.process_time if cpu else time.perf_counter
    print(f"board {board}, {games} games per level, one process (one core); the measured seat "
          f"plays against normal seats; {'CPU' if cpu else 'wall'} clock")
    print(f"{'level':<7} {'decisions':>9} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} "
          f"{'budget p95':>10} {'floor p50 µs':>12} {'p50/floor':>9} {'p95/floor':>9}")
    for level in levels:
        times, floor = measure(level, games, board, clock)
        f50 = statistics.median(floor)
        print(f"{level:<7} {len(times):>9} {pct(times, .5) * 1e3:>8.2f} "
              f"{pct(times, .95) * 1e3:>8.2f} {max(times) * 1e3:>8.1f} "
              f"{BUDGET_MS[level]:>7} ms {f50 * 1e6:>12.1f} {pct(times, .5) / f50:>8.1f}x "
              f"{pct(times, .95) / f50:>8.0f}x")
    print("floor: one engine.legal_actions call on the same positions, same run")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="?", type=int, default=4, help="games per level")
    ap.add_argument("board", nargs="?", default="4p", choices=["2p", "3p", "4p", "5p"])
    ap.add_argument("--levels", default=",".join([*LEVELS, "hint"]),
                    help="comma-separated: levels and/or hint")
    ap.add_argument("--cpu", action="store_true",
                    help="time with the process's CPU clock (immune to pauses and load)")
    args = ap.parse_args()
    chosen = [x.strip() for x in args.levels.split(",") if x.strip()]
    if args.games < 1:
        ap.error("games must be at least 1")
    if not chosen or any(x not in BUDGET_MS for x in chosen):
        ap.error(f"--levels takes some of {', '.join(BUDGET_MS)}")
    main(args.games, f"official-{args.board}", chosen, args.cpu)
