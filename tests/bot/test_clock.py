"""The turn clock: durations at the edge, deadlines in a real SQLite file and a real PostgreSQL
server (claimed once, also by two stores at the same time; kept across a reopen), and the one
scheduler that sleeps until the earliest deadline."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.clock import ClockConfig, Deadline, Scheduler, duration, format_duration, turn_rows
from bot.settings import Settings
from bot.store import Seat, Store, open_store


@pytest.mark.parametrize(("text", "seconds"), [
    ("off", None), ("OFF", None), ("10m", 600), ("12h", 43200), ("2d", 172800),
    ("1h30m", 5400), ("90s", 90), (" 5 m ", 300), (0, None), (120, 120),
])
def test_durations(text: object, seconds: int | None) -> None:
    assert duration(text) == seconds


@pytest.mark.parametrize("text", ["soon", "10", "10 minutes", "-5m", "1.5h", "m", "30d", True])
def test_bad_durations_get_the_format(text: object) -> None:
    with pytest.raises(ValueError) as err:
        duration(text)
    assert "`10m`" in str(err.value) or "at most" in str(err.value) or "limit" in str(err.value)


def test_clock_config_validates_and_describes() -> None:
    clock = ClockConfig.model_validate({"limit": "12h", "remind": "mention"})
    assert clock.limit == 43200 and clock.on
    assert clock.describe() == "turn time limit 12h, reminders in the channel"
    assert not ClockConfig().on and ClockConfig().describe() == "no turn time limit"
    with pytest.raises(ValueError):
        ClockConfig.model_validate({"limit": "12 hours"})
    with pytest.raises(ValueError):
        ClockConfig.model_validate({"remind": "pigeon"})
    assert format_duration(3725) == "1h 2m" and format_duration(59) == "59s"
    assert format_duration(2 * 86400 + 7200 + 5) == "2d 2h"


def test_settings_read_durations() -> None:
    s = Settings(_env_file=None, discord_token="t", clock_survivor_limit="90s",
                 clock_min_limit="1s", ai_turn_delay=0)
    rules = s.clock_rules()
    assert rules.survivor_limit == 90 and rules.min_limit == 1 and rules.ai_delay == 0


async def _game(store: Store, channel: int = 5) -> int:
    game = await store.create_game(guild_id=1, channel_id=channel, seed=3,
                                   players=[Seat(1, "ann"), Seat(2, "bob")])
    return game.id


async def test_deadlines_sync_keep_and_replace(store: Store) -> None:
    gid = await _game(store)
    clock = ClockConfig(limit=600)
    rows = turn_rows(gid, "ann", "turn:ann:1", clock, 1000.0)
    await store.sync_deadlines(gid, rows)
    got = {d.kind: d for d in await store.deadlines(gid)}
    assert set(got) == {"turn", "half", "near"}
    assert got["turn"].due_at == 1600 and got["half"].due_at == 1300 and got["near"].due_at == 1540
    # the same stint synced later does not push the deadline back
    await store.sync_deadlines(gid, turn_rows(gid, "ann", "turn:ann:1", clock, 1200.0))
    assert {d.kind: d.due_at for d in await store.deadlines(gid)}["turn"] == 1600
    # a new stint replaces it; kinds not wanted any more go
    await store.sync_deadlines(gid, [Deadline(gid, "ai", "AI (easy) 1", "ai:x:3", 2000.0)])
    assert [(d.kind, d.due_at) for d in await store.deadlines(gid)] == [("ai", 2000.0)]
    await store.sync_deadlines(gid, [])
    assert await store.deadlines(gid) == []


async def test_claim_is_atomic_and_fires_once(store: Store, db_url: str) -> None:
    gid = await _game(store)
    other = await open_store(db_url)  # a second process on the same database
    try:
        await store.sync_deadlines(gid, turn_rows(gid, "ann", "k", ClockConfig(limit=60), 0.0))
        assert await store.next_deadline(300) == 30.0
        a, b = await asyncio.gather(store.claim_due(100.0, 300), other.claim_due(100.0, 300))
        claimed = a + b
        assert sorted(d.kind for d in claimed) == ["half", "near", "turn"]
        assert not (a and b and {d.kind for d in a} & {d.kind for d in b})
        assert await store.claim_due(101.0, 300) == []  # claimed rows are not due again
        for d in claimed:
            assert await store.finish_deadline(d)
        assert await store.next_deadline(300) is None
        # a claim whose handler died is taken again once stale
        await store.sync_deadlines(gid, turn_rows(gid, "ann", "k2", ClockConfig(limit=60), 0.0))
        first = await store.claim_due(100.0, 300)
        assert await store.next_deadline(300) == 100.0 + 300
        again = await other.claim_due(500.0, 300)
        assert {d.kind for d in again} == {d.kind for d in first}
        assert not await store.finish_deadline(first[0])  # the old claim no longer holds
        await store.retry_deadline(again[0], 900.0)
        assert await store.next_deadline(300) <= 900.0
    finally:
        await other.close()


async def test_deadlines_survive_a_reopen(db_url: str) -> None:
    path = db_url
    s = await open_store(path)
    gid = await _game(s)
    await s.sync_deadlines(gid, [Deadline(gid, "turn", "ann", "k", 123.0)])
    await s.close()
    s = await open_store(path)
    try:
        assert [(d.kind, d.due_at) for d in await s.deadlines(gid)] == [("turn", 123.0)]
        assert [d.kind for d in await s.claim_due(time.time(), 300)] == ["turn"]
    finally:
        await s.close()


async def test_server_default_clock(store: Store) -> None:
    assert await store.guild_clock(9) is None
    await store.set_guild_clock(9, ClockConfig(limit=3600).to_json())
    assert await store.guild_clock(9) == {"limit": 3600, "remind": "dm"}
    assert await store.guild_clock(None) is None


async def _until(pred, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)


async def test_one_scheduler_sleeps_until_the_earliest_and_wakes_on_change(
        store: Store) -> None:
    fired: list[tuple[str, float]] = []
    gid = await _game(store)
    gid2 = await _game(store, channel=6)

    async def fire(row: Deadline) -> None:
        fired.append((row.kind, time.time() - row.due_at))
        await store.finish_deadline(row)

    sched = Scheduler(store, fire)
    sched.start()
    try:
        now = time.time()
        await store.sync_deadlines(gid, [Deadline(gid, "turn", "ann", "a", now + 1.5)])
        sched.wake()
        await asyncio.sleep(0.1)
        assert fired == []
        # an earlier deadline in another game wakes the sleeping scheduler
        await store.sync_deadlines(gid2, [Deadline(gid2, "ai", "AI", "b", time.time() + 0.3)])
        sched.wake()
        await _until(lambda: fired)
        assert [k for k, _ in fired] == ["ai"]
        assert time.time() < now + 1.5  # the later one has not fired yet
        await _until(lambda: len(fired) == 2)
        assert [k for k, _ in fired] == ["ai", "turn"]
        assert all(0 <= late < 1.0 for _, late in fired), fired  # on time, not polled late
        # a deadline already past fires at once
        await store.sync_deadlines(gid, [Deadline(gid, "turn", "ann", "c", time.time() - 50)])
        sched.wake()
        await _until(lambda: len(fired) == 3)
        await sched.idle()
        # the test, the scheduler and its timed wait: no task per game or deadline
        assert len(asyncio.all_tasks()) <= 3
    finally:
        await sched.stop()


def test_clock_words_in_the_readers_language() -> None:
    from bot.clock import DurationError

    clock = ClockConfig(limit=43200, remind="mention")
    assert clock.describe() == "turn time limit 12h, reminders in the channel"
    assert clock.describe("hu") == "körönkénti időkorlát 12h, emlékeztetők a csatornán"
    assert ClockConfig().describe("th") == "ไม่มีเวลาจำกัดต่อตา"
    with pytest.raises(DurationError) as bad:
        duration("soon")
    assert "'soon' is not a time limit" in str(bad.value)  # English for logs and tests
    assert bad.value.text("fi").startswith("'soon' ei ole aikaraja")
    with pytest.raises(DurationError) as long:
        duration("30d")
    assert long.value.text("sv") == "En tidsgräns per tur kan vara högst 14 dagar."


async def test_stop_ends_the_scheduler_when_a_wake_up_comes_with_the_cancel() -> None:
    """Deadlines change (wake) just as the bot stops (cancel): the scheduler still stops. On
    Python 3.11 asyncio.wait_for swallowed a cancel that came with the wake-up, and stop()
    waited forever for a scheduler that had gone back to sleep."""

    class FarAhead:
        async def next_deadline(self, stale: float, *, shards: object = None) -> float:
            return time.time() + 60

    async def fire(row: Deadline) -> None:
        raise AssertionError("nothing is due")

    for _ in range(3):
        scheduler = Scheduler(FarAhead(), fire)
        scheduler.start()
        await asyncio.sleep(0.01)  # asleep until the deadline, or a wake-up
        task = scheduler._task
        scheduler.wake()
        stopping = asyncio.ensure_future(scheduler.stop())
        done, _ = await asyncio.wait({stopping}, timeout=5)
        assert done and task is not None and task.done()
