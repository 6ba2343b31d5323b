"""Several processes over one database, in one test process: shard-filtered deadline claims
(SQLite and PostgreSQL), the channel lock of the PostgreSQL store (two stores = two pools,
as two processes have), the league summary mark taken once. The same across real processes:
tests/proof/test_two_processes.py."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.clock import Deadline
from bot.settings import Settings
from bot.store import Shards, StoreUnavailable, open_store


def test_shards_follow_discords_formula() -> None:
    s = Shards(4, (1, 3))
    for guild in (0, 1 << 22, 2 << 22, 3 << 22, 81_384_788_765_712_384, 1_100_000_000_000_000_123):
        assert s.serves(guild) == ((guild >> 22) % 4 in (1, 3))
    assert Shards(2, (0,)).serves(None)  # direct messages: shard 0
    for bad in ((0, (0,)), (2, ()), (2, (2,)), (2, (-1,))):
        with pytest.raises(ValueError):
            Shards(*bad)


def test_settings_give_the_shards_of_this_process(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    base = {"_env_file": None, "discord_token": "x", "database_url": "postgresql://h/db"}
    assert Settings(**base).shards() is None
    assert Settings(**base, shard_count=4).shards() is None  # one process runs them all
    assert Settings(**base, shard_count=4, shard_ids="0-3").shards() is None
    assert Settings(**base, shard_count=4, shard_ids="2,3").shards() == Shards(4, (2, 3))


async def test_claims_and_next_deadline_keep_to_the_shards(db_url: str) -> None:
    store = await open_store(db_url)
    try:
        games = {}
        for n, guild in enumerate((0 << 22, 1 << 22, 2 << 22, 3 << 22, None)):
            g = await store.create_game(guild_id=guild, channel_id=500 + n, seed=n)
            games[g.id] = guild
            await store.sync_deadlines(g.id, [Deadline(g.id, "turn", "a", "k", 10.0 + n)])
        odd, even = Shards(2, (1,)), Shards(2, (0,))
        assert await store.next_deadline(300, shards=odd) == 11.0
        assert await store.next_deadline(300, shards=even) == 10.0
        taken = await store.claim_due(100.0, 300, shards=odd)
        assert {d.game_id for d in taken} == {gid for gid, gu in games.items() if odd.serves(gu)}
        assert await store.claim_due(100.0, 300, shards=odd) == []
        rest = await store.claim_due(100.0, 300, shards=even)
        assert len(taken) + len(rest) == len(games)  # shard 0 got the others, None included
        assert await store.claim_due(100.0, 300) == []
    finally:
        await store.close()


async def test_the_league_summary_mark_is_taken_once(db_url: str) -> None:
    store = await open_store(db_url)
    try:
        league = await store.create_league(7, "L", 1)
        await store.set_league_settings(league.id, {"summary_channel": 9})
        assert await store.claim_league_summary(league.id, None, "2026-11-01T00:00:00.000Z")
        assert not await store.claim_league_summary(league.id, None, "2026-11-01T00:00:01.000Z")
        assert await store.claim_league_summary(league.id, "2026-11-01T00:00:00.000Z",
                                                "2026-11-08T00:00:00.000Z")
    finally:
        await store.close()


async def test_sqlite_has_no_cross_process_lock(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path / "one.db"))
    try:
        async with store.channel_lock(1), store.channel_lock(1):  # one process: nothing held
            pass
    finally:
        await store.close()


async def test_postgres_channel_lock_orders_two_pools(pg_url: str) -> None:
    a, b = await open_store(pg_url), await open_store(pg_url)
    try:
        order: list[str] = []
        async with a.channel_lock(5):
            pid = (await a.fetchone("SELECT pg_backend_pid()"))[0]
            async with a.transaction() as tx:  # the holder's statements use its connection
                assert (await tx.fetchone("SELECT pg_backend_pid()"))[0] == pid
            with pytest.raises(StoreUnavailable):
                async with b.channel_lock(5, timeout=0.2):
                    pass
            async with b.channel_lock(6, timeout=0.2):  # another channel is free
                pass

            async def later() -> None:
                async with b.channel_lock(5, timeout=10):
                    order.append("b")

            waiting = asyncio.create_task(later())
            await asyncio.sleep(0.3)
            order.append("a")
        await asyncio.wait_for(waiting, 10)
        assert order == ["a", "b"]
        with pytest.raises(RuntimeError):  # a failing body lets go of the lock too
            async with a.channel_lock(5):
                raise RuntimeError("boom")
        async with b.channel_lock(5, timeout=0.5):
            pass
    finally:
        await a.close()
        await b.close()


def test_a_second_bot_process_on_one_sqlite_file_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from bot.__main__ import main
    from bot.store import StoreError, sqlite_single_bot

    db = tmp_path / "one.db"
    first = sqlite_single_bot(f"sqlite:///{db}")
    assert first is not None
    with pytest.raises(StoreError, match="another bot process is running on"):
        sqlite_single_bot(str(db))
    assert sqlite_single_bot("postgresql://h/db") is None
    assert sqlite_single_bot(":memory:") is None
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{db}")
    for key in ("SHARD_COUNT", "SHARD_IDS", "DISCORD_API_BASE", "DISCORD_GATEWAY"):
        monkeypatch.delenv(key, raising=False)
    assert main([]) == 1  # the bot stops before it connects anywhere
    err = capsys.readouterr().err
    assert "another bot process is running on" in err and "PostgreSQL" in err
    first.close()  # the first process ended: the file is free again
    again = sqlite_single_bot(str(db))
    assert again is not None
    again.close()
