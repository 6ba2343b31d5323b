"""The league's deadline kinds on the one clock, handled without Discord.

`round` (a round's start window closed): the round begins — no-shows replaced, each table's
game started (LeagueService.begin_round) — and the tables' starts are posted. `summary` (a
week since the last one): the weekly standings are posted in the league's summary channel.
The bot registers the handlers with the scheduler's dispatch (`register`) as it registers
the game's (bot.game.autoplay); what is posted goes through `LeaguePosts`, which the chat
side supplies (bot.chat.league_posts). The timers themselves are armed by the league
service (bot.league.timers).
"""

from __future__ import annotations

import logging
from typing import Protocol

from bot.clock import Dispatch, LeagueTimer
from bot.errors import ServiceError
from bot.league.models import TableBegun
from bot.league.service import LeagueService
from bot.store import League

log = logging.getLogger(__name__)


class LeaguePosts(Protocol):
    """What the league's clock posts (bot.chat.league_posts.LeaguePosts)."""

    async def round_begun(self, league: League, number: int, tables: list[TableBegun],
                          by: int | None) -> list[str]: ...

    async def summary(self, league: League, channel_id: int) -> None: ...


class LeagueClock:
    """The handlers of the league timer kinds."""

    def __init__(self, leagues: LeagueService, posts: LeaguePosts) -> None:
        self.leagues = leagues
        self.posts = posts
        self.begun = 0  # rounds begun by their window closing
        self.summaries = 0

    def register(self, dispatch: Dispatch) -> None:
        dispatch.on_league("round", self.window_closed)
        dispatch.on_league("summary", self.summary_due)

    async def window_closed(self, timer: LeagueTimer) -> None:
        """Begin the round whose start window closed (nothing when an organiser began it
        already, or another process did)."""
        league = await self.leagues.store.league(timer.league_id)
        if league is None:
            return
        try:
            number, tables = await self.leagues.begin_round(league, None)
        except ServiceError as exc:  # begun already, the season ended...: nothing to do
            log.info("league %s: round not begun: %s", league.id, exc.message)
            return
        self.begun += 1
        await self.posts.round_begun(league, number, tables, None)

    async def summary_due(self, timer: LeagueTimer) -> None:
        """Post the weekly standings if they are due (once, across processes)."""
        league = await self.leagues.store.league(timer.league_id)
        if league is None:
            return
        channel_id = await self.leagues.claim_summary(league)
        if channel_id is not None:
            self.summaries += 1
            await self.posts.summary(league, channel_id)
