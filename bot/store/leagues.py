"""League SQL: leagues, seasons, registrations and their preferences, rounds and their
games, results, settings, table channels and the audit log (bot.league owns the rules)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.store.base import ChannelBusy, Driver, Duplicate, NotChanged, Write, _dumps, now
from bot.store.options import checked_options
from bot.store.rows import (
    GAME_COLUMNS,
    LEAGUE_COLUMNS,
    ROUND_COLUMNS,
    SEASON_COLUMNS,
    AuditRow,
    GameRow,
    League,
    LeagueGameFlags,
    Registration,
    RegistrationPrefs,
    ResultRow,
    RoundRow,
    Season,
    Seat,
    Shards,
    game_row,
    league_row,
    round_row,
    season_row,
)


class LeaguesSQL(Driver):
    """Leagues, seasons, registrations, rounds, results, settings and the audit log."""

    async def leagues(self, guild_id: int) -> list[League]:
        rows = await self.fetchall(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? ORDER BY lower(name), id",
            (guild_id,))
        return [league_row(r) for r in rows]

    async def league(self, league_id: int) -> League | None:
        row = await self.fetchone(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = ?",
                                  (league_id,))
        return None if row is None else league_row(row)

    async def all_leagues(self, shards: Shards | None = None) -> list[League]:
        """Every league (of the guilds on `shards`), by id."""
        cond, params = shards.sql() if shards is not None else ("1 = 1", [])
        rows = await self.fetchall(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE {cond} ORDER BY id", params)
        return [league_row(r) for r in rows]

    async def create_league(self, guild_id: int, name: str, by: int | None) -> League:
        """A new league; Duplicate when the guild has one of that name (any case)."""
        (ids,) = await self.write(Write(
            "INSERT INTO leagues (guild_id, name, created_by, created_at)"
            " VALUES (?, ?, ?, ?) RETURNING id", (guild_id, name, by, now()), rows=True))
        return League(int(ids[0][0]), guild_id, name)

    async def seasons(self, league_id: int) -> list[Season]:
        rows = await self.fetchall(
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE league_id = ? ORDER BY id", (league_id,))
        return [season_row(r) for r in rows]

    async def open_season(self, league_id: int) -> Season | None:
        row = await self.fetchone(
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE league_id = ? AND ended_at IS NULL",
            (league_id,))
        return season_row(row) if row else None

    async def get_season(self, season_id: int) -> Season | None:
        row = await self.fetchone(
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE id = ?", (season_id,))
        return season_row(row) if row else None

    async def start_season(self, league_id: int, name: str, by: int | None) -> Season:
        """Open a season; Duplicate when one is open or the name was used in the league."""
        (ids,) = await self.write(Write(
            "INSERT INTO seasons (league_id, name, started_by, started_at)"
            " VALUES (?, ?, ?, ?) RETURNING id", (league_id, name, by, now()), rows=True))
        season = await self.get_season(int(ids[0][0]))
        assert season is not None
        return season

    async def end_season(self, season_id: int, by: int | None) -> Season:
        await self.execute(
            "UPDATE seasons SET ended_at = ?, ended_by = ? WHERE id = ?"
            " AND ended_at IS NULL", now(), by, season_id)
        season = await self.get_season(season_id)
        assert season is not None
        return season

    async def registration(self, season_id: int, user_id: int) -> Registration | None:
        row = await self.fetchone(
            "SELECT user_id, name, joined_at, left_at FROM registrations"
            " WHERE season_id = ? AND user_id = ?", (season_id, user_id))
        return Registration(*row) if row else None

    async def register(self, season_id: int, user_id: int, name: str) -> None:
        """Register (or re-register after leaving) a member for a season."""
        await self.execute(
            "INSERT INTO registrations (season_id, user_id, name, joined_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (season_id, user_id) DO UPDATE"
            " SET left_at = NULL, name = excluded.name, joined_at = excluded.joined_at",
            season_id, user_id, name, now())

    async def unregister(self, season_id: int, user_id: int) -> None:
        await self.execute(
            "UPDATE registrations SET left_at = ? WHERE season_id = ? AND user_id = ?",
            now(), season_id, user_id)

    async def registrations(self, season_id: int, *, include_left: bool = False
                            ) -> list[Registration]:
        still = "" if include_left else " AND left_at IS NULL"
        rows = await self.fetchall(
            "SELECT user_id, name, joined_at, left_at FROM registrations WHERE season_id = ?"
            f"{still} ORDER BY joined_at, user_id", (season_id,))
        return [Registration(*r) for r in rows]

    async def registered_names(self, season_ids: Sequence[int]) -> dict[int, str]:
        """user id -> the name they last registered with, over the seasons given."""
        if not season_ids:
            return {}
        marks = ", ".join("?" for _ in season_ids)
        rows = await self.fetchall(
            f"SELECT user_id, name FROM registrations WHERE season_id IN ({marks})"
            " ORDER BY joined_at", tuple(season_ids))
        return {uid: name for uid, name in rows}

    async def season_of_game(self, game_id: int) -> tuple[League, Season] | None:
        row = await self.fetchone(
            "SELECT s.id, s.league_id, s.name, s.started_at, s.ended_at,"
            " l.id, l.guild_id, l.name FROM league_games g JOIN seasons s ON s.id = g.season_id"
            " JOIN leagues l ON l.id = s.league_id WHERE g.game_id = ?", (game_id,))
        if row is None:
            return None
        return league_row(row[5:8]), season_row(row[0:5])

    async def unrecorded_league_games(self) -> list[int]:
        """Finished league games whose result is not recorded yet, in finishing order."""
        rows = await self.fetchall(
            "SELECT lg.game_id FROM league_games lg JOIN games g ON g.id = lg.game_id"
            " WHERE lg.recorded_at IS NULL AND g.status = 'finished' ORDER BY g.finished_at,"
            " g.id")
        return [int(r[0]) for r in rows]

    async def open_league_games(self, season_id: int) -> int:
        """How many of a season's games are still in their lobby or running."""
        row = await self.fetchone(
            "SELECT COUNT(*) FROM league_games lg JOIN games g ON g.id = lg.game_id"
            " WHERE lg.season_id = ? AND g.status IN ('lobby', 'active')", (season_id,))
        return int(row[0])

    # -- league rounds, settings, audit (bot.league) ----------------------------------------
    # Portable SQL: `?` parameters, times passed in as UTC ISO strings, no engine functions.

    LEAGUE_SETTINGS = ("organiser_role_id", "allow_ai", "table_size", "start_minutes",
                       "round_days", "summary_channel", "summary_at", "away_days",
                       "max_missed", "over_turns")

    async def league_settings(self, league_id: int) -> dict[str, Any]:
        cols = ", ".join(self.LEAGUE_SETTINGS)
        row = await self.fetchone(
            f"SELECT {cols} FROM league_settings WHERE league_id = ?", (league_id,))
        if row is None:
            return {"organiser_role_id": None, "allow_ai": 0, "table_size": 4,
                    "start_minutes": 30, "round_days": 7, "summary_channel": None,
                    "summary_at": None, "away_days": None, "max_missed": None,
                    "over_turns": None}
        return dict(zip(self.LEAGUE_SETTINGS, row, strict=True))

    async def set_league_settings(self, league_id: int, changes: dict[str, Any]) -> None:
        bad = set(changes) - set(self.LEAGUE_SETTINGS)
        if bad:
            raise ValueError(f"unknown league settings {sorted(bad)}")
        if not changes:
            return
        sets = ", ".join(f"{k} = ?" for k in changes)
        await self.write(
            Write("INSERT INTO league_settings (league_id) VALUES (?)"
                  " ON CONFLICT (league_id) DO NOTHING", (league_id,)),
            Write(f"UPDATE league_settings SET {sets} WHERE league_id = ?",
                  (*changes.values(), league_id)))

    async def claim_league_summary(self, league_id: int, seen: str | None, at: str) -> bool:
        """Mark the league's weekly summary posted at `at` if its last one is still `seen`
        (the value read): of processes racing to post it, one gets True."""
        changed = await self.execute(
            "UPDATE league_settings SET summary_at = ? WHERE league_id = ?"
            " AND COALESCE(summary_at, '') = ?", at, league_id, seen or "")
        return changed == 1

    async def league_channels(self, league_id: int) -> list[int]:
        rows = await self.fetchall(
            "SELECT channel_id FROM league_channels WHERE league_id = ? ORDER BY channel_id",
            (league_id,))
        return [int(r[0]) for r in rows]

    async def set_league_channel(self, league_id: int, channel_id: int, on: bool) -> bool:
        """Add or remove a table channel; -> whether anything changed."""
        if on:
            changed = await self.execute(
                "INSERT INTO league_channels (league_id, channel_id) VALUES (?, ?)"
                " ON CONFLICT (league_id, channel_id) DO NOTHING", league_id, channel_id)
        else:
            changed = await self.execute(
                "DELETE FROM league_channels WHERE league_id = ? AND channel_id = ?",
                league_id, channel_id)
        return changed == 1

    async def set_registration_prefs(self, season_id: int, user_id: int,
                                     changes: dict[str, Any]) -> None:
        bad = set(changes) - {"days", "sit_out", "substitute"}
        if bad:
            raise ValueError(f"unknown registration fields {sorted(bad)}")
        if not changes:
            return
        sets = ", ".join(f"{k} = ?" for k in changes)
        await self.execute(
            f"UPDATE registrations SET {sets} WHERE season_id = ? AND user_id = ?",
            *changes.values(), season_id, user_id)

    async def registration_prefs(self, season_id: int) -> list[RegistrationPrefs]:
        """The round preferences of the active registrations, in joining order."""
        return [RegistrationPrefs(int(r[0]), str(r[1]), str(r[2]), bool(r[3]), bool(r[4]))
                for r in await self.fetchall(
                    "SELECT user_id, name, days, sit_out, substitute FROM registrations"
                    " WHERE season_id = ? AND left_at IS NULL ORDER BY joined_at, user_id",
                    (season_id,))]

    async def set_season_rounds(self, season_id: int, rounds: int | None) -> None:
        await self.execute("UPDATE seasons SET rounds = ? WHERE id = ?", rounds, season_id)

    async def season_rounds(self, season_id: int) -> int | None:
        row = await self.fetchone("SELECT rounds FROM seasons WHERE id = ?", (season_id,))
        return None if row is None or row[0] is None else int(row[0])

    async def league_rounds(self, season_id: int) -> list[RoundRow]:
        return [round_row(r) for r in await self.fetchall(
            f"SELECT {ROUND_COLUMNS} FROM league_rounds WHERE season_id = ? ORDER BY number",
            (season_id,))]

    async def league_round(self, round_id: int) -> RoundRow | None:
        row = await self.fetchone(
            f"SELECT {ROUND_COLUMNS} FROM league_rounds WHERE id = ?", (round_id,))
        return None if row is None else round_row(row)

    async def create_league_round(
        self, *, season_id: int, number: int, by: int | None, now: str, start_by: str,
        deadline: str, games: Sequence[tuple[int, int, Sequence[Seat], dict[str, Any], int,
                                             int]], sat_out: Sequence[int] = (),
    ) -> tuple[int, list[int]]:
        """One round and its lobbies in one transaction: games are (guild, channel, seats,
        options, seed, table number); the members in `sat_out` sat this round out, which
        was all they asked (their sit-out flag is cleared). -> (round id, game ids).
        ChannelBusy when a channel already has an open game (then nothing is written)."""
        try:
            async with self.transaction() as tx:
                round_id = await tx.insert(
                    "INSERT INTO league_rounds (season_id, number, started_by, started_at,"
                    " start_by, deadline) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                    season_id, number, by, now, start_by, deadline)
                ids = []
                for guild_id, channel_id, seats, options, seed, table_no in games:
                    game_id = await tx.insert(
                        "INSERT INTO games (guild_id, channel_id, seed, board, players, options,"
                        " opener_id, created_at, updated_at) VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?)"
                        " RETURNING id",
                        guild_id, channel_id, seed, _dumps([s.to_json() for s in seats]),
                        _dumps(checked_options(options)), by, now, now)
                    await tx.execute(
                        "INSERT INTO league_games (game_id, season_id, opened_by, round_id,"
                        " table_no) VALUES (?, ?, ?, ?, ?)",
                        game_id, season_id, by, round_id, table_no)
                    ids.append(int(game_id))
                if sat_out:
                    marks = ", ".join("?" for _ in sat_out)
                    await tx.execute(
                        "UPDATE registrations SET sit_out = 0 WHERE season_id = ?"
                        f" AND user_id IN ({marks})", season_id, *sat_out)
        except Duplicate as exc:
            raise ChannelBusy(str(exc)) from exc
        return round_id, ids

    async def mark_round_begun(self, round_id: int, now: str) -> bool:
        changed = await self.execute(
            "UPDATE league_rounds SET begun_at = ? WHERE id = ? AND begun_at IS NULL",
            now, round_id)
        return changed == 1

    async def round_games(self, round_id: int) -> list[tuple[int, int]]:
        """(game id, table number) of a round."""
        return [(int(a), int(b or 0)) for a, b in await self.fetchall(
            "SELECT game_id, table_no FROM league_games WHERE round_id = ? ORDER BY table_no",
            (round_id,))]

    async def league_game_flags(self, game_id: int) -> LeagueGameFlags | None:
        """The league tag of a game and the state of its result (None: not a league game)."""
        row = await self.fetchone(
            "SELECT season_id, round_id, table_no, recorded_at, voided_at, awarded"
            " FROM league_games WHERE game_id = ?", (game_id,))
        if row is None:
            return None
        return LeagueGameFlags(int(row[0]), row[1], row[2], row[3], row[4], bool(row[5]))

    async def set_league_result(self, game_id: int, *, placings: Sequence[tuple[int, str, int,
                                                                               int, str]] | None,
                                recorded_at: str | None, voided_at: str | None,
                                awarded: bool) -> None:
        """Replace a league game's result and flags at once (placings None keeps them)."""
        steps = [Write("UPDATE league_games SET recorded_at = ?, voided_at = ?, awarded = ?"
                       " WHERE game_id = ?", (recorded_at, voided_at, int(awarded), game_id))]
        if placings is not None:
            steps.append(Write("DELETE FROM league_results WHERE game_id = ?", (game_id,)))
            steps += [Write("INSERT INTO league_results (game_id, user_id, seat, rank, coins,"
                            " races) VALUES (?, ?, ?, ?, ?, ?)", (game_id, *p)) for p in placings]
        await self.write(*steps)

    async def add_league_audit(self, *, league_id: int, season_id: int | None,
                               game_id: int | None, actor_id: int | None, action: str,
                               reason: str, detail: str, now: str) -> None:
        await self.execute(
            "INSERT INTO league_audit (league_id, season_id, game_id, actor_id, action,"
            " reason, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            league_id, season_id, game_id, actor_id, action, reason, detail, now)

    async def league_audit(self, league_id: int, limit: int = 20, *, action: str | None = None,
                           game_id: int | None = None) -> list[AuditRow]:
        """A league's audit entries, newest first; only one action or one game's entries
        when asked."""
        where: list[str] = ["league_id = ?"]
        params: list[Any] = [league_id]
        if action is not None:
            where.append("action = ?")
            params.append(action)
        if game_id is not None:
            where.append("game_id = ?")
            params.append(game_id)
        return [AuditRow(*r) for r in await self.fetchall(
            "SELECT id, season_id, game_id, actor_id, action, reason, detail, at"
            f" FROM league_audit WHERE {' AND '.join(where)} ORDER BY id DESC LIMIT ?",
            (*params, limit))]

    async def game_races(self, game_id: int) -> dict[str, list[str]]:
        """Seat name -> races picked in the game, in order (from the `picked` events)."""
        out: dict[str, list[str]] = {}
        rows = await self.fetchall(
            "SELECT events FROM actions WHERE game_id = ? AND events LIKE ? ORDER BY seq",
            (game_id, '%"picked"%'))
        for (events,) in rows:
            for ev in json.loads(events):
                if ev.get("type") == "picked" and ev.get("player") and ev.get("race"):
                    out.setdefault(str(ev["player"]), []).append(str(ev["race"]))
        return out

    async def record_league_result(
        self, game_id: int, placings: Sequence[tuple[int, str, int, int, str]]
    ) -> bool:
        """Store a league game's placings (user id, seat, rank, coins, races) once; False when
        the result was recorded already (then nothing is written)."""
        try:
            await self.write(
                Write("UPDATE league_games SET recorded_at = ? WHERE game_id = ?"
                      " AND recorded_at IS NULL", (now(), game_id), need=1),
                *(Write("INSERT INTO league_results (game_id, user_id, seat, rank, coins, races)"
                        " VALUES (?, ?, ?, ?, ?, ?)", (game_id, *p)) for p in placings))
        except NotChanged:
            return False
        return True

    async def league_results(self, *, season_id: int | None = None,
                             league_id: int | None = None, voided: bool = False
                             ) -> list[ResultRow]:
        """Recorded placings of one season's games, or of every season of a league, in the
        order the games finished (voided games only when asked)."""
        if season_id is not None:
            where, param = "lg.season_id = ?", season_id
        elif league_id is not None:
            where = "lg.season_id IN (SELECT id FROM seasons WHERE league_id = ?)"
            param = league_id
        else:
            raise ValueError("league_results needs a season_id or a league_id")
        rows = await self.fetchall(
            "SELECT lg.game_id, lg.season_id, COALESCE(g.finished_at, lg.recorded_at),"
            " r.user_id, r.seat, r.rank, r.coins, r.races, lr.number, lg.voided_at,"
            " lg.awarded FROM league_results r"
            " JOIN league_games lg ON lg.game_id = r.game_id JOIN games g ON g.id = lg.game_id"
            " LEFT JOIN league_rounds lr ON lr.id = lg.round_id"
            f" WHERE lg.recorded_at IS NOT NULL AND (? = 1 OR lg.voided_at IS NULL) AND {where}"
            " ORDER BY COALESCE(g.finished_at, lg.recorded_at), lg.game_id, r.rank, r.user_id",
            (int(voided), param))
        return [ResultRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7] or "",
                          None if r[8] is None else int(r[8]), r[9] is not None, bool(r[10]))
                for r in rows]

    async def open_league_game_rows(self, season_id: int) -> list[GameRow]:
        """A season's league games still in their lobby or running, without a result."""
        rows = await self.fetchall(
            f"SELECT {', '.join('g.' + c.strip() for c in GAME_COLUMNS.split(','))}"
            " FROM league_games lg JOIN games g ON g.id = lg.game_id WHERE lg.season_id = ?"
            " AND g.status IN ('lobby', 'active') AND lg.recorded_at IS NULL ORDER BY g.id",
            (season_id,))
        return [game_row(r) for r in rows]

    async def season_turn_limit(self, season_id: int) -> int | None:
        """The turn limit a league season requires of its games (None: no clock required)."""
        row = await self.fetchone("SELECT turn_limit FROM seasons WHERE id = ?", (season_id,))
        return None if row is None or row[0] is None else int(row[0])

    async def set_season_turn_limit(self, season_id: int, seconds: int | None) -> None:
        await self.execute("UPDATE seasons SET turn_limit = ? WHERE id = ?",
                           seconds, season_id)

