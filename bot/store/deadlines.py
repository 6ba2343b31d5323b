"""The clock's deadlines: one row per game and kind, re-armed when its stint changes,
claimed atomically by one process."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.clock import Deadline
from bot.store.base import Driver, Write
from bot.store.rows import Shards


class DeadlinesSQL(Driver):
    """The games' deadlines: synced per stint, claimed once, finished or given back."""

    # appended to the row choice of claim_due: PostgreSQL locks the due rows it takes and
    # skips those another process is taking (SQLite has one writer at a time anyway)
    _CLAIM_LOCK = ""

    async def sync_deadlines(
        self, game_id: int, rows: Sequence[Deadline], *, keep: Iterable[str] = ()
    ) -> None:
        """Make the game's deadlines `rows` (plus the kinds in `keep`, left as they are).

        A row whose stint key is unchanged keeps its due time and fired flag, so re-syncing
        never pushes a deadline back; a new key re-arms it."""
        wanted = sorted({r.kind for r in rows} | set(keep))
        marks = ", ".join("?" for _ in wanted) or "''"
        await self.write(
            Write(f"DELETE FROM deadlines WHERE game_id = ? AND kind NOT IN ({marks})",
                  (game_id, *wanted)),
            *(Write("INSERT INTO deadlines (game_id, kind, seat, key, due_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET"
                    " seat = excluded.seat, key = excluded.key, due_at = excluded.due_at,"
                    " claimed_at = NULL, fired = 0 WHERE deadlines.key != excluded.key",
                    (game_id, r.kind, r.seat, r.key, float(r.due_at))) for r in rows))

    async def deadlines(self, game_id: int) -> list[Deadline]:
        """The game's unfired deadlines, earliest first."""
        rows = await self.fetchall(
            "SELECT game_id, kind, seat, key, due_at, claimed_at FROM deadlines"
            " WHERE game_id = ? AND fired = 0 ORDER BY due_at", (game_id,))
        return [Deadline(*r) for r in rows]

    @staticmethod
    def _on_shards(shards: Shards | None) -> tuple[str, list[int]]:
        """A condition on deadlines rows: their game's guild is on `shards` (None: any)."""
        if shards is None:
            return "", []
        cond, params = shards.sql()
        return f" AND game_id IN (SELECT id FROM games WHERE {cond})", params

    async def next_deadline(self, stale: float, *, shards: Shards | None = None
                            ) -> float | None:
        """When the earliest unfired deadline (of a game on `shards`) is due (a claimed one:
        when its claim goes stale); None when there is none."""
        on, params = self._on_shards(shards)
        row = await self.fetchone(
            "SELECT MIN(CASE WHEN claimed_at IS NULL THEN due_at ELSE claimed_at + ? END)"
            f" FROM deadlines WHERE fired = 0{on}", (float(stale), *params))
        return None if row is None or row[0] is None else float(row[0])

    async def claim_due(self, now: float, stale: float, *, shards: Shards | None = None
                        ) -> list[Deadline]:
        """Take every due deadline (of the games on `shards`: a process claims only what it
        can post about) in one statement: a row is claimed by one caller only, also when
        several processes share a PostgreSQL database."""
        due = "fired = 0 AND due_at <= ? AND (claimed_at IS NULL OR claimed_at < ?)"
        on, params = self._on_shards(shards)
        now, cutoff = float(now), float(now) - float(stale)
        (rows,) = await self.write(Write(
            f"UPDATE deadlines SET claimed_at = ? WHERE {due} AND (game_id, kind) IN"
            f" (SELECT game_id, kind FROM deadlines WHERE {due}{on}{self._CLAIM_LOCK})"
            " RETURNING game_id, kind, seat, key, due_at, claimed_at",
            (now, now, cutoff, now, cutoff, *params), rows=True))
        return sorted((Deadline(*r) for r in rows), key=lambda d: d.due_at)

    async def finish_deadline(self, row: Deadline) -> bool:
        """Mark a claimed deadline handled (False: its stint was replaced meanwhile)."""
        n = await self.execute(
            "UPDATE deadlines SET fired = 1 WHERE game_id = ? AND kind = ? AND key = ?"
            " AND claimed_at = ?", row.game_id, row.kind, row.key, row.claimed_at)
        return n == 1

    async def retry_deadline(self, row: Deadline, due_at: float) -> None:
        """Give a claimed deadline back, due again at `due_at` (its handler could not finish)."""
        await self.execute(
            "UPDATE deadlines SET claimed_at = NULL, due_at = ? WHERE game_id = ?"
            " AND kind = ? AND key = ? AND claimed_at = ?",
            float(due_at), row.game_id, row.kind, row.key, row.claimed_at)

