"""Members across their games: the settings a member makes once (quiet hours, standing orders),
her vacations and the away-day bank they spend, and her reliability (each turn of hers as it
ended, the running games she left)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from bot.store.base import Driver, Write, now
from bot.store.rows import MemberSettings, Reliability, Vacation

VACATION_COLUMNS = ("id, guild_id, user_id, started_at, until, ended_at, days, reason, shared,"
                    " auto")
MEDIAN_OVER = 200  # her latest turns played that her median time to act is taken over


def vacation_row(r: Sequence[Any]) -> Vacation:
    return Vacation(int(r[0]), int(r[1]), int(r[2]), float(r[3]), float(r[4]),
                    None if r[5] is None else float(r[5]), int(r[6]), str(r[7]), bool(r[8]),
                    bool(r[9]))


def _seconds(started: str, ended: str) -> float:
    parse = datetime.fromisoformat
    return (parse(ended.replace("Z", "+00:00")) - parse(started.replace("Z", "+00:00"))
            ).total_seconds()


class MembersSQL(Driver):
    """Members' settings, vacations and reliability."""

    # -- settings that span games -----------------------------------------------------------

    async def member_settings(self, user_id: int) -> MemberSettings:
        row = await self.fetchone(
            "SELECT turn_dm, quiet, zone, orders FROM user_settings WHERE user_id = ?",
            (user_id,))
        if row is None:
            return MemberSettings()
        return MemberSettings(bool(row[0]), row[1], row[2], str(row[3] or "ask"))

    async def set_quiet(self, user_id: int, quiet: str | None, zone: str | None) -> None:
        """Her quiet hours ("HH:MM-HH:MM" local to `zone`), or None: none."""
        await self.execute(
            "INSERT INTO user_settings (user_id, quiet, zone, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET quiet = excluded.quiet,"
            " zone = excluded.zone, updated_at = excluded.updated_at",
            user_id, quiet, zone, now())

    async def set_orders(self, user_id: int, orders: str) -> None:
        """Her standing orders for survivors ("ask": none)."""
        await self.execute(
            "INSERT INTO user_settings (user_id, orders, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET orders = excluded.orders,"
            " updated_at = excluded.updated_at", user_id, orders, now())

    async def standing_orders(self, user_ids: Iterable[int]) -> dict[int, str]:
        """Member -> her standing orders, for those of `user_ids` who gave any."""
        ids = sorted({int(u) for u in user_ids if u})
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self.fetchall(
            f"SELECT user_id, orders FROM user_settings WHERE user_id IN ({marks})"
            " AND orders != 'ask'", ids)
        return {int(r[0]): str(r[1]) for r in rows}

    # -- vacations and the away-day bank ----------------------------------------------------

    async def add_vacation(self, guild_id: int, user_id: int, *, started_at: float,
                           until: float, days: int, reason: str = "", shared: bool = False,
                           auto: bool = False) -> Vacation:
        (rows,) = await self.write(Write(
            f"INSERT INTO vacations ({VACATION_COLUMNS.split(', ', 1)[1]})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING " + VACATION_COLUMNS,
            (guild_id, user_id, float(started_at), float(until), None, int(days), reason,
             int(shared), int(auto)), rows=True))
        return vacation_row(rows[0])

    async def vacation_at(self, guild_id: int, user_id: int, when: float) -> Vacation | None:
        """The member's vacation going on at `when` (the latest, if several)."""
        row = await self.fetchone(
            f"SELECT {VACATION_COLUMNS} FROM vacations WHERE guild_id = ? AND user_id = ?"
            " AND auto = 0 AND started_at <= ? AND until > ?"
            " AND (ended_at IS NULL OR ended_at > ?)"
            " ORDER BY started_at DESC, id DESC LIMIT 1",
            (guild_id, user_id, float(when), float(when), float(when)))
        return vacation_row(row) if row else None

    async def end_vacation(self, vacation_id: int, at: float, days: int) -> bool:
        """She came back at `at`; the vacation now spends `days`. False: it had ended."""
        n = await self.execute(
            "UPDATE vacations SET ended_at = ?, days = ? WHERE id = ? AND ended_at IS NULL"
            " AND until > ?", float(at), int(days), vacation_id, float(at))
        return n == 1

    async def days_spent(self, guild_id: int, user_id: int, since: float) -> int:
        """Away days the member's vacations that began after `since` spend."""
        row = await self.fetchone(
            "SELECT COALESCE(SUM(days), 0) FROM vacations WHERE guild_id = ? AND user_id = ?"
            " AND started_at > ?", (guild_id, user_id, float(since)))
        return int(row[0])

    async def league_away_days(self, season_ids: Iterable[int]) -> list[int]:
        """The away-day caps of the leagues these seasons belong to (those that set one)."""
        ids = sorted({int(s) for s in season_ids})
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        rows = await self.fetchall(
            "SELECT DISTINCT ls.away_days FROM league_settings ls JOIN seasons s"
            f" ON s.league_id = ls.league_id WHERE s.id IN ({marks})"
            " AND ls.away_days IS NOT NULL", ids)
        return [int(r[0]) for r in rows]

    async def last_action_of(self, game_id: int, user_id: int, *,
                             before: int | None = None) -> int:
        """The number of the member's last action in the game (before action `before`);
        0: none."""
        row = await self.fetchone(
            "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ? AND actor_id = ?"
            " AND seq < ?", (game_id, user_id, 2**31 - 1 if before is None else before))
        return int(row[0])

    # -- reliability --------------------------------------------------------------------------

    async def left_game(self, game_id: int, guild_id: int | None, user_id: int) -> None:
        """The member left a running game (kicked, or her seat handed on)."""
        await self.execute(
            "INSERT INTO member_departures (game_id, user_id, guild_id, at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, user_id) DO NOTHING", game_id, user_id, guild_id, now())

    async def reliability(self, guild_id: int, user_id: int, last: int = 50) -> Reliability:
        """The member's turns in this server (each kind), her median time to act over her
        latest turns played, the games she left, her vacations, and how many of her `last`
        turns that counted (played or missed) she missed."""
        member = (guild_id, user_id)
        kinds = {str(r[0]): int(r[1]) for r in await self.fetchall(
            "SELECT kind, COUNT(*) FROM member_turns WHERE guild_id = ? AND user_id = ?"
            " GROUP BY kind", member)}
        times = await self.fetchall(
            "SELECT started_at, ended_at FROM member_turns WHERE guild_id = ? AND user_id = ?"
            " AND kind = 'played' ORDER BY ended_at DESC LIMIT ?", (*member, MEDIAN_OVER))
        recent = await self.fetchall(
            "SELECT kind FROM member_turns WHERE guild_id = ? AND user_id = ?"
            " AND kind != 'away' ORDER BY ended_at DESC LIMIT ?", (*member, max(1, last)))
        left = await self.fetchone(
            "SELECT COUNT(*) FROM member_departures WHERE guild_id = ? AND user_id = ?", member)
        vacations = await self.fetchone(
            "SELECT COUNT(*) FROM vacations WHERE guild_id = ? AND user_id = ?", member)
        seconds = [_seconds(str(a), str(b)) for a, b in times]
        return Reliability(
            played=int(kinds.get("played", 0)), missed=int(kinds.get("missed", 0)),
            away=int(kinds.get("away", 0)),
            median_seconds=statistics.median(seconds) if seconds else None,
            games_left=int(left[0]), vacations=int(vacations[0]), recent=len(recent),
            recent_missed=sum(1 for (k,) in recent if k == "missed"))
