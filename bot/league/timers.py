"""A league's timers on the one clock (bot/clock.py; rows of the store's `league_timers`):

- `round`: the start window of the season's latest round closes (at its `start_by`), so
  the round begins (bot.league.clock handles it);
- `summary`: the weekly standings are due in the league's summary channel, a week after
  the last one (at once when none was posted yet).

Both need an open season. What a league needs follows from the league alone, so the timers
are re-armed from it (`arm`) after every change that moves one — a season started or ended,
a round started or begun, the settings, a summary posted — and for every league at start
(`arm_all`), which also covers a change whose re-arm a crash cut off. A timer armed again
for the same thing (same key) keeps its due time; one whose time passed while the bot was
down is due at once when the scheduler starts.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from bot.clock import LeagueTimer
from bot.league.models import parse_iso
from bot.store import Shards, Store

SUMMARY_EVERY = timedelta(days=7)


async def wanted(store: Store, league_id: int, now: datetime) -> list[LeagueTimer]:
    """The timers the league needs now (none without an open season)."""
    season = await store.open_season(league_id)
    if season is None:
        return []
    out = []
    rounds = await store.league_rounds(season.id)
    if rounds and not rounds[-1].begun:
        rnd = rounds[-1]
        out.append(LeagueTimer(league_id, "round", f"round {rnd.id}",
                               parse_iso(rnd.start_by).timestamp()))
    conf = await store.league_settings(league_id)
    if conf["summary_channel"] is not None:
        last = conf["summary_at"]
        due = now if last is None else parse_iso(last) + SUMMARY_EVERY
        out.append(LeagueTimer(league_id, "summary", f"after {last or 'none'}",
                               due.timestamp()))
    return out


class LeagueTimers:
    """Arms the leagues' timers; `changed` is told when they changed (the scheduler's
    wake-up, set when the clock starts)."""

    def __init__(self, store: Store, now: Callable[[], datetime]) -> None:
        self.store = store
        self.now = now
        self.changed: Callable[[], None] | None = None

    async def arm(self, league_id: int) -> list[LeagueTimer]:
        """Make the league's timers what it needs now; -> them."""
        rows = await wanted(self.store, league_id, self.now())
        await self.store.sync_league_timers(league_id, rows)
        if self.changed is not None:
            self.changed()
        return rows

    async def arm_all(self, shards: Shards | None = None) -> int:
        """At start: arm every league's timers (of the guilds on `shards`); -> how many
        leagues need one."""
        n = 0
        for league in await self.store.all_leagues(shards):
            n += bool(await self.arm(league.id))
        return n
