"""The board page in a real browser: Debian's Chromium driven by Playwright, and a host page
that plays Discord's side of the Embedded App SDK for the page in its iframe.

The host page is served on the board's own origin (a Playwright route: the bot never serves
it), which the SDK accepts as a parent. It answers the SDK's handshake with READY, its
AUTHORIZE with a code the fake Discord grants the member (asked through a function the test
exposes), AUTHENTICATE with the member and the access token the page got, SUBSCRIBE with the
event, and anything else with an empty answer; it records every command the page sent.

Without Chromium these tests are skipped with one line saying so; CI sets REQUIRE_BROWSER=1,
which fails them instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import AsyncIterator
from typing import Any

import pytest

REQUIRE_BROWSER = os.environ.get("REQUIRE_BROWSER", "") not in ("", "0")
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
# what Chromium itself logs as errors that are no fault of the page: a resource answered
# with an error status (recorded apart, with its address) and a socket refused while the bot
# is down (the page reconnects: a restart test wants exactly that)
BROWSER_NOTES = ("Failed to load resource", "WebSocket connection to")
DESKTOP = {"width": 1280, "height": 800}

HOST = """<!doctype html>
<html><head><meta charset="utf-8"><title>Discord (test host)</title></head>
<body style="margin:0;background:#313338">
<iframe id="activity" src="/?frame_id=f1&instance_id=i-CHANNEL&platform=PLATFORM&channel_id=CHANNEL&guild_id=GUILD"
        style="border:0;width:100vw;height:100vh" allow="autoplay"></iframe>
<script>
const USER = USER_JSON;
const APP = "APP_ID";
const frame = document.getElementById("activity");
window.sdkCommands = [];
// Discord's own authorize is a round trip of its client; the test's is a call into the test
// process, slower on a busy machine: the first code is asked for at once, beside the load
let nextCode = window.grantCode();
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  const reply = (message) => frame.contentWindow.postMessage([1, message], "*");
  if (opcode === 0) {
    window.sdkHandshake = payload;
    reply({cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1,
      config: {cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api",
               environment: "production"},
      user: {id: USER.id, username: USER.username, discriminator: "0"}}});
    return;
  }
  if (opcode !== 1) return;
  const {cmd, nonce, args} = payload;
  window.sdkCommands.push(cmd);
  let data = null;
  if (cmd === "AUTHORIZE") {
    data = {code: await nextCode};
    nextCode = window.grantCode();
  } else if (cmd === "AUTHENTICATE") {
    data = {access_token: args.access_token,
            user: {id: USER.id, username: USER.username, discriminator: "0",
                   public_flags: 0, global_name: USER.username, avatar: null},
            scopes: ["identify"], expires: new Date(Date.now() + 6048e5).toISOString(),
            application: {id: APP, name: "Small World", description: "", icon: null}};
  } else if (cmd === "SUBSCRIBE" || cmd === "UNSUBSCRIBE") {
    data = {evt: payload.evt};
  }
  reply({cmd, evt: null, nonce, data});
});
</script></body></html>"""


def need_browser() -> None:
    """Skip (or, under REQUIRE_BROWSER, fail) when Chromium or Playwright is missing."""
    missing = None
    if not os.path.exists(CHROMIUM):
        missing = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    else:
        try:
            import playwright  # noqa: F401
        except ImportError:
            missing = "Playwright is not installed (pip install -e '.[dev]')"
    if missing:
        if REQUIRE_BROWSER:
            pytest.fail(missing)
        pytest.skip(missing)


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """A headless Chromium for one test."""
    need_browser()
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            await browser.close()


class Frames:
    """Every WebSocket frame a page (and its frames) received and sent, as text (for the coin
    scans), and every script error it raised or logged."""

    def __init__(self, page: Any) -> None:
        self.received: list[str] = []
        self.sent: list[str] = []
        self.errors: list[str] = []
        page.on("websocket", self._socket)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("console", lambda m: self.errors.append(f"console: {m.text}")
                if m.type == "error" and not m.text.startswith(BROWSER_NOTES) else None)
        page.on("response", lambda r: self.errors.append(f"HTTP {r.status}: {r.url}")
                if r.status >= 400 else None)

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.received.append(_text(payload)))
        ws.on("framesent", lambda payload: self.sent.append(_text(payload)))


def _text(payload: Any) -> str:
    return payload if isinstance(payload, str) else bytes(payload).decode(errors="replace")


async def activity(browser: Any, fake: Any, base: str, user: dict[str, Any], *,
                   viewport: dict[str, int] = DESKTOP, platform: str = "desktop",
                   locale: str = "en-US", page: Any = None,
                   channel: dict[str, Any] | None = None) -> tuple[Any, Any, Frames]:
    """The board as an Activity inside the test host, launched in `channel` (default: the
    fake's first): (page, the board's frame, frames). `page`: load it in this page."""
    if page is None:
        context = await browser.new_context(viewport=viewport, locale=locale,
                                            has_touch=platform == "mobile")
        page = await context.new_page()
    frames = Frames(page)
    await page.expose_function("grantCode", lambda: fake.grant_code(user))
    channel_id = (channel or fake.channel)["id"]
    guild = (channel or fake.channel).get("guild_id") or fake.guild["id"]
    html = (HOST.replace("USER_JSON", json.dumps({"id": user["id"],
                                                  "username": user["username"]}))
            .replace("APP_ID", fake.application_id).replace("CHANNEL", channel_id)
            .replace("GUILD", guild).replace("PLATFORM", platform))

    async def host(route: Any) -> None:
        await route.fulfill(status=200, content_type="text/html", body=html)

    await page.route(f"{base}/__discord__", host)
    await page.goto(f"{base}/__discord__")
    return page, page.frame_locator("#activity"), frames


async def in_browser(browser: Any, fake: Any, base: str, user: dict[str, Any] | None, *,
                     viewport: dict[str, int] = DESKTOP, locale: str = "en-US",
                     channel: dict[str, Any] | None = None) -> tuple[Any, Frames]:
    """The board in a plain browser tab, signed in with Discord's code flow as `user` (None:
    signed out); returns the page on /c/<channel> and its frames."""
    context = await browser.new_context(viewport=viewport, locale=locale)
    page = await context.new_page()
    frames = Frames(page)
    channel_id = (channel or fake.channel)["id"]
    if user is None:
        await page.goto(f"{base}/c/{channel_id}")
        return page, frames
    await page.goto(f"{fake.base_url}/fake/login?user={user['id']}")
    await page.goto(f"{base}/auth/login?channel={channel_id}")
    return page, frames


async def version_of(board: Any) -> int:
    """The version the board shows (its data-version)."""
    return int(await board.locator("#board").get_attribute("data-version") or -1)


async def shows_at_least(page: Any, version: int, timeout_s: float) -> None:
    """Wait until the page's board shows `version` or a newer one: the hub folds versions
    that follow each other quickly (an AI's turn right after hers) into one snapshot."""
    await page.wait_for_function(
        "v => Number(document.querySelector('#board')?.dataset.version ?? -1) >= v",
        arg=version, timeout=timeout_s * 1000)
