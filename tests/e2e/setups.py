"""Set-ups the e2e tests share: the bot in this process on a SQLite file, the members who
sit down, slash commands typed as a member would, and a panel game played on to a moment."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from driver import GameDriver, StateReader
from fakediscord import FakeDiscord, Message

from bot.app import SmallWorldBot
from bot.settings import Settings

NAMES = ("ann", "bob", "cid", "dee", "eli")


def make_bot(fake: FakeDiscord, db: Path, **overrides: Any) -> SmallWorldBot:
    """The real bot for `fake`, on the SQLite file `db`, no .env read; `overrides` are
    settings (e.g. ai_turn_delay=0)."""
    settings = Settings(_env_file=None, discord_token=fake.token, database_url=str(db),
                        **overrides)
    return SmallWorldBot(settings, guild_ready_timeout=0.1)


def users_for(fake: FakeDiscord, n: int) -> list[dict]:
    """The first `n` of ann, bob, cid, dee and eli, added as members."""
    return [fake.add_user(name) for name in NAMES[:n]]


def speaker(fake: FakeDiscord, channel: dict[str, Any], *, timeout: float,
            force_prefix: str | None = None) -> Callable[..., Awaitable[Message]]:
    """`say(user, command, **options)`: `user` types the slash command in `channel`; returns
    the bot's reply (waiting up to `timeout` s). Commands starting with `force_prefix` are
    sent although hidden from members by default: a server may show them to everyone
    (Integrations), and the bot must still refuse whoever may not use them."""

    async def say(user: Any, command: str, **options: Any) -> Message:
        force = force_prefix is not None and command.startswith(force_prefix)
        inter = await fake.slash(user, channel, command, options=options, force=force)
        return await fake.wait_for_reply(inter, timeout=timeout)

    return say


async def panel_game_until(fake: FakeDiscord, reader: StateReader, users: list[dict],
                           shows: Callable[[Message], Any], *, tries: int, what: str
                           ) -> tuple[GameDriver, Message]:
    """A game of `users` in the default channel, played through the turn panel (seed 21) to
    round 2 and then on, one step at a time, until the actor's panel `shows` what a test
    needs; returns the driver and that panel. Fails after `tries` steps, saying `what`."""
    driver = GameDriver(fake, fake.channel, users, reader, seed=21, mode="panel")
    await driver.open_game()
    await driver.play(until=lambda loaded: loaded.state.round >= 2)
    for _ in range(tries):
        loaded = await driver.loaded()
        msg = driver.panel_message(loaded)
        if msg is not None and shows(msg):
            return driver, msg
        await driver.step()
    raise AssertionError(f"no {what} came up")


async def game_against_an_ai(fake: FakeDiscord, channel: dict[str, Any], member: dict,
                             reader: StateReader, *, seed: int) -> tuple[GameDriver, int]:
    """`member` against one easy AI in `channel`, played through the turn panel (the lobby
    opened and the game started); returns the driver and the game's id."""
    driver = GameDriver(fake, channel, [member], reader, seed=seed, mode="panel", ai=("easy",))
    await driver.open_game()
    return driver, (await driver.loaded()).game.id
