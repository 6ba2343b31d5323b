"""`python -m bot`: read the settings, start the bot, exit cleanly on a bad token."""

from __future__ import annotations

import asyncio
import logging
import sys

import aiohttp
import discord
from pydantic import ValidationError

from bot.settings import Settings

PROG = "smallworld-bot"


def _settings_problem(exc: ValidationError) -> str:
    first = exc.errors()[0]
    field = ".".join(str(p) for p in first.get("loc", ())).upper() or "settings"
    if field == "DISCORD_TOKEN" and first.get("type") == "missing":
        return "DISCORD_TOKEN is not set; put it in .env (see .env.example) or the environment"
    return f"{field}: {first.get('msg', 'invalid value')} (check .env, see .env.example)"


def configure_logging(level: str) -> None:
    """Log to stderr. discord.py stays at INFO or above even under DEBUG: its DEBUG lines
    carry request bodies, and a DM body holds a coin total (no log line may show one)."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    numeric = logging.getLevelName(level)
    logging.getLogger().setLevel(numeric)
    logging.getLogger("discord").setLevel(max(numeric, logging.INFO))


def main(argv: list[str] | None = None) -> int:
    """Run the bot until it is stopped; return the process exit code."""
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"{PROG}: {_settings_problem(exc)}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    from bot.app import run  # imported late so a settings error needs no discord setup

    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        print(f"{PROG}: Discord rejected DISCORD_TOKEN; check the token in .env", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print(f"{PROG}: enable the required intents for the bot in the developer portal",
              file=sys.stderr)
        return 1
    except (OSError, aiohttp.ClientError) as exc:
        print(f"{PROG}: cannot reach Discord ({exc.__class__.__name__}: {exc})", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
