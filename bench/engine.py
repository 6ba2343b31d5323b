"""Engine speed: uniformly random legal games per board (prints figures; not a test).

For each board: median wall time of a whole game (choose uniformly among legal_actions
until finished), actions per game, and the median cost of one legal_actions + apply.

    python bench/engine.py [games_per_board]
    python bench/engine.py --against REV [--games N] [--alternations K]

With `--against REV` the engine of this checkout and the engine at REV (a git worktree in a
temp folder) play the same seeded games in alternating child processes (this, REV, REV,
this, ...), K alternations per board; the table gives each engine's median game over all
its runs and the ratio REV / this (above 1: this checkout is faster). The machine's speed
drifts, so only the ratio, measured in the same run, means anything. The games are the
same move for move: the choice is kept to what the rules before issue 18 allowed
(bench/_same_games.py), and a game's time is the CPU time the engine spends on it:
new_game, then legal_actions and apply at each of its positions, timed on a replay of the
recorded game from fresh states (the thread's own CPU time, so that waiting for a busy core
does not count).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from _rev import engine_root, run_worker, worktree
from _same_games import OldRules

sys.path.insert(0, str(engine_root()))

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


def same_game(board: str, n: int, seed: int, read_events: bool = False) -> tuple[float, int]:
    """A seeded random game under the old rules' choice; the engine's time and its actions.

    The game is played once to record its actions, then the engine's own work is timed on
    a replay of the record in one stretch: new_game, then legal_actions and apply at every
    step, each on the state the replay's previous apply returned (fresh states: nothing an
    engine keeps on a state from the recording is found again). The time is the thread's
    CPU time (on a machine shared with other jobs, wall time also counts the waits for a
    core), read once per game (reading it costs ~0.75 us, as much as a tenth of a step).
    With `read_events` each step's events are read too (this engine builds its event
    models when they are first read; a playout does not)."""
    rnd = random.Random(seed)
    old = OldRules()
    names = NAMES[:n]
    s = engine.new_game(board, names, seed)
    record = []
    while not s.finished:
        action = rnd.choice(old.filter(s, engine.legal_actions(s)))
        step = engine.apply(s, action)
        old.played(action, step.events)
        record.append(action)
        s = step.state
    final = engine.dump_state(s)
    legal, apply_ = engine.legal_actions, engine.apply
    t0 = time.thread_time()
    s = engine.new_game(board, names, seed)
    if read_events:
        for action in record:
            legal(s)
            step = apply_(s, action)
            step.events  # noqa: B018 (the read is what is timed)
            s = step.state
    else:
        for action in record:
            legal(s)
            s = apply_(s, action).state
    took = time.thread_time() - t0
    if engine.dump_state(s) != final:
        raise SystemExit(f"{board} seed {seed}: the replay did not reach the recorded end")
    return took, len(record)


def worker(board: str, games: int, read_events: bool) -> None:
    """One child's share: the engine time of each of `games` seeded games, as JSON."""
    n = BOARDS[board]
    for seed in range(5):
        same_game(board, n, 10_000 + seed, read_events)
    got = [same_game(board, n, seed, read_events) for seed in range(games)]
    print(json.dumps({"engine": engine.__file__, "times": [t for t, _ in got],
                      "actions": sum(k for _, k in got)}))


def against(rev: str, games: int, alternations: int, boards: list[str],
            read_events: bool) -> None:
    with worktree(rev) as other:
        here = engine_root()
        print(f"this: {here} (engine {engine.__file__})\nREV:  {rev} in {other}")
        print(f"{games} seeded games per process, {alternations} alternations per board"
              + (", every step's events read" if read_events else "") + "\n")
        print(f"{'board':<12} {'actions':>8} {'this (median)':>14} {'REV (median)':>14} "
              f"{'REV / this':>11} {'per alternation':>20}")
        for board in boards:
            mine: list[float] = []
            theirs: list[float] = []
            ratios = []
            actions = set()
            for k in range(alternations):
                order = [(here, mine), (other, theirs)]
                if k % 2:
                    order.reverse()
                got = {}
                for root, into in order:
                    args = ["--board", board, "--games", str(games)]
                    out = run_worker("engine.py", root,
                                     args + (["--read-events"] if read_events else []))
                    into.extend(out["times"])
                    actions.add(out["actions"])
                    got[root] = statistics.median(out["times"])
                ratios.append(got[other] / got[here])
            a, b = statistics.median(mine), statistics.median(theirs)
            per = " ".join(f"{r:.2f}" for r in ratios)
            same = str(actions.pop()) if len(actions) == 1 else "DIFFER"
            print(f"{board:<12} {same:>8} {a * 1e3:>11.2f} ms {b * 1e3:>11.2f} ms "
                  f"{b / a:>10.2f}x {per:>20}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="?", type=int, default=None,
                    help="games per board (alone: 200; with --against: per process, 100)")
    ap.add_argument("--games", dest="games_opt", type=int, default=None)
    ap.add_argument("--against", metavar="REV", help="compare with the engine at REV")
    ap.add_argument("--alternations", type=int, default=3)
    ap.add_argument("--read-events", action="store_true",
                    help="with --against: read every step's events too")
    ap.add_argument("--boards", nargs="+", choices=list(BOARDS), default=list(BOARDS))
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--root", help=argparse.SUPPRESS)
    ap.add_argument("--board", choices=list(BOARDS), help=argparse.SUPPRESS)
    ns = ap.parse_args()
    count = ns.games_opt if ns.games_opt is not None else ns.games
    if ns.worker:
        worker(ns.board, count or 100, ns.read_events)
    elif ns.against:
        against(ns.against, count or 100, ns.alternations, ns.boards, ns.read_events)
    else:
        main(count or 200)
