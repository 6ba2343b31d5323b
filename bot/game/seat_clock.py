"""The seat clock: a member's timeouts, the AI keeping an absent member's seat until she is
back, the time left, and arming every game's deadlines at start."""

from __future__ import annotations

import logging

from bot.errors import NoGameHere, NotAllowed
from bot.game.core import GameCore
from bot.game.results import Outcome
from bot.store import GameRow, Shards

log = logging.getLogger(__name__)


class SeatClock(GameCore):
    """Timeouts and the way back."""

    async def sync_all(self, *, shards: Shards | None = None) -> int:
        """At start: every active game's deadlines (of the guilds on `shards`: this process's)
        fit its state (deadlines that passed while the bot was down stay due and fire at
        once); returns how many games were checked."""
        games = [g for g in await self.store.active_games()
                 if shards is None or shards.serves(g.guild_id)]
        for game in games:
            try:
                async with self.lock(game.channel_id):
                    loaded = await self.loaded(game)
                    await self._sync_clock(loaded.game, loaded.state)
            except Exception:  # noqa: BLE001 - one broken game must not stop the others
                log.exception("could not arm the clock of game %s", game.id)
        return len(games)

    async def resync(self, game: GameRow) -> None:
        """Arm the game's deadlines again for the stint going on now (a vacation ended while
        the AI's deadline waited)."""
        async with self.lock(game.channel_id):
            loaded = await self.loaded(await self.store.get_game(game.id) or game)
            self.forget_stint(game.id)
            await self._sync_clock(loaded.game, loaded.state)

    async def notice(self, channel_id: int, game_id: int, lines: list[str]) -> Outcome | None:
        """An outcome that only tells the channel `lines` (the living message shows them)."""
        try:
            async with self.session(channel_id, game_id=game_id) as s:
                s.headline = list(lines)
                out = await self.finish(s.outcome(None))
                out.nudge = False
                return out
        except NoGameHere:
            return None

    async def timed_out(self, channel_id: int, seat_name: str) -> tuple[int, bool]:
        """The seat missed its turn limit: count it; after `away_after` in a row the AI keeps
        the seat. Returns (consecutive timeouts, now away)."""
        async with self.session(channel_id, want="open") as s:
            seat = s.game.seat_named(seat_name)
            if seat is None:
                return 0, False
            count = seat.timeouts + 1
            away = seat.away or count >= self.rules.away_after
            await s.set_players(s.game.reseated(seat_name, timeouts=count, away=away))
            return count, away

    async def back(self, channel_id: int, user_id: int) -> tuple[Outcome, str]:
        """A member takes back the seat the AI kept after her timeouts."""
        async with self.session(channel_id) as s:
            seat = s.seat(user_id)
            if not seat.away:
                raise NotAllowed.said("svc.seat_yours", n=self.rules.away_after)
            await s.set_players(s.game.reseated(seat.name, away=False, timeouts=0))
            return await self.finish(s.outcome(user_id)), seat.name

    async def time_left(self, game_id: int) -> list[tuple[str, str, float]]:
        """(seat, kind, seconds left) of the game's running limits (turn, survivors)."""
        now = self.now()
        return [(d.seat, d.kind, d.due_at - now) for d in await self.store.deadlines(game_id)
                if d.kind in ("turn", "survivors")]
