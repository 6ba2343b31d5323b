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
import contextlib
import io
import logging
import random
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot import text
from bot.app import SmallWorldBot
from bot.chat.announce import lobby_content
from bot.chat.archive import profile_text
from bot.errors import ServiceError
from bot.language import of_game, reply_language
from bot.league import (
    AUDIT_ACTIONS,
    REOPEN_OUTCOMES,
    START_RATING,
    AuditEntry,
    League,
    LeagueError,
    NotOrganiser,
    PlayerCard,
    RatingCard,
    Recorded,
    RoundStarted,
    Row,
    Standings,
    TableBegun,
    parse_iso,
)
from bot.league.ratings import sparkline
from bot.league.tables import WEEKDAYS, days_text
from bot.store import GameRow
from bot.ui import NO_MENTIONS, display_name, is_moderator, send
from render.standings import StandingsLine, standings_png

log = logging.getLogger(__name__)

Choice = app_commands.Choice
TABLE_ROWS = 30
TICK_SECONDS = 60.0
MESSAGE_ROOM = 1900  # characters of a league message (Discord allows 2000)
FOOTER = i18n.t("league.pic.footer", "en")


def help_text(lang: str) -> str:
    return i18n.t("league.help", lang, start=f"{START_RATING:.0f}")


HELP_TEXT = help_text("en")


def _num(x: float) -> str:
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _signed(x: float) -> str:
    if abs(x) < 0.05:
        return "±0.0"
    return f"{x:+.1f}"


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise LeagueError.said("league.err.server_only")
    return interaction.guild_id


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _place(rank: int, n: int, lang: str) -> str:
    """"2nd of 4" in English, the language's own way elsewhere."""
    return i18n.t("league.place_of", lang, rank=_ordinal(rank) if lang == "en" else rank, n=n)


def _days(days: frozenset[int], lang: str) -> str:
    """"mon sat" (or "any day") in English; the weekday names of `lang` elsewhere."""
    if lang == i18n.DEFAULT:
        return days_text(days)
    if len(days) == 7:
        return i18n.t("league.any_day", lang)
    return ", ".join(i18n.t(f"league.day.{WEEKDAYS[d]}", lang) for d in sorted(days))


def _state(final: bool, lang: str) -> str:
    return i18n.t("league.state.final" if final else "league.state.running", lang)


async def server_language(bot: Any, guild_id: int | None) -> str:
    """The language of a league's public posts: the server's (English when unset)."""
    languages = getattr(bot, "languages", None)
    if languages is None:
        return i18n.DEFAULT
    return await languages.for_new_game(guild_id)


def standings_embed(st: Standings, *, final: bool = False,
                    lang: str = i18n.DEFAULT) -> discord.Embed:
    closed = final or not st.season.is_open
    embed = discord.Embed(
        title=i18n.t("league.standings.title", lang, league=st.league.name,
                     season=st.season.name, state=_state(closed, lang)),
        colour=discord.Colour.gold() if closed else discord.Colour.blurple(),
    )
    if not st.rows:
        embed.description = i18n.t("league.standings.empty", lang)
    else:
        col = {c: i18n.t(f"league.col.{c}", lang)
               for c in ("player", "gp", "left", "w", "avg", "pts", "rating")}
        lines = [f"{'#':>2} {col['player']:<14} {col['gp']:>2} {col['left']:>4} "
                 f"{col['w']:>4} {col['avg']:>4} {col['pts']:>5} {col['rating']:>6} {'Δ':>5}"]
        for i, r in enumerate(st.rows[:TABLE_ROWS], 1):
            avg = f"{r.avg_rank:.1f}" if r.avg_rank is not None else "—"
            left = "—" if r.left is None else str(r.left)
            name = r.name if r.registered or not st.season.is_open else f"{r.name}*"
            trend = _signed(r.trend) if r.played else "—"
            lines.append(f"{i:>2} {name[:14]:<14} {r.played:>2} {left:>4} {_num(r.wins):>4} "
                         f"{avg:>4} {_num(r.points):>5} {r.rating:>6.1f} {trend:>5}")
        if len(st.rows) > TABLE_ROWS:
            lines.append(i18n.t("league.standings.more", lang, n=len(st.rows) - TABLE_ROWS))
        embed.description = "```\n" + "\n".join(lines) + "\n```"
        if st.season.is_open and any(not r.registered for r in st.rows):
            embed.description += "\n\\* " + i18n.t("league.standings.left", lang)
    games = i18n.t("league.standings.games", lang, n=st.games)
    if st.open_games:
        games += i18n.t("league.standings.in_progress", lang, n=st.open_games)
    if st.voided:
        games += i18n.t("league.standings.void", lang, n=st.voided)
    embed.add_field(name=i18n.t("league.standings.games_field", lang), value=games, inline=True)
    rounds = (i18n.t("league.standings.rounds_of", lang, n=st.rounds_played,
                     planned=st.planned_rounds) if st.planned_rounds else str(st.rounds_played))
    embed.add_field(name=i18n.t("league.standings.rounds_field", lang), value=rounds,
                    inline=True)
    embed.set_footer(text=i18n.t("league.scoring_help", lang))
    return embed


def standings_lines(st: Standings) -> list[StandingsLine]:
    return [StandingsLine(i, r.name, r.played, r.left, _num(r.wins), r.avg_rank,
                          _num(r.points), r.rating, r.trend, tuple(r.history),
                          away=not r.registered and st.season.is_open)
            for i, r in enumerate(st.rows, 1)]


def standings_picture(st: Standings, lang: str = i18n.DEFAULT) -> bytes:
    rounds = i18n.t("league.pic.rounds", lang, n=st.rounds_played,
                    planned=st.planned_rounds or 0)
    subtitle = i18n.t("league.pic.subtitle", lang, season=st.season.name,
                      state=_state(not st.season.is_open, lang), rounds=rounds, games=st.games)
    return standings_png(i18n.t("league.pic.title", lang, league=st.league.name), subtitle,
                         standings_lines(st), i18n.t("league.pic.footer", lang), lang)


def rating_text(card: RatingCard, member: Any, lang: str = i18n.DEFAULT) -> str:
    who = member.mention
    if card.season is None:
        return i18n.t("league.rating.no_season", lang, league=card.league.name, who=who)
    lines = [i18n.t("league.rating.head", lang, league=card.league.name, who=who)]
    r = card.season_row
    if r is None or r.played == 0:
        lines.append(i18n.t("league.rating.none_yet", lang, season=card.season.name,
                            start=f"{START_RATING:.1f}"))
    else:
        lines.append(i18n.t(
            "league.rating.season", lang, season=card.season.name, rating=f"{r.rating:.1f}",
            mu=f"{r.skill.mu:.2f}", sigma=f"{r.skill.sigma:.2f}", trend=_signed(r.trend),
            place=card.season_place, size=card.season_size, games=r.played,
            wins=_num(r.wins), wins_n=r.wins, points=_num(r.points),
            avg=f"{r.avg_rank:.2f}"))
    a = card.all_time
    if a is not None and a.played:
        lines.append(i18n.t("league.rating.all_time", lang, rating=f"{a.rating:.1f}",
                            mu=f"{a.skill.mu:.2f}", sigma=f"{a.skill.sigma:.2f}",
                            games=a.played))
    return "\n".join(lines)


def player_text(card: PlayerCard, member: Any, lang: str = i18n.DEFAULT) -> str:
    lines = [f"**{card.league.name} — {card.season.name}**: {member.mention}"]
    r = card.row
    if r is None or not r.played:
        lines.append(i18n.t("league.player.none", lang))
        return "\n".join(lines)
    lines.append(i18n.t(
        "league.player.line", lang, place=card.place, points=_num(r.points),
        wins=_num(r.wins), wins_n=r.wins, avg=f"{r.avg_rank:.2f}", rating=f"{r.rating:.1f}",
        mu=f"{r.skill.mu:.2f}", sigma=f"{r.skill.sigma:.2f}", left=r.left or 0))
    lines.append(i18n.t("league.player.history", lang,
                        spark=sparkline([START_RATING, *r.history]),
                        start=f"{START_RATING:.1f}", rating=f"{r.rating:.1f}"))
    fav = r.favourite_races()
    if fav:
        lines.append(i18n.t("league.player.favourites", lang, races=", ".join(
            f"{i18n.name('race', race, lang)} ×{n}" for race, n in fav)))
    games = []
    for g, rank, n in card.games[-10:]:
        where = (i18n.t("league.player.round", lang, round=g.round_no) if g.round_no
                 else i18n.t("league.player.open_game", lang))
        games.append(i18n.t("league.player.game", lang, game=g.game_id, where=where,
                            place=_place(rank, n, lang), awarded=bool(g.awarded)))
    lines.append(i18n.t("league.player.games", lang, games="; ".join(games)))
    return "\n".join(lines)


def result_text(rec: Recorded, lang: str = i18n.DEFAULT, *, awarded: bool = False) -> str:
    parts = []
    for p in sorted(rec.placings, key=lambda p: (p.rank, p.seat)):
        change = rec.changes.get(p.user_id)
        delta = f" ({_signed(change)})" if change is not None else ""
        parts.append(f"{p.rank}. <@{p.user_id}>{delta}")
    return i18n.t("league.result", lang, league=rec.league.name, season=rec.season.name,
                  game=rec.game_id, places=", ".join(parts), awarded=awarded)


def audit_text(league: League, entries: list[AuditEntry], lang: str = i18n.DEFAULT) -> str:
    if not entries:
        return i18n.t("league.audit.empty", lang, league=league.name)
    lines = [i18n.t("league.audit.head", lang, league=league.name)]
    for e in entries:
        who = f"<@{e.actor_id}>" if e.actor_id else i18n.t("league.audit.bot", lang)
        game = " " + i18n.t("league.audit.game", lang, game=e.game_id) if e.game_id else ""
        why = " — " + i18n.t("league.audit.why", lang, reason=e.reason) if e.reason else ""
        detail = f": {e.detail_in(lang)}" if e.detail else ""
        action = i18n.commands(lang)["choices"].get(e.action, e.action)
        lines.append(f"`{e.at[:16].replace('T', ' ')}` {who} **{action}**{game}{detail}{why}")
    return "\n".join(text.clip_lines(lines, MESSAGE_ROOM))


def round_text(r: RoundStarted, lang: str = i18n.DEFAULT) -> str:
    lines = [i18n.t("league.round.head", lang, league=r.league.name, season=r.season.name,
                    round=r.number, n=len(r.tables), start=r.start_by[11:16],
                    date=r.deadline[:10], time=r.deadline[11:16])]
    for t in r.tables:
        lines.append(i18n.t("league.round.table", lang, table=t.number, channel=t.channel_id,
                            players=", ".join(f"<@{u}>" for u in t.players), ai=t.ai_seats))
    for key, users in (("sitting_out", r.sitting_out), ("unavailable", r.unavailable),
                       ("benched", r.benched)):
        if users:
            lines.append(i18n.t(f"league.round.{key}", lang,
                                users=", ".join(f"<@{u}>" for u in users)))
    return "\n".join(lines)


def table_lobby_text(r: RoundStarted, game: GameRow, lang: str = i18n.DEFAULT) -> str:
    return (i18n.t("league.round.lobby", lang, league=r.league.name, round=r.number,
                   date=r.deadline[:10], time=r.deadline[11:16]) + "\n"
            + lobby_content(game))


def begun_lines(t: TableBegun, lang: str = i18n.DEFAULT) -> list[str]:
    lines = []
    for no_show, sub in t.no_shows:
        how = ("sub" if sub else "ai" if t.ai_seats else "without")
        lines.append(i18n.t(f"league.begin.missed_{how}", lang, user=no_show, sub=sub or 0))
    if t.cancelled:
        lines.append(i18n.t("league.begin.cancelled", lang))
    return lines


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
        self._ticker: asyncio.Task[None] | None = None

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
        self._ticker = asyncio.create_task(self._tick_loop())

    async def cog_unload(self) -> None:
        service = self.bot.service
        if self.leagues.check_seat in service.seat_checks:
            service.seat_checks.remove(self.leagues.check_seat)
        if self._finished in service.finish_listeners:
            service.finish_listeners.remove(self._finished)
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._ticker

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

    async def _channel(self, channel_id: int) -> Any:
        ch = self.bot.get_channel(channel_id)
        if ch is None:
            ch = await self.bot.fetch_channel(channel_id)
        return ch

    # -- the ticker: start windows and weekly summaries -------------------------------------

    async def _tick_loop(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("league tick failed")
            await asyncio.sleep(TICK_SECONDS)

    async def tick(self) -> None:
        """Begin every round whose start window closed; post due weekly summaries."""
        now = self.leagues.now()
        # with several processes, each begins the rounds and posts the summaries of the
        # guilds on its own shards (the others cannot post there)
        shards = self.bot.settings.shards()
        for lid, gid, name in await self.bot.store.due_league_rounds(
                now.isoformat().replace("+00:00", "Z")):
            if shards is not None and not shards.serves(gid):
                continue
            try:
                await self._begin(League(lid, gid, name), None, force=False)
            except ServiceError as exc:
                log.info("league %s: round not begun: %s", lid, exc.message)
        for lg, channel_id in await self.leagues.summaries_due(timedelta(days=7), shards=shards):
            try:
                st = await self.leagues.standings(lg)
                lang = await server_language(self.bot, lg.guild_id)
                png = await asyncio.to_thread(standings_picture, st, lang)
                ch = await self._channel(channel_id)
                await ch.send(i18n.t("league.weekly", lang, league=lg.name,
                                     season=st.season.name),
                              embed=standings_embed(st, lang=lang),
                              file=discord.File(io.BytesIO(png), "standings.png"),
                              allowed_mentions=NO_MENTIONS)
            except (discord.HTTPException, ServiceError) as exc:
                log.warning("weekly summary of league %s failed: %s", lg.id, exc)

    async def _begin(self, lg: League, by: int | None, *, force: bool) -> list[str]:
        """Handle no-shows and start each table's game; its start is the table's turn post."""
        number, tables = await self.leagues.begin_round(lg, by, force=force)
        service = self.bot.service
        lang = await server_language(self.bot, lg.guild_id)
        report = []
        for t in tables:
            lines = begun_lines(t, of_game(t.game))
            if t.cancelled:
                if await self.bot.store.game_message(t.game.id) is None:
                    ch = await self._channel(t.game.channel_id)
                    await ch.send("\n".join(lines), allowed_mentions=NO_MENTIONS)
                else:
                    await self.bot.announcer.retire(t.game, "\n".join(lines))
                report.append(i18n.t("league.begin.report_cancelled", lang, table=t.table,
                                     channel=t.game.channel_id))
                continue
            out = await service.start(t.game.channel_id, by or t.game.opener_id or 0,
                                      is_mod=True)
            glang = of_game(t.game)
            head = [i18n.t("league.begin.table", glang, round=number, table=t.table), *lines]
            if out.panel is not None and out.panel.actor_id:
                head.append(i18n.t("league.begin.your_turn", glang, user=out.panel.actor_id))
            out.lead(*head)  # AI seats are played by the clock's scheduler from here
            await self.bot.announcer.announce(out, picture=True)
            report.append(i18n.t("league.begin.report_started", lang, table=t.table,
                                 channel=t.game.channel_id, n=len(t.no_shows)))
        return report

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
        away_days="Away days its players may spend in 30 days (a cap under the server's)",
        max_missed="To join: at most this % of the member's last turns missed (100: anyone)",
        over="... counted over the member's last turns (default 50)",
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
        away_days: app_commands.Range[int, 0, 30] | None = None,
        max_missed: app_commands.Range[int, 0, 100] | None = None,
        over: app_commands.Range[int, 1, 500] | None = None,
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
        for key, value in (("away_days", away_days), ("max_missed", max_missed),
                           ("over_turns", over)):
            if value is not None:
                changes[key] = value
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
        text += " " + i18n.t("league.settings_long", lang, server=conf.away_days is None,
                             days=conf.away_days or 0, most=conf.max_missed or 100,
                             over=conf.over_turns or 50,
                             asks=conf.max_missed is not None and conf.max_missed < 100)
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
        for t in started.tables:
            game = await self.bot.store.get_game(t.game_id)
            if game is None:
                continue
            try:
                header = i18n.t("league.round.lobby", of_game(game), league=started.league.name,
                                round=started.number, date=started.deadline[:10],
                                time=started.deadline[11:16])
                await self.bot.announcer.post_lobby(
                    None, game, header, mentions=discord.AllowedMentions(
                        users=[discord.Object(id=u) for u in t.players], everyone=False,
                        roles=False))
            except discord.HTTPException as exc:
                log.warning("could not post the lobby of game %s: %s", t.game_id, exc)

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
        report = await self._begin(lg, interaction.user.id, force=force)
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
        await send(interaction, i18n.t("league.available", lang, days=_days(got, lang),
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
        lang = await self._public(interaction)
        record = profile_text(target.id, await self.bot.store.reliability(lg.guild_id,
                                                                        target.id), lang)
        await send(interaction, player_text(card, target, lang) + "\n" + record,
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


__all__ = ["LeagueCog", "Row", "parse_iso", "player_text", "rating_text", "result_text",
           "setup", "standings_embed", "standings_picture"]
