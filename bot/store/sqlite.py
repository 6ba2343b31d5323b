"""The SQLite driver (aiosqlite): one writer connection on aiosqlite's thread under one
lock, a read-only reader connection for SELECTs outside a transaction, and SQLite's errors
turned into the store's; plus the one-bot-process file lock."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.base import (
    TABLES,
    Duplicate,
    StoreError,
    StoreUnavailable,
    Tx,
    Write,
    _migrations,
    database_path,
    dialect_of,
)
from bot.store.interface import Store

R = TypeVar("R")

_SQLITE_BUSY = ("database is locked", "database table is locked", "database or disk is full",
                "disk i/o error", "unable to open database")


def _sqlite_unavailable(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and any(
        m in str(exc).lower() for m in _SQLITE_BUSY)


def _write_now(conn: sqlite3.Connection, steps: Sequence[Write]) -> list[Any]:
    """A whole write transaction, run on aiosqlite's thread in one call: BEGIN IMMEDIATE, the
    statements, COMMIT; on any failure ROLLBACK, and the error as the store names it."""
    try:
        conn.execute("BEGIN IMMEDIATE")
        out = []
        for step in steps:
            try:
                cur = conn.execute(step.sql, step.args)
                result = cur.fetchall() if step.rows else cur.rowcount
            except sqlite3.IntegrityError as exc:
                raise (step.duplicate or Duplicate(str(exc))) from exc
            step.check(result)
            out.append(result)
        conn.execute("COMMIT")
        return out
    except BaseException as exc:
        if conn.in_transaction:  # read on the connection's own thread: exact
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        if _sqlite_unavailable(exc):
            raise StoreUnavailable(str(exc)) from exc
        raise


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
        if row is None:
            raise StoreError(f"no id returned by: {sql[:60]}")
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
        if not all(hasattr(aiosqlite.Connection, name) for name in ("_execute", "_conn")):
            raise RuntimeError(f"aiosqlite {aiosqlite.__version__} has no Connection._execute "
                               "or ._conn, which SqliteStore.write uses: see pyproject.toml")
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
        """BEGIN IMMEDIATE, the body's statements, COMMIT; on any failure (a cancel of the
        awaiting task included, at any of these awaits) the transaction is rolled back."""
        async with self._lock:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
                yield _SqliteTx(self._conn)
                await self._conn.execute("COMMIT")
            except BaseException as exc:
                await self._settle()
                if _sqlite_unavailable(exc):
                    raise StoreUnavailable(str(exc)) from exc
                raise

    async def write(self, *steps: Write) -> list[Any]:
        """The whole transaction in one trip to aiosqlite's thread (see _write_now), where a
        transaction() costs one per statement plus BEGIN and COMMIT, each ~0.1 ms of the
        event loop's CPU. A cancel of the awaiting task cannot split it: the call runs to
        its COMMIT or ROLLBACK on the thread all the same."""
        async with self._lock:
            return await self._on_thread(_write_now, steps)

    async def _on_thread(self, fn: Callable[..., R], *args: Any) -> R:
        """fn(the writer's sqlite3 connection, *args), called on aiosqlite's thread, queued
        in order with the connection's other statements. aiosqlite has no public call for
        this; its Connection._execute and ._conn are checked for at connect."""
        conn = self._conn
        # (aiosqlite leaves _execute unannotated: this is what it does)
        execute: Callable[[Callable[[], R]], Awaitable[R]] = conn._execute
        return await execute(lambda: fn(conn._conn, *args))

    async def _settle(self) -> None:
        """Roll back whatever transaction the writer connection has open (none: nothing to
        do). A cancel of the awaiting task does not stop a statement on aiosqlite's thread:
        a BEGIN (or COMMIT) it was waiting for still runs there, after the cancel. This
        ROLLBACK is queued behind it on the same thread, so it ends the transaction that
        BEGIN opens (or one a failed COMMIT leaves open) before anyone else's statement."""
        with contextlib.suppress(sqlite3.Error, ValueError):  # none open / connection closed
            await self._conn.execute("ROLLBACK")

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
                    await self._settle()
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
