"""Store.write on both databases: statements known up front, run as one transaction; a
statement that misses what it needs (the version compare-and-swap) stops the write and keeps
nothing of it; a unique-key clash is named as the caller asks. On SQLite the whole write is
one trip to aiosqlite's thread."""

from __future__ import annotations

import pytest
from store_setup import act, active_game

from bot.store import Duplicate, NotChanged, SqliteStore, Store, VersionConflict, Write, open_store


async def test_a_write_is_one_transaction_in_order(store: Store) -> None:
    gid = await active_game(store)
    changed, rows, removed = await store.write(
        Write("UPDATE games SET options = ? WHERE id = ?", ('{"a":1}', gid)),
        Write("UPDATE games SET version = version WHERE id = ? RETURNING id", (gid,),
              rows=True),
        Write("DELETE FROM snapshots WHERE game_id = ? AND seq > 0", (gid,)))
    assert (changed, [tuple(r) for r in rows], removed) == (1, [(gid,)], 0)
    assert (await store.get_game(gid)).options == {"a": 1}


async def test_a_statement_missing_its_need_keeps_nothing_of_the_write(store: Store) -> None:
    gid = await active_game(store)
    with pytest.raises(VersionConflict, match="stale"):
        await store.write(
            Write("UPDATE games SET options = ? WHERE id = ?", ('{"b":1}', gid)),
            Write("UPDATE games SET version = 9 WHERE id = ? AND version = 5", (gid,),
                  need=1, refuse=VersionConflict("stale")),
            Write("UPDATE games SET board = 'x' WHERE id = ?", (gid,)))
    game = await store.get_game(gid)
    assert game.options == {} and game.version == 0 and game.board == "official-2p"
    with pytest.raises(NotChanged):  # no refusal named: NotChanged
        await store.write(Write("UPDATE games SET version = 1 WHERE id = ?", (gid + 9,),
                                need=1))


async def test_a_unique_key_clash_is_duplicate_or_what_the_caller_names(store: Store) -> None:
    gid = await active_game(store)
    again = Write("INSERT INTO snapshots (game_id, seq, state, created_at) VALUES (?, 0, '{}',"
                  " 'x')", (gid,))
    with pytest.raises(Duplicate):
        await store.write(again)
    with pytest.raises(VersionConflict, match="taken"):
        await store.write(Write(again.sql, again.args, duplicate=VersionConflict("taken")))
    assert await store.snapshot(gid, 0) == {"v": 0}


async def test_an_append_is_one_trip_to_the_sqlite_thread(tmp_path) -> None:
    """Action, version, snapshot, status and owed DMs: one call on aiosqlite's thread (BEGIN,
    five statements and COMMIT were seven), and the same rows as before."""
    store = await open_store(f"sqlite:///{tmp_path / 'trips.db'}")
    assert isinstance(store, SqliteStore)
    try:
        gid = await active_game(store)
        trips = []
        real = store._conn._execute

        async def counted(fn, *args, **kwargs):
            trips.append(fn)
            return await real(fn, *args, **kwargs)

        store._conn._execute = counted  # type: ignore[method-assign]
        row, revision = await store.append(gid, 1, act(1), actor_id=11, player="ann",
                                           snapshot={"v": 1}, dms=[(11, ["a"]), (22, ["b"])])
        assert len(trips) == 1
        await store.truncate(gid, 0, expected=1)
        assert len(trips) == 2
        assert (row.seq, revision) == (1, 1)
        assert await store.log_mark(gid) == (0, 2) and await store.actions(gid) == []
        assert await store.snapshot_seqs(gid) == [0]
        assert await store.count_rows("outbox") == 2  # owed DMs outlive an undo
    finally:
        await store.close()
