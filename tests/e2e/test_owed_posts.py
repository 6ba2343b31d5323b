"""The channel is owed its posts as members are owed their DMs: a bot killed right after it
answered "Done — see the channel." (the action committed, the turn post not yet made) posts
that turn at its next start, with a panel that works, and the old panel loses its buttons.

The bot runs as `python -m bot` subprocesses on one SQLite file; the fake Discord kills the
first one (SIGKILL) the moment it records the "Done" answer, before the bot hears back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import bot_process
import pytest
from driver import GameDriver, StateReader
from fakediscord import FakeDiscord
from setups import make_bot, users_for

import engine
from bot.game.results import Loaded

DONE = "Done — see the channel."
WORKERS = {"RENDER_PROCESSES": "1", "AI_PROCESSES": "1"}
pytestmark = pytest.mark.slow


async def _decline_point(driver: GameDriver) -> Loaded:
    """Play on until the member to act can decline (her panel shows "Decline…")."""
    for _ in range(200):
        loaded = await driver.loaded()
        msg = driver.panel_message(loaded)
        if (not loaded.state.finished and loaded.state.round >= 2 and msg is not None
                and msg.find_component("Decline…")):
            return loaded
        await driver.step()
    raise AssertionError("no decline came up")


async def test_a_turn_whose_post_died_with_the_bot_is_posted_at_the_next_start(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "owed.db"
    users = users_for(fake, 3)
    async with StateReader(db) as reader:
        async with fake.running(make_bot(fake, db)) as bot:
            await bot.wait_until_ready()
            driver = GameDriver(fake, fake.channel, users, reader, seed=5, mode="panel")
            await driver.open_game()
            loaded = await _decline_point(driver)
        first = bot_process.launch(fake, db, **WORKERS)
        killed: list[Any] = []

        def kill_on_done(inter: Any) -> None:
            if not killed and DONE in str((inter.callback_data or {}).get("content", "")):
                first.kill()  # the answer is recorded; nothing after it reaches Discord
                killed.append(inter)

        fake.callback_hooks.append(kill_on_done)
        try:
            await bot_process.wait_connected(fake, first, len(fake.sessions), timeout=60)
            panel = driver.panel_message(loaded)
            assert panel is not None
            actor = driver.user_of(loaded, loaded.state.actor)
            ask = await fake.click(actor, panel, panel.find_component("Decline…")["custom_id"])
            question = await fake.wait_for_reply(ask, timeout=20)
            assert question.ephemeral and question.find_component("Yes, decline")
            n_public = len(fake.messages_in(fake.channel))
            before_ids = {m.id for m in fake.messages_in(fake.channel)}
            await fake.click(actor, question, question.find_component("Yes, decline")["custom_id"])
            await fake.wait_until(lambda: killed and first.poll() is not None, timeout=20,
                                  what="the bot killed right after its Done")
        finally:
            fake.callback_hooks.remove(kill_on_done)
            await bot_process.stop(first)
        # the decline is committed (the turn ended), but the channel never heard of it
        after = await driver.loaded()
        assert after.version > loaded.version and after.state.actor != loaded.state.actor
        assert len(fake.messages_in(fake.channel)) == n_public
        assert driver.panel_message(after) is None  # no panel for the new position yet

        second = bot_process.launch(fake, db, **WORKERS)
        try:
            await bot_process.wait_connected(fake, second, len(fake.sessions), timeout=60)
            # within seconds of the start: the turn post, with the map and a current panel
            post = await fake.wait_for_message(
                fake.channel, lambda m: m.id not in before_ids and "map.png" in m.files,
                timeout=30)
            now = await driver.loaded()
            assert driver.panel_message(now) is post
            assert engine.dump_state(now.state) == engine.dump_state(after.state)
            declined = loaded.state.actor
            assert declined in post.content  # the summary tells of the decline
            await fake.wait_until(lambda: len(driver.live_messages()) == 1, timeout=10,
                                  what="only the new post keeps buttons")
            # and the game goes on from that panel
            for _ in range(3):
                await driver.step()
            assert (await driver.loaded()).version > now.version
        finally:
            log = await bot_process.stop(second)
        assert "Traceback" not in log, log[-2000:]
    assert not fake.client_errors
