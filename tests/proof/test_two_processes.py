"""Two (and more) real bot-side processes over one real PostgreSQL server: each process has its
own GameService, connection pool and Scheduler (tests/proof/scale_worker.py), as two bot
processes serving different shards do.

- Concurrent clicks on the same games from two processes apply once each, in order: every
  stored action was acknowledged to exactly one process, none twice, no gap, and the log
  replays to every stored snapshot.
- A channel held by one process (its advisory lock) makes the other wait and, past the wait
  limit, answer "try again" with nothing written; a holder killed with SIGKILL lets go.
- Four processes racing for the same deadlines (two per shard) fire each deadline once, always
  in a process serving the game's guild.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.clock import Deadline
from bot.game.service import GameService
from bot.seats import new_state
from bot.store import Shards, StoreUnavailable, open_store
from bot.store import postgres as store_pg

WORKER = Path(__file__).with_name("scale_worker.py")
ROOT = Path(__file__).resolve().parents[2]


class Worker:
    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, mode: str, args: dict[str, Any]) -> Worker:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(WORKER), mode, json.dumps(args), cwd=ROOT,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
        return cls(proc)

    async def line(self, timeout: float = 60) -> dict[str, Any]:
        assert self.proc.stdout is not None
        raw = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        if not raw:
            err = await self.proc.stderr.read() if self.proc.stderr else b""
            raise AssertionError(f"worker ended early: {err.decode(errors='replace')[-2000:]}")
        return json.loads(raw)

    def say(self, text: str = "go\n") -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode())

    async def report(self, timeout: float = 240) -> dict[str, Any]:
        out = await self.line(timeout)
        assert await asyncio.wait_for(self.proc.wait(), 30) == 0
        return out

    def kill(self) -> None:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)


async def _together(workers: list[Worker]) -> None:
    """Every worker has its store open: let them all go at once."""
    for w in workers:
        assert "ready" in await w.line()
    for w in workers:
        w.say()


async def _game(service: GameService, channel: int, guild: int = 1, seed: int = 0) -> int:
    await service.open_lobby(guild_id=guild, channel_id=channel, user_id=channel * 10 + 1,
                             name="ann", players=2, seed=seed or channel)
    await service.join(channel, channel * 10 + 2, "bob")
    return (await service.start(channel, channel * 10 + 1)).game.id


async def test_concurrent_clicks_from_two_processes_apply_once_in_order(pg_url: str) -> None:
    store = await open_store(pg_url)
    service = GameService(store, rng=random.Random(0))
    channels = list(range(101, 107))
    try:
        games = {ch: await _game(service, ch) for ch in channels}
        args = {"url": pg_url, "channels": channels, "steps": 30}
        workers = [await Worker.start("race", args) for _ in range(2)]
        try:
            await _together(workers)
            reports = [await w.report() for w in workers]
        finally:
            for w in workers:
                w.kill()
        stale = sum(r["refused"].get("stale", 0) for r in reports)
        assert all(r["applied"] for r in reports), "one process never got a click in"
        assert stale > 0, "the processes never clicked the same version: no race was tested"
        assert {k for r in reports for k in r["refused"]} <= {"stale"}, reports
        for ch, gid in games.items():
            game = await store.get_game(gid)
            mine = sorted((seq, action) for r in reports for g, seq, action, _v in r["applied"]
                          if g == gid)
            # each stored action was acknowledged to exactly one process: no loss, no twice
            assert [seq for seq, _ in mine] == list(range(1, game.version + 1)), ch
            stored = await store.actions(gid)
            assert [row.action for row in stored] == [a for _, a in mine]
            # and the log, in that order, replays to every stored snapshot
            state = new_state(game)
            snaps = set(await store.snapshot_seqs(gid))
            for row in stored:
                state = engine.apply(state, engine.parse_action(row.action)).state
                if row.seq in snaps:
                    assert engine.dump_state(state) == await store.snapshot(gid, row.seq)
            assert engine.dump_state(await service.rebuild(gid)) == engine.dump_state(state)
    finally:
        await store.close()


async def _next_click(service: GameService, channel: int) -> tuple[int, dict[str, Any]]:
    loaded = await service.view(channel)
    action = engine.legal_actions(loaded.state)[0].model_dump(mode="json")
    return loaded.game.seat_named(loaded.state.actor).user_id, action


@pytest.mark.parametrize("ending", ["release", "sigkill"])
async def test_a_channel_held_by_another_process_waits_then_says_try_again(
        pg_url: str, monkeypatch: pytest.MonkeyPatch, ending: str) -> None:
    store = await open_store(pg_url)
    service = GameService(store, rng=random.Random(0))
    try:
        gid = await _game(service, 201)
        await _game(service, 202)
        click = await _next_click(service, 201)
        holder = await Worker.start("hold", {"url": pg_url, "channel": 201})
        try:
            assert await holder.line() == {"holding": 201}
            before = (await store.get_game(gid)).version, len(await store.actions(gid))
            monkeypatch.setattr(store_pg, "CHANNEL_LOCK_TIMEOUT", 0.5)
            uid, action = await _next_click(service, 202)
            await service.act(202, uid, action)  # another channel is not held up
            uid, action = click
            t0 = time.monotonic()
            with pytest.raises(StoreUnavailable):
                await service.act(201, uid, action)
            assert time.monotonic() - t0 >= 0.45  # it waited for the other process
            assert ((await store.get_game(gid)).version,
                    len(await store.actions(gid))) == before  # nothing half-applied
            if ending == "release":
                holder.proc.stdin.close()
                assert await holder.report() == {"released": 201}
            else:
                holder.kill()  # the server lets go of a dead process's lock
                await holder.proc.wait()
            monkeypatch.setattr(store_pg, "CHANNEL_LOCK_TIMEOUT", 10.0)
            out = await service.act(201, uid, action)
            assert out.game.version == before[0] + 1
        finally:
            holder.kill()
    finally:
        await store.close()


async def test_a_deadline_fires_once_in_a_process_of_its_shard(pg_url: str) -> None:
    store = await open_store(pg_url)
    count = 2
    try:
        guild_of: dict[int, int | None] = {}
        for i in range(24):
            guild = None if i == 0 else (((i * 7) << 22) | 123)
            game = await store.create_game(guild_id=guild, channel_id=300 + i, seed=i)
            guild_of[game.id] = guild
        # processes 0, 1 serve shard 0, processes 2, 3 shard 1: each deadline is raced for
        # by two processes that may take it and two that must not
        ids = [[0], [0], [1], [1]]
        workers = [await Worker.start("deadlines", {"url": pg_url, "count": count, "ids": i,
                                                    "seconds": 5.0}) for i in ids]
        try:
            for w in workers:
                assert "ready" in await w.line()
            now = time.time()
            rng = random.Random(4)
            expected = set()
            for gid in guild_of:
                rows = [Deadline(gid, kind, "ann", "k1",
                                 now - 1 if k == 0 else now + rng.uniform(0.2, 2.5))
                        for k, kind in enumerate(("turn", "half", "near"))]
                await store.sync_deadlines(gid, rows)
                expected |= {(gid, kind) for kind in ("turn", "half", "near")}
            for w in workers:
                w.say()
            reports = [await w.report() for w in workers]
        finally:
            for w in workers:
                w.kill()
        fired = [(g, k, tuple(r["ids"])) for r in reports for g, k, _t in r["fired"]]
        assert sorted((g, k) for g, k, _ in fired) == sorted(expected)  # each once, none lost
        for gid, _kind, ids_of_process in fired:
            assert Shards(count, ids_of_process).serves(guild_of[gid]), (gid, ids_of_process)
        assert {tuple(r["ids"]) for r in reports if r["fired"]} == {(0,), (1,)}
        left = await store.fetchall("SELECT COUNT(*) FROM deadlines WHERE fired = 0")
        assert left[0][0] == 0
    finally:
        await store.close()
