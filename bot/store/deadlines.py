"""The one clock's rows: the games' deadlines (one row per game and kind, re-armed when its
stint changes) and the leagues' timers (one row per league and kind: a round's start
window, the weekly summary). The scheduler reads both tables as one: the earliest row, and
every due row claimed atomically by one process (and only by a process serving the guild
the row's game or league belongs to)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.clock import Deadline, Due, LeagueTimer
from bot.store.base import Driver, Write
from bot.store.rows import Shards

_GAME_ROW = "game_id, kind, seat, key, due_at, claimed_at"
_LEAGUE_ROW = "league_id, kind, key, due_at, claimed_at"


def deadline_writes(game_id: int, rows: Sequence[Deadline], keep: Iterable[str] = ()
                    ) -> list[Write]:
    """The statements that make a game's deadlines `rows` (see sync_deadlines): written on
    their own, or inside the transaction of the action that began the stint (Store.append)."""
    wanted = sorted({r.kind for r in rows} | set(keep))
    marks = ", ".join("?" for _ in wanted) or "''"
    return [
        Write(f"DELETE FROM deadlines WHERE game_id = ? AND kind NOT IN ({marks})",
              (game_id, *wanted)),
        *(Write("INSERT INTO deadlines (game_id, kind, seat, key, due_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET"
                " seat = excluded.seat, key = excluded.key, due_at = excluded.due_at,"
                " claimed_at = NULL, fired = 0 WHERE deadlines.key != excluded.key",
                (game_id, r.kind, r.seat, r.key, float(r.due_at))) for r in rows)]


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
        await self.write(*deadline_writes(game_id, rows, keep))

    async def deadlines(self, game_id: int) -> list[Deadline]:
        """The game's unfired deadlines, earliest first."""
        rows = await self.fetchall(
            f"SELECT {_GAME_ROW} FROM deadlines WHERE game_id = ? AND fired = 0"
            " ORDER BY due_at", (game_id,))
        return [Deadline(*r) for r in rows]

    async def sync_league_timers(self, league_id: int, rows: Sequence[LeagueTimer]) -> None:
        """Make the league's timers `rows`, as sync_deadlines does a game's: a timer whose
        key is unchanged keeps its due time and fired flag; a new key re-arms it; a kind not
        in `rows` is dropped."""
        wanted = sorted({r.kind for r in rows})
        marks = ", ".join("?" for _ in wanted) or "''"
        await self.write(
            Write(f"DELETE FROM league_timers WHERE league_id = ? AND kind NOT IN ({marks})",
                  (league_id, *wanted)),
            *(Write("INSERT INTO league_timers (league_id, kind, key, due_at)"
                    " VALUES (?, ?, ?, ?) ON CONFLICT (league_id, kind) DO UPDATE SET"
                    " key = excluded.key, due_at = excluded.due_at, claimed_at = NULL,"
                    " fired = 0 WHERE league_timers.key != excluded.key",
                    (league_id, r.kind, r.key, float(r.due_at))) for r in rows))

    async def league_timers(self, league_id: int) -> list[LeagueTimer]:
        """The league's unfired timers, earliest first."""
        rows = await self.fetchall(
            f"SELECT {_LEAGUE_ROW} FROM league_timers WHERE league_id = ? AND fired = 0"
            " ORDER BY due_at", (league_id,))
        return [LeagueTimer(*r) for r in rows]

    @staticmethod
    def _on_shards(shards: Shards | None, owner: str = "game") -> tuple[str, list[int]]:
        """A condition on deadlines rows (`owner` "league": league_timers rows): their
        game's (league's) guild is on `shards` (None: any)."""
        if shards is None:
            return "", []
        cond, params = shards.sql()
        table = "games" if owner == "game" else "leagues"
        return f" AND {owner}_id IN (SELECT id FROM {table} WHERE {cond})", params

    async def next_deadline(self, stale: float, *, shards: Shards | None = None
                            ) -> float | None:
        """When the earliest unfired deadline or league timer (of a game or league on
        `shards`) is due (a claimed one: when its claim goes stale); None when there is
        none."""
        games, game_params = self._on_shards(shards)
        leagues, league_params = self._on_shards(shards, "league")
        when = "CASE WHEN claimed_at IS NULL THEN due_at ELSE claimed_at + ? END"
        row = await self.fetchone(
            f"SELECT MIN(t) FROM (SELECT {when} AS t FROM deadlines WHERE fired = 0{games}"
            f" UNION ALL SELECT {when} AS t FROM league_timers WHERE fired = 0{leagues})"
            " AS due", (float(stale), *game_params, float(stale), *league_params))
        return None if row is None or row[0] is None else float(row[0])

    async def claim_due(self, now: float, stale: float, *, shards: Shards | None = None
                        ) -> list[Due]:
        """Take every due deadline and league timer (of the games and leagues on `shards`:
        a process claims only what it can post about) in one transaction: a row is claimed
        by one caller only, also when several processes share a PostgreSQL database."""
        due = "fired = 0 AND due_at <= ? AND (claimed_at IS NULL OR claimed_at < ?)"
        games, game_params = self._on_shards(shards)
        leagues, league_params = self._on_shards(shards, "league")
        now, cutoff = float(now), float(now) - float(stale)
        game_rows, league_rows = await self.write(
            Write(f"UPDATE deadlines SET claimed_at = ? WHERE {due} AND (game_id, kind) IN"
                  f" (SELECT game_id, kind FROM deadlines WHERE {due}{games}{self._CLAIM_LOCK})"
                  f" RETURNING {_GAME_ROW}",
                  (now, now, cutoff, now, cutoff, *game_params), rows=True),
            Write(f"UPDATE league_timers SET claimed_at = ? WHERE {due} AND (league_id, kind)"
                  f" IN (SELECT league_id, kind FROM league_timers WHERE {due}{leagues}"
                  f"{self._CLAIM_LOCK}) RETURNING {_LEAGUE_ROW}",
                  (now, now, cutoff, now, cutoff, *league_params), rows=True))
        claimed: list[Due] = [Deadline(*r) for r in game_rows]
        claimed += [LeagueTimer(*r) for r in league_rows]
        return sorted(claimed, key=lambda d: d.due_at)

    @staticmethod
    def _row_of(row: Due) -> tuple[str, str, int]:
        """(table, owner column, owner id) of a claimed row."""
        if isinstance(row, LeagueTimer):
            return "league_timers", "league_id", row.league_id
        return "deadlines", "game_id", row.game_id

    async def finish_deadline(self, row: Due) -> bool:
        """Mark a claimed deadline (or league timer) handled (False: its stint was replaced
        meanwhile)."""
        table, owner, owner_id = self._row_of(row)
        n = await self.execute(
            f"UPDATE {table} SET fired = 1 WHERE {owner} = ? AND kind = ? AND key = ?"
            " AND claimed_at = ?", owner_id, row.kind, row.key, row.claimed_at)
        return n == 1

    async def retry_deadline(self, row: Due, due_at: float) -> None:
        """Give a claimed deadline (or league timer) back, due again at `due_at` (its
        handler could not finish)."""
        table, owner, owner_id = self._row_of(row)
        await self.execute(
            f"UPDATE {table} SET claimed_at = NULL, due_at = ? WHERE {owner} = ?"
            " AND kind = ? AND key = ? AND claimed_at = ?",
            float(due_at), owner_id, row.kind, row.key, row.claimed_at)
