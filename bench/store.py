"""Store figures: how long persisting one action takes, and what start-up costs with many
stored games.

python bench/store.py [--actions 400] [--games 10000] [--db sqlite postgresql]

1. persist: one real game's actions (their events, and a snapshot at each turn boundary,
   exactly as the service writes them) appended through Store.append; median and p99 per
   action, against the floor of an empty transaction (BEGIN; COMMIT) on the same store, and
   the event loop's CPU per action (the calling thread's CPU time: what the bot's main loop
   spends, aiosqlite's thread not counted). On SQLite the same appends also run the way
   8304b87 wrote them, one trip to aiosqlite's thread per statement plus BEGIN and COMMIT
   (Store.write's generic path), interleaved with the one-trip write in the same run.
   PostgreSQL runs on a throwaway server this script starts (fsync off: the figure is the
   store's own cost, not the disk's).
2. start-up: `python -m bot` against the fake Discord with an empty database and with
   --games stored games (10 actions and 2 snapshots each, most finished, 1 in 10 active);
   seconds from process start to the gateway session being ready, and the bot process's
   RSS then (picture workers are separate processes, not counted). Targets: persist median
   <= 2 ms SQLite, <= 5 ms PostgreSQL; start-up <= 2 s and <= 150 MB with 10 000 games.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "tests"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from fakediscord import FakeDiscord  # noqa: E402

import engine  # noqa: E402
from bot.game.service import GameService  # noqa: E402
from bot.store import now, open_store  # noqa: E402


async def _recorded_game(n_actions: int) -> list[dict[str, Any]]:
    """A real game's appends (what Store.append receives), by playing one in memory."""
    store = await open_store(":memory:")
    service = GameService(store, rng=random.Random(1))
    await service.open_lobby(guild_id=1, channel_id=1, user_id=1, name="ann", seed=9)
    await service.join(1, 2, "bob")
    await service.join(1, 3, "cid")
    await service.start(1, 1)
    rng = random.Random(2)
    while True:
        loaded = await service.view(1)
        if loaded.version >= n_actions:
            break
        legal = [a.model_dump(mode="json") for a in engine.legal_actions(loaded.state)]
        busy = [a for a in legal if a["do"] in ("conquer", "pick", "deploy")]
        action = rng.choice(busy if busy and rng.random() < 0.7 else legal)
        out = await service.act(1, loaded.game.seat_named(loaded.state.actor).user_id, action)
        if out.finished:
            break
    game = await store.open_game(1) or await store.last_game(1)
    snaps = set(await store.snapshot_seqs(game.id))
    out = []
    for row in await store.actions(game.id):
        out.append(dict(action=row.action, actor_id=row.actor_id, player=row.player,
                        events=row.events, reveals=row.reveals, ends_turn=row.ends_turn,
                        snapshot=await store.snapshot(game.id, row.seq) if row.seq in snaps
                        else None))
    start = await store.snapshot(game.id, 0)
    await store.close()
    return [start, *out]


def _ms(values: list[float]) -> str:
    v = sorted(x * 1000 for x in values)
    p99 = v[min(len(v) - 1, int(len(v) * 0.99))]
    return f"median {statistics.median(v):6.2f} ms  p99 {p99:6.2f} ms  (n={len(v)})"


@dataclass
class Persisted:
    wall: list[float] = field(default_factory=list)  # seconds per append
    cpu: list[float] = field(default_factory=list)  # the event loop's CPU seconds per append
    floor: list[float] = field(default_factory=list)  # seconds per empty transaction


async def persist(url: str, recorded: list[dict[str, Any]], rounds: int,
                  variants: tuple[str, ...] = ("one trip",)) -> dict[str, Persisted]:
    """Each round appends the whole game once per variant, in turn: "one trip" (the store's
    own write), "per statement" (Driver.write: a trip per statement, as 8304b87 did)."""
    from bot.store import Driver, Seat

    store = await open_store(url)
    own_write = store.write
    out = {v: Persisted() for v in variants}
    try:
        start, *appends = recorded
        for r in range(rounds):
            for i, variant in enumerate(variants):
                store.write = (own_write if variant == "one trip"  # type: ignore[method-assign]
                               else functools.partial(Driver.write, store))
                seats = [Seat(1, "ann"), Seat(2, "bob"), Seat(3, "cid")]
                g = await store.create_game(guild_id=1, channel_id=10_000 + r * 10 + i, seed=1,
                                            players=seats)
                await store.start_game(g.id, board="official-3p", players=seats, state=start)
                got = out[variant]
                for seq, a in enumerate(appends, 1):
                    t, c = time.perf_counter(), time.thread_time()
                    await store.append(g.id, seq, a["action"], actor_id=a["actor_id"],
                                       player=a["player"], events=a["events"],
                                       reveals=a["reveals"], ends_turn=a["ends_turn"],
                                       snapshot=a["snapshot"])
                    got.cpu.append(time.thread_time() - c)
                    got.wall.append(time.perf_counter() - t)
                    t = time.perf_counter()
                    async with store.transaction():
                        pass
                    got.floor.append(time.perf_counter() - t)
        return out
    finally:
        store.write = own_write  # type: ignore[method-assign]
        await store.close()


async def fill(url: str, games: int, recorded: list[dict[str, Any]]) -> None:
    """`games` stored games through the store's bulk load (10 actions, 2 snapshots each)."""
    start, *appends = recorded
    appends = appends[:10]
    t = now()
    players = json.dumps([{"id": 1, "name": "ann"}, {"id": 2, "name": "bob"},
                          {"id": 3, "name": "cid"}], separators=(",", ":"))
    start_json = json.dumps(start, separators=(",", ":"), sort_keys=True)
    g_rows, a_rows, s_rows, r_rows = [], [], [], []
    records: dict[int, list[int]] = {}  # user -> games, wins, rank sum, players sum, run, best
    by_combo: dict[tuple[int, str, str], list[int]] = {}  # (user, race, power) -> sums
    combos = (("Ratmen", "Merchant"), ("Elves", "Hill"), ("Orcs", "Flying"), ("Trolls", "Forest"))
    for gid in range(1, games + 1):
        active = gid % 10 == 0
        g_rows.append((gid, 1, 100 + gid, "active" if active else "finished", "official-3p",
                       gid, players, "{}", 1, len(appends), len(appends), t, t, t,
                       None if active else t))
        if not active:  # its seats' results, as a finished game records them
            for seat, uid in (("ann", 1), ("bob", 2), ("cid", 3)):
                rank = 1 + (gid + uid) % 3
                r_rows.append((gid, seat, uid, 1, "official-3p", 3, rank, 60 - 5 * rank,
                               f"{t[:-1]}{gid:08d}Z"))
                rec = records.setdefault(uid, [0, 0, 0, 0, 0, 0])
                rec[0] += 1
                rec[1] += rank == 1
                rec[2] += rank
                rec[3] += 3
                rec[4] = rec[4] + 1 if rank == 1 else 0
                rec[5] = max(rec[5], rec[4])
                for k in {(gid + uid) % 4, (gid * uid) % 4}:
                    c = by_combo.setdefault((uid, *combos[k]), [0, 0, 0])
                    c[0] += 1
                    c[1] += 1
                    c[2] += 60 - 5 * rank
        for seq, a in enumerate(appends, 1):
            a_rows.append((gid, seq, json.dumps(a["action"]), a["actor_id"], a["player"],
                           json.dumps(a["events"]), int(a["reveals"]), int(a["ends_turn"]), t))
        s_rows.append((gid, 0, start_json, t))
        s_rows.append((gid, len(appends), start_json, t))
    store = await open_store(url)
    try:
        cols = {t: await store.columns(t)
                for t in ("games", "actions", "snapshots", "game_results",
                          "member_records", "member_combos")}
        await store.load_tables({
            "games": (cols["games"], [_order(cols["games"], r, "games") for r in g_rows]),
            "actions": (cols["actions"], [_order(cols["actions"], r, "actions") for r in a_rows]),
            "snapshots": (cols["snapshots"], [_order(cols["snapshots"], r, "snapshots")
                                              for r in s_rows]),
            "game_results": (cols["game_results"], [_order(cols["game_results"], r,
                                                           "game_results") for r in r_rows]),
            "member_records": (cols["member_records"], [
                _order(cols["member_records"], (1, uid, *rec), "member_records")
                for uid, rec in records.items()]),
            "member_combos": (cols["member_combos"], [
                _order(cols["member_combos"], (1, uid, race, power, *c), "member_combos")
                for (uid, race, power), c in by_combo.items()]),
        })
    finally:
        await store.close()


_NAMES = {
    "games": ("id", "guild_id", "channel_id", "status", "board", "seed", "players", "options",
              "opener_id", "version", "revision", "created_at", "updated_at", "started_at",
              "finished_at"),
    "actions": ("game_id", "seq", "action", "actor_id", "player", "events", "reveals",
                "ends_turn", "created_at"),
    "snapshots": ("game_id", "seq", "state", "created_at"),
    "game_results": ("game_id", "seat", "user_id", "guild_id", "board", "players", "rank",
                     "coins", "finished_at"),
    "member_records": ("guild_id", "user_id", "games", "wins", "rank_sum", "players_sum", "run",
                       "best_run"),
    "member_combos": ("guild_id", "user_id", "race", "power", "games", "picks", "coins_sum"),
}


def _order(cols: list[str], row: tuple, table: str) -> tuple:
    by = dict(zip(_NAMES[table], row, strict=True))
    missing = [c for c in cols if c not in by]
    if missing:  # a migration added a column: say which, rather than a KeyError
        raise SystemExit(f"bench/store.py fills no value for {table}.{', '.join(missing)}")
    return tuple(by[c] for c in cols)


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def startup(url: str, workdir: Path) -> tuple[float, float]:
    fake = FakeDiscord()
    fake.strict = False
    await fake.start()
    env = {**os.environ, "DISCORD_TOKEN": fake.token, "DATABASE_URL": url,
           "DISCORD_API_BASE": fake.api_base, "DISCORD_GATEWAY": fake.gateway_url,
           "LOG_LEVEL": "WARNING", "RENDER_PROCESSES": "1"}
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "bot"], cwd=workdir, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        await fake.wait_until(lambda: proc.poll() is not None
                              or any(s.ready for s in fake.sessions), timeout=120,
                              what="the bot to connect")
        ready = time.perf_counter() - t0
        await asyncio.sleep(1.0)  # on_ready work (owed DMs) done
        rss = _rss_mb(proc.pid)
    finally:
        proc.terminate()
        await asyncio.to_thread(proc.wait, 60)
        await fake.stop()
    return ready, rss


async def stats_queries(url: str, games: int, rounds: int = 30) -> None:
    """A member's stats (every finished game of theirs in the server, aggregated) and one
    page of their history, on the filled database, beside a one-row read (get_game) in the
    same run."""
    from bot.chat.archive import PAGE

    store = await open_store(url)
    try:
        one, stats, page = [], [], []
        for i in range(rounds):
            t = time.perf_counter()
            await store.get_game(1 + i)
            one.append(time.perf_counter() - t)
            t = time.perf_counter()
            await store.member_stats(1, 1 + i % 3)
            stats.append(time.perf_counter() - t)
            t = time.perf_counter()
            await store.member_games(1, 1 + i % 3, limit=PAGE, offset=(i % 5) * PAGE)
            page.append(time.perf_counter() - t)
    finally:
        await store.close()
    floor = statistics.median(one)
    print(f"  {games} games, a member in {games * 9 // 10} of them: one-row read "
          f"{_ms(one)}; /sw-me stats {_ms(stats)} (x{statistics.median(stats) / floor:.0f} "
          f"the one-row read); /sw-me history page {_ms(page)} "
          f"(x{statistics.median(page) / floor:.0f})")


async def main_async(args: argparse.Namespace) -> int:
    recorded = await _recorded_game(args.actions)
    print(f"store bench: one recorded 3-player game, {len(recorded) - 1} actions, "
          f"{sum(1 for a in recorded[1:] if a['snapshot'])} snapshots (machine shared)")
    server = None
    urls: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        urls["sqlite"] = f"sqlite:///{tmp / 'persist.db'}"
        if "postgresql" in args.db:
            from pgserver import TempPostgres

            server = TempPostgres().start()
            urls["postgresql"] = await server.create_database("persist")
        try:
            for dialect in args.db:
                variants = ("one trip", "per statement") if dialect == "sqlite" else (
                    "one trip",)
                got = await persist(urls[dialect], recorded, args.rounds, variants)
                target = 2.0 if dialect == "sqlite" else 5.0
                for variant, p in got.items():
                    med = statistics.median(p.wall) * 1000
                    what = "" if len(got) == 1 else f" ({variant})"
                    print(f"  persist one action, {dialect:10s}{what} {_ms(p.wall)}; event loop "
                          f"CPU median {statistics.median(p.cpu) * 1000:.3f} ms; empty "
                          f"transaction {statistics.median(p.floor) * 1000:.2f} ms; target <= "
                          f"{target} ms: {'met' if med <= target else 'MISSED'}")
                if len(got) == 2:
                    one, per = got["one trip"], got["per statement"]
                    print(f"  sqlite, one trip against a trip per statement (same run): event "
                          f"loop CPU x{statistics.median(one.cpu) / statistics.median(per.cpu):.2f},"
                          f" wall x{statistics.median(one.wall) / statistics.median(per.wall):.2f}")
            if args.games:
                empty = f"sqlite:///{tmp / 'empty.db'}"
                full = f"sqlite:///{tmp / 'full.db'}"
                await (await open_store(empty)).close()
                t = time.perf_counter()
                await fill(full, args.games, recorded)
                size = (tmp / "full.db").stat().st_size / 2**20
                print(f"  filled {args.games} games ({size:.0f} MB) in "
                      f"{time.perf_counter() - t:.1f} s")
                await stats_queries(full, args.games)
                e_ready, e_rss = await startup(empty, tmp)
                f_ready, f_rss = await startup(full, tmp)
                ok = f_ready <= 2.0 and f_rss <= 150
                print(f"  start-up to gateway ready: empty db {e_ready:.2f} s, {e_rss:.0f} MB;"
                      f" {args.games} games {f_ready:.2f} s, {f_rss:.0f} MB RSS (bot process);"
                      f" target <= 2 s and <= 150 MB: {'met' if ok else 'MISSED'}")
        finally:
            if server is not None:
                server.stop()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=400, help="actions of the recorded game")
    parser.add_argument("--rounds", type=int, default=2, help="times the game is persisted")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--db", nargs="+", choices=("sqlite", "postgresql"),
                        default=["sqlite", "postgresql"])
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
