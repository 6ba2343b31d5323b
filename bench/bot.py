"""Bot latency under load: many games at once through the fake Discord gateway.

python bench/bot.py [--games 50] [--actions 40] [--think 3.0] [--ramp 10] [--inprocess]
                    [--ai-games 10] [--ai-delay 1.0]
                    [--bot-dir DIR] [--profile OUT] [--bot-log FILE]
                    [--db sqlite|postgresql] [--processes N] [--no-fsync]

Starts tests/fakediscord on 127.0.0.1 and the real bot against it — by default as a separate
process (`python -m bot`, pointed at the fake by DISCORD_API_BASE / DISCORD_GATEWAY), so the
players' side (fake server, state reads, policy) does not share the bot's event loop. Each
game has its own channel and 2-5 players (tests/e2e/driver.py plays them through menus,
buttons and slash commands with autocomplete); a player "thinks" an exponential random time
(mean --think seconds) before each action. Latency is the fake's Interaction.reply_latency:
from the INTERACTION_CREATE frame to the bot's first visible reply (the callback message, or
after a defer the followup carrying the map). Printed separately for ordinary actions and for
actions that end a turn (their reply carries the map picture). Target: p99 <= 100 ms.

CPU per action (target: bot + picture workers <= 15 ms): the bot process and each of its
descendants are sampled from /proc while the games run (bench/_cpu.py), split into the bot's
main process, the picture workers (they draw for replies and ahead alike), and the AI workers
(reported apart: AI thinking is not part of the target). Seconds spent while the games run are
divided by the members' actions (the figure the target is stated in) and, for reference, by
every stored action (AI players' actions included: the bot applies, stores and posts those
too). A floor is measured in the same run: every stored game replayed in this process through
engine.apply and Store.append (a fresh SQLite file, snapshots where the bot made them), CPU
per action. The bot logs how many pictures it drew ahead and how many a reply then posted; the
bench prints that hit rate.

With --ai-games K, K of the games are one member against AI players (easy, normal, hard in
turn): the AI's turns run in the bot's AI worker process while everyone else plays, and the
members' command->reply latency is printed for those games too (AI work must not block the
event loop).

With --db postgresql (and --processes N, default 1) the bot runs as N processes over one
throwaway PostgreSQL server, one gateway shard each (bench/_scale.py says what is measured).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "tests", ROOT / "tests" / "e2e"):
    sys.path.insert(0, str(extra))

import _cpu  # noqa: E402
from _cli import fail, folder  # noqa: E402
from driver import GameDriver, StateReader, percentile  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402


def _fmt(values: list[float]) -> str:
    if not values:
        return "n=0"
    ms = [v * 1000 for v in values]
    return (f"n={len(ms):5d}  p50={percentile(ms, 50):6.1f} ms  p90={percentile(ms, 90):6.1f} ms"
            f"  p99={percentile(ms, 99):6.1f} ms  max={max(ms):6.1f} ms")


async def _game(fake: FakeDiscord, reader: StateReader, i: int, args: argparse.Namespace,
                results: dict[str, list[float]], errors: list[str]) -> None:
    rng = random.Random(1000 + i)
    n = 2 + i % 4
    channel = fake.add_channel(f"game-{i}")
    with_ai = i % max(1, args.games // max(1, args.ai_games)) == 0 and \
        i // max(1, args.games // max(1, args.ai_games)) < args.ai_games
    levels = tuple(("easy", "normal", "hard")[k % 3] for k in range(n - 1)) if with_ai else ()
    users = [fake.add_user(f"g{i}p{k}") for k in range(1 if with_ai else n)]
    driver = GameDriver(fake, channel, users, reader, seed=i + 1, mode="mixed",
                        check_coins=False, autocomplete=0.5, ai=levels)
    try:
        await asyncio.sleep(args.ramp * i / max(1, args.games) + rng.random() * args.think)
        await driver.open_game(timeout=60)
        await driver.play(max_actions=args.actions, think=args.think, rng=rng, ai_timeout=300,
                          finish=False)
    except Exception as exc:  # noqa: BLE001 - a bench reports, it does not stop
        errors.append(f"game {i}: {exc.__class__.__name__}: {str(exc)[:300]}")
    for kind, values in driver.latencies.items():
        results[kind].extend(values)
        if with_ai:
            results[f"ai_{kind}"].extend(values)
    if with_ai:
        results["ai_turns"].append(float(driver.ai_waits))


async def _sample(tree: _cpu.TreeCPU, every: float = 1.0) -> None:
    while True:
        await asyncio.sleep(every)
        await asyncio.to_thread(tree.sample)


def _delta(start: dict[int, tuple[str, float]], end: dict[int, tuple[str, float]]
           ) -> dict[str, float]:
    """CPU seconds by class spent between two samples of a tree."""
    out = dict.fromkeys(_cpu.CLASSES, 0.0)
    for pid, (what, seconds) in end.items():
        out[what] += seconds - start.get(pid, (what, 0.0))[1]
    return out


async def _floor(db: Path, tmp: str) -> tuple[int, float]:
    """Every game stored in `db` replayed through engine.apply + Store.append into a fresh
    SQLite file: (actions, CPU seconds of this process for them)."""
    import engine
    from bot.store import open_store

    src = await open_store(str(db))
    dst = await open_store(str(Path(tmp) / "floor.db"))
    n, cpu = 0, 0.0
    try:
        for (game_id,) in await src.fetchall("SELECT id FROM games WHERE version > 0"):
            game = await src.get_game(game_id)
            start = await src.snapshot(game_id, 0)
            rows = await src.actions(game_id)
            if game is None or start is None or not rows:
                continue
            snaps = set(await src.snapshot_seqs(game_id))
            t = time.process_time()
            new = await dst.create_game(guild_id=1, channel_id=game.channel_id, seed=game.seed)
            await dst.start_game(new.id, board=game.board or "", players=game.players,
                                 state=start)
            state = engine.load_state(start)
            for row in rows:
                state = engine.apply(state, engine.parse_action(row.action)).state
                await dst.append(new.id, row.seq, row.action, actor_id=row.actor_id,
                                 player=row.player, events=row.events, reveals=row.reveals,
                                 ends_turn=row.ends_turn,
                                 snapshot=engine.dump_state(state) if row.seq in snaps else None)
            cpu += time.process_time() - t
            n += len(rows)
    finally:
        await src.close()
        await dst.close()
    return n, cpu


def _ahead_stats(lines: list[str]) -> str:
    """The bot's own account of its drawings ahead (logged at shutdown by bot.pictures)."""
    for line in reversed(lines):
        if "bot.pictures: drawings:" in line:
            return line.split("bot.pictures: drawings:", 1)[1].strip()
    return "not reported by this bot"


async def _start_bot(fake: FakeDiscord, db: Path, args: argparse.Namespace):
    if args.inprocess:
        from bot.app import SmallWorldBot
        from bot.settings import Settings

        settings = Settings(_env_file=None, discord_token=fake.token, database_url=str(db),
                            ai_turn_delay=args.ai_delay)
        return SmallWorldBot(settings, guild_ready_timeout=0.1)
    env = {**os.environ, "DISCORD_TOKEN": fake.token, "DATABASE_URL": str(db),
           "DISCORD_API_BASE": fake.api_base, "DISCORD_GATEWAY": fake.gateway_url,
           "LOG_LEVEL": "INFO", "AI_TURN_DELAY": str(args.ai_delay)}
    if args.profile:
        cmd = [sys.executable, "-m", "cProfile", "-o", args.profile, "-m", "bot"]
    else:
        cmd = [sys.executable, "-m", "bot"]
    if args.bot_log:
        env["PYTHONASYNCIODEBUG"] = "1"  # asyncio logs every callback slower than 100 ms
        return subprocess.Popen(cmd, cwd=args.bot_dir, env=env,
                                stderr=open(args.bot_log, "wb"))  # noqa: SIM115
    # a file, not a pipe: nobody reads a pipe until the end, and a full one would block the bot
    return subprocess.Popen(cmd, cwd=args.bot_dir, env=env,
                            stderr=open(Path(args.tmp) / "bot.log", "wb"))  # noqa: SIM115


async def main_async(args: argparse.Namespace) -> int:
    fake = FakeDiscord(interaction_timeout=None)
    await fake.start()
    results: dict[str, list[float]] = {"action": [], "end_turn": [], "ai_action": [],
                                       "ai_end_turn": [], "ai_turns": [], "game_over": [],
                                       "ai_game_over": []}
    errors: list[str] = []
    cpu: dict[str, float] = {}
    life: dict[str, float] = {}
    memory: list[tuple[str, float, float]] = []
    peak = 0.0
    log_lines: list[str] = []
    with tempfile.TemporaryDirectory() as tmp, fake.patch_discord():
        db = Path(tmp) / "bench.db"
        args.tmp = tmp
        bot = await _start_bot(fake, db, args)
        tree = _cpu.TreeCPU(bot.pid) if isinstance(bot, subprocess.Popen) and \
            _cpu.available() else None
        if isinstance(bot, subprocess.Popen):
            await fake.wait_until(lambda: bot.poll() is not None
                                  or any(s.ready for s in fake.sessions), timeout=60,
                                  what="the bot process to connect")
            await fake.gateway_sync(timeout=30)
            # let the bot's start-up render warm-up finish (it would skew the first games)
            await asyncio.sleep(args.settle)
            ctx = contextlib.nullcontext(bot)
        else:
            import render

            render.warm()
            ctx = fake.running(bot, drain=False)
        async with ctx, StateReader(db) as reader:
            if tree is not None:
                tree.sample()
                at_start = dict(tree.seen)
                sampler = asyncio.ensure_future(_sample(tree))
            # the players' side must not add its own pauses to what it times: a full
            # collection of this process's start-up objects took 100-600 ms under load
            gc.collect()
            gc.freeze()
            t_side = os.times()
            n_requests = len(fake.requests)
            t0 = time.perf_counter()
            await asyncio.gather(*(_game(fake, reader, i, args, results, errors)
                                   for i in range(args.games)))
            wall = time.perf_counter() - t0
            requests = fake.requests[n_requests:]
            t_side = os.times().user + os.times().system - t_side.user - t_side.system
            if tree is not None:
                sampler.cancel()
                tree.sample()
                cpu = _delta(at_start, tree.seen)
                life = tree.totals()
                memory = sorted(tree.memory.values())
                peak = tree.peak
        if isinstance(bot, subprocess.Popen):
            bot.send_signal(signal.SIGINT)
            try:
                await asyncio.to_thread(bot.wait, timeout=30)
            except subprocess.TimeoutExpired:
                bot.kill()
                bot.wait()
            log_lines = (Path(tmp) / "bot.log").read_text(errors="replace").splitlines() \
                if not args.bot_log else Path(args.bot_log).read_text(
                    errors="replace").splitlines()
            bad = [line for line in log_lines if "Traceback" in line or " ERROR " in line]
            if bad:
                errors.append(f"bot stderr ({len(bad)} error lines): " + " | ".join(bad[:3]))
        n_floor, floor_cpu = await _floor(db, tmp)
        n_stored = (await _stored_actions(db))
    await fake.stop()
    n_actions = len(results["action"]) + len(results["end_turn"])
    where = "in-process" if args.inprocess else "subprocess"
    print(f"bot bench ({where}): {args.games} games in parallel channels, {n_actions} actions "
          f"in {wall:.1f} s ({n_actions / wall:.1f} actions/s), think mean {args.think} s, "
          f"openings spread over {args.ramp} s")
    print(f"  ordinary actions      {_fmt(results['action'])}")
    print(f"  end turn (with map)   {_fmt(results['end_turn'])}")
    if args.ai_games:
        print(f"  of which in the {args.ai_games} games of one member against AIs "
              f"({int(sum(results['ai_turns']))} waits for AI turns, AI_TURN_DELAY "
              f"{args.ai_delay} s):")
        print(f"    ordinary actions    {_fmt(results['ai_action'])}")
        print(f"    end turn (with map) {_fmt(results['ai_end_turn'])}")
    if results["game_over"]:
        print(f"  a game's last answer (its end card and replay, drawn for it; deferred past "
              f"1 s) {_fmt(results['game_over'])}")
    unanswered = fake.unanswered()
    print(f"  CPU seconds while the games ran: players' side (fake, reads, policy) {t_side:.1f}")
    if cpu:
        _print_cpu(cpu, life, n_actions, n_stored)
        together = sum(pss for _, _, pss in memory)
        print("  memory at the end, MB (RSS/PSS): " + ", ".join(
            f"{what} {rss:.0f}/{pss:.0f}" for what, rss, pss in memory)
            + f"; sum of RSS {sum(rss for _, rss, _ in memory):.0f} (each shared page once per "
            f"process)")
        print(f"  all the bot's processes together (sum of PSS): {together:.0f} MB at the end "
              f"(target <= 300: {'met' if together <= 300 else 'MISSED'}), {peak:.0f} MB at "
              f"most at a sample while the games ran "
              f"({'met' if peak <= 300 else 'MISSED'})")
    else:
        print("  CPU split by process: not measured (in-process run, or no /proc)")
    if n_floor:
        floor = floor_cpu / n_floor
        print(f"  floor (same run, this process): engine.apply + Store.append, "
              f"{floor * 1000:5.2f} ms CPU per stored action "
              f"({n_floor} actions replayed)")
        if cpu and n_actions:
            both = (cpu["bot"] + cpu["pictures"]) / n_actions / floor
            main = cpu["bot"] / n_actions / floor
            print(f"  against the floor (CPU per member action / floor): bot + picture workers "
                  f"x{both:.1f} (target <= 10: {'met' if both <= 10 else 'MISSED'}), bot main "
                  f"process x{main:.1f} (target <= 5: {'met' if main <= 5 else 'MISSED'})")
    if n_actions:
        print(f"  the bot's REST requests while the games ran, per member action: "
              f"{len(requests) / n_actions:.2f} ({_routes(requests, n_actions)})")
    if not args.inprocess:
        print(f"  drawings ahead: {_ahead_stats(log_lines)}")
    print(f"  unanswered interactions: {len(unanswered)}; errors: {len(errors)}")
    for e in errors[:10]:
        print("   ", e)
    if args.slowest:
        _print_slowest(fake, args.slowest)
    p99 = (max(percentile(results[k], 99) for k in ("action", "end_turn") if results[k])
           if n_actions else float("inf"))
    print(f"  target p99 <= 100 ms: {'met' if p99 <= 0.1 else 'MISSED'} "
          f"(worst p99 {p99 * 1000:.1f} ms)")
    return 1 if errors else 0


def _print_slowest(fake: FakeDiscord, n: int) -> None:
    """The n slowest answers, each with what the bot asked of Discord on its channel (or for
    its interaction) between the click and the answer: where a tail's time went."""
    answered = [i for i in fake.interactions.values() if i.reply_latency is not None]
    print(f"  the {n} slowest answers (ms after the click):")
    for inter in sorted(answered, key=lambda i: -(i.reply_latency or 0))[:n]:
        assert inter.replied_at is not None
        said = [f"{r.method} {r.path.split('/')[1]} +{(r.at - inter.sent_at) * 1000:.0f}"
                for r in fake.requests
                if inter.sent_at <= r.at <= inter.replied_at
                and (inter.channel_id in r.path or inter.id in r.path)]
        print(f"    {(inter.reply_latency or 0) * 1000:6.0f} {inter.name[:28]:28} ack "
              f"{(inter.ack_latency or 0) * 1000:.0f}{' (deferred)' if inter.deferred else ''}"
              f"; meanwhile: {', '.join(said) or 'nothing on its channel'}")


def _routes(requests: list, n_actions: int) -> str:
    """The bot's requests by kind (method and path with its ids left out), most first."""
    kinds: dict[str, int] = {}
    for r in requests:
        path = "/".join("{id}" if part.isdigit() or len(part) > 40 else part
                        for part in r.path.split("/")[1:])
        kinds[f"{r.method} {path}"] = kinds.get(f"{r.method} {path}", 0) + 1
    return ", ".join(f"{k} {v / n_actions:.2f}" for k, v in
                     sorted(kinds.items(), key=lambda kv: -kv[1])[:6])


async def _stored_actions(db: Path) -> int:
    from bot.store import open_store

    store = await open_store(str(db))
    try:
        return int((await store.fetchall("SELECT COUNT(*) FROM actions"))[0][0])
    finally:
        await store.close()


def _print_cpu(cpu: dict[str, float], life: dict[str, float], n_actions: int,
               n_stored: int) -> None:
    def per(seconds: float, n: int) -> str:
        return f"{seconds * 1000 / n:6.1f}" if n else "   n/a"

    target = cpu["bot"] + cpu["pictures"]
    print(f"  CPU while the games ran, ms per member action ({n_actions}) / per stored action "
          f"({n_stored}, AI players' included), seconds:")
    for what, label in (("bot", "bot main process"), ("pictures", "picture workers"),
                        ("ai", "AI workers"),
                        ("other", "other (resource tracker)")):
        print(f"    {label:27s} {per(cpu[what], n_actions)} / {per(cpu[what], n_stored)}  "
              f"({cpu[what]:6.1f} s)")
    print(f"    {'= bot + picture workers':27s} {per(target, n_actions)} / "
          f"{per(target, n_stored)}  ({target:6.1f} s)   target <= 15 ms per action: "
          f"{'met' if n_actions and target * 1000 / n_actions <= 15 else 'MISSED'}")
    print("    whole life of the bot (start-up and warm-up included): "
          + ", ".join(f"{k} {v:.1f} s" for k, v in life.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--actions", type=int, default=40, help="actions per game (40: ~340 "
                        "end turns, so the p99 is not just the 2nd-worst of ~140)")
    parser.add_argument("--think", type=float, default=3.0, help="mean seconds between actions")
    parser.add_argument("--ramp", type=float, default=10.0,
                        help="seconds over which the games open, one after another")
    parser.add_argument("--settle", type=float, default=8.0,
                        help="seconds to wait after the bot process connects")
    parser.add_argument("--bot-dir", type=folder, default=ROOT,
                        help="directory holding the bot package to run (compare versions)")
    parser.add_argument("--bot-log", help="bot stderr to this file, in asyncio debug mode "
                        "(slow callbacks are logged)")
    parser.add_argument("--ai-games", type=int, default=0,
                        help="how many of the games are one member against AI players")
    parser.add_argument("--ai-delay", type=float, default=1.0,
                        help="AI_TURN_DELAY for the bot: seconds between AI turns")
    parser.add_argument("--inprocess", action="store_true",
                        help="run the bot in this process (shares the event loop)")
    parser.add_argument("--profile", help="cProfile the bot (subprocess) into this file; "
                        "with --inprocess, profile this process")
    parser.add_argument("--slowest", type=int, default=0,
                        help="print the N slowest answers and the bot's requests meanwhile")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite",
                        help="postgresql: a throwaway server, the bot in --processes processes")
    parser.add_argument("--processes", type=int, default=1,
                        help="bot processes over one PostgreSQL, one gateway shard each")
    parser.add_argument("--no-fsync", action="store_true",
                        help="run the PostgreSQL server with fsync off (default: on)")
    args = parser.parse_args(argv)
    if not (args.bot_dir / "bot" / "__main__.py").is_file():
        fail(f"{args.bot_dir}: holds no bot package (bot/__main__.py)")
    if args.processes < 1:
        fail("--processes must be at least 1")
    if args.db == "sqlite" and args.processes > 1:
        fail("--processes above 1 needs --db postgresql: SQLite serves one bot process")
    if args.db == "postgresql":
        if args.inprocess or args.profile or args.ai_games:
            fail("--db postgresql runs bot processes without --inprocess, --profile, --ai-games")
        import _scale

        return asyncio.run(_scale.run(args))
    for out in (args.bot_log, args.profile):
        if out and not Path(out).resolve().parent.is_dir():
            fail(f"{out}: its folder does not exist")
    if args.inprocess and args.profile:
        prof = cProfile.Profile()
        prof.enable()
        try:
            return asyncio.run(main_async(args))
        finally:
            prof.disable()
            prof.dump_stats(args.profile)
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
