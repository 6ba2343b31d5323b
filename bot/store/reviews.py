"""Finished games' key-moments reviews (ai.moments.GameReview as JSON): written once by the
review worker after a game ends, read by /sw-game review and the end card."""

from __future__ import annotations

from bot.store.base import Driver, NotChanged, Write, now
from bot.store.rows import GAME_COLUMNS, GameRow, game_row


class ReviewsSQL(Driver):
    """A review per finished game."""

    async def save_review(self, game_id: int, review: str) -> bool:
        """Keep a finished game's review (JSON text); False (nothing written) when the game
        has one already or is not finished."""
        try:
            await self.write(Write(
                "INSERT INTO game_reviews (game_id, review, created) SELECT id, ?, ? FROM games"
                " WHERE id = ? AND status = 'finished' ON CONFLICT (game_id) DO NOTHING",
                (review, now(), game_id), need=1))
        except NotChanged:
            return False
        return True

    async def game_review(self, game_id: int) -> str | None:
        """The review kept for a game (JSON text), or None."""
        row = await self.fetchone("SELECT review FROM game_reviews WHERE game_id = ?",
                                  (game_id,))
        return None if row is None else str(row[0])

    async def unreviewed_games(self, limit: int = 20) -> list[GameRow]:
        """The last `limit` finished games (newest first) that have no review yet."""
        cols = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        rows = await self.fetchall(
            f"SELECT {cols} FROM games g WHERE g.status = 'finished' AND NOT EXISTS"
            " (SELECT 1 FROM game_reviews r WHERE r.game_id = g.id)"
            " ORDER BY g.finished_at DESC, g.id DESC LIMIT ?", (limit,))
        return [game_row(r) for r in rows]

    async def final_message(self, game_id: int) -> int | None:
        """The finished game's end post (its living message once it shows the game's last
        version), or None while it is not posted."""
        row = await self.fetchone(
            "SELECT m.message_id FROM game_messages m JOIN games g ON g.id = m.game_id"
            " WHERE m.game_id = ? AND g.status = 'finished' AND m.shown >= g.version",
            (game_id,))
        return None if row is None else int(row[0])
