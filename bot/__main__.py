"""`python -m bot [COMMAND]`: run the bot (the default), or one of the commands below.

Every bad start ends in one line on stderr and a non-zero exit: a missing or invalid setting
(exit 2, before anything connects), a token Discord rejects, an unreachable Discord (exit 1).
Ctrl-C stops the bot cleanly (exit 0).

Database commands need no Discord token: `python -m bot migrate --from URL --to URL` copies
an installation into an empty database (e.g. SQLite to PostgreSQL), then checks the copy
and replays every game in it; `python -m bot backup PATH` makes an online copy of the SQLite
database (with PostgreSQL it prints how to use pg_dump).

To add a command: write `_cmd_NAME(args, settings) -> int` and register it in `parser()`
with `sub.add_parser(...)` and `set_defaults(run=_cmd_NAME)` (`settings=False` for one
that needs no Discord settings: it then gets None).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Callable

from pydantic import ValidationError

from bot.settings import Settings

PROG = "smallworld-bot"


def _settings_problem(exc: ValidationError) -> str:
    first = exc.errors()[0]
    field = ".".join(str(p) for p in first.get("loc", ())).upper() or "settings"
    if field == "DISCORD_TOKEN" and first.get("type") == "missing":
        return "DISCORD_TOKEN is not set; put it in .env (see .env.example) or the environment"
    msg = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
    msg = msg.removeprefix(f"{field} ")  # "DATABASE_URL must be ..." names the field already
    return f"{field}: {msg} (check .env, see .env.example)"


def configure_logging(level: str) -> None:
    """Log to stderr. discord.py stays at INFO or above even under DEBUG: its DEBUG lines
    carry request bodies, and a DM body holds a coin total (no log line may show one)."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    numeric = logging.getLevelName(level)
    logging.getLogger().setLevel(numeric)
    logging.getLogger("discord").setLevel(max(numeric, logging.INFO))


def _cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    """Connect to Discord and play until stopped."""
    import aiohttp
    import discord

    configure_logging(settings.log_level)
    from render.text import require_raqm

    try:
        require_raqm()  # pictures in Thai need complex layout: say so now, not mid-game
    except RuntimeError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    from bot.app import run  # imported late so a settings error needs no discord setup
    from bot.store import StoreError, sqlite_single_bot

    try:
        held = sqlite_single_bot(settings.database_url)  # noqa: F841 - kept until exit
    except (StoreError, OSError) as exc:
        print(f"{PROG}: cannot use the database in DATABASE_URL ({exc})", file=sys.stderr)
        return 1
    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        print(f"{PROG}: Discord rejected DISCORD_TOKEN; check the token in .env", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print(f"{PROG}: enable the required intents for the bot in the developer portal",
              file=sys.stderr)
        return 1
    except StoreError as exc:
        print(f"{PROG}: cannot use the database in DATABASE_URL ({exc})", file=sys.stderr)
        return 1
    except (OSError, aiohttp.ClientError) as exc:
        print(f"{PROG}: cannot reach Discord ({exc.__class__.__name__}: {exc})", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


def _database_url(given: str | None) -> str:
    """--database, else DATABASE_URL from the environment or .env, else the default."""
    if given:
        return given
    if os.environ.get("DATABASE_URL"):
        return os.environ["DATABASE_URL"]
    from pydantic_settings import BaseSettings, SettingsConfigDict

    class _Db(BaseSettings):
        model_config = SettingsConfigDict(env_file=".env", extra="ignore")
        database_url: str = "sqlite:///smallworld.db"

    return _Db().database_url


def _cmd_migrate(args: argparse.Namespace, settings: Settings | None) -> int:
    """Copy every game and league into an empty database, verified by replaying every game."""
    from bot.dbtools import copy_database
    from bot.store import StoreError

    try:
        report = asyncio.run(copy_database(args.source, args.target,
                                           say=lambda s: print(f"{PROG}: {s}")))
    except (StoreError, OSError, ValueError) as exc:
        print(f"{PROG}: migrate failed, nothing was changed in the source: {exc}",
              file=sys.stderr)
        return 1
    for problem in report.problems:
        print(f"{PROG}: {problem}", file=sys.stderr)
    if report.problems:
        return 1
    print(f"{PROG}: copied {report.games} games and {report.actions} actions; verified")
    return 0


def _cmd_backup(args: argparse.Namespace, settings: Settings | None) -> int:
    """Copy the live database to a file (SQLite), or explain pg_dump (PostgreSQL)."""
    from bot.dbtools import backup
    from bot.store import StoreError

    try:
        print(f"{PROG}: " + asyncio.run(backup(_database_url(args.database), args.path)))
    except (StoreError, OSError, ValueError) as exc:
        print(f"{PROG}: backup failed: {exc}", file=sys.stderr)
        return 1
    return 0


def parser() -> argparse.ArgumentParser:
    """The command line: no command runs the bot; each subcommand sets `run`."""
    ap = argparse.ArgumentParser(
        prog="python -m bot",
        usage="%(prog)s [-h] [COMMAND ...]",
        description="Small World for Discord. Settings come from the environment and .env "
                    "(every one is described in .env.example).",
    )
    ap.set_defaults(run=_cmd_run)
    sub = ap.add_subparsers(title="commands", metavar="COMMAND")
    run = sub.add_parser("run", help="run the bot (the default without a command)",
                         description=_cmd_run.__doc__)
    run.set_defaults(run=_cmd_run)
    demo = sub.add_parser("demo", help="play a whole AI game without Discord and write it as "
                          "one HTML page (no token needed)", description=_demo_description())
    _demo_arguments(demo)
    demo.set_defaults(run=_cmd_demo, settings=False)
    mig = sub.add_parser("migrate", help="copy all games and leagues into an empty database",
                         description=_cmd_migrate.__doc__)
    mig.add_argument("--from", dest="source", required=True, metavar="URL",
                     help="the installation to copy, e.g. sqlite:///smallworld.db")
    mig.add_argument("--to", dest="target", required=True, metavar="URL",
                     help="an empty database, e.g. postgresql://user@host/smallworld")
    mig.set_defaults(run=_cmd_migrate, settings=False)
    bak = sub.add_parser("backup", help="copy the live database to a file",
                         description=_cmd_backup.__doc__)
    bak.add_argument("path", help="the backup file to write (must not exist)")
    bak.add_argument("--database", metavar="URL",
                     help="default: DATABASE_URL from the environment or .env")
    bak.set_defaults(run=_cmd_backup, settings=False)
    return ap


def _demo_description() -> str:
    from bot.demo import DESCRIPTION

    return DESCRIPTION


def _demo_arguments(ap: argparse.ArgumentParser) -> None:
    from bot.demo import add_arguments

    add_arguments(ap)


def _cmd_demo(args: argparse.Namespace, settings: Settings | None) -> int:
    """An AI game through the bot's service, store and pictures, as an HTML page."""
    from bot import demo

    return demo.run(args)


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, read the settings, run the command; return the exit code."""
    args = parser().parse_args(argv)
    command: Callable[[argparse.Namespace, Settings | None], int] = args.run
    if getattr(args, "settings", True) is False:  # a database command: no Discord settings
        return command(args, None)
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"{PROG}: {_settings_problem(exc)}", file=sys.stderr)
        return 2
    settings.export()
    try:
        return command(args, settings)
    except KeyboardInterrupt:  # Ctrl-C before the bot's own handling is in place
        return 0


if __name__ == "__main__":
    sys.exit(main())
