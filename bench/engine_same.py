"""Same games, same results: this engine against the engine at REV over seeded random games.

    python bench/engine_same.py --against REV [--games N] [--boards ...]

Both engines (REV in a git worktree in a temp folder, each in its own child process) play N
seeded games per board, choosing uniformly among the legal actions. Each board gets one
SHA-256 over every step's legal actions (in order), legal conquests with their costs, the
action chosen and the events it produced, and every game's final state (`dump_state`).
Equal digests: the same actions, events and final states. Exit status 1 when they differ.

Two rule fixes (issue 18) change what is legal on purpose, so the games are kept to the
actions the old rules allow, by a filter applied in both engines alike (bench/_same_games.py:
moves that chain, and deploys that need the Skeletons' bonus, are left out). The counts of
left-out actions are printed per engine: 0 for an engine with the old rules shows that the
filter is exactly the difference.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys

from _rev import engine_root, run_worker, worktree
from _same_games import OldRules

sys.path.insert(0, str(engine_root()))

import engine  # noqa: E402

BOARDS = {"official-2p": 2, "official-3p": 3, "official-4p": 4, "official-5p": 5}
NAMES = ["ann", "bob", "cid", "dee", "eve"]


def _dict(e: object) -> dict:
    return e if isinstance(e, dict) else e.as_dict()  # type: ignore[attr-defined]


def play(board: str, n: int, seed: int, digest, left: dict[str, int]) -> int:
    rnd = random.Random(seed)
    old = OldRules()
    s = engine.new_game(board, NAMES[:n], seed)
    steps = 0
    while not s.finished:
        legal = old.filter(s, engine.legal_actions(s))
        conquests = [(c.action.model_dump(mode="json"), c.region, c.cost, c.short, c.in_decline)
                     for c in engine.legal_conquests(s)]
        action = rnd.choice(legal)
        step = engine.apply(s, action)
        events = [_dict(e) for e in step.events]
        old.played(action, events)
        digest.update(json.dumps([[a.model_dump(mode="json") for a in legal], conquests,
                                  action.model_dump(mode="json"), events],
                                 sort_keys=True).encode())
        s = step.state
        steps += 1
    digest.update(json.dumps(engine.dump_state(s), sort_keys=True).encode())
    for k, v in old.left.items():
        left[k] += v
    return steps


def worker(board: str, games: int) -> None:
    digest = hashlib.sha256()
    left = {"move": 0, "deploy": 0}
    actions = sum(play(board, BOARDS[board], seed, digest, left) for seed in range(games))
    print(json.dumps({"engine": engine.__file__, "digest": digest.hexdigest(),
                      "actions": actions, "left_out": left}))


def against(rev: str, games: int, boards: list[str]) -> int:
    bad = 0
    with worktree(rev) as other:
        here = engine_root()
        print(f"this: {here}\nREV:  {rev} in {other}\n{games} seeded games per board\n")
        print(f"{'board':<12} {'actions':>8} {'this digest':<18} {'REV digest':<18} "
              f"{'same':<5} left out by the old-rule filter (this | REV)")
        for board in boards:
            args = ["--board", board, "--games", str(games)]
            a = run_worker("engine_same.py", here, args)
            b = run_worker("engine_same.py", other, args)
            same = a["digest"] == b["digest"] and a["actions"] == b["actions"]
            bad += not same
            print(f"{board:<12} {a['actions']:>8} {a['digest'][:16]:<18} {b['digest'][:16]:<18} "
                  f"{'yes' if same else 'NO':<5} {a['left_out']} | {b['left_out']}")
    return 1 if bad else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", metavar="REV", default="8304b87")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--boards", nargs="+", choices=list(BOARDS), default=list(BOARDS))
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--root", help=argparse.SUPPRESS)
    ap.add_argument("--board", choices=list(BOARDS), help=argparse.SUPPRESS)
    ns = ap.parse_args()
    if ns.worker:
        worker(ns.board, ns.games)
    else:
        sys.exit(against(ns.against, ns.games, ns.boards))
