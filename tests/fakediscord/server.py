"""A wire-level fake Discord: gateway websocket + REST API on 127.0.0.1.

The real discord.py client connects to it (see `FakeDiscord.patch_discord`). The fake
plays the Discord side: it answers login, command sync, message sends, DMs, interaction
callbacks and webhook followups, records everything with timings, and lets a test act as
users (slash commands, autocomplete, button clicks, select menus, modals).

This module holds the class itself (state, start/stop, pointing discord.py at the fake,
running and draining a client); its halves are mixins: gateway.py (websocket sessions),
rest.py (REST routes), callbacks.py (interaction callbacks and webhooks), actors.py
(acting as users), world.py (guilds, channels, users) and waiting.py (records and waits).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from aiohttp import web

from .actors import ActorsMixin
from .callbacks import CallbacksMixin
from .common import API_VERSION, FakeDiscordError
from .gateway import GatewayMixin, Session
from .models import Attachment, Interaction, Message, SnowflakeFactory
from .oauth import OAuthMixin
from .rest import RequestRecord, RestMixin
from .waiting import WaitingMixin
from .world import WorldMixin


class FakeDiscord(GatewayMixin, ActorsMixin, RestMixin, CallbacksMixin, WorldMixin,
                  WaitingMixin, OAuthMixin):
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
        self._init_oauth()

        self.guild = self.add_guild(guild_name, channel_name=channel_name)
        self.channel = self.channels[self.guild["channel_ids"][0]]

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway_handler)
        app.router.add_get("/oauth2/authorize", self._authorize)
        app.router.add_get("/fake/login", self._fake_login)
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
