"""`bench/bot.py --db postgresql [--processes N]`: the bot at scale, N bot processes over one
PostgreSQL server, each running one gateway shard of the fake Discord.

A throwaway PostgreSQL server (tests/pgserver.py; fsync ON unless --no-fsync: commit times
include the disk's flush) holds one database. N `python -m bot` processes get the same
DATABASE_URL, SHARD_COUNT=N and SHARD_IDS=i; the fake Discord routes each guild's events to
the session whose shard serves it, (guild_id >> 22) % N, as Discord does. The games are
spread over N guilds, one on each shard, so every process carries its share. Players act as
in bench/bot.py (tests/e2e/driver.py through menus, buttons and slash commands).

Printed: command->reply p50/p90/p99 (the fake's reply latency), actions persisted per second
(rows added to `actions` while the games ran / wall time), each process's CPU seconds, and
`persist one action` on the same server afterwards (bench/store.py's method: a recorded
game's appends through Store.append, median vs an empty transaction), with fsync's setting.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from driver import GameDriver, StateReader, percentile
from fakediscord import FakeDiscord
from pgserver import TempPostgres

ROOT = Path(__file__).resolve().parents[1]


def _fmt(values: list[float]) -> str:
    if not values:
        return "n=0"
    ms = [v * 1000 for v in values]
    return (f"n={len(ms):5d}  p50={percentile(ms, 50):6.1f} ms  p90={percentile(ms, 90):6.1f} ms"
            f"  p99={percentile(ms, 99):6.1f} ms  max={max(ms):6.1f} ms")


def _guild_per_shard(fake: FakeDiscord, shards: int) -> list[dict[str, Any]]:
    """One guild on each shard (snowflakes carry their creation time: try until each shard
    has one)."""
    found: dict[int, dict[str, Any]] = {}
    for k in range(10_000):
        guild = fake.add_guild(f"server-{k}", channel_name=None)
        found.setdefault((int(guild["id"]) >> 22) % shards, guild)
        if len(found) == shards:
            return [found[i] for i in range(shards)]
        time.sleep(0.001)
    raise RuntimeError("could not place a guild on every shard")


async def _game(fake: FakeDiscord, reader: StateReader, i: int, guild: dict[str, Any],
                args: argparse.Namespace, results: dict[str, list[float]],
                errors: list[str]) -> None:
    rng = random.Random(1000 + i)
    n = 2 + i % 4
    channel = fake.add_channel(f"game-{i}", guild=guild)
    users = [fake.add_user(f"g{i}p{k}", guild=guild) for k in range(n)]
    driver = GameDriver(fake, channel, users, reader, seed=i + 1, mode="mixed",
                        check_coins=False, autocomplete=0.5)
    try:
        await asyncio.sleep(args.ramp * i / max(1, args.games) + rng.random() * args.think)
        await driver.open_game(timeout=60)
        await driver.play(max_actions=args.actions, think=args.think, rng=rng, finish=False)
    except Exception as exc:  # noqa: BLE001 - a bench reports, it does not stop
        errors.append(f"game {i}: {exc.__class__.__name__}: {str(exc)[:300]}")
    for kind, values in driver.latencies.items():
        results[kind].extend(values)


def _cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and its children that ended (Linux /proc), else 0."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _tree_cpu(pid: int) -> float:
    """CPU seconds of a process and its living descendants (picture and AI workers)."""
    total, todo, seen = 0.0, [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        total += _cpu_seconds(p)
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{p}/task").iterdir():
                with contextlib.suppress(OSError):
                    todo += [int(c) for c in (task / "children").read_text().split()]
    return total


async def _count_actions(url: str) -> int:
    from bot.store import open_store

    store = await open_store(url)
    try:
        return int((await store.fetchone("SELECT COUNT(*) FROM actions"))[0])
    finally:
        await store.close()


@dataclass
class Report:
    processes: int = 0
    games: int = 0
    fsync: str = "?"
    sync_commit: str = "?"
    results: dict[str, list[float]] = field(default_factory=dict)
    wall: float = 0.0
    persisted: int = 0
    cpu: list[float] = field(default_factory=list)
    answered_by_shard: dict[int, int] = field(default_factory=dict)
    persist_times: list[float] = field(default_factory=list)
    persist_floor: list[float] = field(default_factory=list)
    unanswered: int = 0
    errors: list[str] = field(default_factory=list)
    url: str = ""
    slow_at: list[float] = field(default_factory=list)  # seconds into the games, replies > 1 s


async def run(args: argparse.Namespace) -> int:
    """Measure and print; 1 when anything went wrong."""
    rep = await measure(args)
    _print(rep, args)
    return 1 if rep.errors or rep.unanswered else 0


async def measure(args: argparse.Namespace, *, persist_rounds: int = 3,
                  keep: Any = None) -> Report:
    """The bench itself. `keep(url)`, if given, is awaited after the games with the
    database still up (tests look at what the processes stored)."""

    n_proc = args.processes
    server = TempPostgres(fsync=not args.no_fsync).start()
    fake = FakeDiscord(interaction_timeout=None)
    await fake.start()
    results: dict[str, list[float]] = {"action": [], "end_turn": [], "game_over": []}
    errors: list[str] = []
    procs: list[subprocess.Popen[bytes]] = []
    cpu: list[float] = []
    try:
        url = await server.create_database("bench")
        import asyncpg

        conn = await asyncpg.connect(url)
        fsync = await conn.fetchval("SHOW fsync")
        sync_commit = await conn.fetchval("SHOW synchronous_commit")
        await conn.close()
        guilds = _guild_per_shard(fake, n_proc)
        with tempfile.TemporaryDirectory() as tmp, fake.patch_discord():
            logs = [Path(tmp) / f"bot-{i}.log" for i in range(n_proc)]
            for i in range(n_proc):
                env = {**os.environ, "DISCORD_TOKEN": fake.token, "DATABASE_URL": url,
                       "DISCORD_API_BASE": fake.api_base, "DISCORD_GATEWAY": fake.gateway_url,
                       "LOG_LEVEL": "WARNING", "SHARD_COUNT": str(n_proc),
                       "SHARD_IDS": str(i)}
                procs.append(subprocess.Popen(
                    [sys.executable, "-m", "bot"], cwd=args.bot_dir, env=env,
                    stderr=open(logs[i], "wb")))  # noqa: SIM115

            def all_up() -> bool:
                if any(p.poll() is not None for p in procs):
                    return True
                return len({s.shard for s in fake.sessions if s.ready and s.connected}) >= n_proc

            await fake.wait_until(all_up, timeout=120, what="every bot process to connect")
            dead = [i for i, p in enumerate(procs) if p.poll() is not None]
            if dead:
                raise RuntimeError(f"bot process {dead[0]} ended at start: "
                                   + logs[dead[0]].read_text(errors="replace")[-1500:])
            await asyncio.sleep(args.settle)
            async with StateReader(url) as reader:  # type: ignore[arg-type]
                # the players' side reads like a second SQLite connection does: no channel
                # lock of its own (it would queue with the bots' actions)
                reader.store.channel_lock = (  # type: ignore[method-assign, union-attr]
                    lambda channel_id, **kw: contextlib.nullcontext())
                before = await _count_actions(url)
                cpu0 = [_tree_cpu(p.pid) for p in procs]
                t0 = time.perf_counter()
                await asyncio.gather(*(
                    _game(fake, reader, i, guilds[i % n_proc], args, results, errors)
                    for i in range(args.games)))
                wall = time.perf_counter() - t0
                cpu = [_tree_cpu(p.pid) - c for p, c in zip(procs, cpu0, strict=True)]
                persisted = await _count_actions(url) - before
                if keep is not None:
                    await keep(url)
            for p in procs:
                p.send_signal(signal.SIGINT)
            for i, p in enumerate(procs):
                try:
                    await asyncio.to_thread(p.wait, timeout=30)
                except subprocess.TimeoutExpired:
                    p.kill()
                bad = [line for line in logs[i].read_text(errors="replace").splitlines()
                       if "Traceback" in line or " ERROR " in line]
                if bad:
                    errors.append(f"bot {i} stderr ({len(bad)} error lines): "
                                  + " | ".join(bad[:3]))
        times: list[float] = []
        floor: list[float] = []
        if persist_rounds:
            import store as store_bench  # bench/store.py: the persist measurement

            recorded = await store_bench._recorded_game(400)
            times, floor = await store_bench.persist(await server.create_database("persist"),
                                                     recorded, persist_rounds)
        by_shard: dict[int, int] = {}
        slow_at = sorted(i.sent_at - t0 for i in fake.interactions.values()
                         if i.reply_latency is not None and i.reply_latency > 1.0)
        for inter in fake.interactions.values():  # which process's session carried it
            if inter.reply_latency is not None and inter.shard is not None:
                by_shard[inter.shard[0]] = by_shard.get(inter.shard[0], 0) + 1
            guild_shard = (int(inter.guild_id) >> 22) % n_proc if inter.guild_id else 0
            if inter.shard is None or inter.shard[0] != guild_shard:
                errors.append(f"interaction {inter.id} of shard {guild_shard}'s guild went to "
                              f"session {inter.shard}")
        unanswered = len(fake.unanswered())
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        await fake.stop()
        server.stop()
    return Report(n_proc, args.games, fsync, sync_commit, results, wall, persisted, cpu,
                  by_shard, times, floor, unanswered, errors, url, slow_at)


def _print(rep: Report, args: argparse.Namespace) -> None:
    n_proc, results, persisted, cpu = rep.processes, rep.results, rep.persisted, rep.cpu
    times, floor, fsync, wall = rep.persist_times, rep.persist_floor, rep.fsync, rep.wall
    member = len(results["action"]) + len(results["end_turn"])
    print(f"bot bench at scale: {n_proc} bot processes (SHARD_COUNT={n_proc}, one shard each) "
          f"over one PostgreSQL 15 (fsync={fsync}, synchronous_commit={rep.sync_commit}); "
          f"{args.games} games ({args.games // n_proc} per process), think mean {args.think} s,"
          f" openings over {args.ramp} s; machine: {os.cpu_count()} cores, shared")
    print("  interactions answered per shard (= per process): "
          + ", ".join(f"{k}: {v}" for k, v in sorted(rep.answered_by_shard.items())))
    print(f"  ordinary actions      {_fmt(results['action'])}")
    print(f"  end turn (with map)   {_fmt(results['end_turn'])}")
    both = results["action"] + results["end_turn"]
    print(f"  all commands          {_fmt(both)}")
    if rep.slow_at:  # when the tail happened: all at once (a stall) or spread out
        buckets: dict[int, int] = {}
        for t in rep.slow_at:
            buckets[int(t // 30) * 30] = buckets.get(int(t // 30) * 30, 0) + 1
        print(f"  replies slower than 1 s: {len(rep.slow_at)}, by 30 s of the run: "
              + ", ".join(f"{k}s: {v}" for k, v in sorted(buckets.items())))
    print(f"  actions persisted: {persisted} in {wall:.1f} s = {persisted / wall:.1f} per second"
          f" ({member} member commands answered)")
    print("  CPU seconds while the games ran (bot + its picture/AI workers): "
          + ", ".join(f"process {i} {c:.1f}" for i, c in enumerate(cpu))
          + (f"; {sum(cpu) * 1000 / persisted:.1f} ms per persisted action" if persisted else ""))
    med = statistics.median(times) * 1000
    print(f"  persist one action on this server afterwards (fsync={fsync}): median {med:.2f} ms,"
          f" p99 {sorted(times)[int(len(times) * 0.99)] * 1000:.2f} ms (n={len(times)}); empty "
          f"transaction {statistics.median(floor) * 1000:.2f} ms; target <= 5 ms: "
          f"{'met' if med <= 5 else 'MISSED'}")
    print(f"  unanswered interactions: {rep.unanswered}; errors: {len(rep.errors)}")
    for e in rep.errors[:10]:
        print("   ", e)
