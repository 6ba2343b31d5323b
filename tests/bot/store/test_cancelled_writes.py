"""A write whose task is cancelled (a scheduler stopping, a shutdown) leaves no transaction
open and nothing half-written: the store's next write works and commits.

SQLite runs each statement on aiosqlite's thread, where a cancel of the awaiting task does not
reach: the statement runs all the same. A cancel while `BEGIN IMMEDIATE` waited there used to
leave the transaction it then opened to nobody, and every later write of the store failed with
"cannot start a transaction within a transaction" (tests/bot/test_autoplay.py failed so, now
and then, when its scheduler stopped during an AI stint). Each test makes the write wait, on a
lock another connection holds, cancels it while it waits, then lets the lock go.

What a cancelled write leaves is all or nothing: a transaction() is rolled back; a
Store.write (one call on SQLite's thread) runs to its COMMIT once the lock is free; on
PostgreSQL the server rolls the cancelled statement's transaction back.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import asyncpg
import pytest
from store_setup import act, active_game

from bot.store import GameStatus, SqliteStore, Store, open_store


async def _waiting(task: asyncio.Task, started: Callable[[], bool]) -> None:
    """Until the task has started its write (and so waits inside it)."""
    for _ in range(500):
        if task.done():
            raise AssertionError(f"the write did not wait: {task!r}")
        if started():
            await asyncio.sleep(0.05)  # on to the statement that waits
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the write never started")


async def _cancel(task: asyncio.Task) -> None:
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def _consistent(store: Store, gid: int) -> int:
    """All or nothing: the game's version, its actions, snapshots and owed DMs agree; -> the
    version."""
    game = await store.get_game(gid)
    assert game is not None
    seqs = [a.seq for a in await store.actions(gid)]
    assert seqs == list(range(1, game.version + 1))
    assert set(await store.snapshot_seqs(gid)) == {0, *seqs}
    outbox = await store.fetchall("SELECT seq FROM outbox WHERE game_id = ? ORDER BY seq",
                                  (gid,))
    assert [r[0] for r in outbox] == seqs
    return game.version


async def _append(store: Store, gid: int, seq: int) -> None:
    """An append of several statements: action, version, snapshot, an owed DM."""
    await store.append(gid, seq, act(seq), actor_id=11, player="ann", snapshot={"v": seq},
                       dms=[(11, [f"line {seq}"])])


async def _settled(store: Store, gid: int) -> int:
    """Once the writes the store has in hand are done (a write queues behind them), the game
    is consistent; -> its version."""
    await store.execute("UPDATE games SET updated_at = updated_at WHERE id = ?", gid)
    return await _consistent(store, gid)


async def _still_writes(store: Store, url: str, gid: int) -> None:
    """The store's next writes work, and commit: a new connection sees them."""
    seq = await _settled(store, gid) + 1
    await _append(store, gid, seq)
    await store.set_status(gid, GameStatus.ENDED)
    other = await open_store(url)
    try:
        assert await _consistent(other, gid) == seq
        assert (await other.get_game(gid)).status is GameStatus.ENDED
    finally:
        await other.close()


# -- SQLite: the writer waits in BEGIN IMMEDIATE while another connection writes -----------


@pytest.fixture
async def sqlite_file(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'cancel.db'}"
    store = await open_store(url)
    assert isinstance(store, SqliteStore)
    yield store, url, tmp_path / "cancel.db"
    await store.close()


class _WriteLock:
    """Another connection's write transaction on the file: the store's BEGIN IMMEDIATE waits
    for it (up to the store's busy timeout) on aiosqlite's thread."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.conn.execute("ROLLBACK")
        self.conn.close()


async def test_sqlite_transaction_cancelled_while_waiting_to_begin(sqlite_file) -> None:
    store, url, path = sqlite_file
    gid = await active_game(store)
    held = _WriteLock(path)

    async def write() -> None:
        async with store.transaction() as tx:
            await tx.execute("UPDATE games SET options = '{\"x\":1}' WHERE id = ?", gid)

    task = asyncio.create_task(write())
    await _waiting(task, store._lock.locked)
    await _cancel(task)
    held.release()  # now the BEGIN the cancelled task asked for goes through on the thread
    await _still_writes(store, url, gid)
    assert (await store.get_game(gid)).options == {}  # the cancelled write never ran


async def test_sqlite_append_cancelled_while_waiting_is_all_or_nothing(sqlite_file) -> None:
    store, url, path = sqlite_file
    gid = await active_game(store)
    await _append(store, gid, 1)
    held = _WriteLock(path)
    task = asyncio.create_task(_append(store, gid, 2))
    await _waiting(task, store._lock.locked)
    await _cancel(task)
    held.release()
    # the append went to aiosqlite's thread as one call: the cancel could not split it, and
    # once the lock was free it committed, whole
    assert await _settled(store, gid) == 2
    await _still_writes(store, url, gid)


async def test_sqlite_transaction_cancelled_at_commit_is_committed(sqlite_file) -> None:
    """A cancel while COMMIT runs on the thread: the commit happens all the same, whole."""
    store, url, _ = sqlite_file
    gid = await active_game(store)
    gate, at_commit = threading.Event(), threading.Event()

    def trace(statement: str) -> None:  # on aiosqlite's thread, before each statement
        if statement.strip().upper() == "COMMIT" and not gate.is_set():
            at_commit.set()
            gate.wait(10)

    await store._conn.set_trace_callback(trace)

    async def write() -> None:
        async with store.transaction() as tx:
            await tx.execute("UPDATE games SET options = '{\"x\":2}' WHERE id = ?", gid)

    task = asyncio.create_task(write())
    await _waiting(task, at_commit.is_set)
    await _cancel(task)
    gate.set()
    await store._conn.set_trace_callback(None)
    await _still_writes(store, url, gid)
    assert (await store.get_game(gid)).options == {"x": 2}


async def test_sqlite_commit_that_fails_rolls_back(sqlite_file) -> None:
    """A COMMIT refused for a reason other than a busy database (here a foreign key checked
    at commit) rolls the transaction back instead of leaving it open."""
    store, url, _ = sqlite_file
    gid = await active_game(store)
    with pytest.raises(sqlite3.IntegrityError):
        async with store.transaction() as tx:
            await tx.execute("PRAGMA defer_foreign_keys = ON")
            await tx.execute("INSERT INTO snapshots (game_id, seq, state, created_at)"
                             " VALUES (?, 1, '{}', 'x')", gid + 99)  # no such game
    await _still_writes(store, url, gid)
    assert await store.count_rows("snapshots") == 1 + 1  # the game's 0, and the new one


# -- PostgreSQL: the write waits for a row another connection has locked --------------------


async def test_postgresql_append_cancelled_while_waiting_is_rolled_back(pg_url: str) -> None:
    store = await open_store(pg_url)
    other = await asyncpg.connect(pg_url)
    try:
        gid = await active_game(store)
        await _append(store, gid, 1)
        lock = other.transaction()
        await lock.start()
        await other.execute("SELECT id FROM games WHERE id = $1 FOR UPDATE", gid)
        task = asyncio.create_task(_append(store, gid, 2))
        await _waiting(task, lambda: True)
        await asyncio.sleep(0.3)  # the UPDATE of the game row waits for the lock
        assert not task.done()
        await _cancel(task)
        await lock.rollback()
        assert await _settled(store, gid) == 1  # the cancelled append left nothing
        await _still_writes(store, pg_url, gid)
    finally:
        await other.close()
        await store.close()
