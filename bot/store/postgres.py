"""The PostgreSQL driver of the store (asyncpg): a connection pool, `?` placeholders turned
into `$n`, and PostgreSQL's errors turned into the store's.

Same SQL and guarantees as SQLite (see bot.store): each write is one transaction on one
pooled connection; the compare-and-swap on `games.version` holds across processes because
PostgreSQL locks the game row for the rest of the transaction and re-checks the condition
after a concurrent writer commits (READ COMMITTED). A connection that breaks is dropped by
the pool and replaced on the next use; the write it carried is rolled back by the server.

Per-channel order across processes (`channel_lock`): a session advisory lock keyed by the
channel, held on one pooled connection for the whole change (load, check, append, deadlines,
...). While it is held, the holding task's statements run on that connection, so a change
needs one connection, not two, and cannot starve the pool waiting for a second. A process
that waits longer than CHANNEL_LOCK_TIMEOUT gets StoreUnavailable ("try again"), never a
half-made change; a lock whose process died is released by the server with its connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import re
from collections.abc import AsyncIterator, Iterable
from typing import Any

import asyncpg

from bot.store.base import TABLES, Duplicate, StoreUnavailable, Tx, _migrations
from bot.store.interface import Store

# a number both processes agree on: only one of them migrates at a time
MIGRATION_LOCK = 0x5357_0001
POOL_SIZE = 8
CHANNEL_LOCK_TIMEOUT = 15.0  # seconds a change waits for another process's change of its channel

_UNAVAILABLE: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,  # "connection is closed", "connection was closed in the middle"
    asyncpg.InternalClientError,  # a connection left mid-operation by a failure
    asyncpg.exceptions.OperatorInterventionError,  # admin shutdown, crash shutdown
    asyncpg.exceptions.InsufficientResourcesError,  # disk full, out of memory, too many conns
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.LockNotAvailableError,
    OSError,
    ConnectionError,
)
# a connection failure, as asyncpg raises it or as the store names it: every pooled
# connection is replaced (see PostgresStore._conn)
_GONE: tuple[type[BaseException], ...] = (StoreUnavailable, *_UNAVAILABLE)


@functools.lru_cache(maxsize=512)
def to_dollar(sql: str) -> str:
    """`?` placeholders -> `$1, $2, ...` (the store's SQL has no `?` inside literals)."""
    counter = iter(range(1, 10_000))
    return re.sub(r"\?", lambda _m: f"${next(counter)}", sql)


def safe_url(url: str) -> str:
    """The URL without its password, for logs."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


def _dsn(url: str) -> str:
    url = url.strip()
    scheme, rest = url.split("://", 1)
    return "postgresql://" + rest if scheme.lower() != "postgresql" else url


@contextlib.contextmanager
def _translated() -> Any:
    try:
        yield
    except asyncpg.IntegrityConstraintViolationError as exc:
        raise Duplicate(str(exc)) from exc
    except _UNAVAILABLE as exc:
        raise StoreUnavailable(f"{exc.__class__.__name__}: {exc}") from exc


class _PgTx(Tx):
    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, *args: Any) -> int:
        with _translated():
            status = await self._conn.execute(to_dollar(sql), *args)
        # "UPDATE 1", "INSERT 0 1", "DELETE 3"
        tail = status.rsplit(" ", 1)[-1]
        return int(tail) if tail.isdigit() else 0

    async def insert(self, sql: str, *args: Any) -> int:
        with _translated():
            value = await self._conn.fetchval(to_dollar(sql), *args)
        return int(value)

    async def fetchone(self, sql: str, *args: Any) -> Any:
        with _translated():
            return await self._conn.fetchrow(to_dollar(sql), *args)

    async def fetchall(self, sql: str, *args: Any) -> list[Any]:
        with _translated():
            return list(await self._conn.fetch(to_dollar(sql), *args))


class _Held:
    """The connection a task holds its channel lock on (and runs its statements on)."""

    __slots__ = ("store", "task", "conn", "busy")

    def __init__(self, store: PostgresStore, task: asyncio.Task[Any] | None,
                 conn: asyncpg.Connection) -> None:
        self.store, self.task, self.conn, self.busy = store, task, conn, False


_HELD: contextvars.ContextVar[_Held | None] = contextvars.ContextVar("sw_channel_lock",
                                                                   default=None)


def channel_lock_sql(channel_id: int, timeout: float) -> str:
    """One round trip: the wait limit for this statement only (an implicit transaction ends
    with it), then the session lock, which outlives that transaction."""
    return (f"SET LOCAL lock_timeout = {max(1, int(timeout * 1000))};"
            f" SELECT pg_advisory_lock(hashtextextended('smallworld channel {int(channel_id)}', 0))")


class PostgresStore(Store):
    """A pool of asyncpg connections; every process of the bot may hold one."""

    dialect = "postgresql"
    _CLAIM_LOCK = " FOR UPDATE SKIP LOCKED"

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url
        self.path = safe_url(url)

    @classmethod
    async def connect(cls, url: str, *, pool_size: int = POOL_SIZE) -> PostgresStore:
        with _translated():
            pool = await asyncpg.create_pool(
                _dsn(url), min_size=1, max_size=pool_size, command_timeout=60)
        store = cls(pool, url)
        try:
            await store.migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self._pool.close()

    @contextlib.asynccontextmanager
    async def _conn(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection (inside this task's channel lock: the lock's connection, unless
        it is in use by an enclosing statement). After a connection failure every pooled
        connection is replaced (a dead server or failover kills them all; the pool would
        otherwise hand the broken ones out again, one failed command each)."""
        held = _HELD.get()
        if (held is not None and held.store is self and not held.busy
                and held.task is asyncio.current_task()):
            held.busy = True
            try:
                with _translated():
                    try:
                        yield held.conn
                    except _GONE:
                        await self._pool.expire_connections()
                        raise
            finally:
                held.busy = False
            return
        with _translated():
            async with self._pool.acquire() as conn:
                try:
                    yield conn
                except _GONE:
                    await self._pool.expire_connections()
                    raise

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._conn() as conn:
            with _translated():
                async with conn.transaction():
                    yield _PgTx(conn)

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection held for a while."""
        async with self._conn() as conn:
            yield conn

    @contextlib.asynccontextmanager
    async def channel_lock(self, channel_id: int, *,
                           timeout: float | None = None) -> AsyncIterator[None]:
        """The channel's advisory lock, held until the body ends; every process of the bot
        waits here for the one changing that channel (see the module's docstring), at most
        `timeout` seconds (default CHANNEL_LOCK_TIMEOUT)."""
        wait = CHANNEL_LOCK_TIMEOUT if timeout is None else timeout
        with _translated():
            async with self._pool.acquire() as conn:
                try:
                    await conn.execute(channel_lock_sql(channel_id, wait))
                except asyncpg.exceptions.LockNotAvailableError:
                    raise  # waited long enough: "try again"; the connection is fine
                except _UNAVAILABLE:
                    await self._pool.expire_connections()
                    raise
                held = _Held(self, asyncio.current_task(), conn)
                token = _HELD.set(held)
                try:
                    yield
                finally:
                    _HELD.reset(token)
                    held.task = None
                    # released with the connection in any case (the pool's reset unlocks
                    # all); explicitly first, so the next process need not wait for that
                    with contextlib.suppress(Exception):
                        if not conn.is_closed():
                            await conn.execute("SELECT pg_advisory_unlock_all()")

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        async with self._conn() as conn:
            return list(await conn.fetch(to_dollar(sql), *params))

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any:
        async with self._conn() as conn:
            return await conn.fetchrow(to_dollar(sql), *params)

    async def columns(self, table: str) -> list[str]:
        if table not in TABLES:
            raise ValueError(f"unknown table {table!r}")
        rows = await self.fetchall(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ?"
            " AND table_schema = current_schema() ORDER BY ordinal_position", (table,))
        return [r[0] for r in rows]

    async def migrate(self) -> list[int]:
        """Apply the numbered migrations not applied yet (one process at a time)."""
        applied = []
        with _translated():
            async with self._pool.acquire() as conn, conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version ("
                    " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                    " applied_at TEXT NOT NULL DEFAULT to_char(clock_timestamp() AT TIME ZONE"
                    " 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))")
                done = {r[0] for r in await conn.fetch("SELECT version FROM schema_version")}
                for number, name, sql in _migrations("postgresql"):
                    if number in done:
                        continue
                    await conn.execute(sql)
                    await conn.execute(
                        "INSERT INTO schema_version (version, name) VALUES ($1, $2)", number, name)
                    applied.append(number)
        return applied

    async def _after_load(self, tx: Tx) -> None:
        for table in ("games", "leagues", "seasons", "league_rounds", "league_audit", "outbox"):
            await tx.fetchone(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
