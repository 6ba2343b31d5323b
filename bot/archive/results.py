"""Each seat's result of a finished game, recorded for the members' stats and history.

`record` is a finish listener (it runs once a game's last action is committed); `backfill`
records the finished games that ended before the results were kept (at start, in the
background). A seat's combos are the picks its log shows, in order."""

from __future__ import annotations

import logging

from bot.archive.stories import Stories
from bot.store import GameRow, GameStatus, Store
from bot.store.results import SeatResult

log = logging.getLogger(__name__)


async def seat_results(store: Store, stories: Stories, game: GameRow) -> list[SeatResult]:
    told = await stories.of(game)
    if not told.finished:
        return []
    users = {s.name: s.user_id for s in game.players}
    out = []
    for place in told.ranking:
        combos = tuple((s.race, str(s.power)) for s in told.stints.get(place.player, ()))
        out.append(SeatResult(game.id, place.player, users.get(place.player, 0),
                              told.board.id, len(told.players), place.rank, place.coins,
                              combos, game.finished_at or ""))
    return out


class Results:
    """Records finished games' results."""

    def __init__(self, store: Store, stories: Stories) -> None:
        self.store = store
        self.stories = stories

    async def record(self, game: GameRow) -> None:
        """Finish listener: the game's seats, written once."""
        if game.status is not GameStatus.FINISHED:
            return
        await self.store.record_results(game.guild_id, await seat_results(
            self.store, self.stories, game))

    async def backfill(self, batch: int = 50) -> int:
        """Record the finished games that have no results yet; -> how many."""
        done = 0
        while True:
            games = await self.store.unrecorded_games(batch)
            if not games:
                return done
            for game in games:
                try:
                    results = await seat_results(self.store, self.stories, game)
                except Exception:  # noqa: BLE001 - one broken log must not stop the rest
                    log.exception("could not tell the story of finished game %s", game.id)
                    results = []
                if not results:  # never asked about again: a seat of nobody (user 0)
                    results = [SeatResult(game.id, "", 0, game.board or "", 0, 0, 0, (),
                                          game.finished_at or "")]
                await self.store.record_results(game.guild_id, results)
                done += 1

