"""League arithmetic: is recomputing ratings from the match log on every read affordable?

python bench/league.py [--games 2000] [--players 60] [--repeat 7]

Ratings are never stored (bot.league.ratings): every `/league standings` folds OpenSkill over the
season's games. This prints the median time of that fold for a large season (--games games of
3-5 players drawn from --players members), of the whole standings table (points, wins, ranks
and the fold), of forming one round's tables for all members with a season of history, and,
as the floor measured in the same run, one pass over the same games doing only the points
arithmetic (no rating). Ratios are against that floor.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.league.ratings import recompute  # noqa: E402
from bot.league.standings import Placing, PlayedGame, build_table, placement_points, results  # noqa: E402
from bot.league.tables import Candidate, form_tables, met_counts  # noqa: E402


def season(n_games: int, n_players: int, seed: int = 1) -> list[PlayedGame]:
    rng = random.Random(seed)
    out = []
    for gid in range(1, n_games + 1):
        k = rng.randint(3, 5)
        people = rng.sample(range(1, n_players + 1), k)
        ranks = sorted(rng.randint(1, k) for _ in range(k))
        out.append(PlayedGame(gid, 1, f"{gid:08d}",
                              tuple(Placing(u, f"p{u}", r, 0) for u, r in zip(people, ranks,
                                                                               strict=True))))
    return out


def timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    games = season(args.games, args.players)
    log = results(games)

    def floor() -> None:
        for g in games:
            placement_points([p.rank for p in g.placings])

    base = timed(floor, args.repeat)
    fold = timed(lambda: recompute(log), args.repeat)
    table = timed(lambda: build_table(games), args.repeat)
    ratings = {r.user_id: r.rating for r in build_table(games)}
    cands = [Candidate(u, ratings.get(u, 0.0)) for u in range(1, args.players + 1)]
    met = met_counts([[p.user_id for p in g.placings] for g in games])
    form = timed(lambda: form_tables(cands, met=met), args.repeat)
    print(f"season: {args.games} games of 3-5 from {args.players} members; median of "
          f"{args.repeat} runs (machine shared with other jobs)")
    print(f"floor (points only)      {base * 1000:8.2f} ms")
    print(f"OpenSkill fold           {fold * 1000:8.2f} ms  ({fold / base:6.1f}x floor, "
          f"{fold / args.games * 1e6:6.1f} us/game)")
    print(f"standings table          {table * 1000:8.2f} ms  ({table / base:6.1f}x floor)")
    print(f"form tables, {args.players} players  {form * 1000:8.2f} ms  ({form / base:6.1f}x floor)")


if __name__ == "__main__":
    main()
