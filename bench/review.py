"""A finished game's key-moments review (ai.review_game): CPU per game, against its replay.

python bench/review.py [N] [--work W] [--seed S] [--boards 2,4,5]   (N timed runs, default 3)

For each board, a game played to its end by the easy AI (seeded, as bench/replay.py plays
it) is reviewed at the bot's default work (ai.moments: one assessment per turn map, a hard
AI turn per player turn, each judged by `work` playouts). Interleaved N times so that all
see the same machine load, three jobs run on the same game:

- log: replaying its action log (story.tell, what every after-game picture starts with);
- replay: drawing its animated replay (render.replay.replay_png, the bot's after-game
  picture job), the floor the review is set beside;
- review: ai.review_game(start, actions, seed, work).

Printed per board: the turns (turn maps), median CPU s of each job, the review over the
replay, and the target (a whole 4p game's review under 30 s CPU at the default work).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import ai  # noqa: E402
import engine  # noqa: E402
import story  # noqa: E402
from ai.moments import review_game  # noqa: E402
from render import encode, mapview, replay  # noqa: E402

TARGET_4P_S = 30.0


def game_log(board_id: str, seed: int) -> tuple[engine.GameState, list[dict], list[list]]:
    """A game on `board_id` played to its end by the easy AI (first state, actions, each
    action's events)."""
    n = engine.data.board(board_id).players
    start = state = engine.new_game(board_id, [f"player{i + 1}" for i in range(n)], seed)
    actions: list[dict] = []
    events: list[list] = []
    while not state.finished:
        action = ai.choose(state, "easy", seed * 7 + len(actions))
        step = engine.apply(state, action)
        actions.append(action.model_dump(mode="json"))
        events.append([dict(e) for e in step.events])
        state = step.state
    return start, actions, events


def cpu(job: Callable[[], object]) -> float:
    with encode.no_bands_kept(), mapview.no_strips_kept():
        t = time.process_time()
        job()
        return time.process_time() - t


def measure(board_id: str, n: int, seed: int, work: int) -> tuple[int, dict[str, float]]:
    """(turn maps of the game, median CPU s of the log's replay, the animated replay, the
    review), the three interleaved `n` times."""
    start, actions, events = game_log(board_id, seed)
    tale = story.tell(start, actions, events)
    runs: dict[str, list[float]] = {"log": [], "replay": [], "review": []}
    got: list[ai.GameReview] = []
    for _ in range(n):
        runs["log"].append(cpu(lambda: story.tell(start, actions, events)))
        runs["replay"].append(cpu(lambda: replay.replay_png(tale)))
        runs["review"].append(cpu(lambda: got.append(review_game(
            start, actions, seed=seed, work=work))))
    return len(got[0].chances), {k: statistics.median(v) for k, v in runs.items()}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=3)
    ap.add_argument("--work", type=int, default=32)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--boards", default="2,4,5", help="player counts, e.g. 2,3,4,5")
    args = ap.parse_args(argv)
    if args.n < 1 or args.work < 1:
        print("N and --work must be at least 1", file=sys.stderr)
        return 2
    try:
        counts = [int(x) for x in args.boards.split(",")]
        boards = [f"official-{k}p" for k in counts]
        for b in boards:
            engine.data.board(b)
    except (ValueError, KeyError):
        print(f"--boards: player counts among 2,3,4,5, not {args.boards!r}", file=sys.stderr)
        return 2
    print(f"review CPU per finished game: {args.n} run(s), work {args.work}, seed {args.seed}")
    print(f"{'board':<14} {'turns':>5} {'log s':>7} {'replay s':>9} {'review s':>9} "
          f"{'review/replay':>14}")
    met = True
    for board_id in boards:
        turns, med = measure(board_id, args.n, args.seed, args.work)
        print(f"{board_id:<14} {turns:>5} {med['log']:>7.2f} {med['replay']:>9.2f} "
              f"{med['review']:>9.2f} {med['review'] / med['replay']:>14.1f}")
        if board_id == "official-4p" and med["review"] > TARGET_4P_S:
            met = False
    print(f"target (4p review under {TARGET_4P_S:.0f} s CPU at work {args.work}): "
          + ("met" if met else "NOT met"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
