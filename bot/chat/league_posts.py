"""The league's public posts that no member's command answers: a round's table lobbies, the
start of each table's game when a round begins (through the Announcer, like every turn
post), and the weekly standings. The league's clock (bot.league.clock) and the organisers'
commands both post through here; the words are bot.chat.league_texts'."""

from __future__ import annotations

import asyncio
import io
import logging

import discord

import i18n
from bot.chat.announce import Announcer
from bot.chat.league_texts import begun_lines, standings_embed, standings_picture
from bot.errors import ServiceError
from bot.language import Languages, of_game
from bot.league import LeagueService, RoundStarted, TableBegun
from bot.store import League
from bot.ui import NO_MENTIONS

log = logging.getLogger(__name__)


class LeaguePosts:
    """Posts in a league's channels (one instance per bot)."""

    def __init__(self, client: discord.Client, leagues: LeagueService, announcer: Announcer,
                 languages: Languages) -> None:
        self.client = client
        self.leagues = leagues
        self.announcer = announcer
        self.languages = languages

    async def language(self, guild_id: int | None) -> str:
        """The language of a league's public posts: the server's (English when unset)."""
        return await self.languages.for_new_game(guild_id)

    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    async def round_started(self, started: RoundStarted) -> None:
        """Each table's lobby in its channel, pinging the players drawn for it."""
        for t in started.tables:
            game = await self.leagues.store.get_game(t.game_id)
            if game is None:
                continue
            header = i18n.t("league.round.lobby", of_game(game), league=started.league.name,
                            round=started.number, date=started.deadline[:10],
                            time=started.deadline[11:16])
            try:
                await self.announcer.post_lobby(None, game, header, mentions=discord.AllowedMentions(
                    users=[discord.Object(id=u) for u in t.players], everyone=False, roles=False))
            except discord.HTTPException as exc:
                log.warning("could not post the lobby of game %s: %s", t.game_id, exc)

    async def round_begun(self, league: League, number: int, tables: list[TableBegun],
                          by: int | None) -> list[str]:
        """Each table's start is its turn post (the Announcer's); a cancelled table's living
        message says so. -> the organiser's report, a line per table."""
        lang = await self.language(league.guild_id)
        report = []
        for t in tables:
            lines = begun_lines(t, of_game(t.game))
            try:
                if t.cancelled or t.outcome is None:
                    await self._cancelled(t, "\n".join(lines))
                    report.append(i18n.t("league.begin.report_cancelled", lang, table=t.table,
                                         channel=t.game.channel_id))
                    continue
                out = t.outcome
                glang = of_game(t.game)
                head = [i18n.t("league.begin.table", glang, round=number, table=t.table),
                        *lines]
                if out.panel is not None and out.panel.actor_id:
                    head.append(i18n.t("league.begin.your_turn", glang,
                                       user=out.panel.actor_id))
                out.lead(*head)  # AI seats are played by the clock's scheduler from here
                await self.announcer.announce(out, picture=True)
            except discord.HTTPException as exc:  # the other tables still get theirs
                log.warning("could not post the start of game %s: %s", t.game.id, exc)
            report.append(i18n.t("league.begin.report_started", lang, table=t.table,
                                 channel=t.game.channel_id, n=len(t.no_shows)))
        return report

    async def _cancelled(self, t: TableBegun, content: str) -> None:
        if await self.leagues.store.game_message(t.game.id) is None:
            await self._channel(t.game.channel_id).send(content, allowed_mentions=NO_MENTIONS)
        else:
            await self.announcer.retire(t.game, content)

    async def summary(self, league: League, channel_id: int) -> None:
        """The weekly standings (embed and picture) in the summary channel."""
        try:
            st = await self.leagues.standings(league)
            lang = await self.language(league.guild_id)
            png = await asyncio.to_thread(standings_picture, st, lang)
            await self._channel(channel_id).send(
                i18n.t("league.weekly", lang, league=league.name, season=st.season.name),
                embed=standings_embed(st, lang=lang),
                file=discord.File(io.BytesIO(png), "standings.png"), allowed_mentions=NO_MENTIONS)
        except (discord.HTTPException, ServiceError) as exc:  # (the season just ended)
            log.warning("weekly summary of league %s failed: %s", league.id, exc)
