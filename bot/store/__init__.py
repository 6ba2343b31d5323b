"""Persistence: games, their action logs, turn-boundary snapshots, deadlines, the DM outbox,
settings and leagues, in SQLite or PostgreSQL.

Every SQL statement of the bot lives in this package, one module per aggregate (games, log,
deadlines, outbox, settings, leagues, admin), on a driver base (base) with typed rows (rows);
the SQLite (sqlite) and PostgreSQL (postgres) drivers supply the connections.
`await open_store(DATABASE_URL)` picks the database: SQLite through aiosqlite
(`sqlite:///path`, a plain path or `:memory:`; the default) or PostgreSQL through asyncpg
(`postgresql://user@host/db`). Both run the same numbered migrations (one file per dialect
under one number) and give the same guarantees:

- A game is its setup (board, seed, seats, options) plus the log of accepted actions; the
  state after `n` actions is the latest snapshot at or before `n` with the later actions
  replayed through the engine. The log grows by appends and shrinks only by undo, which
  truncates its tail (and the snapshots after it) in one transaction.
- Each append is one transaction (action row, game version and, at turn boundaries, a
  snapshot), committed before the caller replies to anyone.
- The game version is a compare-and-swap: a write made from a stale version is refused
  (VersionConflict) and writes nothing.

The statements are written once, with `?` placeholders, in the SQL both databases accept;
timestamps are made here (UTC, ISO 8601 with milliseconds) rather than by SQL functions.
"""

from __future__ import annotations

from bot.store.base import (
    DIALECTS,
    TABLES,
    ChannelBusy,
    Driver,
    Duplicate,
    GameNotFound,
    NotChanged,
    StoreError,
    StoreUnavailable,
    Tx,
    VersionConflict,
    Write,
    _dumps,
    _migrations,
    database_path,
    dialect_of,
    now,
)
from bot.store.interface import Store
from bot.store.outbox import OUTBOX_ATTEMPTS, OUTBOX_STALE
from bot.store.postgres import PostgresStore
from bot.store.results import SeatResult
from bot.store.rows import (
    ActionRow,
    AuditRow,
    GameLog,
    GameRow,
    GameStatus,
    GuildOptions,
    League,
    LeagueGameFlags,
    OwedDM,
    Registration,
    RegistrationPrefs,
    ResultRow,
    RoundRow,
    Season,
    Seat,
    Shards,
)
from bot.store.sqlite import SqliteStore, sqlite_single_bot


async def open_store(url: str) -> Store:
    """The store a DATABASE_URL names, connected and migrated: PostgreSQL for postgres:// and
    postgresql:// URLs, else SQLite."""
    if dialect_of(url) == "postgresql":
        return await PostgresStore.connect(url)
    return await SqliteStore.connect(url)


__all__ = [
    "DIALECTS", "OUTBOX_ATTEMPTS", "OUTBOX_STALE", "TABLES", "ActionRow", "AuditRow",
    "ChannelBusy", "Driver", "Duplicate", "GameLog", "GameNotFound", "GameRow", "GameStatus",
    "GuildOptions", "League", "LeagueGameFlags", "NotChanged", "OwedDM", "PostgresStore",
    "Registration", "RegistrationPrefs", "ResultRow", "RoundRow", "Season", "Seat",
    "SeatResult", "Shards", "SqliteStore", "Store", "StoreError", "StoreUnavailable",
    "Tx", "VersionConflict", "Write", "database_path", "dialect_of", "now",
    "open_store", "sqlite_single_bot", "_dumps", "_migrations",
]
