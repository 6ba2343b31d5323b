"""A wire-level fake Discord: gateway websocket + REST API on 127.0.0.1.

The real discord.py client connects to it (see `FakeDiscord.patch_discord`). The fake
plays the Discord side: it answers login, command sync, message sends, DMs, interaction
callbacks and webhook followups, records everything with timings, and lets a test act as
users (slash commands, autocomplete, button clicks, select menus, modals).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from aiohttp import web

from . import commands as cmds
from .actors import ActorsMixin
from .common import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    API_VERSION,
    DEFAULT_MEMBER_PERMISSIONS,
    FakeDiscordError,
)
from .gateway import GatewayMixin, Session
from .models import (
    AUTOCOMPLETE_RESULT,
    MODAL,
    PONG,
    Attachment,
    Interaction,
    Message,
    SnowflakeFactory,
    iso_now,
    object_id,
)
from .rest import RequestRecord, RestMixin


class FakeDiscord(GatewayMixin, ActorsMixin, RestMixin):
    """A local Discord for the real discord.py client. See the package docstring."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "Small World",
        guild_name: str = "Test Guild",
        channel_name: str = "general",
        interaction_timeout: float | None = 3.0,
        heartbeat_interval_ms: int = 41250,
    ) -> None:
        self.token = token
        self.snowflake = SnowflakeFactory()
        self.application_id = self.snowflake()
        self.owner = self._make_user("owner")
        self.bot_user = {
            **self._make_user(bot_name),
            "id": self.application_id,
            "bot": True,
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
        }
        #: Seconds the bot has to send the initial interaction callback (None: no limit).
        self.interaction_timeout = interaction_timeout
        #: "resume" replays missed events on RESUME; "invalidate" answers INVALID_SESSION(false).
        self.resume_policy = "resume"
        self.heartbeat_interval_ms = heartbeat_interval_ms
        #: The fixture fails a test whose bot called a REST route the fake lacks.
        self.strict = True

        self.users: dict[str, dict[str, Any]] = {self.owner["id"]: self.owner}
        self.user_locales: dict[str, str] = {}  # user id -> client locale (default en-US)
        self.guilds: dict[str, dict[str, Any]] = {}
        self.channels: dict[str, dict[str, Any]] = {}
        self.messages: dict[str, Message] = {}
        self.attachments: dict[str, Attachment] = {}
        self.interactions: dict[str, Interaction] = {}
        self.commands: dict[str | None, dict[str, dict[str, Any]]] = {}
        self.syncs: list[tuple[str | None, list[str], float]] = []
        self.sessions: list[Session] = []
        self.requests: list[RequestRecord] = []
        self.unhandled: list[tuple[str, str]] = []
        self.errors: list[BaseException] = []
        #: ERROR log lines (any logger: discord.py's "Ignoring exception in command", the
        #: bot's own) recorded while patch_discord() is active.
        self.client_errors: list[str] = []
        self.closed_dms: set[str] = set()
        #: Called with each interaction right after its callback is recorded, before the
        #: bot hears back (a test can kill the bot at that very moment).
        self.callback_hooks: list[Callable[[Interaction], None]] = []
        self._dm_channels: dict[str, str] = {}
        self._interactions_by_token: dict[str, Interaction] = {}
        self._changed = asyncio.Event()
        self._inflight = 0  # REST requests being handled
        self._last_activity = 0.0  # perf_counter of the last REST request start or end
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None
        self._ws_tasks: set[web.WebSocketResponse] = set()
        self.port: int | None = None
        self._routes = self._route_table()

        self.guild = self.add_guild(guild_name, channel_name=channel_name)
        self.channel = self.channels[self.guild["channel_ids"][0]]

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway_handler)
        app.router.add_get("/attachments/{aid}/{filename}", self._attachment_handler)
        app.router.add_route("*", "/api/v{version}/{tail:.*}", self._api_handler)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None,
                                     shutdown_timeout=1.0)
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await self._site.start()
        server = self._site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        for ws in list(self._ws_tasks):
            with contextlib.suppress(Exception):
                await ws.close(code=1001, message=b"fake discord stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @contextlib.contextmanager
    def patch_discord(self, *, fast_reidentify: bool = True) -> Iterator[None]:
        """Point discord.py's REST base and gateway URL at this fake (restored on exit).

        With `fast_reidentify`, `Client.before_identify_hook` skips the 5 s sleep that
        discord.py takes before every IDENTIFY after the first (it only paces real logins).
        """
        import discord
        import discord.gateway
        import discord.http
        import yarl

        if self.port is None:
            raise FakeDiscordError("start() the fake before patch_discord()")
        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        old_hook = discord.Client.before_identify_hook
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        if fast_reidentify:
            async def before_identify_hook(client: Any, shard_id: Any, *, initial: bool = False):
                return None

            discord.Client.before_identify_hook = before_identify_hook  # type: ignore[method-assign]
        handler = _ErrorLog(self.client_errors)
        logging.getLogger().addHandler(handler)
        try:
            yield
        finally:
            logging.getLogger().removeHandler(handler)
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway
            discord.Client.before_identify_hook = old_hook  # type: ignore[method-assign]

    @contextlib.asynccontextmanager
    async def running(self, client: Any, *, token: str | None = None, timeout: float = 10.0,
                      drain: bool = True) -> AsyncIterator[Any]:
        """Run a discord.py client against the fake until the block ends.

        Waits until the client has identified and processed READY and every GUILD_CREATE
        (login and `setup_hook`, hence a sync there, are done by then). On a normal exit
        it first waits for the client to finish in-flight work (see `drain`), then closes
        the client and awaits its task; on an exception it closes at once.
        """
        n_before = len(self.sessions)
        task = asyncio.create_task(client.start(token or self.token), name="fake-discord-client")

        def started() -> bool:
            return task.done() or any(s.ready for s in self.sessions[n_before:] if not s.ended)

        try:
            await self.wait_until(started, timeout=timeout, what="the client to connect")
            if task.done():
                task.result()  # re-raise a login failure
                raise FakeDiscordError("the client stopped before connecting")
            await self.gateway_sync(timeout=timeout)
            yield client
            if drain:
                await self.drain(client, timeout=timeout)
        finally:
            await client.close()
            done, _ = await asyncio.wait({task}, timeout=timeout)
            if not done:
                task.cancel()
                await asyncio.wait({task})
                raise FakeDiscordError(f"the client did not stop within {timeout}s")
        if task.exception() is not None:
            raise task.exception()  # type: ignore[misc]

    async def drain(self, client: Any = None, *, timeout: float = 5.0,
                    quiet: float = 0.05) -> None:
        """Wait until the client is idle: every frame sent so far processed, no command,
        view, modal or event handler task of discord.py running, no REST call in flight
        and none for `quiet` seconds. With `client`, also until its on_ready fired.
        """
        if self._live_session() is not None and self._live_session().connected:
            await self.gateway_sync(timeout=timeout)
        if client is not None and hasattr(client, "wait_until_ready"):
            await asyncio.wait_for(client.wait_until_ready(), timeout)

        def idle() -> bool:
            return (self._inflight == 0 and not busy_client_tasks()
                    and time.perf_counter() - self._last_activity >= quiet)

        await self.wait_until(idle, timeout, what=lambda: "the client to finish its work; "
                              f"busy: {[t.get_name() for t in busy_client_tasks()]}, "
                              f"REST in flight: {self._inflight}")

    # ------------------------------------------------------------------ world building

    def _make_user(self, name: str, *, bot: bool = False) -> dict[str, Any]:
        return {
            "id": self.snowflake(),
            "username": name,
            "global_name": name,
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
            "public_flags": 0,
        }

    def add_guild(self, name: str, *, channel_name: str | None = "general") -> dict[str, Any]:
        """A guild with an @everyone role, the bot as member and optionally one text channel."""
        gid = self.snowflake()
        guild = {
            "id": gid,
            "name": name,
            "owner_id": self.owner["id"],
            "roles": {gid: self._role_payload(gid, "@everyone", DEFAULT_MEMBER_PERMISSIONS, 0)},
            "members": {},
            "channel_ids": [],
        }
        self.guilds[gid] = guild
        self._add_member(guild, self.bot_user, permissions=ALL_PERMISSIONS)
        self._add_member(guild, self.owner, permissions=ALL_PERMISSIONS)
        if channel_name:
            self.add_channel(channel_name, guild=guild, notify=False)
        self._schedule_dispatch("GUILD_CREATE", lambda: self._guild_payload(guild))
        return guild

    def add_channel(self, name: str, *, guild: Any = None, notify: bool = True) -> dict[str, Any]:
        """A text channel in `guild` (default: the first guild). Returns its payload."""
        guild = self._guild(guild)
        cid = self.snowflake()
        channel = {
            "id": cid,
            "type": 0,
            "guild_id": guild["id"],
            "name": name,
            "position": len(guild["channel_ids"]),
            "permission_overwrites": [],
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }
        self.channels[cid] = channel
        guild["channel_ids"].append(cid)
        if notify:
            self._schedule_dispatch("CHANNEL_CREATE", lambda: channel)
        return channel

    def add_role(self, name: str, *, permissions: int = 0, guild: Any = None) -> dict[str, Any]:
        guild = self._guild(guild)
        role = self._role_payload(self.snowflake(), name, permissions, len(guild["roles"]))
        guild["roles"][role["id"]] = role
        self._schedule_dispatch("GUILD_ROLE_CREATE", lambda: {"guild_id": guild["id"], "role": role})
        return role

    def add_user(self, name: str, *, guild: Any = None, permissions: int = 0,
                 roles: tuple[Any, ...] | list[Any] = ()) -> dict[str, Any]:
        """A human user who is a member of `guild` (default: the first guild).

        `permissions` are added to @everyone's; pass `MANAGE_GUILD` for a moderator.
        """
        guild = self._guild(guild)
        for role in roles:
            if object_id(role) not in guild["roles"]:
                raise FakeDiscordError(f"role {object_id(role)} is not in guild {guild['name']}")
        user = self._make_user(name)
        self.users[user["id"]] = user
        member = self._add_member(guild, user, permissions=permissions,
                                  roles=[object_id(r) for r in roles])
        self._schedule_dispatch(
            "GUILD_MEMBER_ADD",
            lambda: {**self._member_payload(guild, member), "guild_id": guild["id"]},
        )
        return user

    def join(self, user: Any, guild: Any, *, permissions: int = 0) -> None:
        """Make an existing user a member of another guild."""
        guild = self._guild(guild)
        member = self._add_member(guild, self.users[object_id(user)], permissions=permissions)
        self._schedule_dispatch(
            "GUILD_MEMBER_ADD",
            lambda: {**self._member_payload(guild, member), "guild_id": guild["id"]},
        )

    def close_dms(self, user: Any) -> None:
        """From now on, sending to this user's DMs fails with 403 / code 50007."""
        self.closed_dms.add(object_id(user))

    def open_dms(self, user: Any) -> None:
        self.closed_dms.discard(object_id(user))

    def _role_payload(self, rid: str, name: str, permissions: int, position: int) -> dict[str, Any]:
        return {
            "id": rid, "name": name, "permissions": str(permissions), "position": position,
            "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0,
            "icon": None, "unicode_emoji": None,
        }

    def _add_member(self, guild: dict[str, Any], user: dict[str, Any], *, permissions: int = 0,
                    roles: list[str] | None = None) -> dict[str, Any]:
        member = {"user_id": user["id"], "roles": roles or [], "permissions": permissions,
                  "joined_at": iso_now()}
        guild["members"][user["id"]] = member
        return member

    def _guild(self, guild: Any) -> dict[str, Any]:
        if guild is None:
            return next(iter(self.guilds.values()))
        gid = object_id(guild)
        if gid not in self.guilds:
            raise FakeDiscordError(f"unknown guild {gid}")
        return self.guilds[gid]

    def member_permissions(self, guild: Any, user: Any) -> int:
        guild = self._guild(guild)
        uid = object_id(user)
        member = guild["members"].get(uid)
        if member is None:
            raise FakeDiscordError(f"user {uid} is not a member of guild {guild['name']}")
        if uid == guild["owner_id"]:
            return ALL_PERMISSIONS
        perms = int(guild["roles"][guild["id"]]["permissions"]) | member["permissions"]
        for rid in member["roles"]:
            perms |= int(guild["roles"][rid]["permissions"])
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def _member_payload(self, guild: dict[str, Any], member: dict[str, Any]) -> dict[str, Any]:
        return {
            "user": self.bot_user if member["user_id"] == self.bot_user["id"]
            else self.users[member["user_id"]],
            "roles": list(member["roles"]),
            "joined_at": member["joined_at"],
            "nick": None,
            "avatar": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
        }

    def _guild_payload(self, guild: dict[str, Any]) -> dict[str, Any]:
        members = [self._member_payload(guild, m) for m in guild["members"].values()]
        return {
            "id": guild["id"],
            "name": guild["name"],
            "icon": None,
            "owner_id": guild["owner_id"],
            "roles": list(guild["roles"].values()),
            "channels": [self.channels[c] for c in guild["channel_ids"]],
            "members": members,
            "member_count": len(members),
            "large": False,
            "unavailable": False,
            "features": [],
            "emojis": [],
            "stickers": [],
            "presences": [],
            "voice_states": [],
            "threads": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "joined_at": iso_now(),
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "preferred_locale": "en-US",
            "afk_timeout": 300,
        }

    def _dm_channel(self, user_id: str) -> dict[str, Any]:
        if user_id not in self._dm_channels:
            cid = self.snowflake()
            self.channels[cid] = {
                "id": cid, "type": 1, "last_message_id": None,
                "recipients": [self.users[user_id]],
            }
            self._dm_channels[user_id] = cid
        return self.channels[self._dm_channels[user_id]]

    def dm_channel(self, user: Any) -> dict[str, Any]:
        """The DM channel between the bot and `user` (created on first use)."""
        return self._dm_channel(object_id(user))

    # ------------------------------------------------------------------ queries

    def messages_in(self, channel: Any, *, ephemeral: bool | None = False,
                    include_deleted: bool = False) -> list[Message]:
        """Messages in a channel, oldest first.

        `ephemeral=False` (default): what everyone sees; True: only ephemeral ones;
        None: all. Deferred replies still "thinking" are left out unless ephemeral=None.
        """
        cid = object_id(channel)
        out = []
        for msg in self.messages.values():
            if msg.channel_id != cid or (msg.deleted and not include_deleted):
                continue
            if ephemeral is not None and (msg.ephemeral != ephemeral or msg.loading):
                continue
            out.append(msg)
        return out

    def dms_to(self, user: Any) -> list[Message]:
        """Messages the bot delivered to a user's DMs, oldest first."""
        uid = object_id(user)
        cid = self._dm_channels.get(uid)
        return [] if cid is None else self.messages_in(cid)

    def ephemerals_for(self, user: Any, channel: Any | None = None) -> list[Message]:
        """Ephemeral messages that only `user` could see (replies to their interactions)."""
        uid = object_id(user)
        out = []
        for msg in self.messages.values():
            inter = self.interactions.get(msg.interaction_id or "")
            if not msg.ephemeral or msg.deleted or msg.loading or inter is None:
                continue
            if inter.user["id"] == uid and (channel is None or msg.channel_id == object_id(channel)):
                out.append(msg)
        return out

    def unanswered(self) -> list[Interaction]:
        """Interactions Discord would show as failed: never acknowledged within the window
        (or at all, when the window is disabled), or acknowledged too late."""
        now = time.perf_counter()
        window = self.interaction_timeout
        return [
            i for i in self.interactions.values()
            if i.expired or (not i.acknowledged
                             and (window is None or now - i.sent_at > window))
        ]

    def last_message(self, channel: Any) -> Message:
        msgs = self.messages_in(channel)
        if not msgs:
            raise FakeDiscordError(f"no public message in channel {object_id(channel)}")
        return msgs[-1]

    def command(self, name: str, *, guild: Any = None) -> dict[str, Any]:
        """The synced definition of a top-level command (guild commands shadow global)."""
        scopes = ([object_id(guild)] if guild is not None else []) + [None]
        for scope in scopes:
            if name in self.commands.get(scope, {}):
                return self.commands[scope][name]
        known = sorted({n for scope in self.commands.values() for n in scope})
        raise cmds.CommandError(f"/{name} is not registered; synced commands: {known}")

    # ------------------------------------------------------------------ waiting

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5.0, *,
                         what: str | Callable[[], str] | None = None) -> Any:
        """Wait until `predicate()` is truthy (re-checked on every change); return its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                label = what() if callable(what) else what
                raise TimeoutError(f"timed out after {timeout}s waiting for {label or predicate}"
                                   + self._diagnostics())
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, 0.02))

    def _diagnostics(self) -> str:
        notes = []
        if self.errors:
            notes.append(f"fake errors: {self.errors[-3:]!r}")
        if self.unhandled:
            notes.append(f"unhandled requests: {self.unhandled[-5:]}")
        if self.requests:
            last = [f"{r.method} {r.path} -> {r.status}" for r in self.requests[-4:]]
            notes.append(f"last REST calls: {last}")
        if self._inflight:
            notes.append(f"REST calls in flight: {self._inflight}")
        pending = [i.name for i in self.interactions.values() if not i.acknowledged]
        if pending:
            notes.append(f"unacknowledged interactions: {pending[-4:]}")
        if self.client_errors:
            notes.append("logged errors:\n" + "\n".join(self.client_errors[-2:]))
        return ("; " + "; ".join(notes)) if notes else ""

    async def wait_for_message(self, channel: Any, predicate: Callable[[Message], bool] | None = None,
                               *, timeout: float = 5.0, after: Any = None,
                               ephemeral: bool | None = False) -> Message:
        """The first message in `channel` matching `predicate`, created after `after`
        (a `time.perf_counter()` value, a Message, or an Interaction's dispatch)."""
        since = _since(after)

        def find() -> Message | None:
            for msg in self.messages_in(channel, ephemeral=ephemeral):
                if since is not None and msg.created_at <= since:
                    continue
                if predicate is None or predicate(msg):
                    return msg
            return None

        return await self.wait_until(find, timeout, what=f"a message in {object_id(channel)}")

    async def wait_for_dm(self, user: Any, predicate: Callable[[Message], bool] | None = None,
                          *, timeout: float = 5.0, after: Any = None) -> Message:
        since = _since(after)

        def find() -> Message | None:
            for msg in self.dms_to(user):
                if (since is None or msg.created_at > since) and (predicate is None or predicate(msg)):
                    return msg
            return None

        return await self.wait_until(find, timeout, what=f"a DM to {object_id(user)}")

    async def wait_for_reply(self, interaction: Interaction, *, timeout: float = 5.0) -> Message:
        """The message that answers `interaction`.

        Initial reply (type 4), the updated message (type 7), or after a defer (5/6) the
        first followup or edit of the original. Raises if the bot answered with
        autocomplete choices or a modal, or not at all within `timeout`.
        """
        def done() -> Message | None:
            if interaction.callback_type in (AUTOCOMPLETE_RESULT, MODAL, PONG):
                raise FakeDiscordError(
                    f"{interaction!r} was answered with callback type {interaction.callback_type}, "
                    "not a message")
            return interaction.reply

        return await self.wait_until(done, timeout, what=f"a reply to {interaction.name!r}")

    async def wait_for_ack(self, interaction: Interaction, *, timeout: float = 5.0) -> int:
        """Wait for the initial callback; return its type."""
        await self.wait_until(lambda: interaction.acknowledged, timeout,
                              what=f"an ack of {interaction.name}")
        assert interaction.callback_type is not None
        return interaction.callback_type

    async def wait_for_modal(self, interaction: Interaction, *, timeout: float = 5.0) -> dict[str, Any]:
        await self.wait_until(lambda: interaction.acknowledged, timeout,
                              what=f"a modal for {interaction.name}")
        if interaction.modal is None:
            raise FakeDiscordError(f"{interaction!r} was not answered with a modal")
        return interaction.modal

    async def wait_for_client(self, timeout: float = 5.0) -> Session:
        """Wait until a client session is ready and has processed everything sent so far."""
        await self.wait_until(self._live_session, timeout, what="a connected client")
        return await self.gateway_sync(timeout=timeout)

    async def wait_for_sync(self, n: int = 1, timeout: float = 5.0) -> None:
        """Wait until the bot has synced (PUT) its commands at least `n` times."""
        await self.wait_until(lambda: len(self.syncs) >= n, timeout, what="a command sync")


_HANDLER_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
    "discord.py: ",
)


def busy_client_tasks() -> list[asyncio.Task[Any]]:
    """discord.py's running handler tasks (commands, views, dynamic items, modals, events)."""
    return [t for t in asyncio.all_tasks()
            if not t.done() and t.get_name().startswith(_HANDLER_TASK_PREFIXES)]


class _ErrorLog(logging.Handler):
    """Collects discord.py's ERROR records so a timeout can say why the bot went quiet."""

    def __init__(self, sink: list[str]) -> None:
        super().__init__(logging.ERROR)
        self.sink = sink
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(self.format(record))


def _since(after: Any) -> float | None:
    if isinstance(after, Message):
        return after.created_at
    if isinstance(after, Interaction):
        return after.sent_at
    return after


