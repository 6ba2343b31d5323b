"""`/league-mod`: running a league — create it (moderators), its settings and table channels,
seasons, rounds (form the tables, begin them early), and the disputes (void, award,
re-open). A top-level command so that Discord hides it by default permissions, as /sw-mod
is; the bot checks on every use that the member is an organiser (Manage Server, the
MOD_ROLE_ID role, or the league's organiser role: bot/cogs/tree.py `organiser_only`). Every
change is answered in the channel and written to the league's audit log (`/league audit`).
Commands only translate Discord into calls of the league service (bot.league), the league's
posts (bot.chat.league_posts) and words (bot.chat.league_texts).
"""

from __future__ import annotations

import logging
import random
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot import answering
from bot.app import SmallWorldBot
from bot.chat.league_texts import result_text, round_text, settings_text, standings_embed
from bot.cogs.league import league_names, league_of, public_language
from bot.cogs.tree import guild_of, league_moderator_only, organiser_only, require_organiser
from bot.language import reply_language
from bot.league import REOPEN_OUTCOMES, LeagueError, LeagueService
from bot.ui import NO_MENTIONS, send

log = logging.getLogger(__name__)

LEAGUE = "Which league (needed when the server has several)"


class LeagueModeration(commands.Cog):
    """Community leagues: the organisers' side."""

    # /league alone was over Discord's 4000 characters per command, and what organisers run
    # is hidden by default permissions (a server can show it to its organiser role under
    # Integrations; the bot checks organisers on every use)
    league_mod = app_commands.Group(name="league-mod", guild_only=True,
                                    description="Run a league: seasons, rounds, disputes "
                                                "(organisers)",
                                    default_permissions=discord.Permissions(manage_guild=True))
    season = app_commands.Group(name="season", description="Start or end a league season "
                                "(organisers)", parent=league_mod)
    round = app_commands.Group(name="round", description="Rounds: form tables, begin games "
                               "(organisers)", parent=league_mod)
    channel = app_commands.Group(name="channel", description="The channels league tables "
                                 "play in (organisers)", parent=league_mod)

    def __init__(self, bot: SmallWorldBot) -> None:
        self.bot = bot
        self._rng = random.SystemRandom()

    @property
    def leagues(self) -> LeagueService:
        return self.bot.leagues

    # -- the league, its settings and channels ------------------------------------------

    @league_mod.command(name="create", description="Create a league in this server (moderators)")
    @app_commands.describe(name="The league's name, e.g. Friday League")
    @league_moderator_only("create")
    async def create(self, interaction: discord.Interaction,
                     name: app_commands.Range[str, 1, 40]) -> None:
        lg = await self.leagues.create_league(guild_of(interaction), name, interaction.user.id)
        log.info("league %s created by %s", lg.id, interaction.user.id)
        await send(interaction, i18n.t("league.created", await public_language(interaction),
                                       league=lg.name), allowed_mentions=NO_MENTIONS)

    @league_mod.command(name="settings", description="Organiser role, tables, start window, AI "
                                                 "fill, weekly summary (organisers)")
    @app_commands.describe(
        organiser_role="A role whose members may organise this league",
        table_size="Seats per table, 3-5 (default 4)",
        start_minutes="Minutes players have to join their table (default 30)",
        round_days="Days a round lasts: every game's deadline (default 7)",
        allow_ai="Fill empty seats and no-shows with AI seats (they earn nothing)",
        summary_channel="Post the standings here every week",
        no_summary="Stop the weekly summary",
        away_days="Away days its players may spend in 30 days (a cap under the server's)",
        max_missed="To join: at most this % of the member's last turns missed (100: anyone)",
        over="... counted over the member's last turns (default 50)",
        league=LEAGUE)
    async def settings_(
        self, interaction: discord.Interaction,
        organiser_role: discord.Role | None = None,
        table_size: app_commands.Range[int, 3, 5] | None = None,
        start_minutes: app_commands.Range[int, 0, 1440] | None = None,
        round_days: app_commands.Range[int, 1, 60] | None = None,
        allow_ai: bool | None = None,
        summary_channel: discord.TextChannel | None = None,
        no_summary: bool = False,
        away_days: app_commands.Range[int, 0, 30] | None = None,
        max_missed: app_commands.Range[int, 0, 100] | None = None,
        over: app_commands.Range[int, 1, 500] | None = None,
        league: str | None = None,
    ) -> None:
        """Anyone may read the settings; changing them is the organisers'."""
        lg = await league_of(interaction, league)
        changes: dict[str, Any] = {}
        if organiser_role is not None:
            changes["organiser_role_id"] = organiser_role.id
        if table_size is not None:
            changes["table_size"] = table_size
        if start_minutes is not None:
            changes["start_minutes"] = start_minutes
        if round_days is not None:
            changes["round_days"] = round_days
        if allow_ai is not None:
            changes["allow_ai"] = allow_ai
        if summary_channel is not None:
            changes["summary_channel"] = summary_channel.id
        if no_summary:
            changes["summary_channel"] = None
        for key, value in (("away_days", away_days), ("max_missed", max_missed),
                           ("over_turns", over)):
            if value is not None:
                changes[key] = value
        if not changes:
            conf = await self.leagues.settings(lg)
            await send(interaction, settings_text(lg, conf, await reply_language(interaction)),
                       ephemeral=True, allowed_mentions=NO_MENTIONS)
            return
        await require_organiser(interaction, "settings")
        conf = await self.leagues.configure(lg, interaction.user.id, changes)
        await send(interaction, settings_text(lg, conf, await public_language(interaction),
                                              updated=True), allowed_mentions=NO_MENTIONS)

    @channel.command(name="add", description="Let league tables play in a channel (organisers)")
    @app_commands.describe(channel="A text channel for one table at a time", league=LEAGUE)
    @organiser_only("channels")
    async def channel_add(self, interaction: discord.Interaction, channel: discord.TextChannel,
                          league: str | None = None) -> None:
        lg = await league_of(interaction, league)
        if not await self.leagues.set_channel(lg, interaction.user.id, channel.id, True):
            raise LeagueError.said("league.err.already_channel", channel=channel.id,
                                   league=lg.name)
        await send(interaction, i18n.t("league.channel_added", await public_language(interaction),
                                       channel=channel.id, league=lg.name),
                   allowed_mentions=NO_MENTIONS)

    @channel.command(name="remove", description="Stop using a channel for league tables "
                                                "(organisers)")
    @app_commands.describe(channel="A table channel", league=LEAGUE)
    @organiser_only("channels")
    async def channel_remove(self, interaction: discord.Interaction,
                             channel: discord.TextChannel, league: str | None = None) -> None:
        lg = await league_of(interaction, league)
        if not await self.leagues.set_channel(lg, interaction.user.id, channel.id, False):
            raise LeagueError.said("league.err.not_channel", channel=channel.id,
                                   league=lg.name)
        await send(interaction, i18n.t("league.channel_removed",
                                       await public_language(interaction), channel=channel.id,
                                       league=lg.name), allowed_mentions=NO_MENTIONS)

    # -- seasons ------------------------------------------------------------------------

    @season.command(name="start", description="Open a new season of a league (organisers)")
    @app_commands.describe(name="The season's name, e.g. Spring 2026",
                           rounds="How many rounds the season has (optional)", league=LEAGUE)
    @organiser_only("season_start")
    async def season_start(self, interaction: discord.Interaction,
                           name: app_commands.Range[str, 1, 40],
                           rounds: app_commands.Range[int, 1, 100] | None = None,
                           league: str | None = None) -> None:
        lg = await league_of(interaction, league)
        season = await self.leagues.start_season(lg, name, interaction.user.id, rounds=rounds)
        await send(interaction, i18n.t("league.season_started",
                                       await public_language(interaction), season=season.name,
                                       league=lg.name, rounds=rounds or 0),
                   allowed_mentions=NO_MENTIONS)

    @season.command(name="end", description="End the open season and post its final standings "
                                            "(organisers)")
    @app_commands.describe(league=LEAGUE)
    @organiser_only("season_end")
    async def season_end(self, interaction: discord.Interaction, league: str | None = None
                         ) -> None:
        lg = await league_of(interaction, league)
        season = await self.leagues.end_season(lg, interaction.user.id)
        st = await self.leagues.standings(lg, season.name)
        lang = await public_language(interaction)
        note = i18n.t("league.season_over", lang, season=season.name, league=lg.name)
        if st.open_games:
            note += " " + i18n.t("league.season_over_open", lang, n=st.open_games)
        await send(interaction, note, embed=standings_embed(st, final=True, lang=lang),
                   allowed_mentions=NO_MENTIONS)

    # -- rounds -------------------------------------------------------------------------

    @round.command(name="start", description="Form the next round's tables and open their "
                                             "lobbies (organisers)")
    @app_commands.describe(league=LEAGUE)
    @organiser_only("round_start")
    async def round_start(self, interaction: discord.Interaction, league: str | None = None
                          ) -> None:
        lg = await league_of(interaction, league)
        started = await self.leagues.start_round(
            lg, interaction.user.id, guild_id=guild_of(interaction),
            seed=lambda: self._rng.randrange(1, 2**31))
        await send(interaction, round_text(started, await public_language(interaction)),
                   allowed_mentions=NO_MENTIONS)
        await self.bot.league_posts.round_started(started)

    @round.command(name="begin", description="Replace no-shows and start the round's games "
                                             "(organisers; automatic when the window closes)")
    @app_commands.describe(force="Begin now, before the start window closes", league=LEAGUE)
    @organiser_only("round_begin")
    async def round_begin(self, interaction: discord.Interaction, force: bool = False,
                          league: str | None = None) -> None:
        lg = await league_of(interaction, league)
        await self.leagues.round_to_begin(lg, force=force)  # refusals stay ephemeral
        await answering.defer(interaction, thinking=True)
        number, tables = await self.leagues.begin_round(lg, interaction.user.id, force=force)
        report = await self.bot.league_posts.round_begun(lg, number, tables, interaction.user.id)
        await send(interaction, i18n.t("league.round_begun", await public_language(interaction),
                                       league=lg.name) + "\n" + "\n".join(report),
                   allowed_mentions=NO_MENTIONS)

    # -- disputes -----------------------------------------------------------------------

    @league_mod.command(name="void", description="Void a league game: it counts for nothing "
                                             "(organisers)")
    @app_commands.describe(game="Game number", reason="Why (goes into the audit log)",
                           league=LEAGUE)
    @organiser_only("void")
    async def void(self, interaction: discord.Interaction, game: int,
                   reason: app_commands.Range[str, 1, 200],
                   league: str | None = None) -> None:
        lg = await league_of(interaction, league)
        season = await self.leagues.void(lg, interaction.user.id, game, reason)
        log.info("league %s: game %s voided by %s", lg.id, game, interaction.user.id)
        await send(interaction, i18n.t("league.voided", await public_language(interaction),
                                       game=game, league=lg.name, season=season.name,
                                       reason=reason.strip()), allowed_mentions=NO_MENTIONS)

    @league_mod.command(name="award", description="Set a league game's result by hand "
                                              "(organisers)")
    @app_commands.describe(game="Game number", first="Placed first", second="Placed second",
                           third="Placed third", fourth="Placed fourth", fifth="Placed fifth",
                           reason="Why (goes into the audit log)", league=LEAGUE)
    @organiser_only("award")
    async def award(self, interaction: discord.Interaction, game: int, first: discord.Member,
                    second: discord.Member, reason: app_commands.Range[str, 1, 200],
                    third: discord.Member | None = None, fourth: discord.Member | None = None,
                    fifth: discord.Member | None = None, league: str | None = None) -> None:
        lg = await league_of(interaction, league)
        order = [m.id for m in (first, second, third, fourth, fifth) if m is not None]
        rec = await self.leagues.award(lg, interaction.user.id, game, order, reason)
        lang = await public_language(interaction)
        await send(interaction, result_text(rec, lang, awarded=True) + " "
                   + i18n.t("league.why", lang, reason=reason.strip()),
                   allowed_mentions=NO_MENTIONS)

    @league_mod.command(name="reopen", description="Undo a void or an award (organisers)")
    @app_commands.describe(game="Game number", reason="Why (goes into the audit log)",
                           league=LEAGUE)
    @organiser_only("reopen")
    async def reopen(self, interaction: discord.Interaction, game: int,
                     reason: app_commands.Range[str, 1, 200],
                     league: str | None = None) -> None:
        lg = await league_of(interaction, league)
        what = await self.leagues.reopen(lg, interaction.user.id, game, reason)
        lang = await public_language(interaction)
        await send(interaction, i18n.t(f"league.reopened.{REOPEN_OUTCOMES[what]}", lang,
                                       game=game, league=lg.name) + " "
                   + i18n.t("league.why", lang, reason=reason.strip()),
                   allowed_mentions=NO_MENTIONS)

    for _cmd in (settings_, channel_add, channel_remove, season_start, season_end, round_start,
                 round_begin, void, award, reopen):
        _cmd.autocomplete("league")(league_names)
    del _cmd


async def setup(bot: SmallWorldBot) -> None:
    await bot.add_cog(LeagueModeration(bot))
