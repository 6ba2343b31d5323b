"""Seat-rotated AI matches: `python -m ai match --seats hard,normal --games N --board 2p`."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from engine.data import BOARD_IDS

from .arena import SPECS, Figures, SeatResult, figures, pct, play, wilson
from .gauntlet.run import MIXED, OPPONENTS
from .gauntlet.run import main as gauntlet_main
from .gauntlet.targets import BY_NAME, run_targets

__all__ = ["SPECS", "MatchRow", "SeatResult", "main", "pct", "play", "run_match", "wilson"]


class MatchRow(Figures):
    """One seat spec's figures over a match."""

    seats: int  # seats of this spec in each game
    seat_games: int
    decisions: int


def run_match(specs: list[str], games: int, board: str, seed: int,
              out: TextIO | None = sys.stdout, progress: bool = True) -> dict[str, MatchRow]:
    n = len(specs)
    results: list[SeatResult] = []
    t0 = time.perf_counter()
    for g in range(games):
        k = g % n
        rotated = specs[k:] + specs[:k]  # every spec sits in every seat in turn
        results.extend(play(rotated, board, seed + g))
        if progress and (g + 1) % max(1, games // 10) == 0:
            sys.stderr.write(f"  {g + 1}/{games} games, {time.perf_counter() - t0:.0f} s\n")
    table: dict[str, MatchRow] = {}
    for spec in dict.fromkeys(specs):
        rs = [r for r in results if r.spec == spec]
        table[spec] = {"seats": specs.count(spec), "seat_games": len(rs), **figures(rs),
                       "decisions": sum(len(r.times) for r in rs)}
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
    g = sub.add_parser("gauntlet", help="an AI level against every gauntlet opponent")
    g.add_argument("--level", default="hard",
                   help=f"comma-separated levels (or gauntlet players) to measure, of: "
                        f"{', '.join(SPECS)}")
    g.add_argument("--games", type=int, default=20, help="games per opponent")
    g.add_argument("--board", default="2p",
                   help="2p, 3p, 4p or 5p (copies of the opponent in every other seat)")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--procs", type=int, default=1, help="worker processes (default 1)")
    g.add_argument("--opponents", default=",".join(OPPONENTS),
                   help=f"comma-separated seat specs, or {MIXED} (different gauntlet players "
                        f"at the other seats; default: {', '.join(OPPONENTS)})")
    g.add_argument("--json", default=None, help="also write the tables to this JSON file")
    g.add_argument("--targets", action="store_true",
                   help="play the targets of issue #29 instead (ai/gauntlet/targets.py) and "
                        "print each with its interval and whether it is reached")
    g.add_argument("--only", default="",
                   help=f"with --targets: comma-separated target names, of: "
                        f"{', '.join(BY_NAME)}")
    args = p.parse_args(argv)
    if args.cmd == "gauntlet":
        return _gauntlet(p, args)
    specs = [x.strip() for x in args.seats.split(",") if x.strip()]
    bad = [x for x in specs if x not in SPECS]
    if bad or not 2 <= len(specs) <= 5:
        p.error(f"--seats needs 2-5 of {', '.join(SPECS)}; got {args.seats!r}")
    board = _board(p, args.board or f"{len(specs)}p")
    if args.games < 1:
        p.error("--games must be at least 1")
    run_match(specs, args.games, board, args.seed)
    return 0


def _board(p: argparse.ArgumentParser, board: str) -> str:
    full = board if board.startswith("official-") else f"official-{board}"
    if full not in BOARD_IDS:
        p.error(f"unknown board {board!r}; choose 2p, 3p, 4p or 5p")
    return full


def _gauntlet(p: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.games < 1 or args.procs < 1:
        p.error("--games and --procs must be at least 1")
    if args.targets:
        names = [x.strip() for x in args.only.split(",") if x.strip()]
        if any(x not in BY_NAME for x in names):
            p.error(f"--only needs target names of {', '.join(BY_NAME)}; got {args.only!r}")
        run_targets(names, args.games, args.seed, args.procs)
        return 0
    levels = [x.strip() for x in args.level.split(",") if x.strip()]
    if not levels or any(x not in SPECS for x in levels):
        p.error(f"--level needs seat specs of {', '.join(SPECS)}; got {args.level!r}")
    opps = [x.strip() for x in args.opponents.split(",") if x.strip()]
    if not opps or any(x not in (*SPECS, MIXED) for x in opps):
        p.error(f"--opponents needs seat specs of {', '.join(SPECS)} or {MIXED}; "
                f"got {args.opponents!r}")
    args.board = _board(p, args.board)
    return gauntlet_main(args)
