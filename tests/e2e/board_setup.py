"""Set-ups the board tests share: the bot with its board server on, a member signed in the
way the Activity signs in (a code from the fake Discord exchanged at /api/token), and an open
board over the real WebSocket that records every frame it receives."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
from fakediscord import FakeDiscord
from setups import make_bot

from bot.app import SmallWorldBot

# a coin total in any payload: a "coins" key holding a number (the row's lying coins are
# "coins_on_combo"; an event's "income" or "coins" key would be caught the same way)
COIN_KEY = re.compile(r'"(coins|income)"\s*:\s*\d')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def web_bot(fake: FakeDiscord, db: Path, *, activity: bool = False, port: int | None = None,
            **overrides: Any) -> tuple[SmallWorldBot, str]:
    """The real bot with its board server on a free port (or `port`: a restart keeps its
    address); returns it and the page's address."""
    port = port or free_port()
    base = f"http://127.0.0.1:{port}"
    fake.activities = activity
    bot = make_bot(fake, db, web_port=port, web_public_url=base,
                   discord_client_secret=fake.client_secret, discord_activity=activity,
                   **overrides)
    return bot, base


async def sign_in(fake: FakeDiscord, http: aiohttp.ClientSession, base: str,
                  user: dict[str, Any]) -> str:
    """The Activity's sign-in for `user`: the SDK's authorize gives a code, the page posts it
    to /api/token; returns the session."""
    code = fake.grant_code(user)
    async with http.post(f"{base}/api/token", json={"code": code}) as resp:
        body = await resp.json()
        assert resp.status == 200, body
    assert body["user"]["id"] == user["id"] and body["access_token"]
    return str(body["session"])


class BoardSocket:
    """One open board: the socket, every message received (parsed), and helpers to wait."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, who: str) -> None:
        self.ws = ws
        self.who = who
        self.frames: list[str] = []  # raw text, for the coin scans
        self.received: list[tuple[float, dict[str, Any]]] = []
        self._changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())
        self._ids = 0

    @classmethod
    async def open(cls, http: aiohttp.ClientSession, base: str, session: str, channel: Any,
                   *, who: str = "", origin: str | None = None) -> BoardSocket:
        ws = await http.ws_connect(f"{base.replace('http', 'ws', 1)}/ws",
                                   headers={"Origin": origin or base})
        board = cls(ws, who)
        await ws.send_str(json.dumps({"t": "hello", "session": session,
                                      "channel": str(channel["id"] if isinstance(channel, dict)
                                                     else channel)}))
        return board

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type is aiohttp.WSMsgType.TEXT:
                self.frames.append(msg.data)
                self.received.append((time.perf_counter(), json.loads(msg.data)))
                self._changed.set()

    async def next(self, pred: Callable[[dict[str, Any]], bool], *, after: int = 0,
                   timeout: float = 10.0) -> dict[str, Any]:
        """The first message from index `after` on that `pred` accepts (waiting for it)."""
        end = time.monotonic() + timeout
        while True:
            for _, msg in self.received[after:]:
                if pred(msg):
                    return msg
            left = end - time.monotonic()
            if left <= 0 or (self._reader.done() and not self._changed.is_set()):
                raise AssertionError(f"{self.who}: no such message in {timeout} s; got "
                                     f"{[m.get('t') for _, m in self.received[after:]]}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    def snaps(self) -> list[dict[str, Any]]:
        return [m for _, m in self.received if m.get("t") == "snap"]

    def last_snap(self) -> dict[str, Any]:
        return self.snaps()[-1]

    async def snap_where(self, pred: Callable[[dict[str, Any]], bool], *,
                         timeout: float = 10.0) -> dict[str, Any]:
        return await self.next(lambda m: m.get("t") == "snap" and m.get("d") is not None
                               and pred(m), timeout=timeout)

    async def send(self, message: dict[str, Any]) -> str:
        self._ids += 1
        msg_id = message.setdefault("id", f"{self.who or 'b'}{self._ids}")
        await self.ws.send_str(json.dumps(message))
        return str(msg_id)

    async def ping(self) -> float:
        """A ping's round trip through the server (seconds)."""
        mark = len(self.received)
        sent = time.perf_counter()
        await self.ws.send_str('{"t":"ping"}')
        pong = await self.next(lambda m: m.get("t") == "pong", after=mark)
        return next(at for at, m in self.received[mark:] if m is pong) - sent

    async def act(self, action: dict[str, Any], *, snap: dict[str, Any] | None = None,
                  timeout: float = 10.0, msg_id: str | None = None) -> dict[str, Any]:
        """Send one action against the board as last shown (or `snap`); its answer."""
        shown = snap or self.last_snap()
        mark = len(self.received)
        message = {"t": "act", "g": shown["d"]["game"]["id"], "v": shown["v"], "a": action}
        if msg_id is not None:
            message["id"] = msg_id
        sent = await self.send(message)
        return await self.next(lambda m: m.get("id") == sent and m.get("t") in ("ack", "err"),
                               after=mark, timeout=timeout)

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()

    def coin_leaks(self, own_seat: str | None) -> list[str]:
        return coin_leaks(self.frames, own_seat)


def coin_leaks(frames: list[str], own_seat: str | None) -> list[str]:
    """Frames that carry a coin number for anybody but the viewer's own seat before the game
    is over (her own may come only as `me.coins`, and only for her seat)."""
    leaks = []
    for text in frames:
        try:
            msg = json.loads(text)
        except ValueError:
            continue
        body = msg.get("d") if msg.get("t") == "snap" else None
        if body and body.get("finished"):
            continue  # the reveal: every total is public now
        rest = json.dumps({k: v for k, v in body.items() if k != "me"}) if body else text
        if COIN_KEY.search(rest):
            leaks.append(text[:200])
        me = (body or {}).get("me") or {}
        if "coins" in me and me.get("seat") != own_seat:
            leaks.append(text[:200])
    return leaks
