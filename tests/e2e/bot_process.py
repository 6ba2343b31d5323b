"""The bot as a `python -m bot` subprocess against the fake Discord (a restart in a new
process): launched with its settings in the environment, awaited until it is connected,
stopped with SIGINT (killed if it hangs) and its log returned."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


def launch(fake: FakeDiscord, db: Path, **env: str) -> subprocess.Popen[bytes]:
    """`python -m bot` on the SQLite file `db`, pointed at `fake` (DISCORD_API_BASE and
    DISCORD_GATEWAY), logging warnings and worse; `env` adds settings (RENDER_PROCESSES="1")."""
    full = {**os.environ, "DISCORD_TOKEN": fake.token, "DATABASE_URL": str(db),
            "DISCORD_API_BASE": fake.api_base, "DISCORD_GATEWAY": fake.gateway_url,
            "LOG_LEVEL": "WARNING", **env}
    return subprocess.Popen([sys.executable, "-m", "bot"], cwd=ROOT, env=full,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


async def wait_connected(fake: FakeDiscord, proc: subprocess.Popen[bytes], since: int, *,
                         timeout: float) -> None:
    """Wait until the process has a ready gateway session among those after the first
    `since` (len(fake.sessions) before it started) and has read every frame sent to it;
    fails with its output if it exits first."""
    await fake.wait_until(
        lambda: proc.poll() is not None
        or any(s.ready for s in fake.sessions[since:] if not s.ended),
        timeout=timeout, what="the bot subprocess to connect")
    assert proc.poll() is None, proc.communicate()
    await fake.gateway_sync(timeout=10)


async def stop(proc: subprocess.Popen[bytes], *, timeout: float = 20) -> str:
    """SIGINT, then wait up to `timeout` s (in a thread: the fake keeps answering the bot's
    last calls) before a kill; returns what the process wrote to stderr."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            await asyncio.to_thread(proc.communicate, timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
    _, err = proc.communicate()
    return err.decode(errors="replace")
