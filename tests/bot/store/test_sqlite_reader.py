"""The SQLite store's read-only connection: reads outside a transaction run on the caller's
thread, see exactly what is committed, and never wait for a writer."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from bot.store import SqliteStore, Store


async def _lobby(store: Store, channel: int = 5) -> int:
    game = await store.create_game(guild_id=1, channel_id=channel, seed=1, players=[])
    return game.id


async def test_reads_skip_the_writer_thread_and_see_every_commit(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    store = await SqliteStore.connect(str(tmp_path / "r.db"))
    try:
        assert store._reader is not None
        game_id = await _lobby(store)
        trips = []
        real = store._conn.execute_fetchall

        async def counted(sql: str, params: tuple = ()) -> list:
            trips.append(sql)
            return list(await real(sql, params))

        monkeypatch.setattr(store._conn, "execute_fetchall", counted)
        for _ in range(3):
            assert (await store.open_game(5)).id == game_id
            assert await store.log_mark(game_id) == (0, 0)
        assert trips == []  # no trip to aiosqlite's thread for a read
        await store.set_game_message(game_id, 99, "summary")  # a write, then at once a read
        assert await store.game_message(game_id) == (99, "summary")
    finally:
        await store.close()
    assert store._reader is None


async def test_a_read_neither_waits_for_nor_sees_an_uncommitted_write(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    store = await SqliteStore.connect(str(db))
    other = sqlite3.connect(db, isolation_level=None, timeout=0.1)
    try:
        game_id = await _lobby(store)
        other.execute("BEGIN IMMEDIATE")  # another writer, half-way through
        other.execute("UPDATE games SET version = 7 WHERE id = ?", (game_id,))
        t0 = time.perf_counter()
        assert (await store.get_game(game_id)).version == 0  # committed rows only
        # and no wait for the writer's lock (that wait is the busy timeout, 5 s)
        assert time.perf_counter() - t0 < 2.5
        other.execute("COMMIT")
        assert (await store.get_game(game_id)).version == 7  # visible once committed
    finally:
        other.close()
        await store.close()


async def test_pragmas_and_memory_databases_take_the_aiosqlite_path(tmp_path: Path) -> None:
    memory = await SqliteStore.connect(":memory:")
    try:
        assert memory._reader is None  # a second connection would be another database
        game_id = await _lobby(memory)
        assert (await memory.get_game(game_id)).id == game_id
    finally:
        await memory.close()
    store = await SqliteStore.connect(str(tmp_path / "p.db"))
    try:
        # a PRAGMA that sets something must reach the writer, whose limit it is
        pages = (await store.fetchone("PRAGMA page_count"))[0]
        await store.fetchone(f"PRAGMA max_page_count = {pages + 3}")
        row = await store._conn.execute_fetchall("PRAGMA max_page_count")
        assert list(row)[0][0] == pages + 3
    finally:
        await store.close()


async def test_reads_from_many_tasks_at_once_stay_consistent(tmp_path: Path) -> None:
    store = await SqliteStore.connect(str(tmp_path / "c.db"))
    try:
        ids = [await _lobby(store, channel) for channel in range(10, 20)]

        async def read(channel: int) -> int:
            await asyncio.sleep(0)
            return (await store.open_game(channel)).id

        assert await asyncio.gather(*(read(c) for c in range(10, 20))) == ids
    finally:
        await store.close()
