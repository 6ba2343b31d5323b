"""The gateway side of the fake: sessions, IDENTIFY/RESUME, dispatch, barriers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .common import (
    API_VERSION,
    FakeDiscordError,
)


@dataclass
class Session:
    """One gateway session (IDENTIFY ... until a clean close or invalidation)."""

    id: str
    intents: int
    identified_at: float
    seq: int = 0
    frames: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    ended: bool = False
    ready: bool = False  # READY + every GUILD_CREATE written
    last_heartbeat_seq: int = -1
    n_connections: int = 1
    close_codes: list[int | None] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    shard: tuple[int, int] | None = None  # [shard id, shard count] from IDENTIFY, if sharded

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    def serves(self, guild_id: Any) -> bool:
        """Whether this session's shard carries the guild's events, as Discord decides:
        shard (guild_id >> 22) % count; direct messages go to shard 0."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return (0 if guild_id is None else (int(guild_id) >> 22) % count) == shard_id


_ANY_GUILD = object()


def guild_of_event(event: str, data: dict[str, Any]) -> Any:
    """The guild a dispatch belongs to (None: not a guild's, e.g. a DM)."""
    if event == "GUILD_CREATE":
        return data.get("id")
    return data.get("guild_id")


class GatewayMixin:
    """Gateway websocket handling for FakeDiscord."""

    def _live_session(self, guild_id: Any = _ANY_GUILD) -> Session | None:
        """The newest connected session, else the newest one that may still RESUME (of those
        whose shard serves `guild_id`, when given: None for a DM)."""
        candidates = [s for s in self.sessions if s.ready and not s.ended
                      and (guild_id is _ANY_GUILD or s.serves(guild_id))]
        connected = [s for s in candidates if s.connected]
        return (connected or candidates or [None])[-1]

    async def gateway_sync(self, timeout: float = 5.0) -> Session:
        """Barrier: ask the live client for a heartbeat and wait for it.

        discord.py answers op 1 after processing every earlier frame, and its heartbeat
        carries the last sequence it saw, so after this returns the client has parsed all
        events sent before the call.
        """
        session = await self.wait_until(self._live_session, timeout, what="a connected client")
        target = session.seq
        if session.ws is None:
            raise FakeDiscordError("client session is not connected")
        await session.ws.send_str(json.dumps({"op": 1, "d": None}))
        await self.wait_until(lambda: session.last_heartbeat_seq >= target or session.ended,
                              timeout, what="a heartbeat from the client")
        return session

    async def disconnect_clients(self, code: int = 4000) -> None:
        """Close every gateway connection from the server side (the client will RESUME)."""
        for session in self.sessions:
            if session.ws is not None and not session.ws.closed:
                await session.ws.close(code=code, message=b"fake discord reconnect")

    async def dispatch(self, event: str, data: dict[str, Any],
                       session: Session | None = None) -> int:
        """Send a DISPATCH event to the live session (or `session`); returns its seq."""
        session = session or self._live_session()
        if session is None:
            raise FakeDiscordError(f"no client connected to receive {event}")
        return await self._send_dispatch(session, event, data)

    async def _send_dispatch(self, session: Session, event: str, data: dict[str, Any]) -> int:
        async with session.lock:  # frames leave in sequence order
            session.seq += 1
            seq = session.seq
            frame = {"op": 0, "t": event, "s": seq, "d": data}
            session.frames.append(frame)
            if session.connected:
                assert session.ws is not None
                # the client may close its end mid-send (a bot killed or stopping): like
                # Discord, keep the frame in the session for a resume, no error
                with contextlib.suppress(ConnectionResetError):
                    await session.ws.send_str(json.dumps(frame))
        return seq

    def _schedule_dispatch(self, event: str, build: Callable[[], dict[str, Any]]) -> None:
        """Tell connected clients about a world change made after they connected."""
        live = [s for s in self.sessions if not s.ended and s.ready]
        if not live:
            return
        loop = asyncio.get_running_loop()
        for session in live:
            data = build()
            if not session.serves(guild_of_event(event, data)):
                continue  # another shard's guild
            task = loop.create_task(self._send_dispatch(session, event, data))
            self._keep(task)

    def _keep(self, task: asyncio.Task[Any]) -> None:
        def done(t: asyncio.Task[Any]) -> None:
            if not t.cancelled() and t.exception() is not None:
                self.errors.append(t.exception())  # type: ignore[arg-type]

        task.add_done_callback(done)

    async def _gateway_handler(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self._ws_tasks.add(ws)
        session: Session | None = None
        try:
            await ws.send_str(json.dumps(
                {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == 1:  # heartbeat
                    if session is not None and isinstance(data, int):
                        session.last_heartbeat_seq = max(session.last_heartbeat_seq, data)
                        self._notify()
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:  # identify
                    if data.get("token") != self.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    session = await self._identify(ws, data)
                elif op == 6:  # resume
                    session = await self._resume(ws, data)
                elif op == 8:  # request guild members
                    await self._members_chunk(session, data)
        except ConnectionResetError:
            pass  # the client went away while we answered it (a killed bot): not our fault
        except Exception as exc:  # pragma: no cover - surfaced through fake.errors
            self.errors.append(exc)
        finally:
            self._ws_tasks.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
                session.close_codes.append(ws.close_code)
            self._notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session:
        for old in self.sessions:  # a fresh IDENTIFY supersedes sessions that went away
            if not old.connected:
                old.ended = True
        shard = data.get("shard")
        session = Session(id=secrets.token_hex(16), intents=int(data.get("intents", 0)),
                          identified_at=time.perf_counter(), ws=ws,
                          shard=(int(shard[0]), int(shard[1])) if shard else None)
        self.sessions.append(session)
        ready = {
            "v": API_VERSION,
            "user": self.bot_user,
            "guilds": [{"id": gid, "unavailable": True} for gid in self.guilds
                       if session.serves(gid)],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": self.application_id, "flags": 0},
            "private_channels": [],
            "relationships": [],
            "session_type": "normal",
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await self._send_dispatch(session, "READY", ready)
        for guild in self.guilds.values():
            if session.serves(guild["id"]):
                await self._send_dispatch(session, "GUILD_CREATE", self._guild_payload(guild))
        session.ready = True
        self._notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        session = next((s for s in self.sessions if s.id == data.get("session_id")), None)
        if (self.resume_policy != "resume" or session is None or session.ended
                or session.connected or data.get("token") != self.token):
            if session is not None:
                session.ended = True
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            self._notify()
            return None
        seq = data.get("seq") or 0
        async with session.lock:  # replay what the client missed, then go live
            for frame in session.frames:
                if frame["s"] > seq:
                    await ws.send_str(json.dumps(frame))
            session.ws = ws
            session.n_connections += 1
        await self._send_dispatch(session, "RESUMED", {})
        self._notify()
        return session

    async def _members_chunk(self, session: Session | None, data: dict[str, Any]) -> None:
        if session is None:
            return
        guild = self.guilds.get(str(data.get("guild_id")))
        if guild is None:
            return
        members = [self._member_payload(guild, m) for m in guild["members"].values()]
        await self._send_dispatch(session, "GUILD_MEMBERS_CHUNK", {
            "guild_id": guild["id"], "members": members, "chunk_index": 0, "chunk_count": 1,
            "nonce": data.get("nonce"), "not_found": [],
        })

