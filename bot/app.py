"""The discord.py application: a commands.Bot whose setup_hook opens the store, builds the game
service, loads the extensions and syncs the slash commands.

SIGTERM (or SIGINT) shuts down in order: new interactions get a "restarting" answer and
change nothing; the interactions in hand finish (their action is committed and announced);
the Discord connection closes; the store closes; the picture workers stop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

import i18n
from bot import answering, heap, pictures, workers
from bot.archive import reviews
from bot.archive.results import Results
from bot.archive.reviews import Reviews
from bot.archive.stories import Stories
from bot.chat.announce import Announcer
from bot.chat.dms import Dms
from bot.chat.flow import Flow
from bot.chat.league_posts import LeaguePosts
from bot.chat.views import BoardLink
from bot.chat.votes import VOTE_ITEMS, VoteFlow
from bot.clock import Dispatch, Scheduler
from bot.game import ai_worker
from bot.game.autoplay import AutoPlayer
from bot.game.results import Outcome
from bot.game.service import GameService
from bot.language import Languages, of_game
from bot.league import LeagueService
from bot.league.clock import LeagueClock
from bot.settings import Settings
from bot.store import GameRow, Store, open_store
from bot.translator import CatalogTranslator
from bot.ui import is_moderator, report_error
from bot.web.server import WebServer

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = ("bot.cogs.game", "bot.cogs.mod", "bot.cogs.language",
                              "bot.cogs.admin", "bot.cogs.league", "bot.cogs.league_mod")
# discord.py runs each slash command and each component click in a task named like this
HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch-", "discord-ui-dynamic-item-",
                 "discord-ui-modal-dispatch-")
SHUTDOWN_GRACE = 20.0  # seconds the interactions in hand get to finish at shutdown
RESTARTING = "svc.restarting"  # catalog keys, worded in the user's Discord language
UNKNOWN_COMPONENT = "svc.unknown_component"
# the Activity's Entry Point command (App Launcher): Discord launches the board itself
ENTRY_POINT_COMMAND: dict[str, Any] = {
    "name": "launch", "type": 4, "handler": 2, "description": "Open the Small World board",
    "integration_types": [0], "contexts": [0]}


def point_at(api_base: str | None, gateway: str | None) -> None:
    """Send HTTP and the gateway to another server (tests: the fake Discord)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def quiet_voice_warnings() -> None:
    """A text bot never joins voice: skip discord.py's start-up warnings that PyNaCl and davey
    (voice libraries) are missing. Only these two; every other warning still shows."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def _components(rows: Any) -> list[dict[str, Any]]:
    """Every component of a message payload, nested rows and containers included."""
    out: list[dict[str, Any]] = []
    for c in rows or ():
        if isinstance(c, dict):
            out.append(c)
            out.extend(_components(c.get("components")))
    return out


class SmallWorldBot(commands.Bot):
    """Small World bot: the store, the game and league services, the Announcer and the
    clock live here (built in setup_hook); commands live in cogs."""

    store: Store
    service: GameService
    leagues: LeagueService
    languages: Languages
    dms: Dms
    stories: Stories
    results: Results
    announcer: Announcer
    components: Flow
    votes: VoteFlow
    deadline_kinds: Dispatch
    autoplayer: AutoPlayer
    league_posts: LeaguePosts
    league_clock: LeagueClock
    scheduler: Scheduler
    web: WebServer | None = None  # the board page (WEB_PORT), else None

    def __init__(self, settings: Settings, **options: Any) -> None:
        quiet_voice_warnings()
        # only what the bot reads: servers and their channels, and messages for the owner's
        # "@bot sync" (content arrives for mentions without the message_content intent).
        # No typing, reactions, voice, invites or the like: on a busy server those are most
        # of the gateway's traffic, each parsed and thrown away.
        intents = discord.Intents.none()
        intents.guilds = intents.guild_messages = intents.dm_messages = True
        options.setdefault("activity", discord.Game(name="Small World · /sw new"))
        options.setdefault("max_messages", None)  # nothing reads discord.py's message cache
        super().__init__(
            command_prefix=commands.when_mentioned,  # owner tools: @bot sync
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **options,
        )
        self.settings = settings
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        # every command and click is acknowledged inside Discord's window (bot.answering)
        self.add_listener(answering.watch, "on_interaction")
        self.stopping = False
        self._store_closed = False
        self._refusals: set[asyncio.Task[None]] = set()
        parsers = self._connection.parsers
        self._parse_interaction = parsers["INTERACTION_CREATE"]
        parsers["INTERACTION_CREATE"] = self._on_interaction_frame

    def _on_interaction_frame(self, data: Any) -> None:
        """Every interaction passes here first: while shutting down, it is answered with a
        sentence and goes no further."""
        if not self.stopping:
            self._parse_interaction(data)
            if data.get("type") == discord.InteractionType.component.value and not self._handled(
                    data):
                task = asyncio.ensure_future(self._answer(data, UNKNOWN_COMPONENT))
                self._refusals.add(task)
                task.add_done_callback(self._refusals.discard)
            return
        task = asyncio.ensure_future(self._answer(data, RESTARTING))
        self._refusals.add(task)
        task.add_done_callback(self._refusals.discard)

    def _handled(self, data: Any) -> bool:
        """Whether a component interaction reached a handler (a dynamic item's pattern or a
        live view); discord.py silently drops the others, and Discord then shows the user
        "This interaction failed"."""
        custom_id = str((data.get("data") or {}).get("custom_id", ""))
        kind = (data.get("data") or {}).get("component_type")
        store = self._connection._view_store
        if any(p.fullmatch(custom_id) for p in getattr(store, "_dynamic_items", {})):
            # discord.py calls a dynamic item only if the message carries that component
            return any(c.get("custom_id") == custom_id and c.get("type") == kind
                       for c in _components((data.get("message") or {}).get("components")))
        views = getattr(store, "_views", {})
        return any(custom_id == key[1] for items in views.values() for key in items)

    async def _answer(self, data: Any, key: str) -> None:
        """Refuse an interaction nothing will handle, in the user's Discord language (no
        settings lookup: the store may be closing)."""
        interaction = discord.Interaction(data=data, state=self._connection)
        sentence = i18n.t(key, i18n.normalize(str(data.get("locale") or "")))
        try:
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            elif interaction.type is not discord.InteractionType.ping:
                await interaction.response.send_message(sentence, ephemeral=True)
        except discord.HTTPException:
            log.debug("could not answer interaction %s", interaction.id)

    def handlers_in_hand(self) -> list[asyncio.Task[Any]]:
        return [t for t in asyncio.all_tasks()
                if not t.done() and t.get_name().startswith(HANDLER_TASKS)]

    async def shutdown(self, reason: str = "stop", grace: float = SHUTDOWN_GRACE) -> None:
        """Stop in order: no new interactions, the ones in hand finish, then close()."""
        if self.stopping:
            return
        self.stopping = True
        in_hand = self.handlers_in_hand()
        log.info("shutting down (%s): taking no new interactions, %d in hand", reason,
                 len(in_hand))
        if in_hand:
            _, late = await asyncio.wait(in_hand, timeout=grace)
            if late:
                log.warning("shutting down: %d interaction(s) did not finish in %.0f s",
                            len(late), grace)
        if self._refusals:
            await asyncio.wait(set(self._refusals), timeout=5)
        log.info("shutting down: interactions in hand finished")
        await self.close()

    async def setup_hook(self) -> None:
        self.store = await open_store(self.settings.database_url)
        log.info("store open at %s", self.store.path)
        self.service = GameService(self.store, clock=self.settings.clock_rules())
        self.languages = Languages(self.store)
        self.service.dm_language = self._dm_language  # coin DMs in each reader's language
        self.leagues = LeagueService(self.store, self.service)
        self.dms = Dms(self, self.service, self.languages)
        self.stories = Stories(self.store)
        self.results = Results(self.store, self.stories)
        self.service.finish_listeners.append(self.results.record)  # members' stats
        self.announcer = Announcer(self, self.service, self.dms, self.stories)
        self.service.hooks.outcome_listeners.append(self.announcer.map_early)
        self.reviews = Reviews(self.store, self.stories, work=self.settings.review_work,
                               level=self.settings.review_level)  # key moments, after the end
        self.reviews.shown = self.announcer.show_review
        self.announcer.reviews = self.reviews
        self.service.finish_listeners.append(self.reviews.finished)
        self.components = Flow(self.service, self.announcer, self.languages, self.is_mod)
        self.votes = VoteFlow(self.service, self.announcer, self.languages, self.is_mod)
        self.add_dynamic_items(*VOTE_ITEMS)
        # one clock: every deadline kind goes to the handler its owner registers
        self.deadline_kinds = Dispatch(self.store)
        self.autoplayer = AutoPlayer(self.service, self._post, self.dms.remind, self.dms.wake)
        self.autoplayer.register(self.deadline_kinds)
        self.league_posts = LeaguePosts(self, self.leagues, self.announcer, self.languages)
        self.league_clock = LeagueClock(self.leagues, self.league_posts)
        self.league_clock.register(self.deadline_kinds)
        self.deadline_kinds.on("vote", self.votes.expired)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        await self.tree.set_translator(CatalogTranslator())
        await self.sync_commands()
        if self.settings.web_on:
            self.web = WebServer(self.settings, self, self.service, self.announcer,
                                 self.languages)
            self.announcer.board_link = self._board_link
            await self.web.start()
        self._warmup = asyncio.create_task(self._warm_pictures(), name="warm-render")
        self._clock = asyncio.create_task(self._start_clock(), name="start-clock")

    def _board_link(self, game: GameRow) -> BoardLink:
        """The living message's way to the board: the Activity's launch button when the
        application has Activities on, else a link to the page in a browser."""
        if self.settings.discord_activity:
            return BoardLink()
        return BoardLink(f"{self.settings.web_public_url}/c/{game.channel_id}")

    def is_mod(self, interaction: discord.Interaction) -> bool:
        """Manage Server, or the moderator role of the settings (MOD_ROLE_ID)."""
        return is_moderator(interaction, self.settings.mod_role_id)

    async def _dm_language(self, user_id: int, game: GameRow) -> str:
        return await self.languages.for_user(user_id, fallback=of_game(game),
                                             guild_id=game.guild_id)

    async def _post(self, outcome: Outcome) -> None:
        await self.announcer.announce(outcome)

    async def _start_clock(self) -> None:
        """AI seats, turn limits, league round windows and weekly summaries: one scheduler
        for every deadline, started once the bot is connected; deadlines that passed while
        it was down fire right away."""
        await self.wait_until_ready()
        shards = self.settings.shards()
        self.scheduler = Scheduler(self.store, self.deadline_kinds, shards=shards)
        self.service.deadlines_changed = self.scheduler.wake
        self._backfill = asyncio.create_task(
            self._catch_up(self.results.backfill, "recording old games' results"),
            name="old-results")
        self._reviewing = asyncio.create_task(
            self._catch_up(self.reviews.backfill, "reviewing old games"), name="old-reviews")
        self.leagues.timers.changed = self.scheduler.wake
        owed = await self.announcer.recover(shards)
        if owed:
            log.info("posted what %d game(s) were owed from before the restart", owed)
        owed = await self.votes.recover(shards)
        if owed:
            log.info("posted the outcome of %d vote(s) settled before the restart", owed)
        n = await self.service.sync_all(shards=shards)
        timed = await self.leagues.timers.arm_all(shards)
        self.scheduler.start()
        log.info("clock started (%d active games, %d leagues with timers)", n, timed)

    async def _catch_up(self, job: Callable[[], Awaitable[int]], what: str) -> None:
        """A start-time backfill of finished games (members' stats from before results were
        kept; reviews of the last few): logged, never fatal, it can wait for the next start."""
        try:
            n = await job()
        except Exception:  # noqa: BLE001 - the bot plays on without it
            log.exception("%s failed", what)
        else:
            if n:
                log.info("%s: %d finished game(s)", what, n)

    async def _warm_pictures(self) -> None:
        """Draw each board once in each drawing worker so the first real map is quick."""
        await pictures.warm()

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        guild_id = self.settings.dev_guild_id
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild_id)
        elif self.settings.discord_activity:
            synced = await self._sync_with_entry_point()
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))
        return synced

    async def _sync_with_entry_point(self) -> list[app_commands.AppCommand]:
        """The global commands with the Activity's Entry Point command (type 4) among them:
        once Activities are on, Discord refuses a bulk overwrite that would drop it, and
        discord.py's tree has no such command type. The App Launcher's entry opens the board
        of the channel it is launched from (Discord launches it: handler 2)."""
        tree = self.tree
        commands = tree._get_all_commands()
        translator = tree.translator
        payload = [await c.get_translated_payload(tree, translator) if translator
                   else c.to_dict(tree) for c in commands]
        payload.append(ENTRY_POINT_COMMAND)
        assert self.application_id is not None
        data = await self.http.bulk_upsert_global_commands(self.application_id, payload=payload)
        log.info("synced %d global commands (with the Activity's entry point)", len(data))
        return [app_commands.AppCommand(data=d, state=self._connection) for d in data]

    async def on_ready(self) -> None:
        log.info("ready as %s (%s) in %d guilds", self.user, getattr(self.user, "id", "?"),
                 len(self.guilds))
        if getattr(self, "_owed_task", None) is None:
            self._owed_task = asyncio.create_task(self._send_owed(), name="owed-dms")

    async def _send_owed(self) -> None:
        """DMs the bot owed when it last stopped (it died between a commit and the DM)."""
        # one SQLite process owns its file: a DM claimed before the restart was claimed by
        # the process that died. With PostgreSQL another process may be sending it: wait
        # for its claim to go stale.
        stale = 0.0 if self.store.dialect == "sqlite" else None
        sent = await self.dms.send_owed(stale_after=stale)
        if sent:
            log.info("sent %d coin DM(s) owed from before the restart", sent)

    async def on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Rule breaks and refusals become an ephemeral sentence; the rest a log line."""
        await report_error(interaction, error)

    async def close(self) -> None:
        self.stopping = True
        warmup = getattr(self, "_warmup", None)
        if warmup is not None:
            warmup.cancel()
        for task in (getattr(self, "_clock", None), getattr(self, "_backfill", None),
                     getattr(self, "_reviewing", None)):
            if task is not None:
                task.cancel()
        reviews_ = getattr(self, "reviews", None)
        if reviews_ is not None:
            reviews_.cancel()
        scheduler = getattr(self, "scheduler", None)
        if scheduler is not None:
            await scheduler.stop()
        if self.web is not None:
            await self.web.stop()
            self.web = None
            log.info("shutting down: board server stopped")
        try:
            await super().close()
            log.info("shutting down: Discord connection closed")
        finally:
            store = getattr(self, "store", None)
            if store is not None and not self._store_closed:
                self._store_closed = True
                await store.close()
                log.info("shutting down: store closed")


class ShardedSmallWorldBot(SmallWorldBot, commands.AutoShardedBot):
    """The same bot over several gateway shards (SHARD_COUNT, and SHARD_IDS for the ones this
    process runs). A guild lives on exactly one shard, so all interactions of a channel reach
    one process; the store's channel lock (PostgreSQL) orders processes that overlap anyway
    (a restart, a reshard), and its version check refuses any stale write."""


def make_bot(settings: Settings, **options: Any) -> SmallWorldBot:
    if settings.shard_count:
        options.setdefault("shard_count", settings.shard_count)
        if settings.shard_ids is not None:
            options.setdefault("shard_ids", settings.shard_id_list())
        return ShardedSmallWorldBot(settings, **options)
    return SmallWorldBot(settings, **options)


async def _settle_when_ready(bot: SmallWorldBot) -> None:
    """Once connected, set start-up's objects and the guilds' caches aside from the
    collector (bot.heap): the process keeps them for good. (Not in tests, whose many bots
    in one process come and go.)"""
    await bot.wait_until_ready()
    heap.settle("bot")


async def run(settings: Settings) -> None:
    """Start the bot and block until it stops."""
    point_at(settings.discord_api_base, settings.discord_gateway)
    # pictures are drawn in a worker process; the loop keeps the GIL (and takes it back
    # sooner from the few threads left: aiosqlite's, discord.py's)
    pictures.use_render_process(settings.render_processes
                                or workers.drawers_for(workers.host_cores(), workers.host_memory_mb()))
    ai_worker.use_ai_process(settings.ai_processes)
    reviews.use_review_process()
    sys.setswitchinterval(0.001)
    bot = make_bot(settings)
    if settings.shard_count:
        log.info("running shards %s of %d", settings.shard_ids or "all", settings.shard_count)
    loop = asyncio.get_running_loop()
    stops: set[asyncio.Task[None]] = set()

    def on_signal(sig: signal.Signals) -> None:
        task = asyncio.ensure_future(bot.shutdown(sig.name))
        stops.add(task)
        task.add_done_callback(stops.discard)

    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on this platform
            loop.add_signal_handler(sig, on_signal, sig)
    settling = asyncio.create_task(_settle_when_ready(bot), name="settle-heap")
    try:
        async with bot:
            await bot.start(settings.discord_token.get_secret_value())
    finally:
        settling.cancel()
        if stops:  # a signal's shutdown closes the store; let it get there
            await asyncio.wait(set(stops), timeout=SHUTDOWN_GRACE + 10)
        pictures.stop_rendering(wait=True)
        log.info("shutting down: picture workers stopped")
        ai_worker.stop_ai(wait=True)
        reviews.stop_reviews(wait=True)
