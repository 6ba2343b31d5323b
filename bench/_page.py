"""The board page's first load in Chromium: bytes over the wire and time to a live board.

Used by bench/board.py, for both ways in. In a browser: a member of a running game signed in
with the code flow (the fake Discord's authorize page remembers her) opens /c/<channel>.
Inside Discord: the page loads in the host page that plays Discord's side of the SDK
(tests/e2e/browser.py), and its sign-in (authorize, the code exchanged at /api/token,
authenticate) is part of the load. Each load has a cold cache and the CPU slowed by Chrome's
DevTools throttle. Counted: every response's encoded (compressed) length from the Network
domain (the test host page itself left out), plus the first WebSocket frame's payload (its
uncompressed size: an upper bound of what crossed). Timed: navigation to
`#board[data-state="live"]` with its regions drawn, against the same browser loading an
empty page under the same throttle.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from browser import ARGS, CHROMIUM, PHONE, activity
from fakediscord import FakeDiscord

LOADS = 5
TIMELINE = """JSON.stringify(
  performance.getEntriesByType('mark').map(m => [m.name, Math.round(m.startTime)]).concat(
  performance.getEntriesByType('resource').map(r => [r.name.split('/').slice(3).join('/'),
                                                     Math.round(r.startTime),
                                                     Math.round(r.responseEnd)])))"""
Load = Callable[[Any], Awaitable[Any]]  # opens the page in a context; returns the board's root


async def _measured(browser: Any, throttle: float, load: Load, before: Load | None = None
                    ) -> tuple[float, int, int]:
    """(seconds to a live board, response bytes, first socket frame's bytes) of one load."""
    context = await browser.new_context(viewport=PHONE)
    page = await context.new_page()
    if before is not None:
        await before(page)
    cdp = await context.new_cdp_session(page)
    sizes: dict[str, int] = {}
    urls: dict[str, str] = {}
    frames: list[int] = []
    cdp.on("Network.requestWillBeSent",
           lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]))
    cdp.on("Network.loadingFinished",
           lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])))
    cdp.on("Network.webSocketFrameReceived",
           lambda e: frames.append(len(e["response"]["payloadData"].encode())))
    await cdp.send("Network.enable")
    await cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    await cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    start = time.perf_counter()
    root = await load(page)
    await root.locator('#board[data-state="live"] [data-region]').first.wait_for(timeout=30000)
    took = time.perf_counter() - start
    if os.environ.get("PAGE_MARKS"):  # where the time went: marks and requests
        print(await root.locator("body").evaluate(f"() => {TIMELINE}"))
    await page.wait_for_timeout(300)  # late responses (pieces, words) still count
    await context.close()
    wire = sum(n for rid, n in sizes.items() if "__discord__" not in urls.get(rid, ""))
    return took, wire, sum(frames[:1])


async def _blank(browser: Any, base: str, throttle: float) -> float:
    context = await browser.new_context(viewport=PHONE)
    page = await context.new_page()
    cdp = await context.new_cdp_session(page)
    await cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    start = time.perf_counter()
    await page.goto(f"{base}/healthz")
    took = time.perf_counter() - start
    await context.close()
    return took


async def measure(fake: FakeDiscord, http: aiohttp.ClientSession, base: str,
                  args: argparse.Namespace) -> str:
    from playwright.async_api import async_playwright

    channel = next(c for c in fake.channels.values() if c.get("name") == "board-0")
    member = next(u for u in fake.users.values() if u.get("username") == "b0p0")

    async def signed_in(page: Any) -> Any:
        await page.goto(f"{fake.base_url}/fake/login?user={member['id']}")
        await page.goto(f"{base}/auth/login?channel={channel['id']}")
        return page

    async def in_browser(page: Any) -> Any:
        await page.goto(f"{base}/c/{channel['id']}", wait_until="commit")
        return page

    async def in_discord(page: Any) -> Any:
        _, board, _ = await activity(page.context.browser, fake, base, member, page=page,
                                     channel=channel)
        return board

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            ways = {"in a browser": [await _measured(browser, args.throttle, in_browser,
                                                     signed_in) for _ in range(LOADS)],
                    "inside Discord": [await _measured(browser, args.throttle, in_discord)
                                       for _ in range(LOADS)]}
            floor = statistics.median([await _blank(browser, base, args.throttle)
                                       for _ in range(LOADS)])
        finally:
            await browser.close()
    lines = [f"the page's first load in Chromium at {args.throttle:g}x CPU throttle, phone "
             f"viewport (median of {LOADS}); floor, an empty page: {floor * 1000:.0f} ms"]
    for way, loads in ways.items():
        took = statistics.median(b[0] for b in loads)
        wire = statistics.median(b[1] + b[2] for b in loads)
        lines.append(f"  {way:15s} {wire / 1024:4.0f} KB over the wire, live board in "
                     f"{took * 1000:4.0f} ms ({took / floor:.1f}x the floor)")
    return "\n".join(lines)
