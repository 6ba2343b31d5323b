"""The board page's first load in Chromium: bytes over the wire and time to a live board.

Used by bench/board.py. A member of a running game signs in the browser's way (the fake
Discord's authorize page remembers her), then the page is loaded with a cold cache and the CPU
slowed by Chrome's DevTools throttle. Counted: every response's encoded (compressed) length
from the Network domain, plus the WebSocket frames' payloads (their uncompressed size: an upper
bound of what crossed). Timed: navigation to `#board[data-state="live"]` with its regions
drawn, against the same browser loading an empty page under the same throttle.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

import aiohttp
from fakediscord import FakeDiscord

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LOADS = 5
TIMELINE = """JSON.stringify(
  performance.getEntriesByType('mark').map(m => [m.name, Math.round(m.startTime)]).concat(
  performance.getEntriesByType('resource').map(r => [r.name.split('/').slice(3).join('/'),
                                                     Math.round(r.startTime),
                                                     Math.round(r.responseEnd)])))"""


async def _one_load(browser: Any, url: str, sign_ins: list[str], throttle: float,
                    live: bool) -> tuple[float, int, int]:
    """(seconds to a live board or a loaded page, response bytes, socket bytes), once the
    `sign_ins` addresses were visited (signed in to the fake Discord, then to the board)."""
    context = await browser.new_context(viewport={"width": 390, "height": 844})
    page = await context.new_page()
    for address in sign_ins:
        await page.goto(address)
    cdp = await context.new_cdp_session(page)
    sizes: dict[str, int] = {}
    frames: list[int] = []
    cdp.on("Network.loadingFinished",
           lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])))
    cdp.on("Network.webSocketFrameReceived",
           lambda e: frames.append(len(e["response"]["payloadData"].encode())))
    await cdp.send("Network.enable")
    await cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    await cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    start = time.perf_counter()
    await page.goto(url, wait_until="commit")
    if live:
        await page.wait_for_selector('#board[data-state="live"] [data-region]', timeout=30000)
    else:
        await page.wait_for_load_state("load")
    took = time.perf_counter() - start
    if live and os.environ.get("PAGE_MARKS"):  # where the time went: marks and requests
        print(await page.evaluate(TIMELINE))
    await page.wait_for_timeout(300)  # late responses (pieces, words) still count
    await context.close()
    return took, sum(sizes.values()), sum(frames[:1])


async def measure(fake: FakeDiscord, http: aiohttp.ClientSession, base: str,
                  args: argparse.Namespace) -> str:
    from playwright.async_api import async_playwright

    channel = next(c for c in fake.channels.values() if c.get("name") == "board-0")
    member = next(u for u in fake.users.values() if u.get("username") == "b0p0")
    sign_ins = [f"{fake.base_url}/fake/login?user={member['id']}",
                f"{base}/auth/login?channel={channel['id']}"]
    url = f"{base}/c/{channel['id']}"
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            boards = [await _one_load(browser, url, sign_ins, args.throttle, True)
                      for _ in range(LOADS)]
            blanks = [await _one_load(browser, f"{base}/healthz", sign_ins, args.throttle, False)
                      for _ in range(LOADS)]
        finally:
            await browser.close()
    took = statistics.median(b[0] for b in boards)
    floor = statistics.median(b[0] for b in blanks)
    wire = statistics.median(b[1] + b[2] for b in boards)
    return (f"the page, first load in Chromium at {args.throttle:g}x CPU throttle "
            f"(median of {LOADS}):\n"
            f"  bytes over the wire (compressed responses + first snapshot): "
            f"{wire / 1024:.0f} KB\n"
            f"  navigation to a live, drawn board (signed in): {took * 1000:.0f} ms; floor, "
            f"an empty page: {floor * 1000:.0f} ms; ratio {took / floor:.1f}x")
