"""Persistence: games, their append-only action logs, turn-boundary snapshots and leagues.

Every SQL statement of the bot lives in this module (and its PostgreSQL driver,
`bot.store_pg`). `Store.open(DATABASE_URL)` picks the database: SQLite through aiosqlite
(`sqlite:///path`, a plain path or `:memory:`; the default) or PostgreSQL through asyncpg
(`postgresql://user@host/db`). Both run the same numbered migrations (one file per dialect
under one number) and give the same guarantees:

- A game is its setup (board, seed, seats, options) plus the log of accepted actions; the
  state after `n` actions is the latest snapshot at or before `n` with the later actions
  replayed through the engine.
- Each append is one transaction (action row, game version and, at turn boundaries, a
  snapshot), committed before the caller replies to anyone.
- The game version is a compare-and-swap: a write made from a stale version is refused
  (VersionConflict) and writes nothing.

The statements are written once, with `?` placeholders, in the SQL both databases accept;
timestamps are made here (UTC, ISO 8601 with milliseconds) rather than by SQL functions.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.clock import Deadline

MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
DIALECTS = ("sqlite", "postgresql")

# Tables in an order that satisfies their foreign keys (copying, verifying).
TABLES = (
    "games", "actions", "snapshots", "deadlines", "guild_settings",
    "leagues", "seasons", "registrations", "league_games", "league_results",
    "game_messages", "user_settings", "language_settings", "outbox",
)
OUTBOX_STALE = 60.0  # seconds after which another sender may take over a claimed DM
OUTBOX_ATTEMPTS = 5  # a DM that failed this often is given up


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


class Duplicate(StoreError):
    """A row with that unique key exists already (a league or season name)."""


class StoreUnavailable(StoreError):
    """The database could not do it right now (locked, disk full, connection lost); nothing
    was written. Trying again later is the answer."""


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
class Shards:
    """The gateway shards one process serves: `count` in all, `ids` of them here. Discord puts
    a guild on shard (guild_id >> 22) % count (direct messages: shard 0)."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shards {self.ids} of {self.count} do not fit")

    def serves(self, guild_id: int | None) -> bool:
        return ((guild_id or 0) >> 22) % self.count in self.ids

    def sql(self, column: str = "guild_id") -> tuple[str, list[int]]:
        """A condition on a games row (and its parameters): the game is on these shards."""
        marks = ", ".join("?" for _ in self.ids)
        return (f"((COALESCE({column}, 0) >> 22) % ?) IN ({marks})", [self.count, *self.ids])


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
    # writes of the action log so far (append, undo): with the version it names one log
    revision: int = 0

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
class GameLog:
    """What loading needs: the latest usable snapshot and the actions after it."""

    game: GameRow
    snapshot_seq: int
    snapshot: dict[str, Any] | None
    actions: tuple[ActionRow, ...]


@dataclass(frozen=True, slots=True)
class OwedDM:
    """A direct message the bot owes a player (see the outbox table)."""

    id: int
    game_id: int
    channel_id: int
    user_id: int
    lines: tuple[str, ...]
    attempts: int


@dataclass(frozen=True, slots=True)
class League:
    id: int
    guild_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Season:
    id: int
    league_id: int
    name: str
    started_at: str
    ended_at: str | None

    @property
    def is_open(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True, slots=True)
class Registration:
    user_id: int
    name: str
    joined_at: str
    left_at: str | None

    @property
    def active(self) -> bool:
        return self.left_at is None


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


def dialect_of(url: str) -> str:
    """"postgresql" for postgres:// and postgresql:// URLs, else "sqlite"."""
    scheme = url.strip().split("://", 1)[0].lower() if "://" in url else ""
    if scheme.split("+", 1)[0] in ("postgres", "postgresql"):
        return "postgresql"
    return "sqlite"


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
        raise ValueError(
            f"DATABASE_URL must be sqlite:///path, a file path or postgresql://..., got {url!r}"
        )
    return url


def _migrations(dialect: str = "sqlite") -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of one dialect: SQLite's files sit in bot/migrations/,
    PostgreSQL's under the same names in bot/migrations/postgresql/."""
    folder = resources.files("bot.migrations")
    if dialect == "postgresql":
        folder = folder / "postgresql"
    found = []
    for entry in folder.iterdir():
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


def now(ago: float = 0.0) -> str:
    """UTC now (or `ago` seconds before) as stored: 2026-11-24T11:40:00.123Z (sorts as text)."""
    t = datetime.now(UTC) - timedelta(seconds=ago)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


_GAME_COLUMNS = (
    "id, guild_id, channel_id, status, board, seed, players, options, opener_id, version,"
    " created_at, started_at, finished_at, revision"
)
_ACTION_COLUMNS = "game_id, seq, action, actor_id, player, events, reveals, ends_turn, created_at"
_LEAGUE_COLS = "id, guild_id, name"
_SEASON_COLS = "id, league_id, name, started_at, ended_at"


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
        revision=int(row[13]),
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


def _league(row: Sequence[Any]) -> League:
    return League(row[0], row[1], row[2])


def _season(row: Sequence[Any]) -> Season:
    return Season(row[0], row[1], row[2], row[3], row[4])


def _seat_pattern(user_id: int) -> str:
    """A LIKE pattern matching the seat list of a user: seats are stored by _dumps (sorted
    keys, no spaces), so a seat reads {"id":11,"name":...}; a quote inside a name is escaped
    and cannot fake the pattern."""
    return f'%"id":{int(user_id)},%'


class Tx:
    """One transaction of a driver: statements with `?` placeholders, rows as sequences."""

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; -> the number of rows it changed."""
        raise NotImplementedError

    async def insert(self, sql: str, *args: Any) -> int:
        """Run an INSERT ... RETURNING id; -> the id."""
        raise NotImplementedError

    async def fetchone(self, sql: str, *args: Any) -> Any:
        raise NotImplementedError

    async def fetchall(self, sql: str, *args: Any) -> list[Any]:
        raise NotImplementedError


class Store:
    """The store interface and its SQL; a driver subclass supplies connections.

    `await Store.open(url)` returns the driver the URL names. Integrity errors reach the
    methods below as Duplicate, and an unavailable database as StoreUnavailable.
    """

    dialect = "?"
    path = ""  # what to log about where the data lives (no password)

    @classmethod
    async def open(cls, url: str) -> Store:
        if dialect_of(url) == "postgresql":
            from bot.store_pg import PostgresStore

            return await PostgresStore.connect(url)
        return await SqliteStore.connect(url)

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- driver ---------------------------------------------------------------------------

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """A write transaction: committed on leaving, rolled back on any exception."""
        raise NotImplementedError

    def channel_lock(self, channel_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold the channel's turn to change its game across processes, for the `async with`
        body (load, check, append, the writes that follow). SQLite serves one process, whose
        in-process lock is enough: nothing to do here; PostgreSQL takes a database lock."""
        return contextlib.nullcontext()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        """Read-only query (tools and tests); `?` placeholders in either dialect."""
        raise NotImplementedError

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any:
        raise NotImplementedError

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        return int(row[0])

    async def migrate(self) -> list[int]:
        raise NotImplementedError

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
        season_id: int | None = None,
    ) -> GameRow:
        """Open a lobby; ChannelBusy when the channel already has an open game. With a
        `season_id` the game is tagged as that league season's game in the same transaction."""
        try:
            async with self.transaction() as tx:
                t = now()
                game_id = await tx.insert(
                    "INSERT INTO games (guild_id, channel_id, seed, board, players, options,"
                    " opener_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " RETURNING id",
                    guild_id, channel_id, seed, board,
                    _dumps([s.to_json() for s in players]), _dumps(options or {}),
                    opener_id, t, t,
                )
                if season_id is not None:
                    await tx.execute(
                        "INSERT INTO league_games (game_id, season_id, opened_by)"
                        " VALUES (?, ?, ?)", game_id, season_id, opener_id)
        except Duplicate as exc:
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
        only_started = " AND started_at IS NOT NULL" if started else ""
        row = await self.fetchone(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ?{only_started}"
            " ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return _game(row) if row else None

    async def games_with(self, user_id: int, statuses: Iterable[str] = ("active",)) -> list[GameRow]:
        """Games in which the user holds a seat, newest first."""
        statuses = list(statuses)
        if not statuses:
            return []
        marks = ", ".join("?" for _ in statuses)
        rows = await self.fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ({marks}) AND players LIKE ?"
            " ORDER BY id DESC",
            (*statuses, _seat_pattern(user_id)),
        )
        games = [_game(r) for r in rows]
        return [g for g in games if g.seat_of(user_id) is not None]

    async def game_ids(self, statuses: Iterable[str] | None = None) -> list[int]:
        """Ids of all games (or of those with the given statuses), oldest first."""
        if statuses is None:
            rows = await self.fetchall("SELECT id FROM games ORDER BY id")
        else:
            statuses = list(statuses)
            if not statuses:
                return []
            marks = ", ".join("?" for _ in statuses)
            rows = await self.fetchall(
                f"SELECT id FROM games WHERE status IN ({marks}) ORDER BY id", statuses)
        return [int(r[0]) for r in rows]

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
        sets: list[str] = []
        params: list[Any] = []
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
            async with self.transaction() as tx:
                changed = await tx.execute(
                    f"UPDATE games SET {', '.join(sets)}, updated_at = ?"
                    " WHERE id = ? AND status = 'lobby'",
                    *params, now(), game_id,
                )
                if changed != 1:
                    raise VersionConflict(f"game {game_id} is no longer in its lobby")
        game = await self.get_game(game_id)
        if game is None:
            raise GameNotFound(game_id)
        return game

    async def start_game(
        self, game_id: int, *, board: str, players: Sequence[Seat], state: dict[str, Any]
    ) -> GameRow:
        """Lobby -> active with the final seat order; the initial state is snapshot 0."""
        async with self.transaction() as tx:
            t = now()
            changed = await tx.execute(
                "UPDATE games SET status = 'active', board = ?, players = ?, version = 0,"
                " started_at = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
                board, _dumps([s.to_json() for s in players]), t, t, game_id,
            )
            if changed != 1:
                raise VersionConflict(f"game {game_id} is not in its lobby")
            await tx.execute(
                "INSERT INTO snapshots (game_id, seq, state, created_at) VALUES (?, 0, ?, ?)",
                game_id, _dumps(state), t,
            )
        game = await self.get_game(game_id)
        assert game is not None
        return game

    async def set_status(self, game_id: int, status: GameStatus) -> None:
        t = now()
        async with self.transaction() as tx:
            await tx.execute(
                "UPDATE games SET status = ?, finished_at = ?, updated_at = ? WHERE id = ?",
                status.value, None if status.is_open else t, t, game_id,
            )

    async def set_players(self, game_id: int, players: Sequence[Seat]) -> None:
        """Replace the seat list of an active game (e.g. a kicked player's seat)."""
        async with self.transaction() as tx:
            await tx.execute(
                "UPDATE games SET players = ?, updated_at = ? WHERE id = ?",
                _dumps([s.to_json() for s in players]), now(), game_id,
            )

    async def set_options(self, game_id: int, options: dict[str, Any]) -> None:
        async with self.transaction() as tx:
            await tx.execute(
                "UPDATE games SET options = ?, updated_at = ? WHERE id = ?",
                _dumps(options), now(), game_id,
            )

    # -- the living message and member settings ---------------------------------------------

    async def game_message(self, game_id: int) -> tuple[int, str] | None:
        """The public message the game keeps current (lobby or turn panel): its id and the
        text it keeps once retired."""
        row = await self.fetchone(
            "SELECT message_id, summary FROM game_messages WHERE game_id = ?", (game_id,))
        return (int(row[0]), str(row[1])) if row else None

    async def set_game_message(self, game_id: int, message_id: int, summary: str = "") -> None:
        async with self.transaction() as tx:
            t = now()
            await tx.execute(
                "INSERT INTO game_messages (game_id, message_id, summary, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
                " message_id = excluded.message_id, summary = excluded.summary,"
                " updated_at = excluded.updated_at",
                game_id, message_id, summary, t,
            )

    async def turn_dm(self, user_id: int) -> bool:
        """The member asked for a DM when they must act."""
        row = await self.fetchone("SELECT turn_dm FROM user_settings WHERE user_id = ?",
                                  (user_id,))
        return bool(row and row[0])

    async def set_turn_dm(self, user_id: int, on: bool) -> None:
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO user_settings (user_id, turn_dm, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET turn_dm = excluded.turn_dm,"
                " updated_at = excluded.updated_at",
                user_id, int(on), now(),
            )

    async def active_games(self) -> list[GameRow]:
        """Every game being played (the scheduler re-arms their deadlines at start)."""
        rows = await self.fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' ORDER BY id")
        return [_game(r) for r in rows]

    # -- the clock ------------------------------------------------------------------------

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
        async with self.transaction() as tx:
            await tx.execute(
                f"DELETE FROM deadlines WHERE game_id = ? AND kind NOT IN ({marks})",
                game_id, *wanted,
            )
            for r in rows:
                await tx.execute(
                    "INSERT INTO deadlines (game_id, kind, seat, key, due_at) VALUES (?, ?, ?, ?, ?)"
                    " ON CONFLICT (game_id, kind) DO UPDATE SET seat = excluded.seat,"
                    " key = excluded.key, due_at = excluded.due_at, claimed_at = NULL, fired = 0"
                    " WHERE deadlines.key != excluded.key",
                    game_id, r.kind, r.seat, r.key, float(r.due_at),
                )

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
        async with self.transaction() as tx:
            rows = await tx.fetchall(
                f"UPDATE deadlines SET claimed_at = ? WHERE {due} AND (game_id, kind) IN"
                f" (SELECT game_id, kind FROM deadlines WHERE {due}{on}{self._CLAIM_LOCK})"
                " RETURNING game_id, kind, seat, key, due_at, claimed_at",
                now, now, cutoff, now, cutoff, *params,
            )
        return sorted((Deadline(*r) for r in rows), key=lambda d: d.due_at)

    async def finish_deadline(self, row: Deadline) -> bool:
        """Mark a claimed deadline handled (False: its stint was replaced meanwhile)."""
        async with self.transaction() as tx:
            n = await tx.execute(
                "UPDATE deadlines SET fired = 1 WHERE game_id = ? AND kind = ? AND key = ?"
                " AND claimed_at = ?", row.game_id, row.kind, row.key, row.claimed_at)
        return n == 1

    async def retry_deadline(self, row: Deadline, due_at: float) -> None:
        """Give a claimed deadline back, due again at `due_at` (its handler could not finish)."""
        async with self.transaction() as tx:
            await tx.execute(
                "UPDATE deadlines SET claimed_at = NULL, due_at = ? WHERE game_id = ?"
                " AND kind = ? AND key = ? AND claimed_at = ?",
                float(due_at), row.game_id, row.kind, row.key, row.claimed_at)

    async def guild_clock(self, guild_id: int | None) -> dict[str, Any] | None:
        """The server's default clock for new lobbies (None: not set)."""
        if guild_id is None:
            return None
        row = await self.fetchone("SELECT clock FROM guild_settings WHERE guild_id = ?",
                                  (guild_id,))
        return json.loads(row[0]) if row and row[0] else None

    async def set_guild_clock(self, guild_id: int, clock: dict[str, Any] | None) -> None:
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, clock) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET clock = excluded.clock",
                guild_id, None if clock is None else _dumps(clock))

    async def season_turn_limit(self, season_id: int) -> int | None:
        """The turn limit a league season requires of its games (None: no clock required)."""
        row = await self.fetchone("SELECT turn_limit FROM seasons WHERE id = ?", (season_id,))
        return None if row is None or row[0] is None else int(row[0])

    async def set_season_turn_limit(self, season_id: int, seconds: int | None) -> None:
        async with self.transaction() as tx:
            await tx.execute("UPDATE seasons SET turn_limit = ? WHERE id = ?",
                             seconds, season_id)

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
        dms: Sequence[tuple[int, Sequence[str]]] = (),
    ) -> tuple[ActionRow, int]:
        """Append action number `seq` (= previous version + 1) in one transaction, with the
        direct messages it owes (user id, lines) put in the outbox; -> the row as a read
        would return it, and the game's new revision.

        Raises VersionConflict when the game is not at version seq - 1 (a concurrent writer
        won, or the caller's state is stale); nothing is written then.
        """
        t = now()
        action_text, events_text = _dumps(action), _dumps(list(events))
        async with self.transaction() as tx:
            changed = await tx.fetchall(
                "UPDATE games SET version = ?, updated_at = ?, revision = revision + 1"
                " WHERE id = ? AND version = ? AND status = 'active' RETURNING revision",
                seq, t, game_id, seq - 1,
            )
            if len(changed) != 1:
                raise VersionConflict(f"game {game_id} is not at version {seq - 1}")
            try:
                await tx.execute(
                    f"INSERT INTO actions ({_ACTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    game_id, seq, action_text, actor_id, player, events_text,
                    int(reveals), int(ends_turn), t,
                )
            except Duplicate as exc:
                raise VersionConflict(f"action {seq} of game {game_id} exists") from exc
            if snapshot is not None:
                await tx.execute(
                    "INSERT INTO snapshots (game_id, seq, state, created_at) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (game_id, seq) DO UPDATE SET state = excluded.state,"
                    " created_at = excluded.created_at",
                    game_id, seq, _dumps(snapshot), t,
                )
            if status is not None:
                await tx.execute(
                    "UPDATE games SET status = ?, finished_at = ? WHERE id = ?",
                    status.value, None if status.is_open else t, game_id,
                )
            for user_id, lines in dms:
                await tx.execute(
                    "INSERT INTO outbox (game_id, seq, user_id, lines, created_at)"
                    " VALUES (?, ?, ?, ?, ?)", game_id, seq, user_id, _dumps(list(lines)), t)
        row = _action((game_id, seq, action_text, actor_id, player, events_text, reveals,
                       ends_turn, t))
        return row, int(changed[0][0])

    async def actions(
        self, game_id: int, *, after: int = 0, upto: int | None = None
    ) -> list[ActionRow]:
        """Actions with after < seq <= upto, in order."""
        if upto is None:
            rows = await self.fetchall(
                f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ?"
                " ORDER BY seq", (game_id, after))
        else:
            rows = await self.fetchall(
                f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ?"
                " AND seq <= ? ORDER BY seq", (game_id, after, upto))
        return [_action(r) for r in rows]

    async def log_mark(self, game_id: int) -> tuple[int, int] | None:
        """(version, revision) of the game: which action log it has now, in one cheap read
        (a cache of its latest actions compares it before use); None: no such game."""
        row = await self.fetchone("SELECT version, revision FROM games WHERE id = ?",
                                  (game_id,))
        return (int(row[0]), int(row[1])) if row else None

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

    async def snapshot(self, game_id: int, seq: int) -> dict[str, Any] | None:
        row = await self.fetchone(
            "SELECT state FROM snapshots WHERE game_id = ? AND seq = ?", (game_id, seq))
        return json.loads(row[0]) if row else None

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
        async with self.transaction() as tx:
            # the version update comes first: it locks the game row and, with `expected`,
            # is the compare-and-swap
            if expected is None:
                changed = await tx.execute(
                    "UPDATE games SET version = ?, updated_at = ?, revision = revision + 1"
                    " WHERE id = ?", keep, now(), game_id)
            else:
                changed = await tx.execute(
                    "UPDATE games SET version = ?, updated_at = ?, revision = revision + 1"
                    " WHERE id = ? AND version = ?", keep, now(), game_id, expected)
            if changed != 1:
                raise VersionConflict(f"game {game_id} is not at version {expected}")
            removed = await tx.execute(
                "DELETE FROM actions WHERE game_id = ? AND seq > ?", game_id, keep)
            await tx.execute("DELETE FROM snapshots WHERE game_id = ? AND seq > ?", game_id, keep)
        return removed

    async def final_ranking(self, game_id: int) -> list[dict[str, Any]] | None:
        """The ranking a finished game announced: from its game_over event, else from the
        last snapshot; None when there is none."""
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

    # -- the outbox -----------------------------------------------------------------------

    async def owed_dms(self, game_id: int | None = None, *,
                       stale_after: float = OUTBOX_STALE) -> list[OwedDM]:
        """Unsent direct messages nobody is sending right now (of one game, or all), oldest
        first."""
        where = " AND o.game_id = ?" if game_id is not None else ""
        params: list[Any] = [now(stale_after), OUTBOX_ATTEMPTS]
        if game_id is not None:
            params.append(game_id)
        rows = await self.fetchall(
            "SELECT o.id, o.game_id, g.channel_id, o.user_id, o.lines, o.attempts"
            " FROM outbox o JOIN games g ON g.id = o.game_id WHERE o.sent_at IS NULL"
            " AND (o.claimed_at IS NULL OR o.claimed_at < ?) AND o.attempts < ?"
            f"{where} ORDER BY o.id", params)
        return [OwedDM(r[0], r[1], r[2], r[3], tuple(json.loads(r[4])), r[5]) for r in rows]

    async def claim_dm(self, dm_id: int, *, stale_after: float = OUTBOX_STALE) -> bool:
        """Take a DM to send it; False when it was sent, or another sender holds it (a claim
        `stale_after` seconds old or older is taken over: 0 takes over any claim, even one made
        in the same millisecond)."""
        async with self.transaction() as tx:
            changed = await tx.execute(
                "UPDATE outbox SET claimed_at = ?, attempts = attempts + 1 WHERE id = ?"
                " AND sent_at IS NULL AND (claimed_at IS NULL OR claimed_at <= ?)",
                now(), dm_id, now(stale_after))
        return changed == 1

    async def dm_done(self, dm_id: int, result: str = "sent") -> None:
        """The DM was delivered (or given up for good: 'dm_closed', 'failed')."""
        async with self.transaction() as tx:
            await tx.execute("UPDATE outbox SET sent_at = ?, result = ? WHERE id = ?",
                             now(), result, dm_id)

    async def dm_release(self, dm_id: int) -> None:
        """Sending failed for now: another attempt may take it (until OUTBOX_ATTEMPTS)."""
        async with self.transaction() as tx:
            await tx.execute(
                "UPDATE outbox SET claimed_at = NULL, result = 'retry' WHERE id = ?"
                " AND sent_at IS NULL", dm_id)

    # -- leagues --------------------------------------------------------------------------

    async def leagues(self, guild_id: int) -> list[League]:
        rows = await self.fetchall(
            f"SELECT {_LEAGUE_COLS} FROM leagues WHERE guild_id = ? ORDER BY lower(name), id",
            (guild_id,))
        return [_league(r) for r in rows]

    async def create_league(self, guild_id: int, name: str, by: int | None) -> League:
        """A new league; Duplicate when the guild has one of that name (any case)."""
        async with self.transaction() as tx:
            league_id = await tx.insert(
                "INSERT INTO leagues (guild_id, name, created_by, created_at)"
                " VALUES (?, ?, ?, ?) RETURNING id", guild_id, name, by, now())
        return League(int(league_id), guild_id, name)

    async def seasons(self, league_id: int) -> list[Season]:
        rows = await self.fetchall(
            f"SELECT {_SEASON_COLS} FROM seasons WHERE league_id = ? ORDER BY id", (league_id,))
        return [_season(r) for r in rows]

    async def open_season(self, league_id: int) -> Season | None:
        row = await self.fetchone(
            f"SELECT {_SEASON_COLS} FROM seasons WHERE league_id = ? AND ended_at IS NULL",
            (league_id,))
        return _season(row) if row else None

    async def get_season(self, season_id: int) -> Season | None:
        row = await self.fetchone(
            f"SELECT {_SEASON_COLS} FROM seasons WHERE id = ?", (season_id,))
        return _season(row) if row else None

    async def start_season(self, league_id: int, name: str, by: int | None) -> Season:
        """Open a season; Duplicate when one is open or the name was used in the league."""
        async with self.transaction() as tx:
            season_id = await tx.insert(
                "INSERT INTO seasons (league_id, name, started_by, started_at)"
                " VALUES (?, ?, ?, ?) RETURNING id", league_id, name, by, now())
        season = await self.get_season(season_id)
        assert season is not None
        return season

    async def end_season(self, season_id: int, by: int | None) -> Season:
        async with self.transaction() as tx:
            await tx.execute(
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
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO registrations (season_id, user_id, name, joined_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (season_id, user_id) DO UPDATE"
                " SET left_at = NULL, name = excluded.name, joined_at = excluded.joined_at",
                season_id, user_id, name, now())

    async def unregister(self, season_id: int, user_id: int) -> None:
        async with self.transaction() as tx:
            await tx.execute(
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
        return _league(row[5:8]), _season(row[0:5])

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
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO league_settings (league_id) VALUES (?)"
                " ON CONFLICT (league_id) DO NOTHING", league_id)
            sets = ", ".join(f"{k} = ?" for k in changes)
            await tx.execute(f"UPDATE league_settings SET {sets} WHERE league_id = ?",
                             *changes.values(), league_id)

    async def claim_league_summary(self, league_id: int, seen: str | None, at: str) -> bool:
        """Mark the league's weekly summary posted at `at` if its last one is still `seen`
        (the value read): of processes racing to post it, one gets True."""
        async with self.transaction() as tx:
            changed = await tx.execute(
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
        async with self.transaction() as tx:
            if on:
                changed = await tx.execute(
                    "INSERT INTO league_channels (league_id, channel_id) VALUES (?, ?)"
                    " ON CONFLICT (league_id, channel_id) DO NOTHING", league_id, channel_id)
            else:
                changed = await tx.execute(
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
        async with self.transaction() as tx:
            await tx.execute(
                f"UPDATE registrations SET {sets} WHERE season_id = ? AND user_id = ?",
                *changes.values(), season_id, user_id)

    async def registration_prefs(self, season_id: int) -> list[tuple[int, str, str, int, int]]:
        """(user id, name, days, sit_out, substitute) of the active registrations."""
        return [tuple(r) for r in await self.fetchall(
            "SELECT user_id, name, days, sit_out, substitute FROM registrations"
            " WHERE season_id = ? AND left_at IS NULL ORDER BY joined_at, user_id",
            (season_id,))]

    async def set_season_rounds(self, season_id: int, rounds: int | None) -> None:
        async with self.transaction() as tx:
            await tx.execute("UPDATE seasons SET rounds = ? WHERE id = ?", rounds, season_id)

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
                        _dumps(options), by, now, now)
                    await tx.execute(
                        "INSERT INTO league_games (game_id, season_id, opened_by, round_id,"
                        " table_no) VALUES (?, ?, ?, ?, ?)",
                        game_id, season_id, by, round_id, table_no)
                    ids.append(int(game_id))
        except Duplicate as exc:
            raise ChannelBusy(str(exc)) from exc
        return round_id, ids

    async def mark_round_begun(self, round_id: int, now: str) -> bool:
        async with self.transaction() as tx:
            changed = await tx.execute(
                "UPDATE league_rounds SET begun_at = ? WHERE id = ? AND begun_at IS NULL",
                now, round_id)
        return changed == 1

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
        async with self.transaction() as tx:
            await tx.execute(
                "UPDATE league_games SET recorded_at = ?, voided_at = ?, awarded = ?"
                " WHERE game_id = ?", recorded_at, voided_at, int(awarded), game_id)
            if placings is not None:
                await tx.execute("DELETE FROM league_results WHERE game_id = ?", game_id)
                for p in placings:
                    await tx.execute(
                        "INSERT INTO league_results (game_id, user_id, seat, rank, coins, races)"
                        " VALUES (?, ?, ?, ?, ?, ?)", game_id, *p)

    async def add_league_audit(self, *, league_id: int, season_id: int | None,
                               game_id: int | None, actor_id: int | None, action: str,
                               reason: str, detail: str, now: str) -> None:
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO league_audit (league_id, season_id, game_id, actor_id, action,"
                " reason, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                league_id, season_id, game_id, actor_id, action, reason, detail, now)

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
        async with self.transaction() as tx:
            changed = await tx.execute(
                "UPDATE league_games SET recorded_at = ? WHERE game_id = ?"
                " AND recorded_at IS NULL", now(), game_id)
            if changed != 1:
                return False
            for p in placings:
                await tx.execute(
                    "INSERT INTO league_results (game_id, user_id, seat, rank, coins, races)"
                    " VALUES (?, ?, ?, ?, ?, ?)", game_id, *p)
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
        async with self.transaction() as tx:
            if language is None:
                await tx.execute(
                    "DELETE FROM language_settings WHERE scope = ? AND target_id = ?",
                    scope, target_id,
                )
            else:
                await tx.execute(
                    "INSERT INTO language_settings (scope, target_id, language, updated_at)"
                    " VALUES (?, ?, ?, ?) ON CONFLICT (scope, target_id) DO UPDATE SET"
                    " language = excluded.language, updated_at = excluded.updated_at",
                    scope, target_id, language, now(),
                )

    # -- whole tables (migrate, verify) ---------------------------------------------------

    async def columns(self, table: str) -> list[str]:
        raise NotImplementedError

    async def dump_tables(self, tables: Sequence[str] = TABLES
                          ) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
        """Every row of the tables, read in one transaction (a consistent copy of a live
        database): table -> (column names, rows)."""
        for t in tables:
            if t not in TABLES:
                raise ValueError(f"unknown table {t!r}")
        out = {}
        names = {t: await self.columns(t) for t in tables}
        async with self.transaction() as tx:
            for t in tables:
                cols = names[t]
                rows = await tx.fetchall(
                    f"SELECT {', '.join(cols)} FROM {t} ORDER BY {', '.join(cols[:2])}")
                out[t] = (cols, [tuple(r) for r in rows])
        return out

    async def load_tables(self, data: dict[str, tuple[list[str], list[tuple[Any, ...]]]]) -> None:
        """Insert dumped rows into empty tables, in one transaction."""
        names = {t: await self.columns(t) for t in TABLES if t in data}
        async with self.transaction() as tx:
            for t in TABLES:
                if t not in data:
                    continue
                cols, rows = data[t]
                here = names[t]
                if set(cols) != set(here):
                    raise StoreError(f"table {t} has columns {here}, the copy has {cols}")
                marks = ", ".join("?" for _ in cols)
                sql = f"INSERT INTO {t} ({', '.join(cols)}) VALUES ({marks})"
                for r in rows:
                    await tx.execute(sql, *r)
            await self._after_load(tx)

    async def _after_load(self, tx: Tx) -> None:
        """Dialect hook after a bulk load (PostgreSQL moves its id sequences on)."""

    async def count_rows(self, table: str) -> int:
        if table not in TABLES:
            raise ValueError(f"unknown table {table!r}")
        row = await self.fetchone(f"SELECT COUNT(*) FROM {table}")
        return int(row[0])


# -- SQLite -----------------------------------------------------------------------------------


_SQLITE_BUSY = ("database is locked", "database table is locked", "database or disk is full",
                "disk i/o error", "unable to open database")


def _sqlite_unavailable(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and any(
        m in str(exc).lower() for m in _SQLITE_BUSY)


def _first(rows: Iterable[Any]) -> Any:
    """The first row or None (the store's queries that want one row select one or a few)."""
    return next(iter(rows), None)


class _SqliteTx(Tx):
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, *args: Any) -> int:
        try:
            cur = await self._conn.execute(sql, args)
        except sqlite3.IntegrityError as exc:
            raise Duplicate(str(exc)) from exc
        return cur.rowcount

    async def insert(self, sql: str, *args: Any) -> int:
        try:
            async with self._conn.execute(sql, args) as cur:
                row = await cur.fetchone()
        except sqlite3.IntegrityError as exc:
            raise Duplicate(str(exc)) from exc
        return int(row[0])

    async def fetchone(self, sql: str, *args: Any) -> Any:
        return _first(await self._conn.execute_fetchall(sql, args))

    async def fetchall(self, sql: str, *args: Any) -> list[Any]:
        return list(await self._conn.execute_fetchall(sql, args))


def sqlite_single_bot(url: str) -> Any:
    """For the bot process only (`python -m bot`): take the SQLite file's bot lock (a lock
    file beside it, held until the process ends) so a second bot process on the same file
    is refused with a sentence, not left to interleave games with the first. Tools (backup,
    migrate, benches reading the file) do not take it. Returns the open lock file (keep
    it); None for PostgreSQL, ":memory:" or where file locks do not exist."""
    if dialect_of(url) != "sqlite":
        return None
    path = database_path(url)
    try:
        import fcntl
    except ImportError:  # not on this platform
        return None
    if path == ":memory:":
        return None
    lock_path = Path(path).expanduser()
    lock_path = lock_path.with_name(lock_path.name + ".bot-lock")
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(lock_path, "a+")  # noqa: SIM115 - held for the life of the process
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise StoreError(
            f"another bot process is running on {path}; SQLite serves one bot process: stop "
            "the other one, or move to PostgreSQL (python -m bot migrate) to run several"
        ) from None
    return handle


class SqliteStore(Store):
    """One aiosqlite connection for writes (and every statement of a transaction), under one
    lock; one process only: SQLite has no way to share the per-channel order between
    processes.

    Reads outside a transaction (a SELECT through `fetchone`/`fetchall`: the game of a
    channel, its living message, its log mark...) go to a second, read-only connection, run
    on the caller's thread. In WAL mode a reader neither waits for the writer nor sees its
    uncommitted rows, and a one-row read by key takes microseconds, where a trip to
    aiosqlite's thread and back cost the event loop ~0.1 ms of CPU (two thread switches and
    a wake-up through its self-pipe; about a dozen such reads per action). A read that finds
    the file busy all the same (recovery after a crash) takes the aiosqlite path and waits
    there; ":memory:" databases and files not in WAL mode have no reader."""

    dialect = "sqlite"
    READER_BUSY_MS = 20  # a read waits this long on the reader before taking the slow path

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._reader: sqlite3.Connection | None = None

    @classmethod
    async def connect(cls, url: str, *, busy_timeout: float = 5.0) -> SqliteStore:
        """`busy_timeout`: seconds a statement waits for another connection's lock before
        the store answers StoreUnavailable."""
        path = database_path(url)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        store = cls(conn, path)
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=FULL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
            await store.migrate()
            store._open_reader()
        except BaseException:
            await conn.close()
            raise
        return store

    def _open_reader(self) -> None:
        """The read-only connection (file databases in WAL mode)."""
        if self.path == ":memory:":
            return
        try:
            reader = sqlite3.connect(Path(self.path).resolve().as_uri() + "?mode=ro", uri=True,
                                     isolation_level=None, check_same_thread=False)
        except sqlite3.Error:
            return  # reads take the aiosqlite path
        try:
            if str(reader.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                reader.close()  # a reader would wait for every commit: no reader
                return
            reader.execute(f"PRAGMA busy_timeout={self.READER_BUSY_MS}")
        except sqlite3.Error:
            reader.close()
            return
        self._reader = reader

    def _read(self, sql: str, params: tuple[Any, ...]) -> list[Any] | None:
        """Rows of a SELECT from the reader; None: take the aiosqlite path (no reader, not a
        SELECT, or the file is busy)."""
        if self._reader is None or sql.lstrip()[:6].upper() != "SELECT":
            return None
        try:
            return self._reader.execute(sql, params).fetchall()
        except sqlite3.OperationalError as exc:
            if _sqlite_unavailable(exc):
                return None
            raise

    async def close(self) -> None:
        async with self._lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = None
            await self._conn.close()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._lock:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if _sqlite_unavailable(exc):
                    raise StoreUnavailable(str(exc)) from exc
                raise
            try:
                yield _SqliteTx(self._conn)
            except BaseException as exc:
                with contextlib.suppress(sqlite3.Error, ValueError):
                    await self._conn.execute("ROLLBACK")
                if _sqlite_unavailable(exc):
                    raise StoreUnavailable(str(exc)) from exc
                raise
            else:
                try:
                    await self._conn.execute("COMMIT")
                except sqlite3.OperationalError as exc:
                    with contextlib.suppress(sqlite3.Error, ValueError):
                        await self._conn.execute("ROLLBACK")
                    if _sqlite_unavailable(exc):
                        raise StoreUnavailable(str(exc)) from exc
                    raise

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        params = tuple(params)
        rows = self._read(sql, params)
        if rows is not None:
            return rows
        try:  # (aiosqlite's execute_fetchall: one trip to its thread, not three)
            async with self._lock:
                return list(await self._conn.execute_fetchall(sql, params))
        except sqlite3.OperationalError as exc:
            if _sqlite_unavailable(exc):
                raise StoreUnavailable(str(exc)) from exc
            raise

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any:
        return _first(await self.fetchall(sql, params))

    async def journal_mode(self) -> str:
        row = await self.fetchone("PRAGMA journal_mode")
        return str(row[0])

    async def columns(self, table: str) -> list[str]:
        if table not in TABLES:
            raise ValueError(f"unknown table {table!r}")
        rows = await self.fetchall(f"PRAGMA table_info({table})")
        return [r[1] for r in rows]

    async def migrate(self) -> list[int]:
        """Apply the numbered migrations not applied yet; return their numbers."""
        async with self._lock:
            await self._conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))"
            )
            async with self._conn.execute("SELECT version FROM schema_version") as cur:
                done = {r[0] for r in await cur.fetchall()}
            applied = []
            for number, name, sql in _migrations("sqlite"):
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

    async def backup(self, target: str) -> None:
        """A consistent copy of the live database into the file `target` (SQLite's online
        backup: readers and writers carry on meanwhile)."""
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        async with self._lock:
            dest = await aiosqlite.connect(target)
            try:
                await self._conn.backup(dest)
            finally:
                await dest.close()
