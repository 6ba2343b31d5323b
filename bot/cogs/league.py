"""The /league command group: leagues, seasons, registration, league games, standings.

Moderators (Manage Server or MOD_ROLE_ID, as for /sw-mod) create leagues and start or end
seasons; members register for the open season and play league games opened with
`/league game`. Finished games feed the standings (see bot.league for the formulas).
"""

from __future__ import annotations

import logging
import random
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import flow
from bot.league import (
    SCORING_HELP,
    START_RATING,
    League,
    LeagueError,
    LeagueService,
    RatingCard,
    Recorded,
    Row,
    Standings,
)
from bot.store import GameRow
from bot.ui import NO_MENTIONS, display_name, is_moderator, send

log = logging.getLogger(__name__)

Choice = app_commands.Choice
TABLE_ROWS = 30

HELP_TEXT = "\n".join([
    "**Leagues**",
    "Moderators: `/league create`, `/league season start`, `/league season end`.",
    "Members: `/league join` the open season (`/league leave` keeps the games you played), "
    "`/league players`, `/league game` to open a league lobby here (only registered players "
    "can join it), `/league standings`, `/league rating`.",
    "",
    "**Scoring** (only finished games count; coins stay secret until a game ends)",
    "• Points per game: with n players, place p earns 12×(n−p)/(n−1) — first 12, last 0 "
    "(2p 12/0, 3p 12/6/0, 4p 12/8/4/0, 5p 12/9/6/3/0). Tied players share the places "
    "they cover equally.",
    "• Wins: a shared win counts 1/w for each of the w winners.",
    "• Avg rank: the rank announced at the end (ties share the better rank).",
    f"• Rating: multiplayer Elo from {START_RATING:.0f}. Each pair in a game is a duel with "
    "expected score 1/(1+10^((R_opp−R_you)/400)) and result 1, ½ (tie) or 0; your rating "
    "moves by 32/(n−1) × Σ(result − expected), games applied in the order they finished.",
    "• The table is sorted by points, then wins, then rating.",
])


def _num(x: float) -> str:
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _signed(x: float) -> str:
    n = round(x)
    return f"+{n}" if n > 0 else ("±0" if n == 0 else str(n))


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise LeagueError("Leagues live in a server; use this command in a server channel.")
    return interaction.guild_id


def standings_embed(st: Standings, *, final: bool = False) -> discord.Embed:
    state = "final" if final or not st.season.is_open else "running"
    embed = discord.Embed(
        title=f"{st.league.name} — {st.season.name} standings ({state})",
        colour=discord.Colour.gold() if state == "final" else discord.Colour.blurple(),
    )
    if not st.rows:
        embed.description = "Nobody has registered or played yet. Register with `/league join`."
    else:
        lines = [f"{'#':>2} {'Player':<14} {'GP':>2} {'W':>4} {'AvgR':>4} {'Pts':>5} {'Elo':>4}"]
        for i, r in enumerate(st.rows[:TABLE_ROWS], 1):
            avg = f"{r.avg_rank:.1f}" if r.avg_rank is not None else "—"
            name = r.name if r.registered or not st.season.is_open else f"{r.name}*"
            lines.append(f"{i:>2} {name[:14]:<14} {r.played:>2} {_num(r.wins):>4} {avg:>4} "
                         f"{_num(r.points):>5} {round(r.rating):>4}")
        if len(st.rows) > TABLE_ROWS:
            lines.append(f"… and {len(st.rows) - TABLE_ROWS} more")
        embed.description = "```\n" + "\n".join(lines) + "\n```"
        if st.season.is_open and any(not r.registered for r in st.rows):
            embed.description += "\n\\* left the season (their games still count)"
    games = f"{st.games} finished game{'s' if st.games != 1 else ''}"
    if st.open_games:
        games += f", {st.open_games} in progress"
    embed.add_field(name="Games", value=games, inline=True)
    embed.set_footer(text=SCORING_HELP)
    return embed


def rating_text(card: RatingCard, member: discord.abc.User) -> str:
    who = member.mention
    if card.season is None:
        return f"{card.league.name} has had no season yet, so {who} has no rating."
    lines = [f"**{card.league.name}** rating of {who}"]
    r = card.season_row
    if r is None or r.played == 0:
        lines.append(f"{card.season.name}: no finished game yet (rating {START_RATING:.0f}).")
    else:
        lines.append(f"{card.season.name}: rating **{round(r.rating)}** "
                     f"(last game {_signed(r.last_change)}), place {card.season_place} of "
                     f"{card.season_size}, {r.played} game{'s' if r.played != 1 else ''}, "
                     f"{_num(r.wins)} win{'s' if r.wins != 1 else ''}, "
                     f"{_num(r.points)} points, average rank {r.avg_rank:.2f}.")
    a = card.all_time
    if a is not None and a.played:
        lines.append(f"All seasons: rating **{round(a.rating)}** over {a.played} "
                     f"game{'s' if a.played != 1 else ''}.")
    return "\n".join(lines)


def result_text(rec: Recorded) -> str:
    parts = []
    for p in sorted(rec.placings, key=lambda p: (p.rank, p.seat)):
        change = rec.changes.get(p.user_id)
        delta = f" ({_signed(change)})" if change is not None else ""
        parts.append(f"{p.rank}. <@{p.user_id}>{delta}")
    return (f"**League result** — {rec.league.name}, {rec.season.name}, game #{rec.game_id}: "
            + ", ".join(parts) + ". See `/league standings`.")


class LeagueCog(commands.Cog):
    """Community leagues run by moderators."""

    league = app_commands.Group(name="league", guild_only=True,
                                description="Community leagues: seasons, games, standings")
    season = app_commands.Group(name="season", description="Start or end a league season "
                                "(moderators)", parent=league)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.leagues = LeagueService(bot.store)  # type: ignore[attr-defined]
        self._rng = random.SystemRandom()

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

    async def cog_unload(self) -> None:
        service = self.bot.service  # type: ignore[attr-defined]
        if self.leagues.check_seat in service.seat_checks:
            service.seat_checks.remove(self.leagues.check_seat)
        if self._finished in service.finish_listeners:
            service.finish_listeners.remove(self._finished)

    # -- helpers --------------------------------------------------------------------------

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

    # -- moderators -----------------------------------------------------------------------

    @league.command(name="create", description="Create a league in this server (moderators)")
    @app_commands.describe(name="The league's name, e.g. Friday League")
    async def create(self, interaction: discord.Interaction,
                     name: app_commands.Range[str, 1, 40]) -> None:
        guild_id = _guild(interaction)
        self._require_mod(interaction, "create a league")
        lg = await self.leagues.create_league(guild_id, name, interaction.user.id)
        await send(interaction, f"Created the league **{lg.name}**. Start its first season with "
                                "`/league season start`.", allowed_mentions=NO_MENTIONS)

    @season.command(name="start", description="Open a new season of a league (moderators)")
    @app_commands.describe(name="The season's name, e.g. Spring 2026",
                           league="Which league (needed when the server has several)")
    async def season_start(self, interaction: discord.Interaction,
                           name: app_commands.Range[str, 1, 40], league: str | None = None
                           ) -> None:
        _guild(interaction)
        self._require_mod(interaction, "start a season")
        lg = await self._league(interaction, league)
        season = await self.leagues.start_season(lg, name, interaction.user.id)
        await send(interaction, f"**{season.name}** of {lg.name} has started! Register with "
                                "`/league join`, then open games with `/league game`.",
                   allowed_mentions=NO_MENTIONS)

    @season.command(name="end", description="End the open season and post its final standings "
                                            "(moderators)")
    @app_commands.describe(league="Which league (needed when the server has several)")
    async def season_end(self, interaction: discord.Interaction, league: str | None = None
                         ) -> None:
        _guild(interaction)
        self._require_mod(interaction, "end a season")
        lg = await self._league(interaction, league)
        season = await self.leagues.end_season(lg, interaction.user.id)
        st = await self.leagues.standings(lg, season.name)
        note = (f"**{season.name}** of {lg.name} is over. Final standings below.")
        if st.open_games:
            note += (f" {st.open_games} league game{'s are' if st.open_games != 1 else ' is'} "
                     "still open; results that finish later still count for this season.")
        await send(interaction, note, embed=standings_embed(st, final=True),
                   allowed_mentions=NO_MENTIONS)

    season_start.autocomplete("league")(_league_names)
    season_end.autocomplete("league")(_league_names)

    # -- members --------------------------------------------------------------------------

    @league.command(name="join", description="Register for the league's open season")
    @app_commands.describe(league="Which league (needed when the server has several)")
    async def join(self, interaction: discord.Interaction, league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        season = await self.leagues.register(lg, interaction.user.id,
                                             display_name(interaction.user))
        await send(interaction, f"{interaction.user.mention} registered for **{season.name}** "
                                f"of {lg.name}. Open a game with `/league game`.",
                   allowed_mentions=NO_MENTIONS)

    @league.command(name="leave", description="Leave the open season (played games still count)")
    @app_commands.describe(league="Which league (needed when the server has several)")
    async def leave(self, interaction: discord.Interaction, league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        season = await self.leagues.unregister(lg, interaction.user.id)
        await send(interaction, f"{interaction.user.mention} left **{season.name}** of "
                                f"{lg.name}. Games already played stay in the standings.",
                   allowed_mentions=NO_MENTIONS)

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

    @league.command(name="standings", description="Season table: games, wins, avg rank, points "
                                                  "(12×(n−place)/(n−1)), Elo rating")
    @app_commands.describe(season="Which season (default: the open one, else the last)",
                           league="Which league (needed when the server has several)")
    async def standings(self, interaction: discord.Interaction, season: str | None = None,
                        league: str | None = None) -> None:
        lg = await self._league(interaction, league)
        st = await self.leagues.standings(lg, season)
        await send(interaction, embed=standings_embed(st), allowed_mentions=NO_MENTIONS)

    @league.command(name="rating", description="A member's league rating (pairwise Elo from "
                                               "1500, K=32/(n−1))")
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

    @league.command(name="help", description="How leagues work and how standings are scored")
    async def help(self, interaction: discord.Interaction) -> None:
        await send(interaction, HELP_TEXT, ephemeral=True)

    for _cmd in (join, leave, players, game, standings, rating):
        _cmd.autocomplete("league")(_league_names)
    players.autocomplete("season")(_season_names)
    standings.autocomplete("season")(_season_names)
    del _cmd


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeagueCog(bot))


__all__ = ["LeagueCog", "Row", "rating_text", "result_text", "setup", "standings_embed"]
