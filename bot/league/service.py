"""LeagueService: the league's one entry point for the cogs, the game service and the clock.
Its parts are built up in layers: seasons (leagues, seasons, registration, settings),
results (recording, standings, disputes), rounds (tables, no-shows); here, what needs them
all: the season export and the weekly summary's turn."""

from __future__ import annotations

from bot.league import export as league_export
from bot.league.models import iso, parse_iso
from bot.league.rounds import LeagueRounds
from bot.league.timers import SUMMARY_EVERY
from bot.store import League, Season


class LeagueService(LeagueRounds):
    """Leagues of one bot, on top of the store's league methods: every call of the seasons,
    results and rounds layers, and the export and weekly summaries below."""

    async def export(self, league: League, season_name: str | None = None
                     ) -> tuple[Season, str, str]:
        """(season, CSV text, JSON text) of a season's games and results."""
        st = await self.standings(league, season_name)
        games = await self._season_games(st.season, voided=True)
        regs = await self.registrations(st.season, include_left=True)
        names = {r.user_id: r.name for r in regs}
        rows = league_export.game_rows(league.name, st.season.name, games, names)
        return (st.season, league_export.to_csv(rows),
                league_export.to_json(league.name, st.season.name, games, names, st.rows))

    async def claim_summary(self, league: League) -> int | None:
        """The weekly summary's timer fired: if the league still wants one (an open season,
        a summary channel) and its last one is a week old (or none was posted), mark it
        posted now and return the channel to post it in; None otherwise. Of processes
        racing for it, one gets the channel. The timer is re-armed for the next week."""
        try:
            conf = await self.settings(league)
            at = conf.summary_at
            if conf.summary_channel is None or await self.open_season(league) is None:
                return None
            if at is not None and self.now() - parse_iso(at) < SUMMARY_EVERY:
                return None
            if not await self.store.claim_league_summary(league.id, at, iso(self.now())):
                return None
            return conf.summary_channel
        finally:
            await self.timers.arm(league.id)
