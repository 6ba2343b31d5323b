"""`/league`: what members do in a league — register (or stand in as a substitute), state
their weekdays, sit a round out, open a one-off league lobby — and everything public:
standings (picture and text), player and rating cards, the export, the audit log, the help.
Organisers run the league with `/league-mod` (bot/cogs/league_mod.py). Commands only
translate Discord into calls of the league service (bot.league) and words
(bot.chat.league_texts). See bot.league for the season flow and bot.league.standings for
the formulas.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random

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
    players_text,
    rating_text,
    result_text,
    standings_embed,
    standings_picture,
)
from bot.cogs.tree import bot_of, channel_of, guild_of, in_server
from bot.language import of_game, reply_language
from bot.league import AUDIT_ACTIONS, League, LeagueError, LeagueService
from bot.store import GameRow
from bot.ui import NO_MENTIONS, display_name, send

log = logging.getLogger(__name__)

Choice = app_commands.Choice


async def league_of(interaction: discord.Interaction, name: str | None) -> League:
    """The league a command names (its `league` option; else the server's only one)."""
    return await bot_of(interaction).leagues.league(guild_of(interaction), name)


async def public_language(interaction: discord.Interaction) -> str:
    """The language of a public league post: the server's."""
    return await bot_of(interaction).languages.for_new_game(interaction.guild_id)


async def league_names(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Autocomplete: the server's leagues."""
    if interaction.guild_id is None:
        return []
    needle = current.strip().casefold()
    return [Choice(name=lg.name, value=lg.name)
            for lg in await bot_of(interaction).leagues.leagues(interaction.guild_id)
            if needle in lg.name.casefold()][:25]


async def season_names(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Autocomplete: the seasons of the league the command names, newest first."""
    leagues = bot_of(interaction).leagues
    if interaction.guild_id is None:
        return []
    try:
        lg = await leagues.league(interaction.guild_id,
                                  getattr(interaction.namespace, "league", None))
    except LeagueError:
        return []
    needle = current.strip().casefold()
    lang = await reply_language(interaction)
    return [Choice(name=(i18n.t("league.season_open", lang, season=s.name) if s.is_open
                         else s.name)[:100], value=s.name)
            for s in reversed(await leagues.seasons(lg)) if needle in s.name.casefold()][:25]


class LeagueCog(commands.Cog):
    """Community leagues: the members' side. It also hangs the league on the game service
    (the seat check of league lobbies, the result of a finished league game)."""

    league = app_commands.Group(name="league", guild_only=True,
                                description="Community leagues: seasons, rounds, standings")

    def __init__(self, bot: SmallWorldBot) -> None:
        self.bot = bot
        self._rng = random.SystemRandom()

    @property
    def leagues(self) -> LeagueService:
        return self.bot.leagues

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

    async def _finished(self, game: GameRow) -> str | None:
        """GameService finish listener: record the result; the line it returns is posted in
        the channel right after the game's final reveal."""
        rec = await self.leagues.record(game.id)
        return None if rec is None else result_text(rec, of_game(game))

    # -- registration and preferences -------------------------------------------------------

    @league.command(name="join", description="Register for the league's open season")
    @app_commands.describe(substitute="Register as a substitute: seated only for no-shows",
                           league="Which league (needed when the server has several)")
    async def join(self, interaction: discord.Interaction, substitute: bool = False,
                   league: str | None = None) -> None:
        lg = await league_of(interaction, league)
        season = await self.leagues.register(lg, interaction.user.id,
                                             display_name(interaction.user),
                                             substitute=substitute)
        await send(interaction, i18n.t("league.registered", await public_language(interaction),
                                       user=interaction.user.mention, season=season.name,
                                       league=lg.name, substitute=substitute),
                   allowed_mentions=NO_MENTIONS)

    @league.command(name="leave", description="Leave the open season (played games still count)")
    @app_commands.describe(league="Which league (needed when the server has several)")
    async def leave(self, interaction: discord.Interaction, league: str | None = None) -> None:
        lg = await league_of(interaction, league)
        season = await self.leagues.unregister(lg, interaction.user.id)
        await send(interaction, i18n.t("league.left", await public_language(interaction),
                                       user=interaction.user.mention, season=season.name,
                                       league=lg.name), allowed_mentions=NO_MENTIONS)

    @league.command(name="availability", description="The weekdays you can play (UTC)")
    @app_commands.describe(days="e.g. `mon wed sat`, or `any`",
                           league="Which league (needed when the server has several)")
    async def availability(self, interaction: discord.Interaction,
                           days: app_commands.Range[str, 1, 60], league: str | None = None
                           ) -> None:
        lg = await league_of(interaction, league)
        lang = await reply_language(interaction)
        got = await self.leagues.set_days(lg, interaction.user.id, days, lang)
        await send(interaction, i18n.t("league.available", lang, days=days_named(got, lang),
                                       league=lg.name), ephemeral=True)

    @league.command(name="sitout", description="Sit out the next round (or take it back)")
    @app_commands.describe(sit_out="True to sit out the next round, False to play",
                           league="Which league (needed when the server has several)")
    async def sitout(self, interaction: discord.Interaction, sit_out: bool = True,
                     league: str | None = None) -> None:
        lg = await league_of(interaction, league)
        await self.leagues.set_sit_out(lg, interaction.user.id, sit_out)
        await send(interaction, i18n.t("league.sit_out" if sit_out else "league.sit_in",
                                       await reply_language(interaction), league=lg.name),
                   ephemeral=True)

    @league.command(name="game", description="Open a league lobby here (registered players "
                                             "or moderators)")
    @app_commands.describe(
        player1="Seat a registered player right away", player2="Another player",
        player3="Another player", player4="Another player",
        seats="Number of seats, 2-5 (default: open up to 5)",
        league="Which league (needed when the server has several)",
    )
    @in_server()
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
        lg = await league_of(interaction, league)
        members = [(m.id, display_name(m)) for m in (player1, player2, player3, player4)
                   if m is not None and not m.bot]
        game, _ = await self.leagues.open_game(
            lg, guild_id=guild_of(interaction), channel_id=channel_of(interaction),
            opener_id=interaction.user.id, opener_name=display_name(interaction.user),
            is_mod=self.bot.is_mod(interaction), members=members, seats=seats,
            seed=self._rng.randrange(1, 2**31),
        )
        await self.bot.announcer.post_lobby(interaction, game)

    # -- reading ----------------------------------------------------------------------------

    @league.command(name="players", description="Who is registered for a season")
    @app_commands.describe(season="Which season (default: the open one)",
                           league="Which league (needed when the server has several)")
    async def players(self, interaction: discord.Interaction, season: str | None = None,
                      league: str | None = None) -> None:
        lg = await league_of(interaction, league)
        s = await self.leagues.season(lg, season)
        regs = await self.leagues.registrations(s)
        await send(interaction, players_text(lg, s, regs, await public_language(interaction)),
                   allowed_mentions=NO_MENTIONS)

    @league.command(name="standings", description="Season table as a picture and text: points, "
                                                  "wins, avg rank, rating, games left")
    @app_commands.describe(season="Which season (default: the open one, else the last)",
                           league="Which league (needed when the server has several)")
    async def standings(self, interaction: discord.Interaction, season: str | None = None,
                        league: str | None = None) -> None:
        lg = await league_of(interaction, league)
        st = await self.leagues.standings(lg, season)
        lang = await public_language(interaction)
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
        lg = await league_of(interaction, league)
        target = member or interaction.user
        card = await self.leagues.player(lg, target.id, season)
        await send(interaction, player_text(card, target, await public_language(interaction)),
                   allowed_mentions=NO_MENTIONS)

    @league.command(name="rating", description="A member's league rating (OpenSkill μ − 3σ)")
    @app_commands.describe(member="Whose rating (default: yours)",
                           public="Post it for everyone (default: only you see it)",
                           league="Which league (needed when the server has several)")
    async def rating(self, interaction: discord.Interaction, member: discord.Member | None = None,
                     public: bool = False, league: str | None = None) -> None:
        lg = await league_of(interaction, league)
        target = member or interaction.user
        card = await self.leagues.rating(lg, target.id)
        lang = (await public_language(interaction) if public
                else await reply_language(interaction))
        await send(interaction, rating_text(card, target, lang), ephemeral=not public,
                   allowed_mentions=NO_MENTIONS)

    @league.command(name="export", description="The season's games and results as CSV and JSON")
    @app_commands.describe(season="Which season (default: the open one, else the last)",
                           league="Which league (needed when the server has several)")
    async def export(self, interaction: discord.Interaction, season: str | None = None,
                     league: str | None = None) -> None:
        lg = await league_of(interaction, league)
        s, csv_text, json_text = await self.leagues.export(lg, season)
        stem = "".join(ch if ch.isalnum() else "-" for ch in f"{lg.name}-{s.name}").lower()
        await send(interaction, i18n.t("league.exported", await reply_language(interaction),
                                       league=lg.name, season=s.name),
                   files=[discord.File(io.BytesIO(csv_text.encode()), f"{stem}.csv"),
                          discord.File(io.BytesIO(json_text.encode()), f"{stem}.json")],
                   ephemeral=True)

    @league.command(name="audit", description="Who changed what in the league, and why")
    @app_commands.describe(action="Only this kind of change", game="Only this game's entries",
                           league="Which league (needed when the server has several)")
    @app_commands.choices(action=[Choice(name=a, value=a) for a in AUDIT_ACTIONS])
    async def audit(self, interaction: discord.Interaction, action: str | None = None,
                    game: int | None = None, league: str | None = None) -> None:
        lg = await league_of(interaction, league)
        entries = await self.leagues.audit_log(lg, 20, action=action, game_id=game)
        await send(interaction, audit_text(lg, entries, await reply_language(interaction)),
                   ephemeral=True, allowed_mentions=NO_MENTIONS)

    @league.command(name="help", description="How leagues work and how standings are scored")
    async def help(self, interaction: discord.Interaction) -> None:
        await send(interaction, help_text(await reply_language(interaction)), ephemeral=True)

    for _cmd in (join, leave, availability, sitout, game, players, standings, player, rating,
                 export, audit):
        _cmd.autocomplete("league")(league_names)
    for _cmd in (players, standings, player, export):
        _cmd.autocomplete("season")(season_names)
    del _cmd


async def setup(bot: SmallWorldBot) -> None:
    await bot.add_cog(LeagueCog(bot))
