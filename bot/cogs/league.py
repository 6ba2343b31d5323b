"""The /league command group: leagues, seasons, rounds and tables, disputes, standings, export.

Organisers (Manage Server, MOD_ROLE_ID as for /sw-mod, or the league's own organiser role set
with `/league settings`) create leagues, start seasons and rounds, and void, award or re-open
games; every change is answered in the channel and written to the league's audit log
(`/league audit`). Members register, state their availability, sit a round out, and see
everything public: standings (picture and text), player pages, the export, the audit log.
See bot.league for the season flow and bot.standings for the formulas.
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

from bot import flow, text
from bot.league import (
    AUDIT_ACTIONS,
    SCORING_HELP,
    START_RATING,
    AuditEntry,
    League,
    LeagueError,
    LeagueService,
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
from bot.pictures import map_file
from bot.ratings import sparkline
from bot.service import ServiceError
from bot.store import GameRow
from bot.tables import days_text
from bot.ui import NO_MENTIONS, display_name, is_moderator, send
from bot.views import lobby_view, panel_prompt, turn_view
from render.standings import StandingsLine, standings_png

log = logging.getLogger(__name__)

Choice = app_commands.Choice
TABLE_ROWS = 30
TICK_SECONDS = 60.0
MESSAGE_ROOM = 1900  # characters of a league message (Discord allows 2000)
FOOTER = "Points 12×(n−p)/(n−1) · rating OpenSkill μ−3σ · GP played, Left to play"

HELP_TEXT = "\n".join([
    "**Leagues — a season in five steps**",
    "1. An organiser: `/league create`, `/league settings` (organiser role, table size, start "
    "window, round length, AI fill, weekly summary channel), `/league channel add` for each "
    "table channel, `/league season start` (optionally with the number of rounds).",
    "2. Members: `/league join` (or as a substitute), `/league availability`, "
    "`/league sitout` for the next round.",
    "3. Each round: `/league round start` forms tables and opens a lobby per table channel; "
    "players press Join before the start window closes; then the bot (or `/league round "
    "begin`) seats substitutes or AI for no-shows and starts the games.",
    "4. Disputes: `/league void`, `/league award`, `/league reopen` (with a reason; see "
    "`/league audit`).",
    "5. `/league standings`, `/league player`, `/league rating`, `/league export`.",
    "",
    "**Scoring** (only finished, non-void games count; coins stay secret until a game ends)",
    "• Points per game: with n players, place p earns 12×(n−p)/(n−1) — first 12, last 0. "
    "Tied players share the places they cover equally. A member kicked from a game (or who "
    "quit) counts as last; AI seats never earn points or rating.",
    "• Wins: a shared win counts 1/w for each of the w winners.",
    "• Rating: OpenSkill (Plackett–Luce) from the game's final ranking, tie-break applied; "
    f"shown as μ − 3σ, which starts at {START_RATING:.0f} and rises as you win and play.",
    "• The table is sorted by points, then wins, then rating.",
])


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
        raise LeagueError("Leagues live in a server; use this command in a server channel.")
    return interaction.guild_id


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def standings_embed(st: Standings, *, final: bool = False) -> discord.Embed:
    state = "final" if final or not st.season.is_open else "running"
    embed = discord.Embed(
        title=f"{st.league.name} — {st.season.name} standings ({state})",
        colour=discord.Colour.gold() if state == "final" else discord.Colour.blurple(),
    )
    if not st.rows:
        embed.description = "Nobody has registered or played yet. Register with `/league join`."
    else:
        lines = [f"{'#':>2} {'Player':<14} {'GP':>2} {'Left':>4} {'W':>4} {'AvgR':>4} "
                 f"{'Pts':>5} {'Rating':>6} {'Δ':>5}"]
        for i, r in enumerate(st.rows[:TABLE_ROWS], 1):
            avg = f"{r.avg_rank:.1f}" if r.avg_rank is not None else "—"
            left = "—" if r.left is None else str(r.left)
            name = r.name if r.registered or not st.season.is_open else f"{r.name}*"
            trend = _signed(r.trend) if r.played else "—"
            lines.append(f"{i:>2} {name[:14]:<14} {r.played:>2} {left:>4} {_num(r.wins):>4} "
                         f"{avg:>4} {_num(r.points):>5} {r.rating:>6.1f} {trend:>5}")
        if len(st.rows) > TABLE_ROWS:
            lines.append(f"… and {len(st.rows) - TABLE_ROWS} more")
        embed.description = "```\n" + "\n".join(lines) + "\n```"
        if st.season.is_open and any(not r.registered for r in st.rows):
            embed.description += "\n\\* left the season (their games still count)"
    games = f"{st.games} finished game{'s' if st.games != 1 else ''}"
    if st.open_games:
        games += f", {st.open_games} in progress"
    if st.voided:
        games += f", {st.voided} void"
    embed.add_field(name="Games", value=games, inline=True)
    rounds = f"{st.rounds_played}" + (f" of {st.planned_rounds}" if st.planned_rounds else "")
    embed.add_field(name="Rounds", value=rounds, inline=True)
    embed.set_footer(text=SCORING_HELP)
    return embed


def standings_lines(st: Standings) -> list[StandingsLine]:
    return [StandingsLine(i, r.name, r.played, r.left, _num(r.wins), r.avg_rank,
                          _num(r.points), r.rating, r.trend, tuple(r.history),
                          away=not r.registered and st.season.is_open)
            for i, r in enumerate(st.rows, 1)]


def standings_picture(st: Standings) -> bytes:
    state = "final" if not st.season.is_open else "running"
    rounds = f"{st.rounds_played} round{'s' if st.rounds_played != 1 else ''}" + (
        f" of {st.planned_rounds}" if st.planned_rounds else "")
    subtitle = (f"{st.season.name} ({state}) · {rounds} · {st.games} finished game"
                f"{'s' if st.games != 1 else ''}")
    return standings_png(f"{st.league.name} standings", subtitle, standings_lines(st), FOOTER)


def rating_text(card: RatingCard, member: Any) -> str:
    who = member.mention
    if card.season is None:
        return f"{card.league.name} has had no season yet, so {who} has no rating."
    lines = [f"**{card.league.name}** rating of {who}"]
    r = card.season_row
    if r is None or r.played == 0:
        lines.append(f"{card.season.name}: no finished game yet (rating "
                     f"{START_RATING:.1f}).")
    else:
        lines.append(f"{card.season.name}: rating **{r.rating:.1f}** (μ {r.skill.mu:.2f}, "
                     f"σ {r.skill.sigma:.2f}; last game {_signed(r.trend)}), place "
                     f"{card.season_place} of {card.season_size}, {r.played} "
                     f"game{'s' if r.played != 1 else ''}, {_num(r.wins)} "
                     f"win{'s' if r.wins != 1 else ''}, {_num(r.points)} points, average rank "
                     f"{r.avg_rank:.2f}.")
    a = card.all_time
    if a is not None and a.played:
        lines.append(f"All seasons: rating **{a.rating:.1f}** (μ {a.skill.mu:.2f}, σ "
                     f"{a.skill.sigma:.2f}) over {a.played} game{'s' if a.played != 1 else ''}.")
    return "\n".join(lines)


def player_text(card: PlayerCard, member: Any) -> str:
    lines = [f"**{card.league.name} — {card.season.name}**: {member.mention}"]
    r = card.row
    if r is None or not r.played:
        lines.append("No finished game this season yet.")
        return "\n".join(lines)
    lines.append(f"Place {card.place}: {_num(r.points)} points, {_num(r.wins)} "
                 f"win{'s' if r.wins != 1 else ''}, average rank {r.avg_rank:.2f}, rating "
                 f"**{r.rating:.1f}** (μ {r.skill.mu:.2f}, σ {r.skill.sigma:.2f})"
                 + (f", {r.left} game{'s' if r.left != 1 else ''} left" if r.left else "")
                 + ".")
    lines.append(f"Rating history: {sparkline([START_RATING, *r.history])} "
                 f"({START_RATING:.1f} → {r.rating:.1f})")
    fav = r.favourite_races()
    if fav:
        lines.append("Favourite races: " + ", ".join(f"{race} ×{n}" for race, n in fav))
    games = []
    for g, rank, n in card.games[-10:]:
        where = f"round {g.round_no}" if g.round_no else "open game"
        games.append(f"#{g.game_id} ({where}): {_ordinal(rank)} of {n}"
                     + (" (awarded)" if g.awarded else ""))
    lines.append("Games: " + "; ".join(games))
    return "\n".join(lines)


def result_text(rec: Recorded) -> str:
    parts = []
    for p in sorted(rec.placings, key=lambda p: (p.rank, p.seat)):
        change = rec.changes.get(p.user_id)
        delta = f" ({_signed(change)})" if change is not None else ""
        parts.append(f"{p.rank}. <@{p.user_id}>{delta}")
    return (f"**League result** — {rec.league.name}, {rec.season.name}, game #{rec.game_id}: "
            + ", ".join(parts) + ". See `/league standings`.")


def audit_text(league: League, entries: list[AuditEntry]) -> str:
    if not entries:
        return f"{league.name}'s audit log is empty."
    lines = [f"**{league.name} audit log** (newest first)"]
    for e in entries:
        who = f"<@{e.actor_id}>" if e.actor_id else "the bot"
        game = f" game #{e.game_id}" if e.game_id else ""
        why = f" — why: {e.reason}" if e.reason else ""
        detail = f": {e.detail}" if e.detail else ""
        lines.append(f"`{e.at[:16].replace('T', ' ')}` {who} **{e.action}**{game}{detail}{why}")
    return "\n".join(text.clip_lines(lines, MESSAGE_ROOM))


def round_text(r: RoundStarted) -> str:
    lines = [f"**{r.league.name} — {r.season.name}, round {r.number}**: {len(r.tables)} "
             f"table{'s' if len(r.tables) != 1 else ''}. Join your table's lobby by "
             f"{r.start_by[11:16]} UTC; games must finish by {r.deadline[:10]} "
             f"{r.deadline[11:16]} UTC."]
    for t in r.tables:
        ai = f" + {t.ai_seats} AI seat{'s' if t.ai_seats != 1 else ''}" if t.ai_seats else ""
        lines.append(f"Table {t.number} in <#{t.channel_id}>: "
                     + ", ".join(f"<@{u}>" for u in t.players) + ai)
    if r.sitting_out:
        lines.append("Sitting out: " + ", ".join(f"<@{u}>" for u in r.sitting_out))
    if r.unavailable:
        lines.append("Not available this round: " + ", ".join(f"<@{u}>" for u in r.unavailable))
    if r.benched:
        lines.append("Without a table (too few players): "
                     + ", ".join(f"<@{u}>" for u in r.benched))
    return "\n".join(lines)


def table_lobby_text(r: RoundStarted, game: GameRow) -> str:
    return (f"**{r.league.name} — round {r.number}** (deadline {r.deadline[:10]} "
            f"{r.deadline[11:16]} UTC)\n" + flow.lobby_content(game))


def begun_lines(t: TableBegun) -> list[str]:
    lines = []
    for no_show, sub in t.no_shows:
        lines.append(f"<@{no_show}> missed the start; "
                     + (f"<@{sub}> takes the seat." if sub else
                        "an AI seat plays instead." if t.ai_seats else
                        "the table plays without them."))
    if t.cancelled:
        lines.append("Too few players came, so this table is cancelled for the round.")
    return lines


class LeagueCog(commands.Cog):
    """Community leagues run by organisers."""

    league = app_commands.Group(name="league", guild_only=True,
                                description="Community leagues: seasons, rounds, standings")
    season = app_commands.Group(name="season", description="Start or end a league season "
                                "(organisers)", parent=league)
    round = app_commands.Group(name="round", description="Rounds: form tables, begin games "
                               "(organisers)", parent=league)
    channel = app_commands.Group(name="channel", description="The channels league tables "
                                 "play in (organisers)", parent=league)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.leagues = LeagueService(bot.store)  # type: ignore[attr-defined]
        self._rng = random.SystemRandom()
        self._ticker: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        service = self.bot.service  # type: ignore[attr-defined]
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
        service = self.bot.service  # type: ignore[attr-defined]
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
        role = self.bot.settings.mod_role_id  # type: ignore[attr-defined]
        if is_moderator(interaction, role):
            return
        roles = [r.id for r in getattr(interaction.user, "roles", [])]
        if await self.leagues.is_organiser(league, roles):
            return
        org = (await self.leagues.settings(league)).organiser_role_id
        who = "Manage Server" + (f", the <@&{role}> role" if role else "") + (
            f" or {league.name}'s organiser role <@&{org}>" if org else "")
        raise NotOrganiser(f"Only organisers can {doing}: ask someone with {who}.")

    def _require_mod(self, interaction: discord.Interaction, doing: str) -> None:
        role = self.bot.settings.mod_role_id  # type: ignore[attr-defined]
        if not is_moderator(interaction, role):
            who = "Manage Server" + (f" or the <@&{role}> role" if role else "")
            raise LeagueError(f"Only moderators can {doing}: ask someone with {who}.")

    async def _league(self, interaction: discord.Interaction, name: str | None) -> League:
        return await self.leagues.league(_guild(interaction), name)

    async def _finished(self, game: GameRow) -> str | None:
        """GameService finish listener: record the result; the line it returns is posted in
        the channel right after the game's final reveal."""
        rec = await self.leagues.record(game.id)
        return None if rec is None else result_text(rec)

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
        for lid, gid, name in await self.bot.store.due_league_rounds(  # type: ignore[attr-defined]
                now.isoformat().replace("+00:00", "Z")):
            try:
                await self._begin(League(lid, gid, name), None, force=False)
            except ServiceError as exc:
                log.info("league %s: round not begun: %s", lid, exc.message)
        for lg, channel_id in await self.leagues.summaries_due(timedelta(days=7)):
            try:
                st = await self.leagues.standings(lg)
                png = await asyncio.to_thread(standings_picture, st)
                ch = await self._channel(channel_id)
                await ch.send(f"**Weekly summary** — {lg.name}, {st.season.name}",
                              embed=standings_embed(st),
                              file=discord.File(io.BytesIO(png), "standings.png"),
                              allowed_mentions=NO_MENTIONS)
            except (discord.HTTPException, ServiceError) as exc:
                log.warning("weekly summary of league %s failed: %s", lg.id, exc)

    async def _begin(self, lg: League, by: int | None, *, force: bool) -> list[str]:
        """Handle no-shows and start each table's game; post in each table channel."""
        number, tables = await self.leagues.begin_round(lg, by, force=force)
        service = self.bot.service  # type: ignore[attr-defined]
        report = []
        store = self.bot.store  # type: ignore[attr-defined]
        for t in tables:
            lines = begun_lines(t)
            ch = await self._channel(t.game.channel_id)
            lobby = await store.game_message(t.game.id)
            if t.cancelled:
                await flow.retire_game_message(self.bot, service, t.game, "\n".join(lines))
                if lobby is None:
                    await ch.send("\n".join(lines), allowed_mentions=NO_MENTIONS)
                report.append(f"Table {t.table} <#{t.game.channel_id}>: cancelled.")
                continue
            mod = by or t.game.opener_id or 0
            out = await service.start(t.game.channel_id, mod, is_mod=True)
            lines += out.public  # AI seats are played by the clock's scheduler from here
            view = None
            ping = []
            if not out.finished:
                panel = await service.panel(t.game.channel_id)
                if panel.actor_id:
                    lines.append(f"<@{panel.actor_id}>, it is your turn.")
                    ping.append(discord.Object(id=panel.actor_id))
                lines.append(panel_prompt(panel))
                view = turn_view(panel)
            picture = await map_file(out.state)
            msg = await ch.send(
                "\n".join(text.clip_lines([f"**Round {number}, table {t.table}** begins."]
                                           + lines, MESSAGE_ROOM)),
                file=picture or discord.utils.MISSING, view=view or discord.utils.MISSING,
                allowed_mentions=discord.AllowedMentions(users=ping, everyone=False,
                                                         roles=False))
            # the lobby is retired and the start post becomes the game's living message
            if lobby is not None:
                players = ", ".join(f"<@{s.user_id}>" for s in out.game.players if s.user_id)
                await flow.retire_game_message(
                    self.bot, service, t.game,
                    text.LOBBY_STARTED.format(game=t.game.id, players=players))
            await store.set_game_message(t.game.id, msg.id)
            report.append(f"Table {t.table} <#{t.game.channel_id}>: started"
                          + (f" ({len(t.no_shows)} no-show"
                             f"{'s' if len(t.no_shows) != 1 else ''})" if t.no_shows else "")
                          + ".")
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
        return [Choice(name=s.name + (" (open)" if s.is_open else ""), value=s.name)
                for s in seasons if needle in s.name.casefold()][:25]

    # -- organisers: league, settings, channels, seasons ------------------------------------

    @league.command(name="create", description="Create a league in this server (moderators)")
    @app_commands.describe(name="The league's name, e.g. Friday League")
    async def create(self, interaction: discord.Interaction,
                     name: app_commands.Range[str, 1, 40]) -> None:
        guild_id = _guild(interaction)
        self._require_mod(interaction, "create a league")
        lg = await self.leagues.create_league(guild_id, name, interaction.user.id)
        await self.leagues.audit(lg, by=interaction.user.id, action="create", detail=lg.name)
        log.info("league %s created by %s", lg.id, interaction.user.id)
        await send(interaction, f"Created the league **{lg.name}**. Set it up with "
                                "`/league settings` and `/league channel add`, then start its "
                                "first season with `/league season start`.",
                   allowed_mentions=NO_MENTIONS)

    @league.command(name="settings", description="Organiser role, tables, start window, AI "
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
            await self._require_organiser(interaction, lg, "change league settings")
            conf = await self.leagues.configure(lg, interaction.user.id, changes)
        else:
            conf = await self.leagues.settings(lg)
        text = (f"**{lg.name} settings**: organiser role "
                f"{f'<@&{conf.organiser_role_id}>' if conf.organiser_role_id else 'none'}; "
                f"tables of {conf.table_size}; start window {conf.start_minutes} min; rounds "
                f"last {conf.round_days} day{'s' if conf.round_days != 1 else ''}; AI fill "
                f"{'on' if conf.allow_ai else 'off'}; weekly summary "
                f"{f'<#{conf.summary_channel}>' if conf.summary_channel else 'off'}; table "
                "channels " + (", ".join(f"<#{c}>" for c in conf.channels) or "none yet")
                + ".")
        await send(interaction, ("Updated. " if changes else "") + text,
                   ephemeral=not changes, allowed_mentions=NO_MENTIONS)

    @channel.command(name="add", description="Let league tables play in a channel (organisers)")
    @app_commands.describe(channel="A text channel for one table at a time",
                           league="Which league (needed when the server has several)")
    async def channel_add(self, interaction: discord.Interaction, channel: discord.TextChannel,
                          league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        await self._require_organiser(interaction, lg, "change table channels")
        if not await self.leagues.set_channel(lg, interaction.user.id, channel.id, True):
            raise LeagueError(f"{channel.mention} is already a table channel of {lg.name}.")
        await send(interaction, f"{channel.mention} is now a table channel of **{lg.name}**.",
                   allowed_mentions=NO_MENTIONS)

    @channel.command(name="remove", description="Stop using a channel for league tables "
                                                "(organisers)")
    @app_commands.describe(channel="A table channel",
                           league="Which league (needed when the server has several)")
    async def channel_remove(self, interaction: discord.Interaction,
                             channel: discord.TextChannel, league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        await self._require_organiser(interaction, lg, "change table channels")
        if not await self.leagues.set_channel(lg, interaction.user.id, channel.id, False):
            raise LeagueError(f"{channel.mention} is not a table channel of {lg.name}.")
        await send(interaction, f"{channel.mention} is no longer a table channel of "
                                f"**{lg.name}**.", allowed_mentions=NO_MENTIONS)

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
        await self._require_organiser(interaction, lg, "start a season")
        season = await self.leagues.start_season(lg, name, interaction.user.id, rounds=rounds)
        await self.leagues.audit(lg, by=interaction.user.id, action="season start",
                                 season=season, detail=season.name
                                 + (f", {rounds} rounds" if rounds else ""))
        await send(interaction, f"**{season.name}** of {lg.name} has started"
                                + (f" ({rounds} rounds)" if rounds else "")
                                + "! Register with `/league join`; organisers form tables "
                                "with `/league round start`, or anyone opens a game with "
                                "`/league game`.", allowed_mentions=NO_MENTIONS)

    @season.command(name="end", description="End the open season and post its final standings "
                                            "(organisers)")
    @app_commands.describe(league="Which league (needed when the server has several)")
    async def season_end(self, interaction: discord.Interaction, league: str | None = None
                         ) -> None:
        _guild(interaction)
        lg = await self._league(interaction, league)
        await self._require_organiser(interaction, lg, "end a season")
        season = await self.leagues.end_season(lg, interaction.user.id)
        await self.leagues.audit(lg, by=interaction.user.id, action="season end",
                                 season=season, detail=season.name)
        st = await self.leagues.standings(lg, season.name)
        note = (f"**{season.name}** of {lg.name} is over. Final standings below.")
        if st.open_games:
            note += (f" {st.open_games} league game{'s are' if st.open_games != 1 else ' is'} "
                     "still open; results that finish later still count for this season.")
        await send(interaction, note, embed=standings_embed(st, final=True),
                   allowed_mentions=NO_MENTIONS)

    # -- organisers: rounds -----------------------------------------------------------------

    @round.command(name="start", description="Form the next round's tables and open their "
                                             "lobbies (organisers)")
    @app_commands.describe(league="Which league (needed when the server has several)")
    async def round_start(self, interaction: discord.Interaction, league: str | None = None
                          ) -> None:
        guild_id = _guild(interaction)
        lg = await self._league(interaction, league)
        await self._require_organiser(interaction, lg, "start a round")
        started = await self.leagues.start_round(
            lg, interaction.user.id, guild_id=guild_id,
            seed=lambda: self._rng.randrange(1, 2**31))
        await send(interaction, round_text(started), allowed_mentions=NO_MENTIONS)
        store = self.bot.store  # type: ignore[attr-defined]
        for t in started.tables:
            game = await store.get_game(t.game_id)
            try:
                ch = await self._channel(t.channel_id)
                msg = await ch.send(table_lobby_text(started, game),
                                    view=lobby_view(game),
                                    allowed_mentions=discord.AllowedMentions(
                                        users=[discord.Object(id=u) for u in t.players],
                                        everyone=False, roles=False))
                await store.set_game_message(t.game_id, msg.id)  # the table's living message
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
        await self._require_organiser(interaction, lg, "begin a round")
        await self.leagues.round_to_begin(lg, force=force)  # refusals stay ephemeral
        await interaction.response.defer(thinking=True)
        report = await self._begin(lg, interaction.user.id, force=force)
        await send(interaction, f"**{lg.name}**: the round has begun.\n" + "\n".join(report),
                   allowed_mentions=NO_MENTIONS)

    # -- organisers: disputes ---------------------------------------------------------------

    @league.command(name="void", description="Void a league game: it counts for nothing "
                                             "(organisers)")
    @app_commands.describe(game="Game number", reason="Why (goes into the audit log)",
                           league="Which league (needed when the server has several)")
    async def void(self, interaction: discord.Interaction, game: int,
                   reason: app_commands.Range[str, 1, 200],
                   league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        await self._require_organiser(interaction, lg, "void a game")
        season = await self.leagues.void(lg, interaction.user.id, game, reason)
        log.info("league %s: game %s voided by %s", lg.id, game, interaction.user.id)
        await send(interaction, f"Game #{game} of {lg.name}, {season.name} is **void**; "
                                f"standings and ratings are recomputed without it. Why: "
                                f"{reason.strip()}", allowed_mentions=NO_MENTIONS)

    @league.command(name="award", description="Set a league game's result by hand "
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
        await self._require_organiser(interaction, lg, "award a game")
        order = [m.id for m in (first, second, third, fourth, fifth) if m is not None]
        service = self.bot.service  # type: ignore[attr-defined]

        async def stop(open_game: GameRow) -> None:  # through the service: lock and cache
            await service.end(open_game.channel_id, interaction.user.id)

        rec = await self.leagues.award(lg, interaction.user.id, game, order, reason, stop=stop)
        await send(interaction, result_text(rec).replace("**League result**",
                                                         "**League result (awarded)**")
                   + f" Why: {reason.strip()}", allowed_mentions=NO_MENTIONS)

    @league.command(name="reopen", description="Undo a void or an award (organisers)")
    @app_commands.describe(game="Game number", reason="Why (goes into the audit log)",
                           league="Which league (needed when the server has several)")
    async def reopen(self, interaction: discord.Interaction, game: int,
                     reason: app_commands.Range[str, 1, 200],
                     league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        await self._require_organiser(interaction, lg, "re-open a game")
        what = await self.leagues.reopen(lg, interaction.user.id, game, reason)
        await send(interaction, f"Game #{game} of {lg.name} {what}. Why: {reason.strip()}",
                   allowed_mentions=NO_MENTIONS)

    @league.command(name="audit", description="Who changed what in the league, and why")
    @app_commands.describe(action="Only this kind of change", game="Only this game's entries",
                           league="Which league (needed when the server has several)")
    @app_commands.choices(action=[Choice(name=a, value=a) for a in AUDIT_ACTIONS])
    async def audit(self, interaction: discord.Interaction, action: str | None = None,
                    game: int | None = None, league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        entries = await self.leagues.audit_log(lg, 20, action=action, game_id=game)
        await send(interaction, audit_text(lg, entries), ephemeral=True,
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
        what = "as a substitute " if substitute else ""
        await send(interaction, f"{interaction.user.mention} registered {what}for "
                                f"**{season.name}** of {lg.name}. Set your days with "
                                "`/league availability`.", allowed_mentions=NO_MENTIONS)

    @league.command(name="leave", description="Leave the open season (played games still count)")
    @app_commands.describe(league="Which league (needed when the server has several)")
    async def leave(self, interaction: discord.Interaction, league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        season = await self.leagues.unregister(lg, interaction.user.id)
        await send(interaction, f"{interaction.user.mention} left **{season.name}** of "
                                f"{lg.name}. Games already played stay in the standings.",
                   allowed_mentions=NO_MENTIONS)

    @league.command(name="availability", description="The weekdays you can play (UTC)")
    @app_commands.describe(days="e.g. `mon wed sat`, or `any`",
                           league="Which league (needed when the server has several)")
    async def availability(self, interaction: discord.Interaction,
                           days: app_commands.Range[str, 1, 60], league: str | None = None
                           ) -> None:
        lg = await self._league(interaction, league)
        got = await self.leagues.set_days(lg, interaction.user.id, days)
        await send(interaction, f"You're available on {days_text(got)} for {lg.name}; rounds "
                                "that cover none of these days skip you.", ephemeral=True)

    @league.command(name="sitout", description="Sit out the next round (or take it back)")
    @app_commands.describe(sit_out="True to sit out the next round, False to play",
                           league="Which league (needed when the server has several)")
    async def sitout(self, interaction: discord.Interaction, sit_out: bool = True,
                     league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        await self.leagues.set_sit_out(lg, interaction.user.id, sit_out)
        await send(interaction, "You'll sit out the next round of " + lg.name + "."
                   if sit_out else f"You're back in the next round of {lg.name}.",
                   ephemeral=True)

    @league.command(name="players", description="Who is registered for a season")
    @app_commands.describe(season="Which season (default: the open one)",
                           league="Which league (needed when the server has several)")
    async def players(self, interaction: discord.Interaction, season: str | None = None,
                      league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        s = await self.leagues.season(lg, season)
        regs = await self.leagues.registrations(s)
        if not regs:
            body = "Nobody is registered yet." + (" Register with `/league join`."
                                                  if s.is_open else "")
        else:
            body = ", ".join(f"<@{r.user_id}>" for r in regs)
        await send(interaction, f"**{lg.name} — {s.name}**: {len(regs)} registered player"
                                f"{'s' if len(regs) != 1 else ''}.\n{body}",
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
            raise LeagueError("Open league games in a server channel.")
        lg = await self._league(interaction, league)
        role = self.bot.settings.mod_role_id  # type: ignore[attr-defined]
        members = [(m.id, display_name(m)) for m in (player1, player2, player3, player4)
                   if m is not None and not m.bot]
        game, season = await self.leagues.open_game(
            lg, guild_id=guild_id, channel_id=interaction.channel_id,
            opener_id=interaction.user.id, opener_name=display_name(interaction.user),
            is_mod=is_moderator(interaction, role), members=members, seats=seats,
            seed=self._rng.randrange(1, 2**31),
        )
        await flow.post_lobby(interaction, game)

    @league.command(name="standings", description="Season table as a picture and text: points, "
                                                  "wins, avg rank, rating, games left")
    @app_commands.describe(season="Which season (default: the open one, else the last)",
                           league="Which league (needed when the server has several)")
    async def standings(self, interaction: discord.Interaction, season: str | None = None,
                        league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        st = await self.leagues.standings(lg, season)
        png = await asyncio.to_thread(standings_picture, st)
        await send(interaction, embed=standings_embed(st),
                   file=discord.File(io.BytesIO(png), "standings.png",
                                     description=f"{lg.name} {st.season.name} standings"),
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
        await send(interaction, player_text(card, target), allowed_mentions=NO_MENTIONS)

    @league.command(name="rating", description="A member's league rating (OpenSkill μ − 3σ)")
    @app_commands.describe(member="Whose rating (default: yours)",
                           public="Post it for everyone (default: only you see it)",
                           league="Which league (needed when the server has several)")
    async def rating(self, interaction: discord.Interaction, member: discord.Member | None = None,
                     public: bool = False, league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        target: Any = member or interaction.user
        card = await self.leagues.rating(lg, target.id)
        await send(interaction, rating_text(card, target), ephemeral=not public,
                   allowed_mentions=NO_MENTIONS)

    @league.command(name="export", description="The season's games and results as CSV and JSON")
    @app_commands.describe(season="Which season (default: the open one, else the last)",
                           league="Which league (needed when the server has several)")
    async def export(self, interaction: discord.Interaction, season: str | None = None,
                     league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        s, csv_text, json_text = await self.leagues.export(lg, season)
        stem = "".join(ch if ch.isalnum() else "-" for ch in f"{lg.name}-{s.name}").lower()
        await send(interaction, f"{lg.name} — {s.name}: every game and result (columns in the "
                                "README, Leagues → Export).",
                   files=[discord.File(io.BytesIO(csv_text.encode()), f"{stem}.csv"),
                          discord.File(io.BytesIO(json_text.encode()), f"{stem}.json")],
                   ephemeral=True)

    @league.command(name="help", description="How leagues work and how standings are scored")
    async def help(self, interaction: discord.Interaction) -> None:
        await send(interaction, HELP_TEXT, ephemeral=True)

    for _cmd in (join, leave, players, game, standings, rating, player, export, settings_,
                 channel_add, channel_remove, season_start, season_end, round_start,
                 round_begin, void, award, reopen, audit, availability, sitout):
        _cmd.autocomplete("league")(_league_names)
    players.autocomplete("season")(_season_names)
    standings.autocomplete("season")(_season_names)
    player.autocomplete("season")(_season_names)
    export.autocomplete("season")(_season_names)
    del _cmd


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeagueCog(bot))


__all__ = ["LeagueCog", "Row", "parse_iso", "player_text", "rating_text", "result_text",
           "setup", "standings_embed", "standings_picture"]
