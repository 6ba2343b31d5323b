"""Map rendering speed and size per board, against the floor of just saving the PNG.

python bench/render.py [N]   (N timed runs per board, default 30)

For each board, on the busy mid-game scenario docs/scenarios/map-<n>p.json, prints the median
time of render.map_png (observe + draw + palette + PNG encode) and, in the same run, the median
time Pillow takes to save() that same final image as PNG with the same settings (the floor).
Targets: render <= 2x floor, PNG <= 600 KB, width >= 1000 px.

Then the first map of each board in a process (per-board layers not yet in memory), in CPU
ms: "cold" with nothing on disk (static layer drawn), "disk" with the static layer and
palette in the render disk cache (render.geometry.cache_dir, SMALLWORLD_RENDER_CACHE).
"""

from __future__ import annotations

import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
import render  # noqa: E402
from render import encode  # noqa: E402
from render.mapview import draw_map  # noqa: E402


def main(argv: list[str]) -> int:
    n = int(argv[1]) if len(argv) > 1 else 30
    print(f"{'board':<12} {'render ms':>10} {'floor ms':>9} {'ratio':>6} {'PNG KB':>7} "
          f"{'size':>10}")
    ok = True
    for board_id in engine.data.BOARD_IDS:
        spec = json.loads((ROOT / "docs" / "scenarios" / f"map-{board_id[-2:]}.json").read_text())
        state = engine.load_scenario(spec)
        png = render.map_png(state)  # warm the per-board caches (static layer, palette)
        image = encode.to_palette(draw_map(state.board, engine.observe(state, None)), board_id)
        times, floors = [], []
        for _ in range(n):  # interleaved, so both see the same machine load
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
    first_render()
    return 0


def _clear() -> None:
    from render import encode as enc
    from render import geometry, mapview, static

    for f in (static.map_layer, static.layout, enc.palette, geometry.geometry,
              mapview.region_mask):
        f.cache_clear()


def first_render() -> None:
    print(f"{'board':<12} {'first map, cold ms':>19} {'from disk cache ms':>19}")
    old = os.environ.get("SMALLWORLD_RENDER_CACHE")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SMALLWORLD_RENDER_CACHE"] = tmp
        try:
            for board_id in engine.data.BOARD_IDS:
                spec = json.loads((ROOT / "docs" / "scenarios" /
                                   f"map-{board_id[-2:]}.json").read_text())
                state = engine.load_scenario(spec)
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
