"""Map rendering speed and size per board, against the floor of just saving the PNG.

python bench/render.py [N] [--scenarios DIR]   (N timed runs per board, default 30)

For each board, on the busy mid-game scenario docs/scenarios/map-<n>p.json, prints the median
time of render.map_png (observe + draw + palette + PNG encode) and, in the same run, the median
time Pillow takes to save() that same final image as PNG with the same settings (the floor).
Targets: render <= 2x floor, PNG <= 600 KB, width >= 1000 px.

Then the first map of each board in a process (per-board layers not yet in memory), in CPU
ms: "cold" with nothing on disk (static layer drawn), "disk" with the static layer and
palette in the render disk cache (render.geometry.cache_dir, SMALLWORLD_RENDER_CACHE).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _cli import fail, folder, read_json  # noqa: E402
from PIL import Image  # noqa: E402

import engine  # noqa: E402
import render  # noqa: E402
from render import encode, mapview  # noqa: E402
from render.mapview import draw_map  # noqa: E402

SCENARIOS = ROOT / "docs" / "scenarios"


def _state(scenarios: Path, board_id: str) -> engine.GameState:
    """The busy mid-game position of a board: <scenarios>/map-<n>p.json."""
    path = scenarios / f"map-{board_id[-2:]}.json"
    try:
        return engine.load_scenario(read_json(path))
    except (ValueError, KeyError, TypeError) as exc:
        fail(f"{path}: not a valid scenario: {str(exc).splitlines()[0]}")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=30, help="timed runs per board")
    ap.add_argument("--scenarios", type=folder, default=SCENARIOS,
                    help="folder with map-2p.json .. map-5p.json (default docs/scenarios)")
    args = ap.parse_args(argv[1:])
    n = args.n
    states = {board_id: _state(args.scenarios, board_id) for board_id in engine.data.BOARD_IDS}
    print(f"{'board':<12} {'render ms':>10} {'floor ms':>9} {'ratio':>6} {'PNG KB':>7} "
          f"{'size':>10}")
    ok = True
    for board_id, state in states.items():
        png = render.map_png(state)  # warm the per-board caches (static layer, palette)
        image = encode.to_palette(draw_map(state.board, engine.observe(state, None)), board_id)
        times, floors = [], []
        for _ in range(n):  # interleaved, so both see the same machine load
            encode.clear_bands()  # no band or panel strip of an earlier map to reuse:
            mapview.clear_strips()  # the worst case
            t = time.perf_counter()
            png = render.map_png(state)
            times.append(time.perf_counter() - t)
            buf = io.BytesIO()
            t = time.perf_counter()
            image.save(buf, "PNG", compress_level=encode.COMPRESS_LEVEL)
            floors.append(time.perf_counter() - t)
        med, floor = statistics.median(times), statistics.median(floors)
        ratio = med / floor
        ok &= ratio <= 2 and len(png) <= 600 * 1024 and image.width >= 1000
        print(f"{board_id:<12} {med * 1000:>10.1f} {floor * 1000:>9.1f} {ratio:>6.2f} "
              f"{len(png) / 1024:>7.0f} {image.width:>5}x{image.height:<5}")
    print("targets met" if ok else "targets NOT met")
    next_maps()
    first_render(states)
    return 0


def next_maps(turns: int = 24) -> None:
    """A game's map after each turn, drawn one after another as the bot does: the turn's
    conquests highlighted, the panel's strips of players the turn did not change kept
    (render.mapview.strip_on_palette), and the encoding reusing the compressed bands of rows
    the turn did not change (render.encode.banded_png). Median CPU ms of the next map against
    the same map drawn with no band and no strip kept."""
    import random

    print(f"{'board':<12} {'next map ms':>12} {'no reuse ms':>12} {'ratio':>6} "
          f"{'bands reused':>13}")
    for board_id in engine.data.BOARD_IDS:
        n = int(board_id[-2])
        state = engine.new_game(board_id, [f"p{i}" for i in range(n)], 7)
        rng = random.Random(7)
        render.map_png(state)
        nxt, cold, reused = [], [], []
        conquered: list[int] = []
        while len(nxt) < turns and not state.finished:
            action = rng.choice(engine.legal_actions(state))
            result = engine.apply(state, action)
            state = result.state
            conquered += [e["region"] for e in result.events if e.get("type") == "conquered"]
            if action.do != "end":
                continue
            lit, conquered = tuple(conquered), []
            before = encode.bands_kept()
            t = time.process_time()
            png = render.map_png(state, highlight=lit)
            nxt.append(time.process_time() - t)
            with encode.no_bands_kept(), mapview.no_strips_kept():
                t = time.process_time()
                assert render.map_png(state, highlight=lit) == png  # same bytes, reused or not
                cold.append(time.process_time() - t)
            bands = -(-Image.open(io.BytesIO(png)).height // encode.BAND_ROWS)
            reused.append(1 - (encode.bands_kept() - before) / bands)
        a, b = statistics.median(nxt) * 1000, statistics.median(cold) * 1000
        print(f"{board_id:<12} {a:>12.1f} {b:>12.1f} {a / b:>6.2f} "
              f"{statistics.median(reused) * 100:>12.0f}%")


def _clear() -> None:
    from render import geometry, masks, static

    for f in (static.map_layer, static.layout, encode.palette, geometry.geometry,
              masks.board_masks, masks.highlight_masks, mapview.static_on_palette):
        f.cache_clear()
    mapview.clear_strips()


def first_render(states: dict[str, engine.GameState]) -> None:
    print(f"{'board':<12} {'first map, cold ms':>19} {'from disk cache ms':>19}")
    old = os.environ.get("SMALLWORLD_RENDER_CACHE")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SMALLWORLD_RENDER_CACHE"] = tmp
        try:
            for board_id, state in states.items():
                cpu = []
                for _ in range(2):  # the first run fills the disk cache, the second reads it
                    _clear()
                    t = time.process_time()
                    render.map_png(state)
                    cpu.append(time.process_time() - t)
                print(f"{board_id:<12} {cpu[0] * 1000:>19.0f} {cpu[1] * 1000:>19.0f}")
        finally:
            if old is None:
                os.environ.pop("SMALLWORLD_RENDER_CACHE", None)
            else:
                os.environ["SMALLWORLD_RENDER_CACHE"] = old


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
