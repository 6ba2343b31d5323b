"""What the levels (and the gauntlet's strong players) must reach, and a run that checks it.

`python -m ai gauntlet --targets [--only NAME,...] --games N --seed S` plays every target
(or the named ones) seat-rotated through `run.run` and prints, after each one's table, a
summary: per row the win share with its 95% Wilson interval, the share wanted and whether
it is reached ("yes" when the estimate reaches it, "sure" when the whole interval does).
The numbers are those of issue #29 and the 2p targets it keeps from the issue before.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TextIO

from .run import MIXED, OPPONENTS, Table, players_of, row_label, run

OLDER = ("greedy", "decliner", "turtle", "aggressor")
STRONGEST = ("strategist", "ismcts")  # the two strongest gauntlet players (docs/ai.md)


@dataclass(frozen=True)
class Target:
    name: str
    spec: str  # the measured seat
    board: str
    opponents: tuple[str, ...]  # one row each: copies of it (or `mixed`) in the other seats
    wanted: float  # win share wanted in every row
    why: str


TARGETS: tuple[Target, ...] = (
    Target("strategist-normal", "strategist", "official-4p", ("normal",), 0.35,
           "a new gauntlet player earns its place: >= 35% against three normal"),
    Target("strategist-older", "strategist", "official-4p", OLDER, 0.25,
           "and beats every older gauntlet player (above par against three copies)"),
    Target("ismcts-normal", "ismcts", "official-4p", ("normal",), 0.35,
           "a new gauntlet player earns its place: >= 35% against three normal"),
    Target("ismcts-older", "ismcts", "official-4p", OLDER, 0.25,
           "and beats every older gauntlet player (above par against three copies)"),
    Target("hard-4p", "hard", "official-4p", OPPONENTS, 0.40,
           "hard against three copies of every gauntlet player"),
    Target("hard-mixed", "hard", "official-4p", (MIXED,), 0.35,
           "hard at mixed tables of three different gauntlet players"),
    Target("hard-5p", "hard", "official-5p", STRONGEST, 0.30,
           "hard against four copies of the two strongest gauntlet players"),
    Target("hard-2p-normal", "hard", "official-2p", ("normal",), 0.60,
           "hard against normal in 2p"),
    Target("hard-2p", "hard", "official-2p", OLDER, 0.65,
           "hard in 2p against the four styles (kept from the issue before)"),
    Target("normal-2p", "normal", "official-2p", OLDER, 0.60,
           "normal in 2p against the four styles (kept from the issue before)"),
    Target("expert-4p", "expert", "official-4p", ("hard",), 0.35,
           "expert stronger than hard: >= 35% against three hard"),
    Target("expert-2p", "expert", "official-2p", ("hard",), 0.60,
           "expert stronger than hard: >= 60% against hard in 2p"),
)
BY_NAME = {t.name: t for t in TARGETS}


def verdict(share: float, low: float, wanted: float) -> str:
    if low >= wanted:
        return "sure"
    return "yes" if share >= wanted else "no"


def summary(target: Target, table: Table, out: TextIO) -> None:
    n = players_of(target.board)
    out.write(f"target {target.name}: {target.why} (par {100 / n:.0f}%)\n")
    for opp, r in table["rows"].items():
        lo, hi = r["ci"]
        label = row_label(opp, n)
        out.write(f"  {target.spec:<10} vs {label:<14} {r['games']:>5} games "
                  f"{r['win_share'] * 100:>6.1f}% ({lo * 100:.1f}-{hi * 100:.1f}) "
                  f"wanted >= {target.wanted * 100:.0f}%  "
                  f"{verdict(r['win_share'], lo, target.wanted)}\n")
    out.flush()


def run_targets(names: list[str], games: int, seed: int, procs: int = 1,
                out: TextIO = sys.stdout) -> list[Table]:
    """Play the named targets (all when `names` is empty); print each table and summary."""
    chosen = [BY_NAME[x] for x in names] if names else list(TARGETS)
    tables = []
    for t in chosen:
        table = run(t.spec, list(t.opponents), games, t.board, seed, procs, out=out)
        summary(t, table, out)
        tables.append(table)
    return tables
