"""The /league command group: leagues, seasons, rounds and tables, disputes, standings, export.

Organisers (Manage Server, MOD_ROLE_ID as for /sw-mod, or the league's own organiser role set
with `/league-mod settings`) create leagues, start seasons and rounds, and void, award or re-open
games; every change is answered in the channel and written to the league's audit log
(`/league audit`). Members register, state their availability, sit a round out, and see
everything public: standings (picture and text), player pages, the export, the audit log.
See bot.league for the season flow and bot.league.standings for the formulas.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.app import SmallWorldBot
from bot.chat.league_texts import (
    audit_text,
    days_named,
    help_text,
    player_text,
    rating_text,
    result_text,
    round_text,
    standings_embed,
    standings_picture,
)
from bot.language import of_game, reply_language
from bot.league import (
    AUDIT_ACTIONS,
    REOPEN_OUTCOMES,
    League,
    LeagueError,
    NotOrganiser,
)
from bot.store import GameRow
from bot.ui import NO_MENTIONS, display_name, is_moderator, send

log = logging.getLogger(__name__)

Choice = app_commands.Choice


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise LeagueError.said("league.err.server_only")
    return interaction.guild_id


async def server_language(bot: Any, guild_id: int | None) -> str:
    """The language of a league's public posts: the server's (English when unset)."""
    languages = getattr(bot, "languages", None)
    if languages is None:
        return i18n.DEFAULT
    return await languages.for_new_game(guild_id)


class LeagueCog(commands.Cog):
    """Community leagues run by organisers."""

    league = app_commands.Group(name="league", guild_only=True,
                                description="Community leagues: seasons, rounds, standings")
    # what organisers run is a top-level command of its own, hidden by default permissions
    # as /sw-mod is (a server can show it to its organiser role under Integrations; the bot
    # checks organisers on every use), and /league alone was over Discord's 4000 characters
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
        self.leagues = bot.leagues
        self._rng = random.SystemRandom()

    async def cog_load(self) -> None:
        service = self.bot.service
        service.seat_checks.append(self.leagues.check_seat)
        service.finish_listeners.append(self._finished)
        try:
            missed = await self.leagues.sync()
        except Exception:
            log.exception("recording missed league results failed")
        else:
            if missed:
                log.info("recorded %d league results missed earlier", len(missed))

    async def cog_unload(self) -> None:
        service = self.bot.service
        if self.leagues.check_seat in service.seat_checks:
            service.seat_checks.remove(self.leagues.check_seat)
        if self._finished in service.finish_listeners:
            service.finish_listeners.remove(self._finished)

    # -- helpers --------------------------------------------------------------------------

    async def _require_organiser(self, interaction: discord.Interaction, league: League,
                                 doing: str) -> None:
        role = self.bot.settings.mod_role_id
        if is_moderator(interaction, role):
            return
        roles = [r.id for r in getattr(interaction.user, "roles", [])]
        if await self.leagues.is_organiser(league, roles):
            return
        org = (await self.leagues.settings(league)).organiser_role_id
        raise NotOrganiser.said("league.only_organisers", doing=doing, role=role or 0,
                                league=league.name, org=org or 0)

    def _require_mod(self, interaction: discord.Interaction, doing: str) -> None:
        role = self.bot.settings.mod_role_id
        if not is_moderator(interaction, role):
            raise LeagueError.said("league.only_mods", doing=doing, role=role or 0)

    async def _public(self, interaction: discord.Interaction) -> str:
        """The language of a public league post: the server's."""
        return await server_language(self.bot, interaction.guild_id)

    async def _league(self, interaction: discord.Interaction, name: str | None) -> League:
        return await self.leagues.league(_guild(interaction), name)

    async def _finished(self, game: GameRow) -> str | None:
        """GameService finish listener: record the result; the line it returns is posted in
        the channel right after the game's final reveal."""
        rec = await self.leagues.record(game.id)
        return None if rec is None else result_text(rec, of_game(game))

    # -- autocomplete ---------------------------------------------------------------------

    async def _league_names(self, interaction: discord.Interaction, current: str
                            ) -> list[Choice[str]]:
        if interaction.guild_id is None:
            return []
        needle = current.strip().casefold()
        return [Choice(name=lg.name, value=lg.name)
                for lg in await self.leagues.leagues(interaction.guild_id)
                if needle in lg.name.casefold()][:25]

    async def _season_names(self, interaction: discord.Interaction, current: str
                            ) -> list[Choice[str]]:
        if interaction.guild_id is None:
            return []
        try:
            lg = await self.leagues.league(interaction.guild_id,
                                           getattr(interaction.namespace, "league", None))
        except LeagueError:
            return []
        needle = current.strip().casefold()
        seasons = list(reversed(await self.leagues.seasons(lg)))
        lang = await reply_language(interaction)
        return [Choice(name=(i18n.t("league.season_open", lang, season=s.name) if s.is_open
                             else s.name)[:100], value=s.name)
                for s in seasons if needle in s.name.casefold()][:25]

    # -- organisers: league, settings, channels, seasons ------------------------------------

    @league_mod.command(name="create", description="Create a league in this server (moderators)")
    @app_commands.describe(name="The league's name, e.g. Friday League")
    async def create(self, interaction: discord.Interaction,
                     name: app_commands.Range[str, 1, 40]) -> None:
        guild_id = _guild(interaction)
        self._require_mod(interaction, "create")
        lg = await self.leagues.create_league(guild_id, name, interaction.user.id)
        await self.leagues.audit(lg, by=interaction.user.id, action="create", detail=lg.name)
        log.info("league %s created by %s", lg.id, interaction.user.id)
        await send(interaction, i18n.t("league.created", await self._public(interaction),
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
        league="Which league (needed when the server has several)")
    async def settings_(
        self, interaction: discord.Interaction,
        organiser_role: discord.Role | None = None,
        table_size: app_commands.Range[int, 3, 5] | None = None,
        start_minutes: app_commands.Range[int, 0, 1440] | None = None,
        round_days: app_commands.Range[int, 1, 60] | None = None,
        allow_ai: bool | None = None,
        summary_channel: discord.TextChannel | None = None,
        no_summary: bool = False,
        league: str | None = None,
    ) -> None:
        lg = await self._league(interaction, league)
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
        if changes:
            await self._require_organiser(interaction, lg, "settings")
            conf = await self.leagues.configure(lg, interaction.user.id, changes)
        else:
            conf = await self.leagues.settings(lg)
        lang = (await self._public(interaction) if changes
                else await reply_language(interaction))
        text = i18n.t("league.settings", lang, league=lg.name,
                      role=conf.organiser_role_id or 0, size=conf.table_size,
                      minutes=conf.start_minutes, days=conf.round_days, ai=conf.allow_ai,
                      summary=conf.summary_channel or 0, n=len(conf.channels),
                      channels=", ".join(f"<#{c}>" for c in conf.channels))
        await send(interaction, (i18n.t("league.updated", lang) + " " if changes else "")
                   + text, ephemeral=not changes, allowed_mentions=NO_MENTIONS)

    @channel.command(name="add", description="Let league tables play in a channel (organisers)")
    @app_commands.describe(channel="A text channel for one table at a time",
                           league="Which league (needed when the server has several)")
    async def channel_add(self, interaction: discord.Interaction, channel: discord.TextChannel,
                          league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        await self._require_organiser(interaction, lg, "channels")
        if not await self.leagues.set_channel(lg, interaction.user.id, channel.id, True):
            raise LeagueError.said("league.err.already_channel", channel=channel.id,
                                   league=lg.name)
        await send(interaction, i18n.t("league.channel_added", await self._public(interaction),
                                       channel=channel.id, league=lg.name),
                   allowed_mentions=NO_MENTIONS)

    @channel.command(name="remove", description="Stop using a channel for league tables "
                                                "(organisers)")
    @app_commands.describe(channel="A table channel",
                           league="Which league (needed when the server has several)")
    async def channel_remove(self, interaction: discord.Interaction,
                             channel: discord.TextChannel, league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        await self._require_organiser(interaction, lg, "channels")
        if not await self.leagues.set_channel(lg, interaction.user.id, channel.id, False):
            raise LeagueError.said("league.err.not_channel", channel=channel.id,
                                   league=lg.name)
        await send(interaction, i18n.t("league.channel_removed",
                                       await self._public(interaction), channel=channel.id,
                                       league=lg.name), allowed_mentions=NO_MENTIONS)

    @season.command(name="start", description="Open a new season of a league (organisers)")
    @app_commands.describe(name="The season's name, e.g. Spring 2026",
                           rounds="How many rounds the season has (optional)",
                           league="Which league (needed when the server has several)")
    async def season_start(self, interaction: discord.Interaction,
                           name: app_commands.Range[str, 1, 40],
                           rounds: app_commands.Range[int, 1, 100] | None = None,
                           league: str | None = None) -> None:
        _guild(interaction)
        lg = await self._league(interaction, league)
        await self._require_organiser(interaction, lg, "season_start")
        season = await self.leagues.start_season(lg, name, interaction.user.id, rounds=rounds)
        await self.leagues.audit(lg, by=interaction.user.id, action="season start",
                                 season=season, detail=season.name
                                 + (f", {rounds} rounds" if rounds else ""))
        await send(interaction, i18n.t("league.season_started", await self._public(interaction),
                                       season=season.name, league=lg.name, rounds=rounds or 0),
                   allowed_mentions=NO_MENTIONS)

    @season.command(name="end", description="End the open season and post its final standings "
                                            "(organisers)")
    @app_commands.describe(league="Which league (needed when the server has several)")
    async def season_end(self, interaction: discord.Interaction, league: str | None = None
                         ) -> None:
        _guild(interaction)
        lg = await self._league(interaction, league)
        await self._require_organiser(interaction, lg, "season_end")
        season = await self.leagues.end_season(lg, interaction.user.id)
        await self.leagues.audit(lg, by=interaction.user.id, action="season end",
                                 season=season, detail=season.name)
        st = await self.leagues.standings(lg, season.name)
        lang = await self._public(interaction)
        note = i18n.t("league.season_over", lang, season=season.name, league=lg.name)
        if st.open_games:
            note += " " + i18n.t("league.season_over_open", lang, n=st.open_games)
        await send(interaction, note, embed=standings_embed(st, final=True, lang=lang),
                   allowed_mentions=NO_MENTIONS)

    # -- organisers: rounds -----------------------------------------------------------------

    @round.command(name="start", description="Form the next round's tables and open their "
                                             "lobbies (organisers)")
    @app_commands.describe(league="Which league (needed when the server has several)")
    async def round_start(self, interaction: discord.Interaction, league: str | None = None
                          ) -> None:
        guild_id = _guild(interaction)
        lg = await self._league(interaction, league)
        await self._require_organiser(interaction, lg, "round_start")
        started = await self.leagues.start_round(
            lg, interaction.user.id, guild_id=guild_id,
            seed=lambda: self._rng.randrange(1, 2**31))
        lang = await self._public(interaction)
        await send(interaction, round_text(started, lang), allowed_mentions=NO_MENTIONS)
        await self.bot.league_posts.round_started(started)

    @round.command(name="begin", description="Replace no-shows and start the round's games "
                                             "(organisers; automatic when the window closes)")
    @app_commands.describe(force="Begin now, before the start window closes",
                           league="Which league (needed when the server has several)")
    async def round_begin(self, interaction: discord.Interaction, force: bool = False,
                          league: str | None = None) -> None:
        _guild(interaction)
        lg = await self._league(interaction, league)
        await self._require_organiser(interaction, lg, "round_begin")
        await self.leagues.round_to_begin(lg, force=force)  # refusals stay ephemeral
        await interaction.response.defer(thinking=True)
        number, tables = await self.leagues.begin_round(lg, interaction.user.id, force=force)
        report = await self.bot.league_posts.round_begun(lg, number, tables, interaction.user.id)
        await send(interaction, i18n.t("league.round_begun", await self._public(interaction),
                                       league=lg.name) + "\n" + "\n".join(report),
                   allowed_mentions=NO_MENTIONS)

    # -- organisers: disputes ---------------------------------------------------------------

    @league_mod.command(name="void", description="Void a league game: it counts for nothing "
                                             "(organisers)")
    @app_commands.describe(game="Game number", reason="Why (goes into the audit log)",
                           league="Which league (needed when the server has several)")
    async def void(self, interaction: discord.Interaction, game: int,
                   reason: app_commands.Range[str, 1, 200],
                   league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        await self._require_organiser(interaction, lg, "void")
        season = await self.leagues.void(lg, interaction.user.id, game, reason)
        log.info("league %s: game %s voided by %s", lg.id, game, interaction.user.id)
        await send(interaction, i18n.t("league.voided", await self._public(interaction),
                                       game=game, league=lg.name, season=season.name,
                                       reason=reason.strip()), allowed_mentions=NO_MENTIONS)

    @league_mod.command(name="award", description="Set a league game's result by hand "
                                              "(organisers)")
    @app_commands.describe(game="Game number", first="Placed first", second="Placed second",
                           third="Placed third", fourth="Placed fourth", fifth="Placed fifth",
                           reason="Why (goes into the audit log)",
                           league="Which league (needed when the server has several)")
    async def award(self, interaction: discord.Interaction, game: int, first: discord.Member,
                    second: discord.Member, reason: app_commands.Range[str, 1, 200],
                    third: discord.Member | None = None, fourth: discord.Member | None = None,
                    fifth: discord.Member | None = None, league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        await self._require_organiser(interaction, lg, "award")
        order = [m.id for m in (first, second, third, fourth, fifth) if m is not None]
        service = self.bot.service

        async def stop(open_game: GameRow) -> None:  # through the service: lock and cache
            await service.end(open_game.channel_id, interaction.user.id)

        rec = await self.leagues.award(lg, interaction.user.id, game, order, reason, stop=stop)
        lang = await self._public(interaction)
        await send(interaction, result_text(rec, lang, awarded=True) + " "
                   + i18n.t("league.why", lang, reason=reason.strip()),
                   allowed_mentions=NO_MENTIONS)

    @league_mod.command(name="reopen", description="Undo a void or an award (organisers)")
    @app_commands.describe(game="Game number", reason="Why (goes into the audit log)",
                           league="Which league (needed when the server has several)")
    async def reopen(self, interaction: discord.Interaction, game: int,
                     reason: app_commands.Range[str, 1, 200],
                     league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        await self._require_organiser(interaction, lg, "reopen")
        what = await self.leagues.reopen(lg, interaction.user.id, game, reason)
        lang = await self._public(interaction)
        await send(interaction, i18n.t(f"league.reopened.{REOPEN_OUTCOMES[what]}", lang,
                                       game=game, league=lg.name) + " "
                   + i18n.t("league.why", lang, reason=reason.strip()),
                   allowed_mentions=NO_MENTIONS)

    @league.command(name="audit", description="Who changed what in the league, and why")
    @app_commands.describe(action="Only this kind of change", game="Only this game's entries",
                           league="Which league (needed when the server has several)")
    @app_commands.choices(action=[Choice(name=a, value=a) for a in AUDIT_ACTIONS])
    async def audit(self, interaction: discord.Interaction, action: str | None = None,
                    game: int | None = None, league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        entries = await self.leagues.audit_log(lg, 20, action=action, game_id=game)
        await send(interaction, audit_text(lg, entries, await reply_language(interaction)),
                   ephemeral=True,
                   allowed_mentions=NO_MENTIONS)

    # -- members ----------------------------------------------------------------------------

    @league.command(name="join", description="Register for the league's open season")
    @app_commands.describe(substitute="Register as a substitute: seated only for no-shows",
                           league="Which league (needed when the server has several)")
    async def join(self, interaction: discord.Interaction, substitute: bool = False,
                   league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        season = await self.leagues.register(lg, interaction.user.id,
                                             display_name(interaction.user),
                                             substitute=substitute)
        await send(interaction, i18n.t("league.registered", await self._public(interaction),
                                       user=interaction.user.mention, season=season.name,
                                       league=lg.name, substitute=substitute),
                   allowed_mentions=NO_MENTIONS)

    @league.command(name="leave", description="Leave the open season (played games still count)")
    @app_commands.describe(league="Which league (needed when the server has several)")
    async def leave(self, interaction: discord.Interaction, league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        season = await self.leagues.unregister(lg, interaction.user.id)
        await send(interaction, i18n.t("league.left", await self._public(interaction),
                                       user=interaction.user.mention, season=season.name,
                                       league=lg.name), allowed_mentions=NO_MENTIONS)

    @league.command(name="availability", description="The weekdays you can play (UTC)")
    @app_commands.describe(days="e.g. `mon wed sat`, or `any`",
                           league="Which league (needed when the server has several)")
    async def availability(self, interaction: discord.Interaction,
                           days: app_commands.Range[str, 1, 60], league: str | None = None
                           ) -> None:
        lg = await self._league(interaction, league)
        lang = await reply_language(interaction)
        got = await self.leagues.set_days(lg, interaction.user.id, days, lang)
        await send(interaction, i18n.t("league.available", lang, days=days_named(got, lang),
                                       league=lg.name), ephemeral=True)

    @league.command(name="sitout", description="Sit out the next round (or take it back)")
    @app_commands.describe(sit_out="True to sit out the next round, False to play",
                           league="Which league (needed when the server has several)")
    async def sitout(self, interaction: discord.Interaction, sit_out: bool = True,
                     league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        await self.leagues.set_sit_out(lg, interaction.user.id, sit_out)
        await send(interaction, i18n.t("league.sit_out" if sit_out else "league.sit_in",
                                       await reply_language(interaction), league=lg.name),
                   ephemeral=True)

    @league.command(name="players", description="Who is registered for a season")
    @app_commands.describe(season="Which season (default: the open one)",
                           league="Which league (needed when the server has several)")
    async def players(self, interaction: discord.Interaction, season: str | None = None,
                      league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        s = await self.leagues.season(lg, season)
        regs = await self.leagues.registrations(s)
        lang = await self._public(interaction)
        if not regs:
            body = i18n.t("league.players.nobody", lang, open=s.is_open)
        else:
            body = ", ".join(f"<@{r.user_id}>" for r in regs)
        await send(interaction, i18n.t("league.players.head", lang, league=lg.name,
                                       season=s.name, n=len(regs)) + "\n" + body,
                   allowed_mentions=NO_MENTIONS)

    @league.command(name="game", description="Open a league lobby here (registered players "
                                             "or moderators)")
    @app_commands.describe(
        player1="Seat a registered player right away", player2="Another player",
        player3="Another player", player4="Another player",
        seats="Number of seats, 2-5 (default: open up to 5)",
        league="Which league (needed when the server has several)",
    )
    async def game(
        self,
        interaction: discord.Interaction,
        player1: discord.Member | None = None,
        player2: discord.Member | None = None,
        player3: discord.Member | None = None,
        player4: discord.Member | None = None,
        seats: app_commands.Range[int, 2, 5] | None = None,
        league: str | None = None,
    ) -> None:
        guild_id = _guild(interaction)
        if interaction.channel_id is None:
            raise LeagueError.said("league.err.server_only")
        lg = await self._league(interaction, league)
        role = self.bot.settings.mod_role_id
        members = [(m.id, display_name(m)) for m in (player1, player2, player3, player4)
                   if m is not None and not m.bot]
        game, season = await self.leagues.open_game(
            lg, guild_id=guild_id, channel_id=interaction.channel_id,
            opener_id=interaction.user.id, opener_name=display_name(interaction.user),
            is_mod=is_moderator(interaction, role), members=members, seats=seats,
            seed=self._rng.randrange(1, 2**31),
        )
        await self.bot.announcer.post_lobby(interaction, game)

    @league.command(name="standings", description="Season table as a picture and text: points, "
                                                  "wins, avg rank, rating, games left")
    @app_commands.describe(season="Which season (default: the open one, else the last)",
                           league="Which league (needed when the server has several)")
    async def standings(self, interaction: discord.Interaction, season: str | None = None,
                        league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        st = await self.leagues.standings(lg, season)
        lang = await self._public(interaction)
        png = await asyncio.to_thread(standings_picture, st, lang)
        await send(interaction, embed=standings_embed(st, lang=lang),
                   file=discord.File(io.BytesIO(png), "standings.png",
                                     description=i18n.t("league.standings.alt", lang,
                                                        league=lg.name,
                                                        season=st.season.name)),
                   allowed_mentions=NO_MENTIONS)

    @league.command(name="player", description="A member's season: games, ranks, favourite "
                                               "races, rating history")
    @app_commands.describe(member="Whose season (default: yours)",
                           season="Which season (default: the open one, else the last)",
                           league="Which league (needed when the server has several)")
    async def player(self, interaction: discord.Interaction, member: discord.Member | None = None,
                     season: str | None = None, league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        target: Any = member or interaction.user
        card = await self.leagues.player(lg, target.id, season)
        await send(interaction, player_text(card, target, await self._public(interaction)),
                   allowed_mentions=NO_MENTIONS)

    @league.command(name="rating", description="A member's league rating (OpenSkill μ − 3σ)")
    @app_commands.describe(member="Whose rating (default: yours)",
                           public="Post it for everyone (default: only you see it)",
                           league="Which league (needed when the server has several)")
    async def rating(self, interaction: discord.Interaction, member: discord.Member | None = None,
                     public: bool = False, league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        target: Any = member or interaction.user
        card = await self.leagues.rating(lg, target.id)
        lang = (await self._public(interaction) if public
                else await reply_language(interaction))
        await send(interaction, rating_text(card, target, lang), ephemeral=not public,
                   allowed_mentions=NO_MENTIONS)

    @league.command(name="export", description="The season's games and results as CSV and JSON")
    @app_commands.describe(season="Which season (default: the open one, else the last)",
                           league="Which league (needed when the server has several)")
    async def export(self, interaction: discord.Interaction, season: str | None = None,
                     league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        s, csv_text, json_text = await self.leagues.export(lg, season)
        stem = "".join(ch if ch.isalnum() else "-" for ch in f"{lg.name}-{s.name}").lower()
        await send(interaction, i18n.t("league.exported", await reply_language(interaction),
                                       league=lg.name, season=s.name),
                   files=[discord.File(io.BytesIO(csv_text.encode()), f"{stem}.csv"),
                          discord.File(io.BytesIO(json_text.encode()), f"{stem}.json")],
                   ephemeral=True)

    @league.command(name="help", description="How leagues work and how standings are scored")
    async def help(self, interaction: discord.Interaction) -> None:
        await send(interaction, help_text(await reply_language(interaction)), ephemeral=True)

    for _cmd in (join, leave, players, game, standings, rating, player, export, settings_,
                 channel_add, channel_remove, season_start, season_end, round_start,
                 round_begin, void, award, reopen, audit, availability, sitout):
        _cmd.autocomplete("league")(_league_names)
    players.autocomplete("season")(_season_names)
    standings.autocomplete("season")(_season_names)
    player.autocomplete("season")(_season_names)
    export.autocomplete("season")(_season_names)
    del _cmd


async def setup(bot: SmallWorldBot) -> None:
    await bot.add_cog(LeagueCog(bot))


__all__ = ["LeagueCog", "setup"]
