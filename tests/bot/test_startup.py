"""`python -m bot` starts and stops in one clear line: --help, bad settings, the voice warnings
discord.py prints for a text bot, and Ctrl-C with the drawing workers up."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from fakediscord import FakeDiscord

from bot.__main__ import main, parser
from bot.app import SmallWorldBot
from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = [name.upper() for name in Settings.model_fields]


def _env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env.update(values)
    return env


def _run(args: list[str], cwd: Path, **values: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=_env(**values),
                          capture_output=True, text=True, timeout=60)


def test_help_prints_usage_and_starts_nothing(tmp_path: Path) -> None:
    # a token and a fake API that does not exist: starting the bot would fail, not exit 0
    done = _run(["--help"], tmp_path, DISCORD_TOKEN="x", DISCORD_API_BASE="http://127.0.0.1:9")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: python -m bot")
    assert "run" in done.stdout and ".env.example" in done.stdout
    assert done.stderr == "" and not list(tmp_path.iterdir())  # no database file made


def test_unknown_command_is_one_usage_error(tmp_path: Path) -> None:
    done = _run(["frobnicate"], tmp_path, DISCORD_TOKEN="x")
    assert done.returncode == 2
    assert "invalid choice: 'frobnicate'" in done.stderr and "Traceback" not in done.stderr


def test_subcommands_can_be_added() -> None:
    ap = parser()
    assert ap.parse_args([]).run is ap.parse_args(["run"]).run


@pytest.mark.parametrize(("url", "words"), [
    ("mysql://user@localhost/sw", "must be sqlite:///path, a file path or postgresql://"),
    ("mysql://x", "must be sqlite:///path"),
    ("sqlite:///{file}/sub/games.db", "is a file, not a folder"),
])
def test_bad_database_url_is_refused_before_logging_in(tmp_path: Path, url: str,
                                                       words: str) -> None:
    (tmp_path / "afile").write_text("x")
    url = url.format(file=tmp_path / "afile")
    # the API base is a closed port: reaching the login would print "cannot reach Discord"
    done = _run([], tmp_path, DISCORD_TOKEN="x", DATABASE_URL=url,
                DISCORD_API_BASE="http://127.0.0.1:9/api/v10")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("smallworld-bot: DATABASE_URL: ") and words in lines[0]
    assert lines[0].count("DATABASE_URL") == 1


def test_good_database_urls_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for url in ("sqlite:///games.db", f"sqlite:///{tmp_path}/new/dir/games.db", ":memory:",
                str(tmp_path / "plain.db"), "postgresql://bot@db.example/sw",
                "postgres://bot:secret@127.0.0.1:5432/sw"):
        assert Settings(discord_token="x", database_url=url).database_url == url


def test_data_and_cache_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for key in ("SMALLWORLD_DATA_DIR", "SMALLWORLD_RENDER_CACHE"):
        monkeypatch.setenv(key, "")  # so that monkeypatch puts back what was there before
        monkeypatch.delenv(key)
    with pytest.raises(ValueError, match="no boards/"):
        Settings(discord_token="x", smallworld_data_dir=str(tmp_path))
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN=x\nSMALLWORLD_DATA_DIR={ROOT / 'data'}\n"
                                   f"SMALLWORLD_RENDER_CACHE={tmp_path / 'cache'}\n")
    s = Settings()
    assert s.smallworld_data_dir == ROOT / "data"
    s.export()  # values from .env reach the engine and render (and the workers) as env vars
    assert os.environ["SMALLWORLD_DATA_DIR"] == str(ROOT / "data")
    assert os.environ["SMALLWORLD_RENDER_CACHE"] == str(tmp_path / "cache")


def test_no_voice_warnings_but_other_warnings_still_show(
        caplog: pytest.LogCaptureFixture) -> None:
    import discord

    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = True  # as at import
    with caplog.at_level(logging.WARNING):
        SmallWorldBot(Settings(discord_token="x", database_url=":memory:"))
        logging.getLogger("discord.client").warning("something else")
    messages = [r.getMessage() for r in caplog.records]
    assert not [m for m in messages if "voice" in m]
    assert messages == ["something else"]


def test_the_gateway_sends_only_what_the_bot_reads() -> None:
    """Servers and channels, and messages for the owner's "@bot sync"; no typing, reactions,
    voice or other traffic to parse and drop, and no message cache nobody reads."""
    import discord

    bot = SmallWorldBot(Settings(discord_token="x", database_url=":memory:"))
    wanted = discord.Intents.none()
    wanted.guilds = wanted.guild_messages = wanted.dm_messages = True
    assert bot.intents == wanted
    assert not bot.intents.typing and not bot.intents.reactions and not bot.intents.voice_states
    assert bot._connection.max_messages is None


def _children(pid: int) -> list[int]:
    """Worker processes (multiprocessing spawn children) of `pid`, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"spawn_main" in cmd:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table from /proc")
@pytest.mark.parametrize("settle", [0.0, 3.0], ids=["workers-starting", "workers-up"])
async def test_ctrl_c_stops_bot_and_workers_without_traceback(
        fake_discord: FakeDiscord, tmp_path: Path, settle: float) -> None:
    """Ctrl-C in a terminal sends SIGINT to the whole process group: the bot and each
    drawing worker. Nothing may print a traceback; the bot exits 0 and leaves no worker."""
    fake = fake_discord
    env = _env(DISCORD_TOKEN=fake.token, DATABASE_URL=str(tmp_path / "g.db"),
               DISCORD_API_BASE=fake.api_base, DISCORD_GATEWAY=fake.gateway_url,
               RENDER_PROCESSES="2", LOG_LEVEL="WARNING")
    proc = subprocess.Popen([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)  # its own process group, as in a terminal
    try:
        await fake.wait_until(lambda: proc.poll() is not None
                              or any(s.ready for s in fake.sessions if not s.ended),
                              timeout=60, what="the bot to connect")
        assert proc.poll() is None, proc.communicate()
        await fake.wait_until(lambda: len(_children(proc.pid)) >= 2, timeout=60,
                              what="both drawing workers to start")
        workers = _children(proc.pid)
        await asyncio.sleep(settle)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = await asyncio.to_thread(proc.communicate, timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    log = err.decode(errors="replace")
    assert "Traceback" not in log and "KeyboardInterrupt" not in log, log[-3000:]
    assert proc.returncode == 0, log[-3000:]
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text()


def test_missing_token_still_one_line(tmp_path: Path) -> None:
    assert main is not None
    done = _run([], tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "DISCORD_TOKEN is not set" in done.stderr
