"""LeagueService: the league's one entry point for the cogs and the game service. Its parts
are built up in layers: seasons (leagues, seasons, registration, settings), results
(recording, standings, disputes), rounds (tables, no-shows); here, what needs them all: the
season export and the weekly summaries."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bot.league import export as league_export
from bot.league.models import iso, parse_iso
from bot.league.rounds import LeagueRounds
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

    async def summaries_due(self, every: timedelta = timedelta(days=7), *, shards: Any = None
                            ) -> list[tuple[League, int]]:
        """Leagues with a summary channel and an open season whose last weekly summary is
        older than `every` (or never posted); each is marked as posted now (a league another
        process marked first is left to it)."""
        rows = await self.store.league_summary_channels()
        now = self.now()
        out = []
        for row in rows:
            lg, at = row.league, row.summary_at
            if shards is not None and not shards.serves(lg.guild_id):
                continue  # another process's guild (bot.store.Shards)
            if await self.open_season(lg) is None:
                continue
            if at is not None and now - parse_iso(at) < every:
                continue
            if await self.store.claim_league_summary(lg.id, at, iso(now)):  # once, across processes
                out.append((lg, row.channel_id))
        return out
