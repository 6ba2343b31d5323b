"""A finished game's replay and end card: CPU and size per board, against the game's maps.

python bench/replay.py [N] [--seed S] [--formats]   (N timed runs per board, default 5)

For each board, a game played to its end by the easy AI (seeded) is told as a story
(story.tell), then, interleaved N times so that both see the same machine load:

- floor: the same frames drawn as the game's successive maps, as the bot draws them after
  each turn (render.observation_png of the turn's public observation with its conquests
  outlined; static layer, tiles, panel strips and PNG bands reused from one map to the next);
- replay: render.replay.replay_png (the same maps with a caption strip, one APNG).

Both start with no tile, strip or band kept (a worker that drew other games since), with the
board's layers and highlight masks loaded (the bot's workers load them at start). Printed:
the frames (maps posted), the CPU ms of telling the story from the log (once per game, shared
with the end card), the median CPU ms of the floor and of the replay, their ratio (target:
replay <= floor) and the ratio with the telling added, the replay's size (target: 5p <= 8 MB)
and the sum of the maps' PNG sizes. Then the end card (render.storycard.end_card_png, without
and with a win-chance series): median CPU ms, size.

--formats also encodes the replay's frames (drawn once) with render.apng (the changes told
by the maps' layers as render.replay does, or found from the pixels) and, with Pillow, as
animated WebP (lossless, its fastest method and its default) and as GIF: encoding CPU ms per
frame and size.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

import ai  # noqa: E402
import engine  # noqa: E402
import render  # noqa: E402
import story  # noqa: E402
from render import apng, encode, mapview, replay, storycard  # noqa: E402
from render.mapview import shown_on_map  # noqa: E402

T = TypeVar("T")


def game_log(board_id: str, seed: int) -> tuple[engine.GameState, list[dict], list[list]]:
    """A game on `board_id` played to its end by the easy AI: its first state, its actions
    and each action's events (what the bot stores)."""
    n = engine.data.board(board_id).players
    start = state = engine.new_game(board_id, [f"player{i + 1}" for i in range(n)], seed)
    actions: list[dict] = []
    events: list[list] = []
    while not state.finished:
        action = ai.choose(state, "easy", len(actions))
        step = engine.apply(state, action)
        actions.append(action.model_dump(mode="json"))
        events.append([dict(e) for e in step.events])  # as the bot stores them
        state = step.state
    return start, actions, events


def maps(tale: story.Story) -> list[bytes]:
    """The game's turn maps as the bot draws them, one after another."""
    return [render.observation_png(tale.board, shown_on_map(f.observation),
                                   highlight=f.highlight) for f in tale.frames]


def cpu(job: Callable[[], T]) -> tuple[float, T]:
    """(CPU seconds, result) of job() drawn as a worker with nothing kept from before."""
    with encode.no_bands_kept(), mapview.no_strips_kept():
        t = time.process_time()
        out = job()
        return time.process_time() - t, out


def chances(tale: story.Story) -> list[dict[str, float]]:
    """A made-up evaluation series (even, then drifting to the winner): the card's input."""
    n, out = len(tale.frames), []
    for k in range(n):
        share = k / max(1, n - 1)
        row = {p: (1 - share) / len(tale.players) for p in tale.players}
        row[tale.winners[0]] += share
        out.append(row)
    return out


def formats(tale: story.Story) -> None:
    """The replay's frames (drawn once) encoded as APNG by render.apng (the changed boxes
    told from the maps' layers, as render.replay does, or found by comparing pixels), as
    animated WebP and as GIF by Pillow: encoding CPU ms per frame and size."""
    drawn = [replay.frame_parts(tale, k) for k in range(len(tale.frames))]
    size = (drawn[0][0].width, drawn[0][0].height + drawn[0][1].height)
    colours = bytes(drawn[0][0].getpalette() or [])[:768].ljust(768, b"\0")
    clear = apng.unused_index(colours)
    told, before = [], set()
    for shown, strip, layers in drawn:
        told.append(replay.changed_boxes(before, set(layers), shown, strip))
        before = set(layers)
    whole = []
    for shown, strip, _ in drawn:
        im = Image.new("P", size)
        im.putpalette(colours)
        im.paste(shown, (0, 0))
        im.paste(strip, (0, shown.height))
        whole.append(im)
    print(f"  {'format (encoding only)':<32} {'ms/frame':>9} {'MB':>6}")

    def ours(tell: bool) -> bytes:
        return apng.animated_png(((d[:2], replay.FRAME_MS, t if tell else None)
                                  for d, t in zip(drawn, told, strict=True)),
                                 size, colours, len(drawn), clear)

    rows: list[tuple[str, Callable[[], bytes]]] = [
        ("APNG, changes from the layers", lambda: ours(True)),
        ("APNG, changes from the pixels", lambda: ours(False))]
    for name, fmt, kw in (("WebP lossless, method 0", "WEBP",
                           {"lossless": True, "method": 0, "quality": 0}),
                          ("WebP lossless, method 4", "WEBP",
                           {"lossless": True, "method": 4, "quality": 50}),
                          ("GIF", "GIF", {})):
        def pillow(fmt: str = fmt, kw: dict = kw) -> bytes:
            buf = io.BytesIO()
            whole[0].save(buf, fmt, save_all=True, append_images=whole[1:],
                          duration=replay.FRAME_MS, loop=0, **kw)
            return buf.getvalue()
        rows.append((name + " (Pillow)", pillow))
    for name, job in rows:
        took, out = cpu(job)
        print(f"  {name:<32} {took * 1000 / len(drawn):>9.1f} {len(out) / 1e6:>6.2f}")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=5, help="timed runs per board")
    ap.add_argument("--seed", type=int, default=11, help="the games' seed")
    ap.add_argument("--formats", action="store_true", help="compare with WebP and GIF")
    args = ap.parse_args(argv[1:])
    if args.n < 1:
        ap.error("N must be at least 1")
    print(f"{'board':<12} {'frames':>6} {'tell ms':>8} {'floor ms':>9} {'replay ms':>10} "
          f"{'ratio':>6} {'+tell':>6} {'replay MB':>10} {'maps MB':>8}")
    ok = True
    tales = {}
    for board_id in engine.data.BOARD_IDS:
        log = game_log(board_id, args.seed)
        t = time.process_time()
        tale = tales[board_id] = story.tell(*log)
        tell = time.process_time() - t
        render.warm([board_id], highlights=True)
        floors, replays = [], []
        png, pngs = b"", []
        for _ in range(args.n):
            took, pngs = cpu(lambda tale=tale: maps(tale))
            floors.append(took)
            took, png = cpu(lambda tale=tale: replay.replay_png(tale))
            replays.append(took)
        floor, rep = statistics.median(floors), statistics.median(replays)
        ok &= rep <= floor and (board_id != "official-5p" or len(png) <= 8 * 1024 * 1024)
        print(f"{board_id:<12} {len(tale.frames):>6} {tell * 1000:>8.1f} {floor * 1000:>9.1f} "
              f"{rep * 1000:>10.1f} {rep / floor:>6.2f} {(rep + tell) / floor:>6.2f} "
              f"{len(png) / 1e6:>10.2f} {sum(map(len, pngs)) / 1e6:>8.2f}")
    print("targets met" if ok else "targets NOT met")
    print(f"{'board':<12} {'end card ms':>12} {'with chances ms':>16} {'KB':>6} {'size':>10}")
    for board_id, tale in tales.items():
        plain, full = [], []
        card = b""
        for _ in range(args.n):
            took, card = cpu(lambda tale=tale: storycard.end_card_png(tale))
            plain.append(took)
            took, card = cpu(lambda tale=tale: storycard.end_card_png(tale, "en", chances(tale)))
            full.append(took)
        im = Image.open(io.BytesIO(card))
        print(f"{board_id:<12} {statistics.median(plain) * 1000:>12.1f} "
              f"{statistics.median(full) * 1000:>16.1f} {len(card) / 1024:>6.0f} "
              f"{im.width:>5}x{im.height:<5}")
    if args.formats:
        for board_id, tale in tales.items():
            print(board_id)
            formats(tale)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
