"""The driver base of the store: what every database driver supplies (transactions, the
channel lock, reads, migrations), the store's errors, and the small helpers its SQL shares
(URLs, migration files, JSON, timestamps).

The drivers (bot.store.sqlite, bot.store.postgres) subclass `bot.store.interface.Store`,
which adds one mixin of SQL per aggregate to this base.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import resources
from typing import Any, Self

MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
DIALECTS = ("sqlite", "postgresql")

# Every table, in an order that satisfies their foreign keys (copying, verifying).
TABLES = (
    "games", "actions", "snapshots", "deadlines", "guild_settings",
    "leagues", "seasons", "registrations", "league_settings", "league_channels",
    "league_rounds", "league_games", "league_results", "league_audit", "league_timers",
    "game_messages", "user_settings", "language_settings", "outbox", "game_results",
    "member_records", "member_combos", "vacations", "member_turns", "member_departures",
    "votes", "ballots", "game_reviews",
)


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


class NotChanged(StoreError):
    """A conditional write found nothing to change (see Write.need); nothing was written."""


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


@dataclass(frozen=True, slots=True)
class Write:
    """One statement of a write whose statements are all known before it starts, so that a
    driver may run the whole transaction in one trip (SQLite: one call on aiosqlite's thread).

    `rows`: its result is the rows it returns (RETURNING), else the number of rows changed.
    `need`: the number it must give (rows changed, or rows returned); otherwise the write
    stops, nothing of it is kept, and `refuse` is raised (NotChanged when there is none).
    `duplicate`: raised instead of Duplicate when the statement breaks a unique key."""

    sql: str
    args: tuple[Any, ...] = ()
    rows: bool = False
    need: int | None = None
    refuse: StoreError | None = None
    duplicate: StoreError | None = None

    def check(self, result: Any) -> None:
        """Raise `refuse` when the statement's result misses `need`."""
        if self.need is not None and (len(result) if self.rows else result) != self.need:
            raise self.refuse if self.refuse is not None else NotChanged(self.sql[:60])

    async def run(self, tx: Tx) -> Any:
        """The statement in an open transaction; -> its result."""
        try:
            if self.rows:
                result: Any = await tx.fetchall(self.sql, *self.args)
            else:
                result = await tx.execute(self.sql, *self.args)
        except Duplicate as exc:
            if self.duplicate is None:
                raise
            raise self.duplicate from exc
        self.check(result)
        return result


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


class Driver:
    """What a database driver supplies; the SQL of each aggregate sits in its own mixin on
    top (bot.store.interface.Store). Integrity errors reach the mixins as Duplicate, and an
    unavailable database as StoreUnavailable."""

    dialect = "?"
    path = ""  # what to log about where the data lives (no password)

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """A write transaction: committed on leaving, rolled back on any exception. For a
        write whose statements do not depend on what earlier ones return, `write` is the
        cheaper way."""
        raise NotImplementedError

    async def write(self, *steps: Write) -> list[Any]:
        """The statements in one transaction, in order, committed before this returns; ->
        each one's result. A statement that misses its `need` raises its `refuse`, and
        nothing of the write is kept."""
        async with self.transaction() as tx:
            return [await step.run(tx) for step in steps]

    async def execute(self, sql: str, *args: Any) -> int:
        """One statement in a transaction of its own; -> the number of rows it changed."""
        (changed,) = await self.write(Write(sql, args))
        return int(changed)

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
