"""`python -m ai gauntlet`: an AI level against every gauntlet opponent, seat-rotated.

For each level (or any seat spec: a gauntlet player can be measured the same way) and
each opponent (the gauntlet's players, random, easy and normal) it plays `--games` games:
the measured spec against copies of the opponent in every other seat (one in 2p, three in
4p, four in 5p), or, for the opponent `mixed`, against different gauntlet players (each
game takes the next set of them, so every set comes up equally often); the measured spec
sits in every seat in turn. It prints, per level, a table with the win share (95% Wilson
interval), mean rank, coin margin (own coins minus the best other seat's) and decision
times per opponent, then OpenSkill ratings (Plackett-Luce, `rating.py`) over all the games
of that table.
"""

from __future__ import annotations

import json
import sys
import time
from argparse import Namespace
from itertools import combinations
from multiprocessing import Pool
from typing import TextIO, TypedDict

from ..arena import Figures, SeatResult, figures, play
from .players import PLAYERS
from .rating import rate_specs

OPPONENTS: tuple[str, ...] = (*PLAYERS, "random", "easy", "normal")
MIXED = "mixed"  # an opponent spec: different gauntlet players at every other seat

# one game to play: (opponent, seat specs rotated, the level's seat, board, seed)
Planned = tuple[str, list[str], int, str, int]


class Row(Figures):
    """The measured level's figures against one opponent."""

    games: int
    max_ms: float
    opponent_strays: int


class Skill(TypedDict):
    mu: float
    sigma: float
    ordinal: float


class Table(TypedDict):
    """One level's gauntlet: what `run` returns and `--json` writes."""

    level: str
    board: str
    games: int  # per opponent
    seed: int
    rows: dict[str, Row]
    ratings: dict[str, Skill]
    seconds: float


def players_of(board: str) -> int:
    return int(board.removeprefix("official-")[0])


def row_label(opponent: str, players: int) -> str:
    """A table row's name: the opponent, with how many copies of it sit at the table."""
    return opponent if players == 2 or opponent == MIXED else f"{players - 1}x {opponent}"


def seats(level: str, opponent: str, board: str, game: int = 0) -> list[str]:
    """The seats of game number `game` before rotation: the level first. For `mixed`, the
    game's set of different gauntlet players, the sets taken in turn."""
    n = players_of(board)
    if opponent == MIXED:
        sets = list(combinations(PLAYERS, n - 1))
        return [level, *sets[(game // n) % len(sets)]]
    return [level] + [opponent] * (n - 1)


def _game(task: tuple[list[str], str, int]) -> list[SeatResult]:
    specs, board, seed = task
    return play(specs, board, seed)


def plan(level: str, opponents: list[str], games: int, board: str, seed: int
         ) -> list[Planned]:
    """Every game to play: (opponent, seat specs rotated, the level's seat, board, seed)."""
    out: list[Planned] = []
    for opp in opponents:
        for g in range(games):
            base = seats(level, opp, board, g)
            n = len(base)
            k = g % n
            out.append((opp, base[k:] + base[:k], (n - k) % n, board, seed + g))
    return out


def run(level: str, opponents: list[str], games: int, board: str, seed: int,
        procs: int = 1, out: TextIO | None = sys.stdout,
        progress: TextIO | None = sys.stderr) -> Table:
    """Play the gauntlet for one level; print its table; return the figures."""
    tasks = plan(level, opponents, games, board, seed)
    results: list[tuple[str, int, list[SeatResult]]] = []
    t0 = time.perf_counter()
    jobs = [(specs, b, s) for _, specs, _, b, s in tasks]
    if procs > 1:
        with Pool(procs) as pool:
            for i, res in enumerate(pool.imap(_game, jobs)):
                results.append((tasks[i][0], tasks[i][2], res))
                _progress(progress, len(results), len(tasks), t0)
    else:
        for i, job in enumerate(jobs):
            results.append((tasks[i][0], tasks[i][2], _game(job)))
            _progress(progress, len(results), len(tasks), t0)
    rows: dict[str, Row] = {}
    for opp in opponents:
        mine = [res[k] for o, k, res in results if o == opp]
        rows[opp] = {
            "games": len(mine), **figures(mine),
            "max_ms": max(t for r in mine for t in r.times) * 1e3,
            "opponent_strays": sum(r.strays for o, k, res in results if o == opp
                                   for i, r in enumerate(res) if i != k),
        }

    def label(r: SeatResult, measured: bool) -> str:
        return r.spec if measured or r.spec != level else f"{r.spec} (opponent)"
    ratings = rate_specs([[(label(r, i == k), r.rank) for i, r in enumerate(res)]
                          for _, k, res in results])
    table: Table = {"level": level, "board": board, "games": games, "seed": seed, "rows": rows,
                    "ratings": {k: {"mu": v.mu, "sigma": v.sigma, "ordinal": v.ordinal}
                                for k, v in ratings.items()},
                    "seconds": time.perf_counter() - t0}
    if out is not None:
        write_table(table, out)
    return table


def _progress(stream: TextIO | None, done: int, total: int, t0: float) -> None:
    if stream is not None and (done % max(1, total // 20) == 0 or done == total):
        stream.write(f"  {done}/{total} games, {time.perf_counter() - t0:.0f} s\n")
        stream.flush()


def write_table(t: Table, out: TextIO) -> None:
    n = players_of(t["board"])
    par = 100 / n
    out.write(f"\n{t['level']} on {t['board']}: {t['games']} games per opponent, seats "
              f"rotated, seed {t['seed']} (par {par:.0f}%)\n")
    out.write(f"{'opponent':<22} {'games':>5} {'win share':>9} {'95% CI':>13} "
              f"{'mean rank':>9} {'margin':>7} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}\n")
    for opp, r in t["rows"].items():
        lo, hi = r["ci"]
        label = row_label(opp, n)
        out.write(f"{label:<22} {r['games']:>5} {r['win_share'] * 100:>8.1f}% "
                  f"{lo * 100:>5.1f}-{hi * 100:<5.1f}% {r['mean_rank']:>9.2f} "
                  f"{r['margin']:>+7.1f} {r['p50_ms']:>7.1f} {r['p95_ms']:>7.1f} "
                  f"{r['max_ms']:>7.0f}\n")
    strays = sum(r["opponent_strays"] for r in t["rows"].values())
    out.write(f"OpenSkill (Plackett-Luce, all {sum(r['games'] for r in t['rows'].values())} "
              f"games of this table; ordinal = mu - 3 sigma):\n")
    for spec, v in sorted(t["ratings"].items(), key=lambda kv: -kv[1]["ordinal"]):
        out.write(f"  {spec:<18} mu {v['mu']:6.2f}  sigma {v['sigma']:5.2f}  "
                  f"ordinal {v['ordinal']:6.2f}\n")
    out.write(f"gauntlet decisions refused by the rules: {strays}; "
              f"{t['seconds']:.0f} s\n")
    out.flush()


def main(args: Namespace) -> int:
    levels = [x.strip() for x in args.level.split(",") if x.strip()]
    opponents = [x.strip() for x in args.opponents.split(",") if x.strip()]
    tables: list[Table] = []
    for level in levels:
        tables.append(run(level, opponents, args.games, args.board, args.seed, args.procs))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(tables, f, indent=1)
    return 0
