"""What one Discord request costs the bot's process, against the per-action floor.

python bench/rest.py [--requests 2000] [--actions 400]

Issue 22 item 10 asks the bot's main process for <= 5x the floor (engine.apply +
Store.append per stored action) in CPU per member action. A member's action needs at least
one request to Discord (the interaction's answer) and, from a slash command, a second (the
living message's edit). This bench measures what such a request costs by itself, so the
target can be read against it.

The fake Discord (tests/fakediscord) runs in this process; a child process holds a
discord.py client logged in to it (REST only, no gateway) and, in the same process:

1. floor: a recorded 3-player game (bench/store.py's, --actions long) replayed through
   engine.apply + Store.append into a fresh SQLite file, CPU per action;
2. edit: --requests edits of one channel message (`PartialMessage.edit`, the living
   message's way), CPU per request;
3. send: --requests / 4 new messages (`channel.send`), CPU per request.

CPU is the child's process CPU (time.process_time: all its threads), so the fake's work is
not in it. Printed: medians of five alternating blocks and each request kind's ratio to the
floor.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "tests"):  # (bench/, for store.py, is the script's own folder)
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

import discord  # noqa: E402
import discord.http  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402
from store import _recorded_game  # noqa: E402  (bench/store.py)

import engine  # noqa: E402
from bot.store import Seat, open_store  # noqa: E402

BLOCKS = 5


async def _floor(recorded: list, tmp: str, k: int) -> float:
    """CPU seconds per action: apply + append of the recorded game, into a fresh file."""
    start, *appends = recorded
    store = await open_store(str(Path(tmp) / f"floor{k}.db"))
    try:
        seats = [Seat(1, "ann"), Seat(2, "bob"), Seat(3, "cid")]
        g = await store.create_game(guild_id=1, channel_id=1, seed=1, players=seats)
        await store.start_game(g.id, board="official-3p", players=seats, state=start)
        state = engine.load_state(start)
        c = time.process_time()
        for seq, a in enumerate(appends, 1):
            state = engine.apply(state, engine.parse_action(a["action"])).state
            await store.append(g.id, seq, a["action"], actor_id=a["actor_id"],
                               player=a["player"], events=a["events"], reveals=a["reveals"],
                               ends_turn=a["ends_turn"], snapshot=a["snapshot"])
        return (time.process_time() - c) / len(appends)
    finally:
        await store.close()


async def child(args: argparse.Namespace) -> None:
    discord.http.Route.BASE = args.api.rstrip("/")
    recorded = await _recorded_game(args.actions)
    client = discord.Client(intents=discord.Intents.none())
    await client.login(args.token)
    channel = client.get_partial_messageable(args.channel)
    message = await channel.send("0")
    for i in range(50):  # warm: connections, caches
        await message.edit(content=f"warm {i}")
    figures: dict[str, list[float]] = {"floor": [], "edit": [], "send": []}
    per_block = max(1, args.requests // BLOCKS)
    sends = max(1, per_block // 4)
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(BLOCKS):
            figures["floor"].append(await _floor(recorded, tmp, k))
            c = time.process_time()
            for i in range(per_block):
                await message.edit(content=f"edit {k} {i} " + "x" * 400)
            figures["edit"].append((time.process_time() - c) / per_block)
            c = time.process_time()
            for i in range(sends):
                await channel.send(f"send {k} {i}")
            figures["send"].append((time.process_time() - c) / sends)
    await client.close()
    print(json.dumps(figures))


async def parent(args: argparse.Namespace) -> int:
    fake = FakeDiscord()
    await fake.start()
    try:
        channel = fake.add_channel("rest")
        cmd = [sys.executable, __file__, "--child", "--api", fake.api_base, "--token",
               fake.token, "--channel", str(channel["id"]), "--requests", str(args.requests),
               "--actions", str(args.actions)]
        t = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(*cmd, stdout=subprocess.PIPE,
                                                    stderr=subprocess.PIPE)
        out, err = await proc.communicate()
        wall = time.perf_counter() - t
    finally:
        await fake.stop()
    if proc.returncode != 0:
        print(err.decode(errors="replace")[-2000:], file=sys.stderr)
        return 1
    figures = json.loads(out.decode().strip().splitlines()[-1])
    floor = statistics.median(figures["floor"])
    print(f"rest bench: one discord.py client against the fake Discord, {BLOCKS} blocks "
          f"({wall:.0f} s); CPU of the client's process, median of the blocks")
    print(f"  floor: engine.apply + Store.append   {floor * 1e3:6.3f} ms per action "
          f"(blocks: {' '.join(f'{x * 1e3:.3f}' for x in figures['floor'])})")
    for kind, label in (("edit", "message edit (PATCH)"), ("send", "new message (POST)")):
        m = statistics.median(figures[kind])
        print(f"  {label:<34} {m * 1e3:6.3f} ms per request = x{m / floor:.1f} the floor "
              f"(blocks: {' '.join(f'{x * 1e3:.3f}' for x in figures[kind])})")
    edit = statistics.median(figures["edit"])
    print(f"  a slash command's action needs two requests (answer + living message edit): "
          f">= x{2 * edit / floor:.1f} the floor in requests alone")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--api", help=argparse.SUPPRESS)
    parser.add_argument("--token", help=argparse.SUPPRESS)
    parser.add_argument("--channel", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        asyncio.run(child(args))
        return 0
    return asyncio.run(parent(args))


if __name__ == "__main__":
    sys.exit(main())
