"""The board page under load: many open boards on many games, and the page's own weight.

python bench/board.py [--games 10] [--boards 5] [--actions 30] [--think 3.0]
                      [--slash 0.3] [--ai-games 2] [--page | --no-page] [--throttle 4]
                      [--profile OUT]

Starts tests/fakediscord and the real bot against it as its own process (`python -m bot`,
with the board server on a free port). Each game has its own channel and `--boards` members
(2-5 players); every member signs in as the Activity does (a code exchanged at /api/token)
and opens the game's board over the real WebSocket: 10 x 5 = 50 open boards by default. Then
on every game at once the member whose turn it is taps her way on (a pick, conquests,
redeployment, end; "thinking" an exponential time of mean --think seconds between taps), a
share (--slash) of her moves made by slash command instead; in --ai-games of the games one
member plays against AI seats and the other members watch.

Printed, for `--actions` moves per game: from a tap leaving the page to its new version on
every open board of that game (p50, p99; target p99 <= 100 ms), beside the floor measured on
the same sockets in the same run (a ping's round trip through the same server: what any
message costs), and the tap's own answer (ack) apart; from a slash command being sent to its
version on every board; and for an AI's turn, when every board showed it against when the
channel got its post (negative: the boards first; the issue's bound is a second).

With the page built (bot/web/static), `--page` also loads it in Chromium (Debian's chromium,
driven by Playwright) as a member of a running game: the bytes that crossed the wire
(compressed, every request of a first load: page, script, style, board data, map layer,
pieces, words, the first snapshot; target <= 300 KB), and the time from navigation to a live,
drawn board with the CPU slowed --throttle times (target <= 1 s), beside the same browser's
load of an empty page under the same throttle (the floor).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "tests", ROOT / "tests" / "e2e"):
    sys.path.insert(0, str(extra))

import _page  # noqa: E402
import aiohttp  # noqa: E402
from board_setup import BoardSocket, free_port, sign_in  # noqa: E402
from driver import GameDriver, StateReader, percentile  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402


def _fmt(values: list[float]) -> str:
    if not values:
        return "n=0"
    ms = [v * 1000 for v in values]
    return (f"n={len(ms):5d}  p50={percentile(ms, 50):6.1f} ms  p99={percentile(ms, 99):6.1f} ms"
            f"  max={max(ms):6.1f} ms")


def _refreshes(metrics: str) -> str:
    """The hub's refresh histogram (smallworld_web_refresh_seconds) as shares under bounds."""
    buckets = []
    for line in metrics.splitlines():
        if line.startswith("smallworld_web_refresh_seconds_bucket"):
            bound = line.split('le="')[1].split('"')[0]
            buckets.append((bound, int(line.rsplit(" ", 1)[1])))
    total = buckets[-1][1] if buckets else 0
    if not total:
        return "none"
    shown = [f"<= {float(b) * 1000:g} ms: {n / total:.1%}" for b, n in buckets
             if b in ("0.01", "0.025", "0.05", "0.1")]
    return f"{total} refreshes; " + ", ".join(shown)


def choose(snap: dict[str, Any], rng: random.Random, conquests: int) -> dict[str, Any] | None:
    """The tap a member makes next on the board she sees (None: nothing of hers to do)."""
    moves = snap["d"].get("moves")
    if not moves:
        return None
    if moves["pick"]:
        return {"do": "pick", "slot": rng.randrange(min(3, len(snap["d"]["row"])))}
    targets = [t for t in moves["targets"] if t["verb"] in ("conquer", "conquer_decline")
               and t["cost"] is not None]
    if targets and conquests < 3:
        return dict(rng.choice(targets[:4])["a"])
    if moves["deploy"]:
        region, most = rng.choice(sorted(moves["deploy"].items()))
        return {"do": "deploy", "region": int(region), "count": most}
    if moves["end"]:
        return {"do": "end"}
    if moves["decline"]:
        return {"do": "decline"}
    return None


SLASH = {"pick": lambda a: ("sw pick", {"slot": a["slot"] + 1}),
         "conquer": lambda a: ("sw conquer", {"region": a["region"]}),
         "deploy": lambda a: ("sw deploy", {"region": a["region"], "count": a["count"]})}


async def _reach(boards: dict[str, BoardSocket], marks: dict[str, int], version: int,
                 since: float, into: list[float]) -> None:
    """Wait for `version` on every board; record each one's delay after `since`."""
    for name, b in boards.items():
        found = await b.next(lambda m: m.get("t") == "snap" and m["v"] >= version,
                             after=marks[name], timeout=60)
        into.append(next(t for t, m in b.received[marks[name]:] if m is found) - since)


async def _game(fake: FakeDiscord, reader: StateReader, http: aiohttp.ClientSession, base: str,
                i: int, args: argparse.Namespace, out: dict[str, list[float]],
                errors: list[str]) -> None:
    """One game and its open boards: taps (and slash commands) of the member to act; in an
    AI game one member against AI seats, the others watching."""
    rng = random.Random(500 + i)
    channel = fake.add_channel(f"board-{i}")
    with_ai = i < args.ai_games
    users = [fake.add_user(f"b{i}p{k}") for k in range(args.boards)]
    seated = users[:1] if with_ai else users
    driver = GameDriver(fake, channel, seated, reader, seed=i + 1, mode="panel",
                        check_coins=False, ai=("easy",) * (args.boards - 1) if with_ai else ())
    try:
        await driver.open_game(timeout=60)
        game_id = driver.game_id
        boards = {u["username"]: await BoardSocket.open(
            http, base, await sign_in(fake, http, base, u), channel, who=u["username"])
            for u in users}
        for b in boards.values():
            await b.snap_where(lambda m: True, timeout=30)
        by_name = {u["username"]: u for u in users}
        conquests: dict[tuple[int, str], int] = {}
        for _ in range(args.actions):
            await asyncio.sleep(rng.expovariate(1 / args.think) if args.think else 0)
            first = boards[next(iter(boards))]
            actor = first.last_snap()["d"]["actor"]
            board = boards.get(actor)
            if board is None and with_ai:  # the AI plays: its turn reaches every board
                at = max(k for k, (_, m) in enumerate(first.received) if m.get("t") == "snap")
                began = first.received[at][0]
                back = await first.next(
                    lambda m, who=seated[0]["username"]: m.get("t") == "snap" and (
                        m["d"]["actor"] == who or m["d"]["finished"]), after=at, timeout=120)
                # the post that hands her the game: her turn, or (the AI took one of her
                # regions) her survivors to place
                posted = await fake.wait_for_message(
                    channel, lambda m: any(f"<@{seated[0]['id']}>{p}" in m.content for p in (
                        ", it is your turn", ": place your surviving", ": re-place"))
                    or "final" in m.files, timeout=120, after=began)
                marks = dict.fromkeys(boards, 0)
                await _reach(boards, marks, back["v"], posted.created_at, out["ai"])
                continue
            snap = board.last_snap() if board else None
            if snap is None or snap["d"]["finished"]:
                break
            key = (snap["d"]["round"], actor)
            action = choose(snap, rng, conquests.get(key, 0))
            if action is None:
                break
            marks = {n: len(b.received) for n, b in boards.items()}
            sent = time.perf_counter()
            if action["do"] in SLASH and rng.random() < args.slash:
                command, options = SLASH[action["do"]](action)
                reply = await fake.wait_for_reply(
                    await fake.slash(by_name[actor], channel, command, options=options),
                    timeout=30)
                game = await reader.store.get_game(game_id) if reader.store else None
                if reply.ephemeral and "done" not in reply.content.lower() or game is None:
                    out["refused"].append(0.0)
                    continue
                await _reach(boards, marks, game.revision, sent, out["slash"])
            else:
                answer = await board.act(action, snap=snap)
                out["ack"].append(time.perf_counter() - sent)
                if answer["t"] != "ack":
                    out["refused"].append(0.0)
                    continue
                await _reach(boards, marks, answer["v"], sent, out["reach"])
            if action["do"] == "conquer":
                conquests[key] = conquests.get(key, 0) + 1
            out["floor"].append(await boards[rng.choice(list(boards))].ping())
        for b in boards.values():  # her own coins only (a watcher's: none)
            out["leaks"].extend(1.0 for _ in b.coin_leaks(b.who if b.who in
                                                           {u["username"] for u in seated}
                                                           else None))
            await b.close()
    except Exception as exc:  # noqa: BLE001 - a bench reports, it does not stop
        errors.append(f"game {i}: {exc.__class__.__name__}: {str(exc)[:300]}")


async def main_async(args: argparse.Namespace) -> int:
    fake = FakeDiscord(interaction_timeout=None)
    await fake.start()
    out: dict[str, list[float]] = {"reach": [], "ack": [], "floor": [], "refused": [],
                                   "leaks": [], "slash": [], "ai": []}
    errors: list[str] = []
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp, fake.patch_discord():
        db = Path(tmp) / "board.db"
        env = {**os.environ, "DISCORD_TOKEN": fake.token, "DATABASE_URL": str(db),
               "DISCORD_API_BASE": fake.api_base, "DISCORD_GATEWAY": fake.gateway_url,
               "LOG_LEVEL": "WARNING", "WEB_PORT": str(port), "WEB_PUBLIC_URL": base,
               "DISCORD_CLIENT_SECRET": fake.client_secret}
        log = open(Path(tmp) / "bot.log", "wb")  # noqa: SIM115
        cmd = [sys.executable, "-m", "bot"]
        if args.profile:
            cmd = [sys.executable, "-m", "cProfile", "-o", args.profile, "-m", "bot"]
        bot = subprocess.Popen(cmd, cwd=ROOT, env=env, stderr=log)
        try:
            await fake.wait_until(lambda: bot.poll() is not None
                                  or any(s.ready for s in fake.sessions), timeout=60,
                                  what="the bot process to connect")
            await fake.gateway_sync(timeout=30)
            async with StateReader(db) as reader, aiohttp.ClientSession() as http:
                await asyncio.gather(*(_game(fake, reader, http, base, i, args, out, errors)
                                       for i in range(args.games)))
                async with http.get(f"{base}/metrics") as resp:
                    metrics = await resp.text()
                page = await _page.measure(fake, http, base, args) if args.page else None
        finally:
            bot.send_signal(signal.SIGINT)  # a clean stop (and the profile written)
            bot.wait(timeout=60)
            log.close()
        print(f"{args.games} games x {args.boards} open boards, {len(out['ack'])} taps "
              f"({len(out['refused'])} refused), {len(errors)} errors")
        print(f"  a tap to every open board: {_fmt(out['reach'])}")
        print(f"  a slash command to every open board: {_fmt(out['slash'])}")
        print(f"  an AI turn on every board, after its post in the channel: {_fmt(out['ai'])}")
        print(f"  the tap's own answer:      {_fmt(out['ack'])}")
        print(f"  floor, a ping's round trip: {_fmt(out['floor'])}")
        if out["reach"] and out["floor"]:
            ratio = statistics.median(out["reach"]) / max(statistics.median(out["floor"]), 1e-6)
            print(f"  median tap-to-every-board / median ping: {ratio:.1f}x")
        print(f"  frames with another seat's coins: {len(out['leaks'])}")
        print(f"  the bot's own side, a new version to every board of its channel "
              f"(its /metrics): {_refreshes(metrics)}")
        if page is not None:
            print(page)
        for e in errors[:5]:
            print("  error:", e)
    await fake.stop()
    return 1 if errors else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--boards", type=int, default=5, choices=range(2, 6))
    parser.add_argument("--actions", type=int, default=30)
    parser.add_argument("--think", type=float, default=3.0)  # as bench/bot.py: a member thinks
    parser.add_argument("--page", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--throttle", type=float, default=4.0)
    parser.add_argument("--slash", type=float, default=0.3,
                        help="share of a member's moves made by slash command (not End)")
    parser.add_argument("--ai-games", type=int, default=2,
                        help="games of one member against AI seats, the others watching")
    parser.add_argument("--profile", metavar="OUT", help="cProfile the bot process into OUT")
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
