"""What one Discord request costs the bot's process, against the per-action floor.

python bench/rest.py [--requests 2000] [--actions 400] [--interactions 1000]
                     [--mix 1.40,0.82,0.27]

Issue 22 item 10 asks the bot's main process for <= 5x the floor (engine.apply +
Store.append per stored action) in CPU per member action. A member's action arrives as an
interaction and needs at least one request to Discord (the interaction's answer) and, from
a slash command, a second (the living message's edit). This bench measures what Discord's
side of that costs in discord.py by itself, with no game behind it, so the target can be
read against it.

The fake Discord (tests/fakediscord) runs in this process; a child process holds a
discord.py client logged in to it (gateway and REST, the bot's intents) and, in the same
process:

1. floor: a recorded 3-player game (bench/store.py's, --actions long) replayed through
   engine.apply + Store.append into a fresh SQLite file, CPU per action;
2. edit: --requests edits of one channel message (`PartialMessage.edit`, the living
   message's way), CPU per request;
3. send: --requests / 4 new messages (`channel.send`), CPU per request;
4. interactions (--interactions of each kind, one at a time, each answered before the
   next is sent): a slash command (`/sw conquer region:5`) answered with a private
   sentence, and a click on a panel-sized message (a 25-option menu and four buttons, the
   message's payload carried in the interaction, as Discord does) answered by editing that
   message: CPU per interaction, from the frame's arrival to the answer's response.

CPU is the child's process CPU (time.process_time: all its threads), so the fake's work is
not in it. Printed: medians of five blocks and each kind's ratio to the floor, then the
cost of Discord's side of one member action at a request mix (--mix: answered
interactions, each costed at the mean of a slash command's and a click's, message edits,
new messages per member action, as bench/bot.py prints them
under "the bot's REST requests ... per member action"; the default is what it printed at
94a66e7 with --games 12 --ai-games 2; a 30-game run gave 1.38, 0.78, 0.26).
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
import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402
from store import _recorded_game  # noqa: E402  (bench/store.py)

import engine  # noqa: E402
from bot.store import Seat, open_store  # noqa: E402

BLOCKS = 5
PANEL_TEXT = "Round 3 · ann's turn\n" + "ann conquers Hills 12 with 3 tokens.\n" * 20
SENTENCE = "Done: you conquered Hills 12 with 3 tokens (1 left in hand). " * 3


def _panel_view() -> discord.ui.View:
    """Components the size of a turn panel: a 25-option menu and four buttons."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Select(custom_id="bench:menu", options=[
        discord.SelectOption(label=f"Conquer region {r} (3 tokens)", value=str(r))
        for r in range(25)]))
    for verb in ("roll", "decline", "end", "undo"):
        view.add_item(discord.ui.Button(label=verb.title(), custom_id=f"bench:{verb}"))
    return view


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
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    recorded = await _recorded_game(args.actions)
    intents = discord.Intents.none()  # the bot's (bot/app.py)
    intents.guilds = intents.guild_messages = intents.dm_messages = True
    client = discord.Client(intents=intents, max_messages=None)
    marks: list[float] = []
    answered = 0
    per_kind = max(1, args.interactions // BLOCKS)  # interactions of one kind in a block

    @client.event
    async def on_interaction(interaction: discord.Interaction) -> None:
        nonlocal answered
        if interaction.type is discord.InteractionType.component:
            await interaction.response.edit_message(content=PANEL_TEXT + str(answered))
        else:
            await interaction.response.send_message(SENTENCE, ephemeral=True)
        answered += 1
        if answered % per_kind == 0:
            marks.append(time.process_time())

    await client.login(args.token)
    running = asyncio.ensure_future(client.connect())
    await client.wait_until_ready()
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
    panel = await channel.send(PANEL_TEXT, view=_panel_view())
    marks.append(time.process_time())
    print(f"READY {panel.id}", flush=True)
    while answered < 2 * BLOCKS * per_kind:
        await asyncio.sleep(0.05)
    spans = [b - a for a, b in zip(marks, marks[1:], strict=False)]
    figures["slash"] = [x / per_kind for x in spans[0::2]]
    figures["click"] = [x / per_kind for x in spans[1::2]]
    await client.close()
    await running
    print(json.dumps(figures))


async def _drive(fake: FakeDiscord, channel: dict, panel_id: int, interactions: int) -> None:
    """Slash commands and clicks, one block of each kind in turn, each interaction answered
    before the next is sent (the child marks its CPU at every block's end)."""
    user = fake.add_user("ann")
    per = max(1, interactions // BLOCKS)
    data = {"id": "1", "name": "sw", "type": 1, "options": [
        {"type": 1, "name": "conquer", "options": [{"type": 4, "name": "region", "value": 5}]}]}
    for _ in range(BLOCKS):
        for kind in ("slash", "click"):
            for _ in range(per):
                if kind == "slash":  # (fake.slash would wait for a synced /sw: none here)
                    record = await fake._send_interaction(2, user, channel, data)
                else:
                    record = await fake.click(user, panel_id, "bench:end")
                await fake.wait_until(lambda r=record: r.acknowledged, 10.0,
                                      what="the child's answer")


async def parent(args: argparse.Namespace) -> int:
    fake = FakeDiscord()
    await fake.start()
    try:
        channel = fake.add_channel("rest")
        cmd = [sys.executable, __file__, "--child", "--api", fake.api_base, "--gateway",
               fake.gateway_url, "--token", fake.token, "--channel", str(channel["id"]),
               "--requests", str(args.requests), "--actions", str(args.actions),
               "--interactions", str(args.interactions)]
        t = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(*cmd, stdout=subprocess.PIPE,
                                                    stderr=subprocess.PIPE)
        assert proc.stdout is not None
        while (line := (await proc.stdout.readline()).decode()) and not line.startswith(
                "READY"):
            pass
        if line.startswith("READY"):
            await _drive(fake, channel, int(line.split()[1]), args.interactions)
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
    for kind, label in (("slash", "slash command, private answer"),
                        ("click", "click on a panel, message edited")):
        m = statistics.median(figures[kind])
        print(f"  {label:<34} {m * 1e3:6.3f} ms per interaction = x{m / floor:.1f} the floor "
              f"(blocks: {' '.join(f'{x * 1e3:.3f}' for x in figures[kind])})")
    answers, edits, posts = args.mix
    answer = (statistics.median(figures["slash"]) + statistics.median(figures["click"])) / 2
    side = (answers * answer + edits * statistics.median(figures["edit"])
            + posts * statistics.median(figures["send"]))
    print(f"  Discord's side of one member action at the mix {answers:g} answered interactions"
          f" (mean of slash and click) + {edits:g} edits + {posts:g} new messages: "
          f"{side * 1e3:.3f} ms = "
          f"x{side / floor:.1f} the floor, with no game behind it")
    return 0


def _mix(text: str) -> tuple[float, float, float]:
    parts = [float(x) for x in text.split(",")]
    if len(parts) != 3 or any(x < 0 for x in parts):
        raise argparse.ArgumentTypeError("three numbers >= 0: interactions,edits,posts")
    return parts[0], parts[1], parts[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--interactions", type=int, default=1000,
                        help="interactions of each kind (slash command, click)")
    parser.add_argument("--mix", type=_mix, default=(1.40, 0.82, 0.27),
                        help="per member action: answered interactions, edits, new messages")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--api", help=argparse.SUPPRESS)
    parser.add_argument("--gateway", help=argparse.SUPPRESS)
    parser.add_argument("--token", help=argparse.SUPPRESS)
    parser.add_argument("--channel", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        asyncio.run(child(args))
        return 0
    return asyncio.run(parent(args))


if __name__ == "__main__":
    sys.exit(main())
