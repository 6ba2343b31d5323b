"""Database faults on real databases: a locked SQLite file, a full disk, a PostgreSQL
connection killed in the middle of an action. Each time the player gets a clear "try again",
nothing is half-applied, and the next command works without anybody restarting anything."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import asyncpg
import pytest

import engine
from bot.game.service import GameService
from bot.store import SqliteStore, Store, StoreUnavailable, open_store
from bot.store import postgres as store_pg
from bot.ui import STORE_BUSY, refusal_text

CH = 77


async def _game(service: GameService) -> None:
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=1, name="ann", seed=3)
    await service.join(CH, 2, "bob")
    await service.start(CH, 1)


async def _next(service: GameService) -> tuple[int, dict]:
    loaded = await service.view(CH)
    action = engine.legal_actions(loaded.state)[0].model_dump(mode="json")
    return loaded.game.seat_named(loaded.state.actor).user_id, action


async def _snapshot(store: Store, game_id: int) -> tuple:
    game = await store.get_game(game_id)
    return (game.version, len(await store.actions(game_id)), await store.snapshot_seqs(game_id),
            len(await store.owed_dms()))


async def test_locked_sqlite_answers_try_again_and_recovers(tmp_path: Path) -> None:
    db = tmp_path / "locked.db"
    store = await SqliteStore.connect(str(db), busy_timeout=0.2)
    service = GameService(store, rng=random.Random(0))
    try:
        await _game(service)
        game = await store.open_game(CH)
        before = await _snapshot(store, game.id)
        other = sqlite3.connect(db, timeout=0.1)
        other.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
        uid, action = await _next(service)
        with pytest.raises(StoreUnavailable) as err:
            await service.act(CH, uid, action)
        assert refusal_text(err.value) == STORE_BUSY and "try" in STORE_BUSY
        other.rollback()
        other.close()
        assert await _snapshot(store, game.id) == before  # nothing half-applied
        out = await service.act(CH, uid, action)  # and it works again by itself
        assert out.game.version == before[0] + 1
    finally:
        await store.close()


async def test_full_disk_answers_try_again_and_recovers(tmp_path: Path) -> None:
    store = await SqliteStore.connect(str(tmp_path / "full.db"))
    service = GameService(store, rng=random.Random(0))
    try:
        await _game(service)
        game = await store.open_game(CH)
        before = await _snapshot(store, game.id)
        pages = (await store.fetchone("PRAGMA page_count"))[0]
        await store.fetchone(f"PRAGMA max_page_count = {pages}")  # the disk is full now
        failures = 0
        for _ in range(40):  # actions until one needs a new page (a snapshot, a DM...)
            uid, action = await _next(service)
            try:
                await service.act(CH, uid, action)
            except StoreUnavailable as exc:
                assert "full" in str(exc)
                failures += 1
                break
        assert failures == 1
        after_fail = await _snapshot(store, game.id)
        assert after_fail[0] == after_fail[1] >= before[0]  # version = actions: no half write
        await store.fetchone("PRAGMA max_page_count = 1073741823")  # space again
        uid, action = await _next(service)
        out = await service.act(CH, uid, action)
        assert out.game.version == after_fail[0] + 1
    finally:
        await store.close()


async def _ended(admin: asyncpg.Connection, pids: list[int], timeout: float = 30.0) -> None:
    """Wait until the server has ended these backends: pg_terminate_backend only signals
    them, and on a loaded host a backend can take far longer than a moment to go."""
    deadline = asyncio.get_running_loop().time() + timeout
    while await admin.fetchval("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1)",
                               pids):
        assert asyncio.get_running_loop().time() < deadline, f"backends {pids} still alive"
        await asyncio.sleep(0.02)


async def test_postgresql_connection_lost_mid_action(pg_url: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    store = await open_store(pg_url)
    service = GameService(store, rng=random.Random(0))
    admin = await asyncpg.connect(pg_url)
    try:
        await _game(service)
        game = await store.open_game(CH)
        before = await _snapshot(store, game.id)
        real_execute = store_pg._PgTx.execute

        async def cut(self, sql: str, *args):
            if sql.startswith("INSERT INTO actions"):  # after the version update
                pid = self._conn.get_server_pid()
                await admin.execute("SELECT pg_terminate_backend($1)", pid)
                await _ended(admin, [pid])
            return await real_execute(self, sql, *args)

        monkeypatch.setattr(store_pg._PgTx, "execute", cut)
        uid, action = await _next(service)
        with pytest.raises(StoreUnavailable) as err:
            await service.act(CH, uid, action)
        assert refusal_text(err.value) == STORE_BUSY
        monkeypatch.setattr(store_pg._PgTx, "execute", real_execute)
        assert await _snapshot(store, game.id) == before  # the server rolled it all back
        out = await service.act(CH, uid, action)  # the pool reconnected by itself
        assert out.game.version == before[0] + 1
        # every pooled connection dropped at once (a server restart, a failover)
        ended = await admin.fetch("SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity"
                                  " WHERE datname = current_database()"
                                  " AND pid <> pg_backend_pid()")
        await _ended(admin, [r["pid"] for r in ended])
        failures = 0
        for _ in range(5):  # the first command notices, is answered "try again", and the
            try:            # pool replaces every connection
                uid, action = await _next(service)
                out = await service.act(CH, uid, action)
                break
            except StoreUnavailable:
                failures += 1
        assert failures <= 1 and out.game.version == before[0] + 2
    finally:
        await admin.close()
        await store.close()
