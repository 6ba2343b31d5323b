"""Crash soak: scripted games through the fake Discord while the bot process is SIGKILLed
at random moments and restarted.

python bench/soak.py [--games 100] [--kill-every 2 8] [--seed 1] [--db sqlite|postgresql]
                     [--parallel 20]

The bot runs as `python -m bot` (as in production). Players choose legal moves from the
stored state and send them as slash commands; an action whose public reply arrived is
*acknowledged* (the player was told it happened). Meanwhile the bot is killed with SIGKILL
every few seconds (uniformly within --kill-every) and started again. At the end:

- every acknowledged action is in its game's log exactly once, at the version it was
  acknowledged at (lost: missing or different there; duplicated: two acknowledgements for
  one log position);
- every game's log, replayed through the engine from its start, reaches each stored
  snapshot (bot.dbtools.replay_game);
- every game finished.

Prints those figures; exit 1 unless 0 lost, 0 duplicated, 0 replay problems, all finished.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "tests", ROOT / "tests" / "e2e"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from driver import CONFIRM_LABELS, CONQUEST_VERBS, GameDriver, StateReader, strip  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402

import engine  # noqa: E402
from bot.dbtools import replay_game  # noqa: E402
from bot.store import GameStatus, open_store  # noqa: E402


def told_done(reply: Any) -> bool:
    """The bot told the player the action happened: a public answer, or the private "Done"
    of a slash command whose result went into the game's living message."""
    import i18n

    return not reply.ephemeral or reply.content.startswith(i18n.t("ack.done", "en"))


SETTING_KEYS = ("DISCORD_TOKEN", "DATABASE_URL", "MOD_ROLE_ID", "DEV_GUILD_ID", "LOG_LEVEL",
                "RENDER_PROCESSES", "DISCORD_API_BASE", "DISCORD_GATEWAY")


@dataclass
class SoakReport:
    games: int = 0
    finished: int = 0
    kills: int = 0
    sent: int = 0
    acknowledged: int = 0
    refused: int = 0
    unanswered: int = 0  # sent while the bot died: fate unknown to the player
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    replay_problems: list[str] = field(default_factory=list)
    actions_stored: int = 0
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (not self.lost and not self.duplicated and not self.replay_problems
                and self.finished == self.games and not self.errors)


class BotProcess:
    def __init__(self, fake: FakeDiscord, url: str, cwd: Path) -> None:
        self.fake, self.url, self.cwd = fake, url, cwd
        self.proc: subprocess.Popen[bytes] | None = None
        self.up = asyncio.Event()
        self.log = open(cwd / "bot.log", "ab")  # noqa: SIM115

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k not in SETTING_KEYS}
        env.update(DISCORD_TOKEN=self.fake.token, DATABASE_URL=self.url,
                   DISCORD_API_BASE=self.fake.api_base, DISCORD_GATEWAY=self.fake.gateway_url,
                   LOG_LEVEL="WARNING", RENDER_PROCESSES="1",
                   PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""))
        n = len(self.fake.sessions)
        self.proc = subprocess.Popen([sys.executable, "-m", "bot"], cwd=self.cwd, env=env,
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        await self.fake.wait_until(
            lambda: self.proc.poll() is not None
            or any(s.ready for s in self.fake.sessions[n:] if not s.ended),
            timeout=90, what="the bot to connect")
        if self.proc.poll() is not None:
            raise RuntimeError(f"the bot exited with {self.proc.returncode}; see bot.log")
        await self.fake.gateway_sync(timeout=30)
        self.up.set()

    def kill(self) -> None:
        self.up.clear()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)

    async def stop(self) -> None:
        self.up.clear()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.to_thread(self.proc.wait, 60)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()


async def _player(d: GameDriver, bot: BotProcess, report: SoakReport,
                  acks: dict[tuple[int, int], list[dict[str, Any]]], max_actions: int) -> None:
    for _ in range(max_actions):
        await bot.up.wait()
        loaded = await d.loaded()
        if loaded.state.finished:
            return
        legal = [a.model_dump(mode="json") for a in engine.legal_actions(loaded.state)]
        action = d.choose(loaded.state, legal)
        d._turn_counts[action["do"]] += 1  # the driver's policy counts a turn's moves
        if action["do"] in CONQUEST_VERBS:
            d._turn_counts["conquest"] += 1
        user = d.user_of(loaded, loaded.state.actor)
        try:
            inter = await d._slash(user, action)
        except Exception:  # noqa: BLE001 - the bot died between our check and the send
            await asyncio.sleep(0.2)
            continue
        report.sent += 1
        try:
            await d.fake.wait_until(lambda i=inter: i.reply is not None, timeout=15,
                                    what="a reply")
            reply = inter.reply
            yes = next((reply.find_component(label) for label in CONFIRM_LABELS
                        if reply.ephemeral and reply.find_component(label)), None)
            if yes is not None:  # "Decline / End with tokens in hand?" asks first: say yes
                inter = await d.fake.click(user, reply, yes["custom_id"])
                await d.fake.wait_until(lambda i=inter: i.followups, timeout=15,
                                        what="the answer to a confirmation")
                reply = inter.followups[0]
        except Exception:  # noqa: BLE001 - a timeout: the bot was killed meanwhile
            report.unanswered += 1
            continue
        if not told_done(reply):
            report.refused += 1
            continue
        report.acknowledged += 1
        acks.setdefault((loaded.game.id, loaded.version + 1), []).append(strip(action))
    report.errors.append(f"game in channel {d.channel_id} did not end in {max_actions} actions")


async def _killer(bot: BotProcess, rng: random.Random, every: tuple[float, float],
                  done: asyncio.Event, report: SoakReport,
                  after: tuple[int, int] | None = None) -> None:
    """SIGKILL the bot every `every` seconds (uniformly), or with `after`, once every so many
    acknowledged actions: a count that does not depend on how fast the bot plays."""
    while not done.is_set():
        if after is None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), rng.uniform(*every))
        else:
            target = report.acknowledged + rng.randint(*after)
            while not done.is_set() and report.acknowledged < target:
                await asyncio.sleep(0.005)
        if done.is_set():
            return
        bot.kill()
        report.kills += 1
        await asyncio.sleep(rng.uniform(0, 0.5))
        await bot.start()


async def soak(games: int, *, seed: int = 1, every: tuple[float, float] = (2.0, 8.0),
               db_url: str | None = None, workdir: Path | None = None, parallel: int = 20,
               max_actions: int = 3000, quiet: bool = False,
               kill_after: tuple[int, int] | None = None) -> SoakReport:
    rng = random.Random(seed)
    report = SoakReport(games=games)
    fake = FakeDiscord(interaction_timeout=None)
    fake.strict = False
    await fake.start()
    tmp = tempfile.TemporaryDirectory() if workdir is None else contextlib.nullcontext(workdir)
    try:
        with tmp as where:
            where = Path(where)
            url = db_url or str(where / "soak.db")
            bot = BotProcess(fake, url, where)
            await bot.start()
            acks: dict[tuple[int, int], list[dict[str, Any]]] = {}
            game_ids: list[int] = []
            t0 = time.perf_counter()
            async with StateReader(url) as reader:
                drivers: list[GameDriver] = []
                opening = asyncio.Semaphore(10)

                async def open_one(i: int) -> None:
                    # the lobbies open before the killing starts: the soak is about moves
                    async with opening:
                        ch = fake.add_channel(f"soak-{i}")
                        users = [fake.add_user(f"s{i}p{k}") for k in range(2)]
                        d = GameDriver(fake, ch, users, reader, seed=seed * 1000 + i,
                                       mode="slash", check_coins=False, check_secrets=False,
                                       autocomplete=0.0)
                        await d.open_game(timeout=60)
                        drivers.append(d)
                        game_ids.append((await d.loaded()).game.id)

                await asyncio.gather(*(open_one(i) for i in range(games)))
                sem = asyncio.Semaphore(parallel)

                async def play(d: GameDriver) -> None:
                    async with sem:
                        try:
                            await _player(d, bot, report, acks, max_actions)
                        except Exception as exc:  # noqa: BLE001 - a soak reports
                            report.errors.append(f"channel {d.channel_id}: {exc!r}"[:300])

                done = asyncio.Event()
                killer = asyncio.create_task(_killer(bot, rng, every, done, report,
                                                     kill_after))
                try:
                    await asyncio.gather(*(play(d) for d in drivers))
                finally:
                    done.set()
                    await killer
            report.seconds = time.perf_counter() - t0
            await bot.stop()
            await _verify(url, acks, game_ids, report)
    finally:
        await fake.stop()
    if not quiet:
        print_report(report)
    return report


async def _verify(url: str, acks: dict[tuple[int, int], list[dict[str, Any]]],
                  game_ids: list[int], report: SoakReport) -> None:
    store = await open_store(url)
    try:
        for (gid, seq), actions in sorted(acks.items()):
            if len(actions) > 1:
                report.duplicated.append(f"game {gid} action {seq} acknowledged "
                                         f"{len(actions)} times")
            rows = await store.actions(gid, after=seq - 1, upto=seq)
            if not rows or strip(rows[0].action) != actions[0]:
                report.lost.append(f"game {gid} action {seq} {actions[0]}")
        for gid in game_ids:
            rep = await replay_game(store, gid)
            report.replay_problems += rep.problems
            report.actions_stored += rep.actions
            game = await store.get_game(gid)
            report.finished += game is not None and game.status is GameStatus.FINISHED
    finally:
        await store.close()


def print_report(r: SoakReport) -> None:
    print(f"crash soak: {r.games} games, {r.kills} SIGKILLs in {r.seconds:.0f} s; "
          f"{r.sent} actions sent, {r.acknowledged} acknowledged, {r.refused} refused, "
          f"{r.unanswered} unanswered (bot killed); {r.actions_stored} actions stored")
    print(f"  lost: {len(r.lost)}   duplicated: {len(r.duplicated)}   replay problems: "
          f"{len(r.replay_problems)}   finished: {r.finished}/{r.games}   errors: "
          f"{len(r.errors)}")
    for line in (r.lost + r.duplicated + r.replay_problems + r.errors)[:10]:
        print("   ", line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--kill-every", type=float, nargs=2, default=(2.0, 8.0),
                        metavar=("MIN", "MAX"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--parallel", type=int, default=20, help="games played at once")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args(argv)
    every = (args.kill_every[0], args.kill_every[1])
    if args.db == "postgresql":
        from pgserver import TempPostgres

        server = TempPostgres().start()
        try:
            url = asyncio.run(server.create_database("soak"))
            report = asyncio.run(soak(args.games, seed=args.seed, every=every, db_url=url,
                                      parallel=args.parallel))
        finally:
            server.stop()
    else:
        report = asyncio.run(soak(args.games, seed=args.seed, every=every,
                                  parallel=args.parallel))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
