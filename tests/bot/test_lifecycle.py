"""The bot process's life and death, for real: `python -m bot` against the fake Discord.

- SIGKILL: no picture worker and no multiprocessing resource tracker outlives the bot, and
  its output pipes close (nothing else holds them).
- SIGTERM: the bot shuts down in order and exits 0, leaving no process behind.
- In process: an interaction in hand when the shutdown starts is finished (committed and
  answered); one that arrives during the shutdown is answered "restarting" and changes
  nothing.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from fakediscord import FakeDiscord

import i18n
from bot.app import RESTARTING, SmallWorldBot
from bot.settings import Settings
from bot.store import open_store

ROOT = Path(__file__).resolve().parents[2]
SETTING_KEYS = ("DISCORD_TOKEN", "DATABASE_URL", "MOD_ROLE_ID", "DEV_GUILD_ID", "LOG_LEVEL",
                "RENDER_PROCESSES", "DISCORD_API_BASE", "DISCORD_GATEWAY")


def _stat(pid: int) -> tuple[str, int] | None:
    """(state letter, parent pid) of a live process, None when it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    fields = raw.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1])


def _alive(pid: int) -> bool:
    st = _stat(pid)
    return st is not None and st[0] not in ("Z", "X")


def _descendants(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            st = _stat(int(entry.name))
            if st is not None:
                children.setdefault(st[1], []).append(int(entry.name))
    out: set[int] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in out:
                out.add(child)
                todo.append(child)
    return out


class _Drain(threading.Thread):
    """Reads a pipe to its end (EOF comes only when every process holding it is gone)."""

    def __init__(self, pipe) -> None:
        super().__init__(daemon=True)
        self.pipe = pipe
        self.data = b""
        self.eof = threading.Event()
        self.start()

    def run(self) -> None:
        for chunk in iter(lambda: self.pipe.read1(65536), b""):
            self.data += chunk
        self.eof.set()


async def _bot_process(fake: FakeDiscord, tmp_path: Path) -> tuple[subprocess.Popen, _Drain,
                                                                    _Drain, set[int]]:
    env = {k: v for k, v in os.environ.items() if k not in SETTING_KEYS}
    env.update(DISCORD_TOKEN=fake.token, DATABASE_URL=str(tmp_path / "life.db"),
               DISCORD_API_BASE=fake.api_base, DISCORD_GATEWAY=fake.gateway_url,
               LOG_LEVEL="INFO", RENDER_PROCESSES="2", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = _Drain(proc.stdout), _Drain(proc.stderr)
    await fake.wait_until(lambda: proc.poll() is not None or any(s.ready for s in fake.sessions),
                          timeout=60, what="the bot to connect")
    assert proc.poll() is None, err.data.decode(errors="replace")
    # two drawing workers and multiprocessing's resource tracker
    await fake.wait_until(lambda: len(_descendants(proc.pid)) >= 3, timeout=60,
                          what="the picture workers to start")
    await asyncio.sleep(0.5)
    return proc, out, err, _descendants(proc.pid)


async def _gone(pids: set[int], timeout: float) -> set[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        left = {p for p in pids if _alive(p)}
        if not left:
            return left
        await asyncio.sleep(0.1)
    return {p for p in pids if _alive(p)}


async def test_sigkill_leaves_no_worker_or_tracker(fake_discord: FakeDiscord,
                                                   tmp_path: Path) -> None:
    proc, out, err, children = await _bot_process(fake_discord, tmp_path)
    assert len(children) >= 3, children
    proc.kill()
    proc.wait(timeout=10)
    assert await _gone(children, timeout=10) == set(), "processes outlived the bot"
    # and nothing holds the bot's output pipes any more
    assert await asyncio.to_thread(err.eof.wait, 10) and await asyncio.to_thread(out.eof.wait, 10)


async def test_sigterm_shuts_down_in_order(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    proc, out, err, children = await _bot_process(fake_discord, tmp_path)
    proc.send_signal(signal.SIGTERM)
    code = await asyncio.to_thread(proc.wait, 60)
    assert await asyncio.to_thread(err.eof.wait, 10)
    log = err.data.decode(errors="replace")
    assert code == 0, log
    steps = ["taking no new interactions", "interactions in hand finished",
             "Discord connection closed", "store closed", "picture workers stopped"]
    where = [log.find(s) for s in steps]
    assert all(i >= 0 for i in where) and where == sorted(where), log
    assert "Traceback" not in log
    assert await _gone(children, timeout=10) == set()


async def test_shutdown_finishes_the_action_in_hand(fake_discord: FakeDiscord,
                                                    tmp_path: Path) -> None:
    fake = fake_discord
    ann, bob, cid = fake.add_user("ann"), fake.add_user("bob"), fake.add_user("cid")
    db = tmp_path / "inhand.db"
    settings = Settings(_env_file=None, discord_token=fake.token, database_url=str(db))
    bot = SmallWorldBot(settings, guild_ready_timeout=0.1)
    async with fake.running(bot, drain=False):
        await bot.wait_until_ready()
        lobby = await fake.wait_for_reply(
            await fake.slash(ann, fake.channel, "sw new", options={"players": 3}))
        slow = asyncio.Event()
        real_update = bot.store.update_lobby

        async def slow_update(*args, **kwargs):
            slow.set()
            await asyncio.sleep(0.5)  # the action is in hand when the shutdown starts
            return await real_update(*args, **kwargs)

        bot.store.update_lobby = slow_update  # type: ignore[method-assign]
        joined = await fake.click(bob, lobby, label="Join")
        await asyncio.wait_for(slow.wait(), 5)
        stopping = asyncio.ensure_future(bot.shutdown("test"))
        await asyncio.sleep(0)
        late = await fake.click(cid, lobby, label="Join")
        refused = await fake.wait_for_reply(late)
        assert refused.ephemeral and refused.content == i18n.t(RESTARTING, "en")
        await fake.wait_for_reply(joined)  # the lobby message edited with bob in it
        await asyncio.wait_for(stopping, 30)
        assert f"<@{bob['id']}>" in lobby.content and f"<@{cid['id']}>" not in lobby.content
    store = await open_store(str(db))
    try:
        game = await store.last_game(fake.channel["id"] if isinstance(fake.channel, dict)
                                     else fake.channel.id)
        assert game is not None
        assert [s.name for s in game.players] == ["ann", "bob"]  # committed; cid never was
    finally:
        await store.close()


async def test_sigterm_while_the_workers_warm_up_is_quick_and_clean(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """A stop in the first seconds (the drawing workers still loading every board) does not
    wait for their warm-up, and leaves no semaphore behind for multiprocessing to complain
    about."""
    env = {k: v for k, v in os.environ.items() if k not in SETTING_KEYS}
    env.update(DISCORD_TOKEN=fake_discord.token, DATABASE_URL=str(tmp_path / "quick.db"),
               DISCORD_API_BASE=fake_discord.api_base, DISCORD_GATEWAY=fake_discord.gateway_url,
               LOG_LEVEL="INFO", RENDER_PROCESSES="2", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _out, err = _Drain(proc.stdout), _Drain(proc.stderr)
    await fake_discord.wait_until(
        lambda: proc.poll() is not None or len(_descendants(proc.pid)) >= 3, timeout=60,
        what="the picture workers to start")
    children = _descendants(proc.pid)
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    code = await asyncio.to_thread(proc.wait, 60)
    took = time.monotonic() - started
    assert await asyncio.to_thread(err.eof.wait, 10)
    log = err.data.decode(errors="replace")
    assert code == 0, log
    assert took < 4.0, (took, log[-1500:])
    assert "leaked semaphore" not in log and "Traceback" not in log, log[-1500:]
    assert await _gone(children, timeout=10) == set()
