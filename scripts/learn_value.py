"""Learn ai/weights/value.json: the coins a seat will still earn, from public features.

Usage: python scripts/learn_value.py [--games N] [--procs P] [--out PATH]

Plays N games per player count (2-5, the official boards) in which every seat plays the
fast heuristic with knobs drawn at random per game (so the positions are varied), records
every turn start, and fits for each (player count, own turns left) a ridge regression of
"final coins - coins now" on ai.value.FEATURES. One game in five is held out; the script
prints the held-out R^2 and mean absolute error per player count. No gauntlet player
takes part: the gauntlet judges the levels and must not teach them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from ai.plan import step  # noqa: E402
from ai.policy import Knobs, choose_action, make_ctx  # noqa: E402
from ai.value import FEATURES, WEIGHTS, features, turns_left  # noqa: E402

RIDGE = 1.0


def random_knobs(rnd: random.Random) -> Knobs:
    return Knobs(lam=rnd.uniform(0.3, 1.0), keep=rnd.choice((0.0, 0.0, 0.15, 0.3)),
                 harm=rnd.uniform(0.5, 1.5), leader=rnd.choice((0.0, 0.0, 1.0, 2.0)),
                 spread=rnd.choice((0.7, 1.0, 1.5)), decline=rnd.choice((-1.0, 0.0, 0.0, 1.0)))


def one_game(task: tuple[int, int]) -> list[tuple[int, int, list[float], float]]:
    """(players, turns left, features, coins still to come) for every seat at every turn
    start of one game."""
    players, seed = task
    rnd = random.Random(seed)
    names = [f"p{i}" for i in range(players)]
    s = engine.new_game(f"official-{players}p", names, seed)
    knobs = [random_knobs(rnd) for _ in names]
    rng = random.Random(seed + 1)
    marks: list[tuple[list[float], list[int], list[list[float]]]] = []
    last = None
    n = 0
    while not s.finished and n < 5000:
        key = (s.round, s.current)
        if s.stage is not engine.Stage.SURVIVORS and key != last:
            last = key
            marks.append(([float(x.coins) for x in s.seats],
                          [turns_left(s, i) for i in range(players)], features(s)))
        i = s.players.index(s.actor)
        s = step(s, choose_action(make_ctx(s, "fast", rng, knobs[i])))
        n += 1
    final = [float(x.coins) for x in s.seats]
    out = []
    for coins, left, feats in marks:
        for i in range(players):
            out.append((players, left[i], feats[i], final[i] - coins[i]))
    return out


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a is small and square)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


def fit(rows: list[tuple[list[float], float]]) -> list[float]:
    k = len(FEATURES)
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for x, y in rows:
        for i in range(k):
            xi = x[i]
            if xi:
                xty[i] += xi * y
                row = xtx[i]
                for j in range(k):
                    row[j] += xi * x[j]
    for i in range(1, k):  # no penalty on the intercept
        xtx[i][i] += RIDGE
    return solve(xtx, xty)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games per player count")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--out", default=str(WEIGHTS))
    args = ap.parse_args()
    tasks = [(p, 1_000_000 * p + g) for p in (2, 3, 4, 5) for g in range(args.games)]
    with Pool(args.procs) as pool:
        games = pool.map(one_game, tasks, chunksize=8)
    weights: dict[str, dict[str, list[float]]] = {}
    report: dict[str, dict[str, float]] = {}
    for p in (2, 3, 4, 5):
        train: dict[int, list] = {}
        test: list[tuple[int, list[float], float]] = []
        for (tp, seed), rows in zip(tasks, games, strict=True):
            if tp != p:
                continue
            held_out = seed % 5 == 0
            for _, t, x, y in rows:
                if t <= 0:
                    continue
                if held_out:
                    test.append((t, x, y))
                else:
                    train.setdefault(t, []).append((x, y))
        table = {t: fit(rows) for t, rows in sorted(train.items())}
        weights[str(p)] = {str(t): [round(v, 4) for v in w] for t, w in table.items()}
        ys = [y for _, _, y in test]
        mean = sum(ys) / len(ys)
        sse = sum((y - sum(a * b for a, b in zip(table[t], x, strict=True))) ** 2
                  for t, x, y in test)
        sst = sum((y - mean) ** 2 for y in ys)
        mae = sum(abs(y - sum(a * b for a, b in zip(table[t], x, strict=True)))
                  for t, x, y in test) / len(test)
        report[str(p)] = {"held_out_rows": len(test), "r2": round(1 - sse / sst, 4),
                          "mae_coins": round(mae, 2)}
        print(f"{p} players: {sum(len(v) for v in train.values())} training rows, "
              f"held out {len(test)}: R^2 {1 - sse / sst:.3f}, mean abs error {mae:.2f} coins")
    out = {"_doc": "ai/value.py: coins still to come = weights[players][turns left] . "
                   "features; learned by scripts/learn_value.py",
           "features": list(FEATURES), "games_per_player_count": args.games,
           "held_out": report, "weights": weights}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
