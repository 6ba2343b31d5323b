"""Tune the gauntlet's knobs to WIN: each style against the other styles and `normal`.

Usage: python scripts/gauntlet_tune.py [--games N] [--procs P] [--styles a,b]

For each style in turn, each knob is tried at a lower and a higher value; a change is kept
when the variant's mean win share over a fixed set of seat-rotated games (2p against each
opponent of the pool, 4p against three drawn from it; the same seeds for every variant)
beats the current setting by more than two standard errors. Prints the knobs found; they
are copied into ai/gauntlet/styles.py by hand (the printout is the record).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.arena import actor, play  # noqa: E402
from ai.gauntlet.styles import STYLES, with_knobs  # noqa: E402

POOL = ("greedy", "decliner", "turtle", "aggressor", "normal")


def one_game(task) -> float:
    style, knobs, opp, board, seed, seat = task
    n = len(opp) + 1
    specs = list(opp)
    specs.insert(seat, "V")
    me = with_knobs(style, **knobs)
    players = [me.act if x == "V" else actor(x) for x in specs]
    res = play(specs, board, seed, players)
    return res[seat].share * n  # 1 = a fair share of the wins, whatever the table size


def tasks(style: str, knobs: dict, games: int) -> list:
    out = []
    rnd = random.Random(11)
    pool = [x for x in POOL if x != style]
    for g in range(games):
        o = pool[g % len(pool)]
        out.append((style, knobs, [o], "official-2p", 50_000 + g, g % 2))
        others = [rnd.choice(pool) for _ in range(3)]
        out.append((style, knobs, others, "official-4p", 60_000 + g, g % 4))
    return out


def score(p: Pool, style: str, knobs: dict, games: int) -> tuple[float, float]:
    xs = p.map(one_game, tasks(style, knobs, games), chunksize=4)
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1)
    return m, math.sqrt(var / len(xs))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--styles", default=",".join(STYLES))
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    with Pool(args.procs) as p:
        for style in args.styles.split(","):
            knobs = dict(STYLES[style].K)
            best, se = score(p, style, knobs, args.games)
            print(f"{style}: start {best:.3f} +- {se:.3f} {knobs}", flush=True)
            for _ in range(args.rounds):
                changed = False
                for k, v in list(knobs.items()):
                    steps = [v - 1, v + 1] if isinstance(v, int) else [v * 0.6, v * 1.5]
                    if isinstance(v, float) and v == 0:
                        steps = [0.5, 1.0]
                    for nv in steps:
                        if isinstance(v, int) and nv < 0:
                            continue
                        trial = {**knobs, k: round(nv, 3) if isinstance(nv, float) else nv}
                        m, s = score(p, style, trial, args.games)
                        keep = m > best + 2 * max(s, se) / math.sqrt(2)
                        print(f"  {k}={trial[k]}: {m:.3f} +- {s:.3f}{'  kept' if keep else ''}",
                              flush=True)
                        if keep:
                            knobs, best, se, changed = trial, m, s, True
                            break
                if not changed:
                    break
            print(f"{style}: final {best:.3f} {knobs}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
