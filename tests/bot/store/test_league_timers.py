"""League timers on the one clock's store (migration 0010), on SQLite and PostgreSQL: armed
and re-armed by key like a game's deadlines, read with the games' deadlines by
next_deadline and claim_due, claimed once across processes and only by the process serving
the league's guild, finished and retried, kept across a reopen."""

from __future__ import annotations

import asyncio

from store_setup import active_game

from bot.clock import Deadline, LeagueTimer
from bot.store import Shards, Store, open_store


async def test_timers_are_armed_by_key(store: Store) -> None:
    lg = await store.create_league(1, "L", 9)
    await store.sync_league_timers(lg.id, [LeagueTimer(lg.id, "round", "round 1", 500.0),
                                          LeagueTimer(lg.id, "summary", "never", 100.0)])
    assert [(t.kind, t.key, t.due_at) for t in await store.league_timers(lg.id)] == [
        ("summary", "never", 100.0), ("round", "round 1", 500.0)]
    # the same key synced later keeps its due time (a re-arm never pushes a timer back)
    await store.sync_league_timers(lg.id, [LeagueTimer(lg.id, "round", "round 1", 900.0),
                                          LeagueTimer(lg.id, "summary", "never", 800.0)])
    assert {t.kind: t.due_at for t in await store.league_timers(lg.id)} == {
        "round": 500.0, "summary": 100.0}
    # a new key re-arms; a kind no longer wanted goes; other leagues are left alone
    other = await store.create_league(1, "M", 9)
    await store.sync_league_timers(other.id, [LeagueTimer(other.id, "round", "round 7", 1.0)])
    await store.sync_league_timers(lg.id, [LeagueTimer(lg.id, "summary", "2026-11-30", 700.0)])
    assert [(t.kind, t.key, t.due_at) for t in await store.league_timers(lg.id)] == [
        ("summary", "2026-11-30", 700.0)]
    await store.sync_league_timers(lg.id, [])
    assert await store.league_timers(lg.id) == []
    assert [t.key for t in await store.league_timers(other.id)] == ["round 7"]


async def test_one_clock_reads_both_tables(store: Store) -> None:
    gid = await active_game(store)
    lg = await store.create_league(1, "L", 9)
    await store.sync_deadlines(gid, [Deadline(gid, "turn", "ann", "k", 350.0)])
    await store.sync_league_timers(lg.id, [LeagueTimer(lg.id, "round", "round 1", 200.0)])
    assert await store.next_deadline(60) == 200.0
    (timer,) = await store.claim_due(250.0, 60)  # only the league's timer is due
    assert timer == LeagueTimer(lg.id, "round", "round 1", 200.0, 250.0)
    assert await store.next_deadline(60) == 250.0 + 60  # the claim, until it goes stale
    claimed = await store.claim_due(400.0, 60)  # the stale claim and the game's deadline
    assert [type(d).__name__ for d in claimed] == ["LeagueTimer", "Deadline"]
    assert not await store.finish_deadline(timer)  # its claim was taken over
    assert await store.finish_deadline(claimed[0]) and await store.finish_deadline(claimed[1])
    assert await store.next_deadline(60) is None and await store.claim_due(10**9, 60) == []
    assert await store.league_timers(lg.id) == []  # fired: kept, but not pending
    # fired with the same key: a re-sync does not arm it again; a new key does
    await store.sync_league_timers(lg.id, [LeagueTimer(lg.id, "round", "round 1", 200.0)])
    assert await store.next_deadline(60) is None
    await store.sync_league_timers(lg.id, [LeagueTimer(lg.id, "round", "round 2", 600.0)])
    (again,) = await store.claim_due(700.0, 60)
    await store.retry_deadline(again, 900.0)  # its handler failed: due again later
    assert await store.league_timers(lg.id) == [LeagueTimer(lg.id, "round", "round 2", 900.0)]


async def test_a_timer_is_claimed_by_one_process(store: Store, db_url: str) -> None:
    other = await open_store(db_url)  # a second process on the same database
    try:
        for n in range(5):
            lg = await store.create_league(1, f"L{n}", 9)
            await store.sync_league_timers(lg.id, [
                LeagueTimer(lg.id, "round", "r", 10.0 + n),
                LeagueTimer(lg.id, "summary", "s", 20.0 + n)])
        a, b = await asyncio.gather(store.claim_due(100.0, 300), other.claim_due(100.0, 300))
        keys = [(t.league_id, t.kind) for t in a + b]
        assert len(keys) == len(set(keys)) == 10
        assert await store.claim_due(101.0, 300) == []
    finally:
        await other.close()


async def test_timers_keep_to_the_shards_of_the_league(store: Store) -> None:
    leagues = {}
    for n, guild in enumerate((0 << 22, 1 << 22, 2 << 22, 3 << 22)):
        lg = await store.create_league(guild, f"L{n}", 9)
        leagues[lg.id] = guild
        await store.sync_league_timers(lg.id, [LeagueTimer(lg.id, "summary", "k", 10.0 + n)])
    odd, even = Shards(2, (1,)), Shards(2, (0,))
    assert await store.next_deadline(300, shards=odd) == 11.0
    assert await store.next_deadline(300, shards=even) == 10.0
    taken = await store.claim_due(100.0, 300, shards=odd)
    assert {t.league_id for t in taken} == {i for i, g in leagues.items() if odd.serves(g)}
    assert len(taken) == 2 and await store.claim_due(100.0, 300, shards=odd) == []
    assert len(await store.claim_due(100.0, 300, shards=even)) == 2


async def test_timers_survive_a_reopen(db_url: str) -> None:
    s = await open_store(db_url)
    lg = await s.create_league(1, "L", 9)
    await s.sync_league_timers(lg.id, [LeagueTimer(lg.id, "round", "round 1", 123.0)])
    await s.close()
    s = await open_store(db_url)
    try:
        assert await s.next_deadline(300) == 123.0
        assert [t.key for t in await s.claim_due(200.0, 300)] == ["round 1"]
    finally:
        await s.close()
