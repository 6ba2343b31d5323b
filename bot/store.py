"""SQLite persistence: games, their append-only action logs and turn-boundary snapshots.

A game is its setup (board, seed, seats, options) plus the log of accepted actions; the
state after `n` actions is the latest snapshot at or before `n` with the later actions
replayed through the engine. Each append is one transaction (action row, game version and,
at turn boundaries, a snapshot), committed before the caller replies to anyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.clock import Deadline

MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class GameStatus(StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"  # played to the end
    ENDED = "ended"  # stopped by a moderator

    @property
    def is_open(self) -> bool:
        return self in (GameStatus.LOBBY, GameStatus.ACTIVE)


class StoreError(Exception):
    """A storage-level refusal the service turns into a player sentence."""


class ChannelBusy(StoreError):
    """The channel already has a lobby or an active game."""


class VersionConflict(StoreError):
    """Somebody else appended at this version first."""


class GameNotFound(StoreError):
    pass


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat of a game: a member (user_id), or an AI player (user_id 0, `ai` its level)."""

    user_id: int
    name: str
    ai: str | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.user_id, "name": self.name}
        if self.ai:
            d["ai"] = self.ai
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Seat:
        ai = d.get("ai")
        return cls(user_id=int(d["id"]), name=str(d["name"]), ai=str(ai) if ai else None)


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    status: GameStatus
    board: str | None
    seed: int
    players: tuple[Seat, ...]
    options: dict[str, Any]
    opener_id: int | None
    version: int
    created_at: str
    started_at: str | None
    finished_at: str | None

    def seat_of(self, user_id: int) -> Seat | None:
        if not user_id:  # AI and vacant seats hold user id 0: nobody's seat
            return None
        return next((s for s in self.players if s.user_id == user_id), None)

    def seat_named(self, name: str) -> Seat | None:
        return next((s for s in self.players if s.name == name), None)


@dataclass(frozen=True, slots=True)
class ActionRow:
    game_id: int
    seq: int
    action: dict[str, Any]
    actor_id: int | None
    player: str | None
    events: list[dict[str, Any]] = field(default_factory=list)
    reveals: bool = False
    ends_turn: bool = False
    created_at: str = ""


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One recorded placing of a league game, with when the game finished."""

    game_id: int
    season_id: int
    finished_at: str
    user_id: int
    seat: str
    rank: int
    coins: int
    races: str = ""  # races picked in the game, space separated
    round_no: int | None = None
    voided: bool = False
    awarded: bool = False


@dataclass(frozen=True, slots=True)
class GameLog:
    """What loading needs: the latest usable snapshot and the actions after it."""

    game: GameRow
    snapshot_seq: int
    snapshot: dict[str, Any] | None
    actions: tuple[ActionRow, ...]


def database_path(url: str) -> str:
    """The SQLite file named by a DATABASE_URL, a plain path, or ":memory:"."""
    url = url.strip()
    if url in ("", ":memory:", "sqlite://", "sqlite:///:memory:"):
        return ":memory:"
    m = re.match(r"^sqlite(?:\+\w+)?:///(.*)$", url)
    if m:
        path = m.group(1).split("?", 1)[0]
        return path or ":memory:"
    if "://" in url:
        raise ValueError(f"DATABASE_URL must be sqlite:///path or a file path, got {url!r}")
    return url


def _migrations() -> list[tuple[int, str, str]]:
    found = []
    for entry in resources.files("bot.migrations").iterdir():
        m = MIGRATION_NAME.match(entry.name)
        if m:
            found.append((int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 0001.. without gaps, got {numbers}")
    return found


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


_GAME_COLUMNS = (
    "id, guild_id, channel_id, status, board, seed, players, options, opener_id, version,"
    " created_at, started_at, finished_at"
)


def _game(row: Sequence[Any]) -> GameRow:
    return GameRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        status=GameStatus(row[3]),
        board=row[4],
        seed=row[5],
        players=tuple(Seat.from_json(p) for p in json.loads(row[6])),
        options=json.loads(row[7]),
        opener_id=row[8],
        version=row[9],
        created_at=row[10],
        started_at=row[11],
        finished_at=row[12],
    )


def _action(row: Sequence[Any]) -> ActionRow:
    return ActionRow(
        game_id=row[0],
        seq=row[1],
        action=json.loads(row[2]),
        actor_id=row[3],
        player=row[4],
        events=json.loads(row[5]),
        reveals=bool(row[6]),
        ends_turn=bool(row[7]),
        created_at=row[8],
    )


_ACTION_COLUMNS = "game_id, seq, action, actor_id, player, events, reveals, ends_turn, created_at"
_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"


def _now_iso() -> str:
    """UTC now as stored: 2026-11-24T11:40:00.123Z (sorts as text, like _NOW)."""
    t = datetime.now(UTC)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


class Store:
    """One aiosqlite connection; every statement runs under one lock, writes in transactions."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, url: str) -> Store:
        path = database_path(url)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        store = cls(conn, path)
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=FULL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            await store.migrate()
        except BaseException:
            await conn.close()
            raise
        return store

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- plumbing -------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            else:
                await self._conn.execute("COMMIT")

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        async with self._lock, self._conn.execute(sql, tuple(params)) as cur:
            return list(await cur.fetchall())

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any:
        async with self._lock, self._conn.execute(sql, tuple(params)) as cur:
            return await cur.fetchone()

    async def journal_mode(self) -> str:
        row = await self.fetchone("PRAGMA journal_mode")
        return str(row[0])

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        return int(row[0])

    async def migrate(self) -> list[int]:
        """Apply the numbered migrations not applied yet; return their numbers."""
        async with self._lock:
            await self._conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                f" applied_at TEXT NOT NULL DEFAULT ({_NOW}))"
            )
            async with self._conn.execute("SELECT version FROM schema_version") as cur:
                done = {r[0] for r in await cur.fetchall()}
            applied = []
            for number, name, sql in _migrations():
                if number in done:
                    continue
                script = (
                    f"BEGIN IMMEDIATE;\n{sql}\n"
                    f"INSERT INTO schema_version (version, name) VALUES ({number}, '{name}');\n"
                    "COMMIT;"
                )
                try:
                    await self._conn.executescript(script)
                except BaseException:
                    if self._conn.in_transaction:
                        await self._conn.execute("ROLLBACK")
                    raise
                applied.append(number)
            return applied

    # -- games ----------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        seed: int,
        board: str | None = None,
        players: Sequence[Seat] = (),
        options: dict[str, Any] | None = None,
        opener_id: int | None = None,
    ) -> GameRow:
        """Open a lobby; ChannelBusy when the channel already has an open game."""
        try:
            async with self.transaction() as conn:
                cur = await conn.execute(
                    "INSERT INTO games (guild_id, channel_id, seed, board, players, options,"
                    " opener_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        seed,
                        board,
                        _dumps([s.to_json() for s in players]),
                        _dumps(options or {}),
                        opener_id,
                    ),
                )
                game_id = cur.lastrowid
        except aiosqlite.IntegrityError as exc:
            raise ChannelBusy(f"channel {channel_id} already has an open game") from exc
        game = await self.get_game(game_id)
        assert game is not None
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self.fetchone(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def open_game(self, channel_id: int) -> GameRow | None:
        """The lobby or active game of a channel."""
        row = await self.fetchone(
            f"SELECT {_GAME_COLUMNS} FROM games"
            " WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return _game(row) if row else None

    async def last_game(self, channel_id: int, *, started: bool = False) -> GameRow | None:
        """The most recent game of a channel, whatever its status (or: that was started)."""
        row = await self.fetchone(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ?"
            " AND (? = 0 OR started_at IS NOT NULL) ORDER BY id DESC LIMIT 1",
            (channel_id, int(started)),
        )
        return _game(row) if row else None

    async def games_with(self, user_id: int, statuses: Iterable[str] = ("active",)) -> list[GameRow]:
        """Games in which the user holds a seat, newest first."""
        statuses = list(statuses)
        marks = ", ".join("?" for _ in statuses)
        rows = await self.fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ({marks}) AND EXISTS ("
            " SELECT 1 FROM json_each(games.players) AS p"
            " WHERE json_extract(p.value, '$.id') = ?) ORDER BY id DESC",
            (*statuses, user_id),
        )
        return [_game(r) for r in rows]

    async def update_lobby(
        self,
        game_id: int,
        *,
        players: Sequence[Seat] | None = None,
        options: dict[str, Any] | None = None,
        board: str | None = None,
        opener_id: int | None = None,
    ) -> GameRow:
        """Change the seats/options/board/opener of a game still in its lobby."""
        sets, params = [], []
        if opener_id is not None:
            sets.append("opener_id = ?")
            params.append(opener_id)
        if players is not None:
            sets.append("players = ?")
            params.append(_dumps([s.to_json() for s in players]))
        if options is not None:
            sets.append("options = ?")
            params.append(_dumps(options))
        if board is not None:
            sets.append("board = ?")
            params.append(board)
        if sets:
            async with self.transaction() as conn:
                cur = await conn.execute(
                    f"UPDATE games SET {', '.join(sets)}, updated_at = {_NOW}"
                    " WHERE id = ? AND status = 'lobby'",
                    (*params, game_id),
                )
                if cur.rowcount != 1:
                    raise VersionConflict(f"game {game_id} is no longer in its lobby")
        game = await self.get_game(game_id)
        if game is None:
            raise GameNotFound(game_id)
        return game

    async def start_game(
        self, game_id: int, *, board: str, players: Sequence[Seat], state: dict[str, Any]
    ) -> GameRow:
        """Lobby -> active with the final seat order; the initial state is snapshot 0."""
        async with self.transaction() as conn:
            cur = await conn.execute(
                f"UPDATE games SET status = 'active', board = ?, players = ?, version = 0,"
                f" started_at = {_NOW}, updated_at = {_NOW} WHERE id = ? AND status = 'lobby'",
                (board, _dumps([s.to_json() for s in players]), game_id),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is not in its lobby")
            await conn.execute(
                "INSERT INTO snapshots (game_id, seq, state) VALUES (?, 0, ?)",
                (game_id, _dumps(state)),
            )
        game = await self.get_game(game_id)
        assert game is not None
        return game

    async def set_status(self, game_id: int, status: GameStatus) -> None:
        finished = f"{_NOW}" if not status.is_open else "NULL"
        async with self.transaction() as conn:
            await conn.execute(
                f"UPDATE games SET status = ?, finished_at = {finished}, updated_at = {_NOW}"
                " WHERE id = ?",
                (status.value, game_id),
            )

    async def set_players(self, game_id: int, players: Sequence[Seat]) -> None:
        """Replace the seat list of an active game (e.g. a kicked player's seat)."""
        async with self.transaction() as conn:
            await conn.execute(
                f"UPDATE games SET players = ?, updated_at = {_NOW} WHERE id = ?",
                (_dumps([s.to_json() for s in players]), game_id),
            )

    async def set_options(self, game_id: int, options: dict[str, Any]) -> None:
        async with self.transaction() as conn:
            await conn.execute(
                f"UPDATE games SET options = ?, updated_at = {_NOW} WHERE id = ?",
                (_dumps(options), game_id),
            )

    # -- the living message and member settings ---------------------------------------------

    async def game_message(self, game_id: int) -> tuple[int, str] | None:
        """The public message the game keeps current (lobby or turn panel): its id and the
        text it keeps once retired."""
        row = await self.fetchone(
            "SELECT message_id, summary FROM game_messages WHERE game_id = ?", (game_id,))
        return (int(row[0]), str(row[1])) if row else None

    async def set_game_message(self, game_id: int, message_id: int, summary: str = "") -> None:
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO game_messages (game_id, message_id, summary) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET message_id = excluded.message_id,"
                f" summary = excluded.summary, updated_at = {_NOW}",
                (game_id, message_id, summary),
            )

    async def turn_dm(self, user_id: int) -> bool:
        """The member asked for a DM when they must act."""
        row = await self.fetchone("SELECT turn_dm FROM user_settings WHERE user_id = ?",
                                  (user_id,))
        return bool(row and row[0])

    async def set_turn_dm(self, user_id: int, on: bool) -> None:
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO user_settings (user_id, turn_dm) VALUES (?, ?)"
                f" ON CONFLICT (user_id) DO UPDATE SET turn_dm = excluded.turn_dm,"
                f" updated_at = {_NOW}",
                (user_id, int(on)),
            )

    async def active_games(self) -> list[GameRow]:
        """Every game being played (the scheduler re-arms their deadlines at start)."""
        rows = await self.fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' ORDER BY id")
        return [_game(r) for r in rows]

    # -- the clock ------------------------------------------------------------------------

    async def sync_deadlines(
        self, game_id: int, rows: Sequence[Deadline], *, keep: Iterable[str] = ()
    ) -> None:
        """Make the game's deadlines `rows` (plus the kinds in `keep`, left as they are).

        A row whose stint key is unchanged keeps its due time and fired flag, so re-syncing
        never pushes a deadline back; a new key re-arms it."""
        wanted = {r.kind for r in rows} | set(keep)
        marks = ", ".join("?" for _ in wanted) or "''"
        async with self.transaction() as conn:
            await conn.execute(
                f"DELETE FROM deadlines WHERE game_id = ? AND kind NOT IN ({marks})",
                (game_id, *wanted),
            )
            for r in rows:
                await conn.execute(
                    "INSERT INTO deadlines (game_id, kind, seat, key, due_at) VALUES (?, ?, ?, ?, ?)"
                    " ON CONFLICT (game_id, kind) DO UPDATE SET seat = excluded.seat,"
                    " key = excluded.key, due_at = excluded.due_at, claimed_at = NULL, fired = 0"
                    " WHERE deadlines.key != excluded.key",
                    (game_id, r.kind, r.seat, r.key, r.due_at),
                )

    async def deadlines(self, game_id: int) -> list[Deadline]:
        """The game's unfired deadlines, earliest first."""
        rows = await self.fetchall(
            "SELECT game_id, kind, seat, key, due_at, claimed_at FROM deadlines"
            " WHERE game_id = ? AND fired = 0 ORDER BY due_at", (game_id,))
        return [Deadline(*r) for r in rows]

    async def next_deadline(self, stale: float) -> float | None:
        """When the earliest unfired deadline is due (a claimed one: when its claim goes
        stale); None when there is none."""
        row = await self.fetchone(
            "SELECT MIN(CASE WHEN claimed_at IS NULL THEN due_at ELSE claimed_at + ? END)"
            " FROM deadlines WHERE fired = 0", (stale,))
        return None if row is None or row[0] is None else float(row[0])

    async def claim_due(self, now: float, stale: float) -> list[Deadline]:
        """Take every due deadline in one statement: a row is claimed by one caller only."""
        async with self.transaction() as conn, conn.execute(
            "UPDATE deadlines SET claimed_at = ? WHERE fired = 0 AND due_at <= ?"
            " AND (claimed_at IS NULL OR claimed_at < ?)"
            " RETURNING game_id, kind, seat, key, due_at, claimed_at",
            (now, now, now - stale),
        ) as cur:
            rows = await cur.fetchall()
        return sorted((Deadline(*r) for r in rows), key=lambda d: d.due_at)

    async def finish_deadline(self, row: Deadline) -> bool:
        """Mark a claimed deadline handled (False: its stint was replaced meanwhile)."""
        async with self.transaction() as conn:
            cur = await conn.execute(
                "UPDATE deadlines SET fired = 1 WHERE game_id = ? AND kind = ? AND key = ?"
                " AND claimed_at = ?", (row.game_id, row.kind, row.key, row.claimed_at))
            return cur.rowcount == 1

    async def retry_deadline(self, row: Deadline, due_at: float) -> None:
        """Give a claimed deadline back, due again at `due_at` (its handler could not finish)."""
        async with self.transaction() as conn:
            await conn.execute(
                "UPDATE deadlines SET claimed_at = NULL, due_at = ? WHERE game_id = ?"
                " AND kind = ? AND key = ? AND claimed_at = ?",
                (due_at, row.game_id, row.kind, row.key, row.claimed_at))

    async def guild_clock(self, guild_id: int | None) -> dict[str, Any] | None:
        """The server's default clock for new lobbies (None: not set)."""
        if guild_id is None:
            return None
        row = await self.fetchone("SELECT clock FROM guild_settings WHERE guild_id = ?",
                                  (guild_id,))
        return json.loads(row[0]) if row and row[0] else None

    async def set_guild_clock(self, guild_id: int, clock: dict[str, Any] | None) -> None:
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, clock) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET clock = excluded.clock",
                (guild_id, None if clock is None else _dumps(clock)))

    async def season_turn_limit(self, season_id: int) -> int | None:
        """The turn limit a league season requires of its games (None: no clock required)."""
        row = await self.fetchone("SELECT turn_limit FROM seasons WHERE id = ?", (season_id,))
        return None if row is None or row[0] is None else int(row[0])

    async def set_season_turn_limit(self, season_id: int, seconds: int | None) -> None:
        async with self.transaction() as conn:
            await conn.execute("UPDATE seasons SET turn_limit = ? WHERE id = ?",
                               (seconds, season_id))

    # -- the log --------------------------------------------------------------------------

    async def append(
        self,
        game_id: int,
        seq: int,
        action: dict[str, Any],
        *,
        actor_id: int | None,
        player: str | None,
        events: Sequence[dict[str, Any]] = (),
        reveals: bool = False,
        ends_turn: bool = False,
        snapshot: dict[str, Any] | None = None,
        status: GameStatus | None = None,
    ) -> None:
        """Append action number `seq` (= previous version + 1) in one transaction.

        Raises VersionConflict when the game is not at version seq - 1 (a concurrent writer
        won, or the caller's state is stale); nothing is written then.
        """
        async with self.transaction() as conn:
            cur = await conn.execute(
                f"UPDATE games SET version = ?, updated_at = {_NOW}"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (seq, game_id, seq - 1),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is not at version {seq - 1}")
            try:
                await conn.execute(
                    f"INSERT INTO actions ({_ACTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?,"
                    f" {_NOW})",
                    (
                        game_id,
                        seq,
                        _dumps(action),
                        actor_id,
                        player,
                        _dumps(list(events)),
                        int(reveals),
                        int(ends_turn),
                    ),
                )
            except aiosqlite.IntegrityError as exc:
                raise VersionConflict(f"action {seq} of game {game_id} exists") from exc
            if snapshot is not None:
                await conn.execute(
                    "INSERT OR REPLACE INTO snapshots (game_id, seq, state) VALUES (?, ?, ?)",
                    (game_id, seq, _dumps(snapshot)),
                )
            if status is not None:
                finished = f"{_NOW}" if not status.is_open else "NULL"
                await conn.execute(
                    f"UPDATE games SET status = ?, finished_at = {finished} WHERE id = ?",
                    (status.value, game_id),
                )

    async def actions(
        self, game_id: int, *, after: int = 0, upto: int | None = None
    ) -> list[ActionRow]:
        """Actions with after < seq <= upto, in order."""
        rows = await self.fetchall(
            f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ?"
            " AND (? IS NULL OR seq <= ?) ORDER BY seq",
            (game_id, after, upto, upto),
        )
        return [_action(r) for r in rows]

    async def recent_actions(self, game_id: int, limit: int = 10) -> list[ActionRow]:
        rows = await self.fetchall(
            f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT ?",
            (game_id, limit),
        )
        return [_action(r) for r in reversed(rows)]

    async def snapshot_seqs(self, game_id: int) -> list[int]:
        rows = await self.fetchall(
            "SELECT seq FROM snapshots WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [r[0] for r in rows]

    async def log(self, game_id: int, upto: int | None = None) -> GameLog:
        """The latest snapshot at or before `upto` (default: the game version) and the rest."""
        game = await self.get_game(game_id)
        if game is None:
            raise GameNotFound(game_id)
        upto = game.version if upto is None else upto
        row = await self.fetchone(
            "SELECT seq, state FROM snapshots WHERE game_id = ? AND seq <= ?"
            " ORDER BY seq DESC LIMIT 1",
            (game_id, upto),
        )
        snap_seq, snap = (row[0], json.loads(row[1])) if row else (0, None)
        actions = await self.actions(game_id, after=snap_seq, upto=upto)
        return GameLog(game=game, snapshot_seq=snap_seq, snapshot=snap, actions=tuple(actions))

    async def truncate(self, game_id: int, keep: int, *, expected: int | None = None) -> int:
        """Undo: keep the first `keep` actions, drop the rest and later snapshots; -> removed.

        With `expected`, refuse (VersionConflict) unless the game is at that version.
        """
        if keep < 0:
            raise ValueError("keep must be >= 0")
        async with self.transaction() as conn:
            if expected is not None:
                async with conn.execute(
                    "SELECT version FROM games WHERE id = ?", (game_id,)
                ) as cur:
                    row = await cur.fetchone()
                if row is None or row[0] != expected:
                    raise VersionConflict(f"game {game_id} is not at version {expected}")
            cur = await conn.execute(
                "DELETE FROM actions WHERE game_id = ? AND seq > ?", (game_id, keep)
            )
            removed = cur.rowcount
            await conn.execute(
                "DELETE FROM snapshots WHERE game_id = ? AND seq > ?", (game_id, keep)
            )
            await conn.execute(
                f"UPDATE games SET version = ?, updated_at = {_NOW} WHERE id = ?",
                (keep, game_id),
            )
        return removed

    # -- league rounds, settings, audit (bot.league) ----------------------------------------
    # Portable SQL: `?` parameters, times passed in as UTC ISO strings, no engine functions.

    LEAGUE_SETTINGS = ("organiser_role_id", "allow_ai", "table_size", "start_minutes",
                       "round_days", "summary_channel", "summary_at")

    async def league_settings(self, league_id: int) -> dict[str, Any]:
        cols = ", ".join(self.LEAGUE_SETTINGS)
        row = await self.fetchone(
            f"SELECT {cols} FROM league_settings WHERE league_id = ?", (league_id,))
        if row is None:
            return {"organiser_role_id": None, "allow_ai": 0, "table_size": 4,
                    "start_minutes": 30, "round_days": 7, "summary_channel": None,
                    "summary_at": None}
        return dict(zip(self.LEAGUE_SETTINGS, row, strict=True))

    async def set_league_settings(self, league_id: int, changes: dict[str, Any]) -> None:
        bad = set(changes) - set(self.LEAGUE_SETTINGS)
        if bad:
            raise ValueError(f"unknown league settings {sorted(bad)}")
        if not changes:
            return
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO league_settings (league_id) VALUES (?)"
                " ON CONFLICT (league_id) DO NOTHING", (league_id,))
            sets = ", ".join(f"{k} = ?" for k in changes)
            await conn.execute(f"UPDATE league_settings SET {sets} WHERE league_id = ?",
                               (*changes.values(), league_id))

    async def league_channels(self, league_id: int) -> list[int]:
        rows = await self.fetchall(
            "SELECT channel_id FROM league_channels WHERE league_id = ? ORDER BY channel_id",
            (league_id,))
        return [int(r[0]) for r in rows]

    async def set_league_channel(self, league_id: int, channel_id: int, on: bool) -> bool:
        """Add or remove a table channel; -> whether anything changed."""
        async with self.transaction() as conn:
            if on:
                cur = await conn.execute(
                    "INSERT INTO league_channels (league_id, channel_id) VALUES (?, ?)"
                    " ON CONFLICT (league_id, channel_id) DO NOTHING", (league_id, channel_id))
            else:
                cur = await conn.execute(
                    "DELETE FROM league_channels WHERE league_id = ? AND channel_id = ?",
                    (league_id, channel_id))
            return cur.rowcount == 1

    async def set_registration_prefs(self, season_id: int, user_id: int,
                                     changes: dict[str, Any]) -> None:
        bad = set(changes) - {"days", "sit_out", "substitute"}
        if bad:
            raise ValueError(f"unknown registration fields {sorted(bad)}")
        if not changes:
            return
        sets = ", ".join(f"{k} = ?" for k in changes)
        async with self.transaction() as conn:
            await conn.execute(
                f"UPDATE registrations SET {sets} WHERE season_id = ? AND user_id = ?",
                (*changes.values(), season_id, user_id))

    async def registration_prefs(self, season_id: int) -> list[tuple[int, str, str, int, int]]:
        """(user id, name, days, sit_out, substitute) of the active registrations."""
        return [tuple(r) for r in await self.fetchall(
            "SELECT user_id, name, days, sit_out, substitute FROM registrations"
            " WHERE season_id = ? AND left_at IS NULL ORDER BY joined_at, user_id",
            (season_id,))]

    async def set_season_rounds(self, season_id: int, rounds: int | None) -> None:
        async with self.transaction() as conn:
            await conn.execute("UPDATE seasons SET rounds = ? WHERE id = ?", (rounds, season_id))

    async def season_rounds(self, season_id: int) -> int | None:
        row = await self.fetchone("SELECT rounds FROM seasons WHERE id = ?", (season_id,))
        return None if row is None or row[0] is None else int(row[0])

    _ROUND_COLS = "id, season_id, number, started_by, started_at, start_by, deadline, begun_at"

    async def league_rounds(self, season_id: int) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in await self.fetchall(
            f"SELECT {self._ROUND_COLS} FROM league_rounds WHERE season_id = ? ORDER BY number",
            (season_id,))]

    async def league_round(self, round_id: int) -> tuple[Any, ...] | None:
        row = await self.fetchone(
            f"SELECT {self._ROUND_COLS} FROM league_rounds WHERE id = ?", (round_id,))
        return None if row is None else tuple(row)

    async def create_league_round(
        self, *, season_id: int, number: int, by: int | None, now: str, start_by: str,
        deadline: str, games: Sequence[tuple[int, int, Sequence[Seat], dict[str, Any], int,
                                             int]],
    ) -> tuple[int, list[int]]:
        """One round and its lobbies in one transaction: games are (guild, channel, seats,
        options, seed, table number). -> (round id, game ids). ChannelBusy when a channel
        already has an open game (then nothing is written)."""
        try:
            async with self.transaction() as conn:
                cur = await conn.execute(
                    "INSERT INTO league_rounds (season_id, number, started_by, started_at,"
                    " start_by, deadline) VALUES (?, ?, ?, ?, ?, ?)",
                    (season_id, number, by, now, start_by, deadline))
                round_id = int(cur.lastrowid)
                ids = []
                for guild_id, channel_id, seats, options, seed, table_no in games:
                    cur = await conn.execute(
                        "INSERT INTO games (guild_id, channel_id, seed, board, players, options,"
                        " opener_id) VALUES (?, ?, ?, NULL, ?, ?, ?)",
                        (guild_id, channel_id, seed, _dumps([s.to_json() for s in seats]),
                         _dumps(options), by))
                    game_id = int(cur.lastrowid)
                    await conn.execute(
                        "INSERT INTO league_games (game_id, season_id, opened_by, round_id,"
                        " table_no) VALUES (?, ?, ?, ?, ?)",
                        (game_id, season_id, by, round_id, table_no))
                    ids.append(game_id)
        except aiosqlite.IntegrityError as exc:
            raise ChannelBusy(str(exc)) from exc
        return round_id, ids

    async def mark_round_begun(self, round_id: int, now: str) -> bool:
        async with self.transaction() as conn:
            cur = await conn.execute(
                "UPDATE league_rounds SET begun_at = ? WHERE id = ? AND begun_at IS NULL",
                (now, round_id))
            return cur.rowcount == 1

    async def round_games(self, round_id: int) -> list[tuple[int, int]]:
        """(game id, table number) of a round."""
        return [(int(a), int(b or 0)) for a, b in await self.fetchall(
            "SELECT game_id, table_no FROM league_games WHERE round_id = ? ORDER BY table_no",
            (round_id,))]

    async def league_game_flags(self, game_id: int) -> tuple[Any, ...] | None:
        """(season id, round id, table, recorded_at, voided_at, awarded) of a league game."""
        row = await self.fetchone(
            "SELECT season_id, round_id, table_no, recorded_at, voided_at, awarded"
            " FROM league_games WHERE game_id = ?", (game_id,))
        return None if row is None else tuple(row)

    async def set_league_result(self, game_id: int, *, placings: Sequence[tuple[int, str, int,
                                                                               int, str]] | None,
                                recorded_at: str | None, voided_at: str | None,
                                awarded: bool) -> None:
        """Replace a league game's result and flags at once (placings None keeps them)."""
        async with self.transaction() as conn:
            await conn.execute(
                "UPDATE league_games SET recorded_at = ?, voided_at = ?, awarded = ?"
                " WHERE game_id = ?", (recorded_at, voided_at, int(awarded), game_id))
            if placings is not None:
                await conn.execute("DELETE FROM league_results WHERE game_id = ?", (game_id,))
                await conn.executemany(
                    "INSERT INTO league_results (game_id, user_id, seat, rank, coins, races)"
                    " VALUES (?, ?, ?, ?, ?, ?)", [(game_id, *p) for p in placings])

    async def add_league_audit(self, *, league_id: int, season_id: int | None,
                               game_id: int | None, actor_id: int | None, action: str,
                               reason: str, detail: str, now: str) -> None:
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO league_audit (league_id, season_id, game_id, actor_id, action,"
                " reason, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (league_id, season_id, game_id, actor_id, action, reason, detail, now))

    async def league_audit(self, league_id: int, limit: int = 20, *, action: str | None = None,
                           game_id: int | None = None) -> list[tuple[Any, ...]]:
        """(id, season id, game id, actor id, action, reason, detail, at), newest first;
        only one action or one game's entries when asked."""
        where, params = ["league_id = ?"], [league_id]
        if action is not None:
            where.append("action = ?")
            params.append(action)
        if game_id is not None:
            where.append("game_id = ?")
            params.append(game_id)
        return [tuple(r) for r in await self.fetchall(
            "SELECT id, season_id, game_id, actor_id, action, reason, detail, at"
            f" FROM league_audit WHERE {' AND '.join(where)} ORDER BY id DESC LIMIT ?",
            (*params, limit))]

    async def due_league_rounds(self, now: str) -> list[tuple[int, int, str]]:
        """(league id, guild id, league name) of leagues whose latest round's start window
        closed at or before `now` and whose games have not begun."""
        return [(int(a), int(b), str(c)) for a, b, c in await self.fetchall(
            "SELECT l.id, l.guild_id, l.name FROM league_rounds r"
            " JOIN seasons s ON s.id = r.season_id JOIN leagues l ON l.id = s.league_id"
            " WHERE r.begun_at IS NULL AND r.start_by <= ? AND s.ended_at IS NULL"
            " ORDER BY r.start_by", (now,))]

    async def final_ranking(self, game_id: int) -> list[dict[str, Any]] | None:
        """The ranking of a finished game: from its game_over event, else its last snapshot."""
        rows = await self.fetchall(
            "SELECT events FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 5", (game_id,))
        for (events,) in rows:
            for ev in json.loads(events):
                if ev.get("type") == "game_over" and ev.get("ranking"):
                    return list(ev["ranking"])
        row = await self.fetchone(
            "SELECT state FROM snapshots WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,))
        if row is not None:
            ranking = json.loads(row[0]).get("ranking")
            if ranking:
                return list(ranking)
        return None

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
        async with self.transaction() as conn:
            cur = await conn.execute(
                "UPDATE league_games SET recorded_at = ? WHERE game_id = ?"
                " AND recorded_at IS NULL", (_now_iso(), game_id))
            if cur.rowcount != 1:
                return False
            await conn.executemany(
                "INSERT INTO league_results (game_id, user_id, seat, rank, coins, races)"
                " VALUES (?, ?, ?, ?, ?, ?)", [(game_id, *p) for p in placings])
        return True

    async def unrecorded_league_games(self) -> list[int]:
        """Finished league games whose result is not recorded yet, in finishing order."""
        rows = await self.fetchall(
            "SELECT lg.game_id FROM league_games lg JOIN games g ON g.id = lg.game_id"
            " WHERE lg.recorded_at IS NULL AND g.status = 'finished' ORDER BY g.finished_at,"
            " g.id")
        return [int(r[0]) for r in rows]

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
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLUMNS.split(','))}"
            " FROM league_games lg JOIN games g ON g.id = lg.game_id WHERE lg.season_id = ?"
            " AND g.status IN ('lobby', 'active') AND lg.recorded_at IS NULL ORDER BY g.id",
            (season_id,))
        return [_game(r) for r in rows]

    async def league_summary_channels(self) -> list[tuple[int, int, str, int, str | None]]:
        """(league id, guild id, name, summary channel, last summary) of leagues with one."""
        return [tuple(r) for r in await self.fetchall(
            "SELECT l.id, l.guild_id, l.name, s.summary_channel, s.summary_at FROM leagues l"
            " JOIN league_settings s ON s.league_id = l.id WHERE s.summary_channel IS NOT NULL"
            " ORDER BY l.id")]

    # -- language settings (i18n) ---------------------------------------------------------

    async def language(self, scope: str, target_id: int) -> str | None:
        """The language set for a user or a guild (scope "user" / "guild"), None if unset."""
        row = await self.fetchone(
            "SELECT language FROM language_settings WHERE scope = ? AND target_id = ?",
            (scope, target_id),
        )
        return None if row is None else str(row[0])

    async def set_language(self, scope: str, target_id: int, language: str | None) -> None:
        """Set (or with None clear) the language of a user or a guild."""
        async with self.transaction() as conn:
            if language is None:
                await conn.execute(
                    "DELETE FROM language_settings WHERE scope = ? AND target_id = ?",
                    (scope, target_id),
                )
            else:
                await conn.execute(
                    "INSERT INTO language_settings (scope, target_id, language) VALUES (?, ?, ?)"
                    f" ON CONFLICT (scope, target_id) DO UPDATE SET language = excluded.language,"
                    f" updated_at = {_NOW}",
                    (scope, target_id, language),
                )
