"""The page's own timings (not shipped): python web/dev/perf.py [RUNS]

Needs `npm run dev` (PORT, default 8765). With Chromium's CPU slowed 4x, as the issue's
bench: the first load of the built page on its real boot path (/c/1: session, socket, snap,
board data) to the marks it sets (sw:first-snap, sw:board-drawn), and what applying a snap
that changes one region costs (reduce, panels, the map's redraw) and how many regions it
rewrites."""

from __future__ import annotations

import os
import statistics
import sys
from typing import Any

from playwright.sync_api import sync_playwright

PORT = int(os.environ.get("PORT", "8765"))
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
FIRST_LOAD = """(() => { const n = performance.getEntriesByType('navigation')[0];
  const m = (k) => performance.getEntriesByName(k)[0].startTime;
  return [n.domContentLoadedEventEnd, m('sw:first-snap'), m('sw:board-drawn')]; })()"""
APPLY = """() => { const app = window.app; const out = [];
  for (let i = 0; i < 30; i++) {
    const d = structuredClone(app.state.snap);
    const r = String(i % 2 ? 16 : 14);
    d.regions[r] = { owner: 'bob', race: 'Trolls', tokens: 2 + i, decline: false, pieces: [] };
    d.changed = [Number(r)];
    const t0 = performance.now();
    app.snap(app.state.v + 1, d); app.render();
    out.push([performance.now() - t0, app.board.lastTouched]);
  }
  return out; }"""


def slowed(browser: Any) -> tuple[Any, Any]:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True)
    page = ctx.new_page()
    ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
    return ctx, page


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        loads = []
        for _ in range(runs):
            ctx, page = slowed(browser)
            page.goto(f"http://localhost:{PORT}/c/1")
            page.wait_for_function("performance.getEntriesByName('sw:board-drawn').length > 0")
            loads.append(page.evaluate(FIRST_LOAD))
            ctx.close()
        for name, k in (("DOMContentLoaded", 0), ("first snap", 1), ("board drawn", 2)):
            v = [row[k] for row in loads]
            print(f"4x CPU, first load, {name:16s} median {statistics.median(v):5.0f} ms"
                  f"  (min {min(v):.0f}, max {max(v):.0f}, {runs} runs)")
        ctx, page = slowed(browser)
        page.goto(f"http://localhost:{PORT}/?snap=conquest")
        page.wait_for_selector("body[data-ready='1']")
        rows = page.evaluate(APPLY)
        ms = sorted(r[0] for r in rows)
        print(f"4x CPU, a snap changing one region: median {statistics.median(ms):.1f} ms, "
              f"p90 {ms[int(len(ms) * 0.9)]:.1f} ms; regions rewritten {sorted({r[1] for r in rows})}")
        ctx.close()
        browser.close()


if __name__ == "__main__":
    main()
