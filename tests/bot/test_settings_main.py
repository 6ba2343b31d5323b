"""Settings from the environment / .env, and `python -m bot` failing cleanly."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from aiohttp import web
from pydantic import ValidationError

from bot.__main__ import main
from bot.settings import Settings

KEYS = ("DISCORD_TOKEN", "DATABASE_URL", "MOD_ROLE_ID", "DEV_GUILD_ID", "LOG_LEVEL",
        "DISCORD_API_BASE", "DISCORD_GATEWAY", "RENDER_PROCESSES", "SMALLWORLD_DATA_DIR",
        "SMALLWORLD_RENDER_CACHE", "AI_PROCESSES", "AI_TURN_DELAY", "CLOCK_SURVIVOR_LIMIT",
        "CLOCK_AWAY_AFTER", "CLOCK_MIN_LIMIT", "SHARD_COUNT", "SHARD_IDS", "REVIEW_WORK",
        "REVIEW_LEVEL", "WEB_PORT", "WEB_HOST", "WEB_PUBLIC_URL", "DISCORD_CLIENT_SECRET",
        "DISCORD_ACTIVITY", "WEB_SESSION_HOURS")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env from the repository
    return tmp_path


def test_defaults_and_types(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def")
    monkeypatch.setenv("MOD_ROLE_ID", "")
    monkeypatch.setenv("DEV_GUILD_ID", "1234")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    s = Settings()
    assert s.discord_token.get_secret_value() == "abc.def"
    assert "abc.def" not in repr(s)  # the token never reaches a log line
    assert s.database_url == "sqlite:///smallworld.db"
    assert s.mod_role_id is None and s.dev_guild_id == 1234
    assert s.log_level == "DEBUG"
    assert s.discord_api_base is None
    assert s.render_processes == 0  # sized from the host


def test_reads_dotenv(clean_env: Path) -> None:
    (clean_env / ".env").write_text("DISCORD_TOKEN=from-file\nMOD_ROLE_ID=77\n")
    s = Settings()
    assert s.discord_token.get_secret_value() == "from-file" and s.mod_role_id == 77


@pytest.mark.parametrize(("key", "value"), [("LOG_LEVEL", "LOUD"), ("MOD_ROLE_ID", "x"),
                                            ("RENDER_PROCESSES", "-1"),
                                            ("RENDER_PROCESSES", "many"),
                                            ("CLOCK_SURVIVOR_LIMIT", "5 minutes"),
                                            ("CLOCK_SURVIVOR_LIMIT", "off"),
                                            ("CLOCK_MIN_LIMIT", "10x"),
                                            ("AI_TURN_DELAY", "-1")])
def test_invalid_values(clean_env: Path, monkeypatch: pytest.MonkeyPatch, key: str,
                        value: str) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv(key, value)
    with pytest.raises(ValidationError):
        Settings()


@pytest.mark.parametrize(("env", "says"), [
    ({"WEB_PORT": "8080"}, "WEB_PUBLIC_URL and DISCORD_CLIENT_SECRET"),
    ({"WEB_PORT": "8080", "WEB_PUBLIC_URL": "https://b.example"}, "DISCORD_CLIENT_SECRET"),
    ({"WEB_PORT": "8080", "WEB_PUBLIC_URL": "b.example", "DISCORD_CLIENT_SECRET": "s"},
     "must start with https://"),
    ({"DISCORD_ACTIVITY": "true"}, "DISCORD_ACTIVITY needs the board page"),
])
def test_the_board_page_settings_come_together(clean_env: Path, monkeypatch: pytest.MonkeyPatch,
                                               env: dict[str, str], says: str) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(ValidationError, match=says):
        Settings()


def test_the_board_page_is_off_unless_its_port_is_set(clean_env: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    assert not Settings().web_on
    for key, value in (("WEB_PORT", "8080"), ("WEB_PUBLIC_URL", "https://b.example/"),
                       ("DISCORD_CLIENT_SECRET", "s3cret")):
        monkeypatch.setenv(key, value)
    on = Settings()
    assert on.web_on and on.web_public_url == "https://b.example"  # no trailing slash
    assert "s3cret" not in repr(on)


def test_env_example_lists_every_setting() -> None:
    example = (ROOT / ".env.example").read_text()
    for key in KEYS:
        assert f"\n{key}=" in example, key
    for name in Settings.model_fields:
        assert name.upper() in KEYS


@pytest.mark.parametrize("token", [None, "  "])
def test_missing_token_one_line(clean_env: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str], token: str | None) -> None:
    if token is not None:
        monkeypatch.setenv("DISCORD_TOKEN", token)
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "DISCORD_TOKEN" in err and "Traceback" not in err


async def test_rejected_token_one_line_nonzero(tmp_path: Path) -> None:
    """A token Discord refuses (HTTP 401 on /users/@me) ends in one clear line, exit 1."""

    async def me(request: web.Request) -> web.Response:
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", me)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    env = {k: v for k, v in os.environ.items() if k not in KEYS}
    env.update(DISCORD_TOKEN="not-a-real-token",
               DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10",
               DATABASE_URL=str(tmp_path / "t.db"))
    try:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        await runner.cleanup()
    text = err.decode()
    assert proc.returncode == 1, text
    assert "Traceback" not in text
    assert [line for line in text.splitlines() if "rejected DISCORD_TOKEN" in line]
    assert text.strip().splitlines()[-1].startswith("smallworld-bot: ")


def test_debug_logging_keeps_discord_bodies_out() -> None:
    import logging

    from bot.__main__ import configure_logging

    old = logging.getLogger("discord").level
    try:
        configure_logging("DEBUG")
        assert not logging.getLogger("discord.http").isEnabledFor(logging.DEBUG)
        assert logging.getLogger("bot.game.service").isEnabledFor(logging.DEBUG)
    finally:
        logging.getLogger("discord").setLevel(old)
        logging.getLogger().setLevel(logging.WARNING)


def test_shards_in_one_process_with_sqlite(clean_env: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.app import ShardedSmallWorldBot, SmallWorldBot, make_bot

    monkeypatch.setenv("DISCORD_TOKEN", "t")
    assert type(make_bot(Settings())) is SmallWorldBot
    monkeypatch.setenv("SHARD_COUNT", "4")
    s = Settings()
    assert s.shard_count == 4 and s.shard_id_list() is None
    bot = make_bot(s)
    assert isinstance(bot, ShardedSmallWorldBot) and bot.shard_count == 4
    monkeypatch.setenv("SHARD_IDS", "0-3")  # every shard here: fine with SQLite
    assert Settings().shard_id_list() == [0, 1, 2, 3]


def test_shards_split_over_processes_need_postgresql(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from bot.app import make_bot

    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "0,1")
    with pytest.raises(ValidationError, match="SQLite serves one process only"):
        Settings()
    assert main([]) == 2  # one line, no traceback
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "SQLite serves one process only" in err
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@db.example/sw")
    s = Settings()
    assert s.shard_id_list() == [0, 1]
    bot = make_bot(s)
    assert bot.shard_ids == [0, 1] and bot.shard_count == 4


@pytest.mark.parametrize(("count", "ids"), [("", "0"), ("2", "2"), ("2", "0,0"), ("2", "a"),
                                            ("2", "1-0")])
def test_bad_shard_settings(clean_env: Path, monkeypatch: pytest.MonkeyPatch, count: str,
                            ids: str) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@db.example/sw")
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    with pytest.raises(ValidationError):
        Settings()
def test_missing_fribidi_stops_with_one_line(clean_env: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Without raqm (no FriBiDi on the system) the bot refuses to start, saying what to install."""
    from PIL import features

    monkeypatch.setenv("DISCORD_TOKEN", "x" * 59)
    real = features.check
    monkeypatch.setattr(features, "check", lambda name: False if name == "raqm" else real(name))
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "FriBiDi" in err and "libfribidi0" in err
    assert "Traceback" not in err
