"""The table: open a lobby, join, start, take a seat back from the AI (one level deep), and
`/sw-table leave|ai-add|ai-remove`."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

import i18n
from bot import text
from bot.clock import clock_of
from bot.cogs.tree import (
    LANGUAGE_CHOICES,
    REMIND_CHOICES,
    Choice,
    Commands,
    channel_of,
    clock_from,
    in_server,
    sw,
    table,
)
from bot.language import of_game, reply_language
from bot.seats import AI_LEVELS, ai_level
from bot.ui import display_name
from engine import data as engine_data


class TableCommands(Commands):
    """Seats at the table of a channel."""

    @sw.command(name="new", description="Open a Small World lobby in this channel")
    @app_commands.describe(
        players="Number of seats (2-5); the matching official board is used",
        board="Board to play on (default: the official board for the player count)",
        seed="Seed for a reproducible game (random if left out)",
        clock="Turn time limit: off, 10m, 12h, 2d ... (default: the server's)",
        reminders="How the player whose turn it is gets reminded",
        language="Language of the game's public posts and pictures (default: the server's)",
    )
    @app_commands.choices(board=[
        Choice(name=text.board_choice(engine_data.board(b).players), value=b)
        for b in engine_data.BOARD_IDS], reminders=REMIND_CHOICES, language=LANGUAGE_CHOICES)
    @in_server()
    async def new(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 5] | None = None,
        board: str | None = None,
        seed: app_commands.Range[int, 0, 2_147_483_647] | None = None,
        clock: app_commands.Range[str, 1, 20] | None = None,
        reminders: str | None = None,
        language: str | None = None,
    ) -> None:
        options: dict[str, Any] = {
            "language": await self.bot.languages.for_new_game(interaction.guild_id, language)}
        if clock is not None or reminders is not None:
            default = clock_of(await self.service.store.guild_clock(interaction.guild_id))
            chosen = clock_from(clock, reminders, default)
            self.service.check_limit(chosen)
            options["clock"] = chosen.to_json()
        game = await self.service.open_lobby(
            guild_id=interaction.guild_id, channel_id=channel_of(interaction),
            user_id=interaction.user.id, name=display_name(interaction.user), players=players,
            board=board, seed=seed, options=options)
        await self.announcer.post_lobby(interaction, game, i18n.t("lobby.new", of_game(game)))

    @sw.command(name="join", description="Join the lobby in this channel")
    @in_server()
    async def join(self, interaction: discord.Interaction) -> None:
        game = await self.service.join(channel_of(interaction), interaction.user.id,
                                       display_name(interaction.user))
        await self.announcer.lobby_changed(interaction, game, i18n.t(
            "lobby.joined", await reply_language(interaction), game=game.id))

    @sw.command(name="start", description="Start the game (the opener or a moderator)")
    @in_server()
    async def start(self, interaction: discord.Interaction) -> None:
        await self.flow.start_game(interaction)

    @sw.command(name="back", description="Take your seat back from the AI after timeouts")
    @in_server()
    async def back(self, interaction: discord.Interaction) -> None:
        outcome, seat = await self.service.back(channel_of(interaction), interaction.user.id)
        outcome.lead(i18n.t("svc.welcome_back", of_game(outcome.game),
                            user=interaction.user.mention, seat=seat))
        outcome.public = list(outcome.headline)
        await self.announcer.announce(outcome, interaction, fresh=True)

    # -- /sw-table ------------------------------------------------------------------------

    @table.command(name="leave", description="Leave the lobby in this channel")
    @in_server()
    async def leave(self, interaction: discord.Interaction) -> None:
        game = await self.service.leave(channel_of(interaction), interaction.user.id,
                                        is_mod=self.bot.is_mod(interaction))
        await self.announcer.lobby_changed(interaction, game, i18n.t(
            "lobby.left", await reply_language(interaction), game=game.id))

    @table.command(name="ai-add", description="Seat an AI player in the lobby here")
    @app_commands.describe(level="easy: makes mistakes; normal: plans each turn; hard: looks "
                                 "ahead")
    @app_commands.choices(level=[Choice(name=n, value=n) for n in AI_LEVELS])
    @in_server()
    async def ai_add(self, interaction: discord.Interaction, level: str = "normal") -> None:
        game = await self.service.add_ai(channel_of(interaction), interaction.user.id, level,
                                         is_mod=self.bot.is_mod(interaction))
        await self.announcer.lobby_changed(interaction, game, i18n.t(
            "svc.ai_joined", await reply_language(interaction), level=ai_level(level)))

    @table.command(name="ai-remove", description="Remove the last AI player from the lobby here")
    @in_server()
    async def ai_remove(self, interaction: discord.Interaction) -> None:
        game = await self.service.remove_ai(channel_of(interaction), interaction.user.id,
                                            is_mod=self.bot.is_mod(interaction))
        await self.announcer.lobby_changed(interaction, game,
                                           i18n.t("svc.ai_left", await reply_language(interaction)))
