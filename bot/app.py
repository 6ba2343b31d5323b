"""The discord.py application: a commands.Bot whose setup_hook opens the store, builds the game
service, loads the extensions and syncs the slash commands."""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.clock import Scheduler
from bot.language import Languages
from bot.service import GameService
from bot.settings import Settings
from bot.store import Store
from bot.translator import CatalogTranslator
from bot.ui import report_error

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = ("bot.cogs.game", "bot.cogs.admin", "bot.cogs.league")


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


class SmallWorldBot(commands.Bot):
    """Small World bot: the store and the game service live here, commands live in cogs."""

    store: Store
    service: GameService

    def __init__(self, settings: Settings, **options: Any) -> None:
        quiet_voice_warnings()
        intents = discord.Intents.default()
        intents.message_content = False
        options.setdefault("activity", discord.Game(name="Small World · /sw new"))
        super().__init__(
            command_prefix=commands.when_mentioned,  # owner tools: @bot sync
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **options,
        )
        self.settings = settings
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_url)
        self.service = GameService(self.store, clock=self.settings.clock_rules())
        self.languages = Languages(self.store)
        log.info("store open at %s", self.store.path)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        await self.tree.set_translator(CatalogTranslator())
        await self.sync_commands()
        self._warmup = asyncio.create_task(self._warm_pictures(), name="warm-render")
        self._clock = asyncio.create_task(self._start_clock(), name="start-clock")

    async def _start_clock(self) -> None:
        """AI seats and turn limits: one scheduler for every game's deadlines, started once
        the bot is connected; deadlines that passed while it was down fire right away."""
        from bot import flow
        from bot.autoplay import AutoPlayer

        async def post(outcome: Any) -> None:
            await flow.post_outcome(self, outcome)

        async def remind(channel_id: int, game_id: int, user_id: int, line: str) -> None:
            await flow.post_reminder(self, channel_id, game_id, user_id, line)

        await self.wait_until_ready()
        self.autoplayer = AutoPlayer(self.service, post, remind)
        self.scheduler = Scheduler(self.store, self.autoplayer.fire)
        self.service.deadlines_changed = self.scheduler.wake
        n = await self.service.sync_all()
        self.scheduler.start()
        log.info("clock started (%d active games)", n)

    async def _warm_pictures(self) -> None:
        """Draw each board once in each drawing worker so the first real map is quick."""
        from bot import pictures

        await pictures.warm()

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        guild_id = self.settings.dev_guild_id
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))
        return synced

    async def on_ready(self) -> None:
        log.info("ready as %s (%s) in %d guilds", self.user, getattr(self.user, "id", "?"),
                 len(self.guilds))

    async def on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Rule breaks and refusals become an ephemeral sentence; the rest a log line."""
        await report_error(interaction, error)

    async def close(self) -> None:
        warmup = getattr(self, "_warmup", None)
        if warmup is not None:
            warmup.cancel()
        starting = getattr(self, "_clock", None)
        if starting is not None:
            starting.cancel()
        scheduler = getattr(self, "scheduler", None)
        if scheduler is not None:
            await scheduler.stop()
        try:
            await super().close()
        finally:
            store = getattr(self, "store", None)
            if store is not None:
                await store.close()


async def run(settings: Settings) -> None:
    """Start the bot and block until it stops."""
    point_at(settings.discord_api_base, settings.discord_gateway)
    # pictures are drawn in a worker process; the loop keeps the GIL (and takes it back
    # sooner from the few threads left: aiosqlite's, discord.py's)
    from bot import autoplay, pictures

    pictures.use_render_process(settings.render_processes)
    autoplay.use_ai_process(settings.ai_processes)
    sys.setswitchinterval(0.001)
    bot = SmallWorldBot(settings)
    try:
        async with bot:
            await bot.start(settings.discord_token.get_secret_value())
    finally:
        pictures.stop_rendering()
        autoplay.stop_ai()
