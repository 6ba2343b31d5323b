"""Same positions, same pictures: this checkout's pictures against REV's, byte for byte.

    python bench/maps_same.py --against REV [--games N] [--boards ...] [--languages ...]

Each tree (REV in a git worktree in a temp folder) runs in a child process of its own, with
an empty render disk cache of its own, and plays the same seeded random games, N per board,
in turns (one action of each game, then the next round of actions), so that what a drawing
process keeps between pictures (panel strips, tiles, PNG bands, markers, row pieces,
highlight masks) fills up and is forgotten as it does in a bot with many games. It draws
what the bot posts: after every turn the map with the turn's conquests outlined (in the
next language of --languages), the combo row after a pick, every map a second time two
turns later (then mostly from what was kept), and at each game's end the final reveal, the
end card and the replay. Printed per board: the pictures drawn and one SHA-256 over all
their bytes in order. Equal digests: the same pictures. Exit status 1 when they differ.

Both engines must play the same games (the same rules): a REV whose engine differs gives
other positions, and other digests.

`--tight`: the trees keep very little between pictures (64 KB of each kind of part, 256 KB
of bands, where the tree has such budgets), so that most parts are forgotten and drawn
again, or taken back after many others came and went.

`--zlib`: both trees deflate with zlib. By default a map's bands are deflated by ISA-L where
it is installed (render/encode.py), and ISA-L does not always give the same bytes for the
same rows (the same pixels, another valid stream): measured at b80a648, 3 of 20 runs of the
same tree drew a picture or two with other bytes than the rest; with zlib, 12 of 12 runs
gave one digest. So --zlib compares the drawing byte for byte; without it a rare "NO" can
be ISA-L's, and the first pictures that differ are named.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import tempfile
from typing import Any

from _rev import engine_root, run_worker, worktree

sys.path.insert(0, str(engine_root()))
if "--zlib" in sys.argv:  # before render is imported: it deflates with zlib then, not ISA-L
    sys.modules["isal"] = None  # type: ignore[assignment]

import engine  # noqa: E402
import render  # noqa: E402
import story  # noqa: E402
from render import replay, storycard  # noqa: E402

BOARDS = {"official-2p": 2, "official-3p": 3, "official-4p": 4, "official-5p": 5}
NAMES = ["ann", "bob", "cid", "dee", "eve"]


class Game:
    """One seeded random game and the pictures the bot would post along it."""

    def __init__(self, board: str, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.start = self.state = engine.new_game(board, NAMES[:BOARDS[board]], seed)
        self.actions: list[dict[str, Any]] = []
        self.events: list[list[dict[str, Any]]] = []
        self.turn: list[int] = []  # regions conquered in the turn going on
        self.again: list[tuple[Any, tuple[int, ...], str]] = []  # maps to draw once more

    def step(self, draw: Any, langs: list[str]) -> None:
        """One action; `draw(what, png)` takes each picture the bot would post after it."""
        action = self.rng.choice(engine.legal_actions(self.state))
        step = engine.apply(self.state, action)
        events = [e if isinstance(e, dict) else e.as_dict() for e in step.events]
        self.actions.append(action.model_dump(mode="json"))
        self.events.append(events)
        self.state = step.state
        self.turn += [e["region"] for e in events if e.get("type") == "conquered"]
        at = f"game {self.seed} action {len(self.actions)}"
        if any(e.get("type") == "picked" for e in events):
            draw(f"{at}: row", render.row_png(self.state,
                                              lang=langs[len(self.actions) % len(langs)]))
        if any(e.get("type") in ("turn_ended", "game_over") for e in events):
            highlight = tuple(dict.fromkeys(self.turn))
            lang = langs[len(self.actions) % len(langs)]
            draw(f"{at}: map", render.map_png(self.state, highlight=highlight, lang=lang))
            self.again.append((at, self.state, highlight, lang))
            if len(self.again) > 2:
                was, shown, lit, its = self.again.pop(0)
                draw(f"{was}: map again", render.map_png(shown, highlight=lit, lang=its))
            self.turn = []
        if self.state.finished:
            draw(f"{at}: final", render.final_png(self.state))
            told = story.tell(self.start, self.actions, self.events)
            draw(f"{at}: end card", storycard.end_card_png(told, lang=langs[0]))
            draw(f"{at}: replay", replay.replay_png(told, lang=langs[0]))


def _tight() -> None:
    """Budgets of what is kept between pictures, very small (--tight)."""
    from render import cards, encode, mapview, sprites

    encode.BAND_CACHE_BYTES = 256 * 1024
    for module, name in ((mapview, "_strips"), (mapview, "_tiles"), (cards, "_pieces"),
                         (sprites, "_markers")):
        kept = getattr(module, name, None)
        if hasattr(kept, "budget"):
            kept.budget = 64 * 1024


def worker(board: str, games: int, langs: list[str], tight: bool) -> None:
    if tight:
        _tight()
    digest = hashlib.sha256()
    each: list[tuple[str, str]] = []  # (what, its digest) of every picture, in order

    def draw(what: str, png: bytes) -> None:
        digest.update(png)
        each.append((what, hashlib.sha256(png).hexdigest()[:16]))

    playing = [Game(board, seed) for seed in range(games)]
    while playing:
        for game in playing:
            game.step(draw, langs)
        playing = [g for g in playing if not g.state.finished]
    print(json.dumps({"engine": engine.__file__, "render": render.__file__,
                      "digest": digest.hexdigest(), "pictures": len(each), "each": each}))


def against(rev: str, games: int, boards: list[str], langs: list[str], deflate: str,
            tight: bool) -> int:
    bad = 0
    with worktree(rev) as other, tempfile.TemporaryDirectory() as caches:
        here = engine_root()
        print(f"this: {here}\nREV:  {rev} in {other}\n{games} seeded games per board, "
              f"languages {' '.join(langs)}, deflate by {deflate}"
              f"{', little kept between pictures' if tight else ''}\n")
        print(f"{'board':<12} {'pictures':>8} {'this digest':<18} {'REV digest':<18} same")
        for board in boards:
            args = ["--board", board, "--games", str(games), "--languages", *langs,
                    *(["--zlib"] if deflate == "zlib" else []), *(["--tight"] if tight else [])]
            found = []
            for tree, name in ((here, "this"), (other, "rev")):
                # an empty disk cache each: every layer drawn by that tree's own code
                os.environ["SMALLWORLD_RENDER_CACHE"] = os.path.join(caches, f"{name}-{board}")
                found.append(run_worker("maps_same.py", tree, args))
            a, b = found
            same = a["digest"] == b["digest"] and a["pictures"] == b["pictures"]
            bad += not same
            print(f"{board:<12} {a['pictures']:>8} {a['digest'][:16]:<18} {b['digest'][:16]:<18} "
                  f"{'yes' if same else 'NO'}")
            differ = [x[0] for x, y in zip(a["each"], b["each"], strict=False) if x != y]
            if differ:
                print(f"  {len(differ)} differ, the first: {', '.join(differ[:3])}")
    return 1 if bad else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", metavar="REV", default="b80a648")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--boards", nargs="+", choices=list(BOARDS), default=list(BOARDS))
    ap.add_argument("--languages", nargs="+", default=["en", "hu", "th"])
    ap.add_argument("--zlib", action="store_true",
                    help="deflate with zlib in both trees, not ISA-L (see the docstring)")
    ap.add_argument("--tight", action="store_true",
                    help="keep very little between pictures (see the docstring)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--root", help=argparse.SUPPRESS)
    ap.add_argument("--board", choices=list(BOARDS), help=argparse.SUPPRESS)
    ns = ap.parse_args()
    if ns.worker:
        worker(ns.board, ns.games, ns.languages, ns.tight)
    else:
        sys.exit(against(ns.against, ns.games, ns.boards, ns.languages,
                         "zlib" if ns.zlib else "ISA-L where installed", ns.tight))
