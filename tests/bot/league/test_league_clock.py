"""The league on the one clock: the real Scheduler and Dispatch over the real store (SQLite
and PostgreSQL) fire the league's timers into LeagueClock, at the times the league set. The
posts are recorded here instead of sent (the e2e tests send them through the fake Discord).
Time is the test's: the scheduler and the league read the same hand-moved clock."""

from __future__ import annotations

import asyncio
import random
import time
from datetime import timedelta

from bot.clock import Dispatch, Scheduler
from bot.game.service import GameService
from bot.league import LeagueService, TableBegun
from bot.league.clock import LeagueClock
from bot.store import GameStatus, League, Shards, Store, open_store

GUILD = 10
MOD = 500


class Posts:
    """What the clock posted."""

    def __init__(self) -> None:
        self.begun: list[tuple[int, int, list[TableBegun]]] = []
        self.summaries: list[tuple[int, int]] = []

    async def round_begun(self, league: League, number: int, tables: list[TableBegun],
                          by: int | None) -> list[str]:
        assert by is None  # the clock, not an organiser
        self.begun.append((league.id, number, tables))
        return []

    async def summary(self, league: League, channel_id: int) -> None:
        self.summaries.append((league.id, channel_id))


def clock_of(store: Store, leagues: LeagueService, clock, *, shards: Shards | None = None
             ) -> tuple[Scheduler, LeagueClock, Posts]:
    """A bot's clock wiring, as bot/app.py does it, on the test's time."""
    posts = Posts()
    league_clock = LeagueClock(leagues, posts)
    dispatch = Dispatch(store)
    league_clock.register(dispatch)
    scheduler = Scheduler(store, dispatch, clock=lambda: clock.t.timestamp(), shards=shards)
    leagues.timers.changed = scheduler.wake
    return scheduler, league_clock, posts


async def settle(scheduler: Scheduler, until=None, timeout: float = 10.0) -> None:
    """Wake the scheduler (the test moved the clock) and give it time to fire what is due
    and finish it; with `until`, wait (up to `timeout` s) until that holds."""
    end = time.monotonic() + timeout
    while True:
        scheduler.wake()
        await asyncio.sleep(0.2)
        await scheduler.idle()
        if until is None or until():
            return
        assert time.monotonic() < end, "the scheduler did not fire in time"


async def _round(leagues: LeagueService, games: GameService, channel: int = 3001,
                 name: str = "Friday") -> tuple[League, list[int]]:
    lg = await leagues.create_league(GUILD, name, MOD)
    await leagues.start_season(lg, "Spring", MOD)
    for uid in (1, 2, 3):
        await leagues.register(lg, uid + channel, f"user{uid}")
    await leagues.set_channel(lg, MOD, channel, True)
    r = await leagues.start_round(lg, MOD, guild_id=GUILD, seed=lambda: 4)
    (table,) = r.tables
    for uid in table.players[:2]:
        await games.join(channel, uid, f"user{uid}")
    return lg, list(table.players)


async def test_a_round_begins_when_its_window_closes(store, leagues, games, clock) -> None:
    scheduler, league_clock, posts = clock_of(store, leagues, clock)
    scheduler.start()
    try:
        lg, players = await _round(leagues, games)
        await settle(scheduler)
        assert posts.begun == []  # the window is open for 30 minutes
        clock.t += timedelta(minutes=29)
        await settle(scheduler)
        assert posts.begun == []
        clock.t += timedelta(minutes=1)  # 18:30: the window closes
        await settle(scheduler, until=lambda: posts.begun)
        ((league_id, number, (table,)),) = posts.begun
        assert (league_id, number, league_clock.begun) == (lg.id, 1, 1)
        assert table.no_shows == ((players[2], None),) and not table.cancelled
        assert table.outcome is not None and table.game.status is GameStatus.ACTIVE
        assert await store.league_timers(lg.id) == []
        clock.t += timedelta(days=1)
        await settle(scheduler)
        assert len(posts.begun) == 1  # fired once
    finally:
        await scheduler.stop()


async def test_a_round_begun_early_leaves_nothing_to_fire(store, leagues, games, clock
                                                          ) -> None:
    scheduler, league_clock, posts = clock_of(store, leagues, clock)
    scheduler.start()
    try:
        lg, _ = await _round(leagues, games)
        assert [t.kind for t in await store.league_timers(lg.id)] == ["round"]
        await leagues.begin_round(lg, MOD, force=True)  # an organiser's /league-mod round begin
        assert await store.league_timers(lg.id) == []
        clock.t += timedelta(hours=1)
        await settle(scheduler)
        assert posts.begun == [] and league_clock.begun == 0
    finally:
        await scheduler.stop()


async def test_the_weekly_summary_is_posted_once_a_week_by_one_process(
        store, leagues, games, clock, db_url) -> None:
    """Two bot processes on one database (each its own store, services and scheduler):
    every week the summary is posted once, by one of them."""
    other_store = await open_store(db_url)
    other_games = GameService(other_store, rng=random.Random(1))
    other = LeagueService(other_store, other_games, now=clock)
    a, _, posts_a = clock_of(store, leagues, clock)
    b, _, posts_b = clock_of(other_store, other, clock)
    a.start()
    b.start()
    try:
        lg, _ = await _round(leagues, games)
        await leagues.configure(lg, MOD, {"summary_channel": 77})
        b.wake()  # (a's league service re-armed the timer and woke a)
        await settle(a, until=lambda: posts_a.summaries + posts_b.summaries)
        await settle(b)
        assert posts_a.summaries + posts_b.summaries == [(lg.id, 77)]
        for week in range(2, 4):
            clock.t += timedelta(days=7)
            b.wake()
            await settle(a, until=lambda w=week: len(posts_a.summaries + posts_b.summaries) >= w)
            await settle(b)
            assert len(posts_a.summaries + posts_b.summaries) == week
    finally:
        await a.stop()
        await b.stop()
        await other_store.close()


async def test_the_clock_serves_only_the_leagues_of_its_shards(store, leagues, games, clock
                                                               ) -> None:
    """A process claims the timers of the leagues whose server is on its shards."""
    here = Shards(2, (1,))
    scheduler, league_clock, posts = clock_of(store, leagues, clock, shards=here)
    scheduler.start()
    try:
        lg, _ = await _round(leagues, games)  # guild 10: shard (10 >> 22) % 2 = 0
        clock.t += timedelta(hours=1)
        await settle(scheduler)
        assert posts.begun == [] and [t.kind for t in await store.league_timers(lg.id)] == [
            "round"]
    finally:
        await scheduler.stop()
