"""`/sw-mod`: moderators at a table (skip a turn, remove a player, stop the game, take
actions back) and the server's default turn clock. A top-level command so that Discord hides
it by default permissions (Manage Server); the bot checks the permission on every use."""

from __future__ import annotations

import dataclasses

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.app import SmallWorldBot
from bot.clock import clock_of
from bot.cogs.tree import (
    REMIND_CHOICES,
    Choice,
    Commands,
    channel_of,
    clock_from,
    moderator_only,
)
from bot.errors import ServiceError
from bot.game.vacations import AWAY_DAYS
from bot.language import of_game, reply_language
from bot.seats import AI_LEVELS, TIMEOUT_LEVEL, ai_level
from bot.store import GameRow
from bot.ui import display_name, send


class Moderation(Commands, commands.Cog):
    """Moderator tools for the game of a channel."""

    mod = app_commands.Group(name="sw-mod", description="Moderator tools for the game here",
                             guild_only=True,
                             default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: SmallWorldBot) -> None:
        self.bot = bot

    @mod.command(name="skip", description="Finish the current player's turn for them")
    @moderator_only()
    async def mod_skip(self, interaction: discord.Interaction) -> None:
        outcome = await self.service.skip(channel_of(interaction), interaction.user.id)
        await self.announcer.announce(outcome, interaction, fresh=True)

    @mod.command(name="kick", description="Remove a player (optionally hand the seat to someone)")
    @app_commands.describe(member="The player to remove",
                           replacement="Who takes over the seat (else its turns are skipped)",
                           ai="Or: an AI of this level plays the seat from now on")
    @app_commands.choices(ai=[Choice(name=n, value=n) for n in AI_LEVELS])
    @moderator_only()
    async def mod_kick(self, interaction: discord.Interaction, member: discord.User,
                       replacement: discord.User | None = None, ai: str | None = None) -> None:
        if replacement is not None and ai is not None:
            raise ServiceError.said("svc.kick_both")
        repl = (replacement.id, display_name(replacement)) if replacement else None
        result = await self.service.kick(channel_of(interaction), interaction.user.id,
                                         member.id, replacement=repl, ai=ai)
        if isinstance(result, GameRow):  # still a lobby
            await self.announcer.lobby_changed(interaction, result, i18n.t(
                "svc.member_removed", await reply_language(interaction), user=member.mention))
        else:
            await self.announcer.announce(result, interaction, fresh=True)

    @mod.command(name="clock", description="The turn clock new lobbies on this server start with")
    @app_commands.describe(limit="Turn time limit: off, 10m, 12h, 2d ...",
                           reminders="How the player whose turn it is gets reminded",
                           league="Instead: require this limit in the league's open season")
    @app_commands.choices(reminders=REMIND_CHOICES)
    @moderator_only()
    async def mod_clock(self, interaction: discord.Interaction,
                        limit: app_commands.Range[str, 1, 20],
                        reminders: str | None = None,
                        league: app_commands.Range[str, 1, 40] | None = None) -> None:
        guild_id = interaction.guild_id or 0
        old = clock_of(await self.service.store.guild_clock(guild_id))
        clock = clock_from(limit, reminders, old)
        self.service.check_limit(clock)
        lang = await reply_language(interaction)
        if league is not None:
            line = await self.bot.leagues.require_clock(guild_id, league, clock.limit, lang)
            await send(interaction, line, ephemeral=True)
            return
        await self.service.set_server_clock(guild_id, clock)
        await send(interaction, i18n.t("svc.server_clock", lang, clock=clock.describe(lang)),
                   ephemeral=True)

    @mod.command(name="server", description="This server's choices: replays, the AI for a "
                                            "timed-out turn, away days")
    @app_commands.describe(replays="Post a finished game's animated replay with its reveal",
                           takeover="The AI level that plays a turn whose time ran out",
                           away_days="Away days each member may spend in 30 days (default 7)")
    @app_commands.choices(takeover=[Choice(name=n, value=n) for n in AI_LEVELS])
    @moderator_only()
    async def mod_server(self, interaction: discord.Interaction, replays: bool | None = None,
                         takeover: str | None = None,
                         away_days: app_commands.Range[int, 0, 30] | None = None) -> None:
        guild_id = interaction.guild_id or 0
        chosen = await self.service.store.guild_options(guild_id)
        if replays is not None or takeover is not None or away_days is not None:
            chosen = dataclasses.replace(
                chosen, replays=chosen.replays if replays is None else replays,
                takeover=takeover or chosen.takeover,
                away_days=chosen.away_days if away_days is None else away_days)
            await self.service.store.set_guild_options(guild_id, chosen)
        lang = await reply_language(interaction)
        days = AWAY_DAYS if chosen.away_days is None else chosen.away_days
        await send(interaction, i18n.t("archive.server_options", lang, replays=chosen.replays,
                                       level=ai_level(chosen.takeover or TIMEOUT_LEVEL))
                   + "\n" + i18n.t("away.server_days", lang, days=days), ephemeral=True)

    @mod.command(name="end", description="Stop the game or lobby in this channel")
    @moderator_only()
    async def mod_end(self, interaction: discord.Interaction) -> None:
        game = await self.service.end(channel_of(interaction), interaction.user.id)
        ended = i18n.t("game.mod_ended", of_game(game), game=game.id)
        await self.announcer.retire(game, ended)
        await send(interaction, ended)

    @mod.command(name="undo", description="Take back the last actions, whoever made them")
    @app_commands.describe(count="How many actions (default 1)")
    @moderator_only()
    async def mod_undo(self, interaction: discord.Interaction,
                       count: app_commands.Range[int, 1, 50] = 1) -> None:
        outcome = await self.service.mod_undo(channel_of(interaction), interaction.user.id,
                                              count)
        await self.announcer.announce(outcome, interaction, fresh=True)


async def setup(bot: SmallWorldBot) -> None:
    await bot.add_cog(Moderation(bot))
