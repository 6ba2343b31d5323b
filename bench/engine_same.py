"""Same games, same results: this engine against the engine at REV over seeded random games.

    python bench/engine_same.py --against REV [--games N] [--boards ...]

Both engines (REV in a git worktree in a temp folder, each in its own child process) play N
seeded games per board, choosing uniformly among the legal actions. Each board gets one
SHA-256 over every step's legal actions (in order), legal conquests with their costs, the
action chosen and the events it produced, and every game's final state (`dump_state`).
Equal digests: the same actions, events and final states. Exit status 1 when they differ.

Two rule fixes (issue 18) change what is legal on purpose, so the games are kept to the
actions the old rules allow, by a filter that is applied in both engines alike:
- free redeployment (RULES §16 #34): a `move` out of a region that received tokens by a move
  this turn, or into one that gave, is left out (the script tracks the turn's moves itself);
- the Skeletons' bonus with the deploy that ends the conquests (§10.10): a `deploy` of more
  tokens than the hand held before the bonus is left out.
The state's record of the old move chain (`turn.moved_from`, `turn.moved_to`) is left out of
the final-state hash. The counts of left-out actions are printed per engine: 0 for an engine
with the old rules shows that the filter is exactly the difference.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys

from _rev import engine_root, run_worker, worktree

sys.path.insert(0, str(engine_root()))

import engine  # noqa: E402

BOARDS = {"official-2p": 2, "official-3p": 3, "official-4p": 4, "official-5p": 5}
NAMES = ["ann", "bob", "cid", "dee", "eve"]
OLD_CHAIN = ("moved_from", "moved_to")


def _dict(e: object) -> dict:
    return e if isinstance(e, dict) else e.as_dict()  # type: ignore[attr-defined]


def _hand_of(s, me: int, race: str | None) -> int:
    seat = s.seats[me]
    for h in (seat.active, *seat.declines):
        if h is not None and h.race == race:
            return h.hand
    return 0


def old_rules(s, legal: list, gave: set[int], took: set[int], left: dict[str, int]) -> list:
    """`legal` less what only the two rule fixes allow (counted in `left`)."""
    out = []
    surviving = s.stage.value == "survivors"
    for a in legal:
        if a.do == "move" and (a.from_ in took or a.to in gave):
            left["move"] += 1
            continue
        if a.do == "deploy" and not surviving:
            area = s.areas[a.region]
            if a.count > _hand_of(s, area.owner, area.race):
                left["deploy"] += 1
                continue
        out.append(a)
    return out


def _final(s) -> dict:
    d = engine.dump_state(s)
    for k in OLD_CHAIN:
        d["turn"].pop(k, None)
    return d


def play(board: str, n: int, seed: int, digest, left: dict[str, int]) -> int:
    rnd = random.Random(seed)
    s = engine.new_game(board, NAMES[:n], seed)
    gave: set[int] = set()
    took: set[int] = set()
    steps = 0
    while not s.finished:
        legal = old_rules(s, engine.legal_actions(s), gave, took, left)
        conquests = [(c.action.model_dump(mode="json"), c.region, c.cost, c.short, c.in_decline)
                     for c in engine.legal_conquests(s)]
        action = rnd.choice(legal)
        step = engine.apply(s, action)
        events = [_dict(e) for e in step.events]
        if action.do == "move":
            gave.add(action.from_)
            took.add(action.to)
        if any(e["type"] == "turn_started" for e in events):
            gave.clear()
            took.clear()
        digest.update(json.dumps([[a.model_dump(mode="json") for a in legal], conquests,
                                  action.model_dump(mode="json"), events],
                                 sort_keys=True).encode())
        s = step.state
        steps += 1
    digest.update(json.dumps(_final(s), sort_keys=True).encode())
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
