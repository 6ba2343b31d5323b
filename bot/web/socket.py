"""A board's WebSocket (docs/web.md): hello with the session, then actions, hints and pings;
the hub pushes a snapshot after every new game version.

Checked on the way in: the socket's Origin (the public address, or the Activity's
`<client id>.discordsays.com`), the session in the first message (never in the URL), that the
member can see the channel, every message's shape (bot.web.messages) and size, and a rate per
member. Anything refused is answered with a JSON error and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

import pydantic
from aiohttp import WSCloseCode, WSMsgType, web

from bot.language import Languages
from bot.store import Store
from bot.web import snapshot
from bot.web.access import Access
from bot.web.actions import Actions
from bot.web.hub import Board, Hub
from bot.web.limits import Buckets
from bot.web.messages import INCOMING, MAX_FRAME, Act, Hello, Hint, Ping, Undo
from bot.web.metrics import Metrics
from bot.web.tokens import BadToken, Session, Signer

log = logging.getLogger(__name__)

HELLO_WITHIN_S = 10.0


class WsSink:
    """A socket's sends, one at a time."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self._lock = asyncio.Lock()

    async def send_json_text(self, text: str) -> None:
        async with self._lock:
            if self.ws.closed:
                raise ConnectionError("socket closed")
            await self.ws.send_str(text)


@dataclass
class Sockets:
    signer: Signer
    access: Access
    hub: Hub
    actions: Actions
    languages: Languages
    store: Store
    metrics: Metrics
    origins: Collection[str]
    per_member: Buckets
    clock: Callable[[], float] = time.time
    live: set[web.WebSocketResponse] = field(default_factory=set)

    async def close_all(self) -> None:
        """Shutdown: every open socket is told the server is going away (its page
        reconnects to the next start and catches up)."""
        for ws in list(self.live):
            with contextlib.suppress(Exception):
                await ws.close(code=WSCloseCode.GOING_AWAY, message=b"restarting")

    async def handle(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and origin not in self.origins:
            return web.json_response({"error": {"code": "bad_origin",
                                                "text": "This board is not served here."}},
                                     status=403)
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME, compress=True, heartbeat=None)
        await ws.prepare(request)
        self.live.add(ws)
        sink = WsSink(ws)
        board: Board | None = None
        tasks: set[asyncio.Task[None]] = set()
        try:
            board = await self._hello(ws, sink)
            if board is None:
                return ws
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    await self._send(sink, {"t": "err", "id": "", "code": "bad_message",
                                            "text": "Send JSON text messages."})
                    continue
                if board.viewer.expires < self.clock():
                    await self._bye(sink, "session_expired", "Your sign-in ended; sign in "
                                                             "again.")
                    break
                task = asyncio.create_task(self._message(board, sink, msg.data))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
        finally:
            self.live.discard(ws)
            if board is not None:
                self.hub.close(board)
            if tasks:
                await asyncio.wait(tasks, timeout=30)
            if not ws.closed:
                await ws.close()
        return ws

    async def _send(self, sink: WsSink, message: dict[str, Any]) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await sink.send_json_text(snapshot.dumps(message))

    async def _bye(self, sink: WsSink, code: str, text: str) -> None:
        await self._send(sink, {"t": "bye", "code": code, "text": text})
        await sink.ws.close()

    async def _hello(self, ws: web.WebSocketResponse, sink: WsSink) -> Board | None:
        """The first message must be a hello with a valid session, for a channel she sees."""
        try:
            msg = await ws.receive(timeout=HELLO_WITHIN_S)
        except TimeoutError:
            await self._bye(sink, "no_hello", "Say hello first.")
            return None
        if msg.type is not WSMsgType.TEXT:
            if not ws.closed:
                await self._bye(sink, "no_hello", "Say hello first.")
            return None
        try:
            hello = INCOMING.validate_json(msg.data)
        except pydantic.ValidationError:
            hello = None
        if not isinstance(hello, Hello):
            await self._bye(sink, "no_hello", "Say hello first, with your session.")
            return None
        try:
            viewer = self.signer.read_session(hello.session)
        except BadToken:
            await self._bye(sink, "session_expired", "Your sign-in ended; sign in again.")
            return None
        channel_id = int(hello.channel)
        if not await self.access.can_view(viewer.user_id, channel_id):
            await self._bye(sink, "not_allowed", "Only members who can see that channel can "
                                                 "open its board.")
            return None
        board = Board(viewer, channel_id, await self._language(viewer, channel_id), sink)
        first = await self.hub.hello(board)
        if first is None:
            await self._bye(sink, "no_game", "No game has been played in this channel yet: "
                                             "open the board from a game's channel.")
            return None
        text_, shown = first
        await sink.send_json_text(text_)
        self.hub.join(board, shown)
        return board

    async def _language(self, viewer: Session, channel_id: int) -> str:
        game = await self.store.last_game(channel_id)
        guild = game.guild_id if game is not None else None
        return await self.languages.for_user(viewer.user_id, viewer.locale or None, guild)

    async def _message(self, board: Board, sink: WsSink, data: str) -> None:
        try:
            msg = INCOMING.validate_json(data)
        except pydantic.ValidationError as exc:
            await self._send(sink, {"t": "err", "id": _id_of(data), "code": "bad_message",
                                    "text": f"Not a message this board understands "
                                            f"({exc.errors()[0].get('msg', 'invalid')})."})
            return
        if isinstance(msg, Ping):
            await self._send(sink, {"t": "pong"})
            return
        if isinstance(msg, Hello):
            await self._send(sink, {"t": "err", "id": "", "code": "bad_message",
                                    "text": "Already signed in on this socket."})
            return
        if not self.per_member.take(board.viewer.user_id):
            self.metrics.limited += 1
            await self._send(sink, {"t": "err", "id": msg.id, "code": "rate_limited",
                                    "text": "Slow down a little."})
            return
        if not await self.access.can_view(board.viewer.user_id, board.channel_id):
            # she lost sight of the channel since she opened its board (checked again at most
            # once a minute): no more actions, and the board closes
            await self._bye(sink, "not_allowed", "Only members who can see that channel can "
                                                 "open its board.")
            return
        if isinstance(msg, Act):
            answer = await self.actions.act(board, msg.id, msg.g, msg.v, msg.a)
        elif isinstance(msg, Undo):
            answer = await self.actions.undo(board, msg.id, msg.g, msg.v)
        else:
            assert isinstance(msg, Hint)
            answer = await self.actions.hint(board, msg.id)
        await self._send(sink, answer)


def _id_of(data: str) -> str:
    """A refused message's id, when it had a usable one."""
    try:
        found = json.loads(data).get("id")
    except (ValueError, AttributeError):
        return ""
    return found if isinstance(found, str) and len(found) <= 64 else ""
