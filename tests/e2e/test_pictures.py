"""The bot's picture shortcuts (bot/pictures.py): the end-of-turn map drawn ahead while the player
redeploys, and the cached combo row, must be exactly the pictures of the new state."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from driver import GameDriver, StateReader
from fakediscord import FakeDiscord
from test_full_games import make_bot, users_for

import engine
import render
from bot import pictures


async def test_end_turn_map_drawn_ahead_is_the_right_picture(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    db = tmp_path / "ahead.db"
    # guessing is judged by what it bought lately: start this bot with no history
    monkeypatch.setattr(pictures, "stats", pictures.Drawings())
    users = users_for(fake, 3)
    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        driver = GameDriver(fake, fake.channel, users, reader, seed=2, mode="panel",
                            check_pictures=True)
        await driver.open_game()
        hits = held = 0
        for _ in range(400):
            loaded = await driver.loaded()
            if loaded.state.finished:
                break
            obs = engine.observe(loaded.state, None)
            verbs = {a.model_dump(mode="json")["do"] for a in engine.legal_actions(loaded.state)}
            last = driver.sent[-1].action["do"] if driver.sent else None
            if (obs["stage"] == "redeploy" and "end" in verbs and last in ("deploy", "move")
                    and loaded.state.actor == obs["current"]
                    and not obs["players"][loaded.state.actor]["hand"]):
                # the redeployment's reply went out; the bot draws the end-of-turn map now
                await fake.wait_until(lambda: pictures.ahead_idle() and pictures.render_idle(),
                                      timeout=10, what="the map drawn ahead")
                calls: list[int] = []
                real = render.observation_png  # what a drawer draws a map with

                def counting(*args, _real=real, _calls=calls, **kwargs):
                    _calls.append(1)
                    return _real(*args, **kwargs)

                monkeypatch.setattr(render, "observation_png", counting)
                sent = await driver.send(loaded, {"do": "end", "player": loaded.state.actor},
                                         route="panel")
                monkeypatch.setattr(render, "observation_png", real)
                assert calls == []  # posted from the picture drawn ahead
                after = await driver.loaded()
                await driver._check_pictures(loaded, after, sent)  # and it is the right one
                hits += 1
                if hits >= 3 and held:
                    break
            elif (obs["stage"] == "redeploy" and "end" in verbs and last in ("deploy", "move")
                    and loaded.state.actor == obs["current"] and held < 2):
                # tokens still in hand: the player deploys them next, nothing is guessed
                before = pictures.stats.ahead["end"]
                await asyncio.sleep(pictures.GUESS_SETTLE + 0.3)
                await fake.wait_until(lambda: pictures.ahead_idle() and pictures.render_idle(),
                                      timeout=10, what="no guess")
                assert pictures.stats.ahead["end"] == before
                held += 1
                await driver.step()
            else:
                await driver.step()
        assert hits >= 3, "no redeploy-then-end turns came up"
        assert held, "no redeploy with tokens in hand came up"
        assert driver.picture_checks >= hits
    assert not fake.client_errors


async def test_reply_defers_only_when_pictures_are_slow(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An end of turn whose map is ready answers at once with it (one message, no "thinking");
    one whose map is slow is deferred first, well inside Discord's 3 s, then carries it."""
    from bot.chat import announce

    fake = fake_discord
    db = tmp_path / "defer.db"
    users = users_for(fake, 2)
    monkeypatch.setattr(announce, "DEFER_AFTER", 0.3)
    real = pictures._render
    slow = {"on": False}

    async def maybe_slow(name, *args, **kwargs):
        if slow["on"] and name == "map_png":
            await asyncio.sleep(0.8)
        return await real(name, *args, **kwargs)

    monkeypatch.setattr(pictures, "_render", maybe_slow)
    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        driver = GameDriver(fake, fake.channel, users, reader, seed=3, mode="slash")
        await driver.open_game()
        kinds: dict[bool, set[int]] = {False: set(), True: set()}
        for _ in range(300):
            loaded = await driver.loaded()
            if loaded.state.finished or (kinds[False] and kinds[True]):
                break
            verbs = {a.model_dump(mode="json")["do"] for a in engine.legal_actions(loaded.state)}
            obs = engine.observe(loaded.state, None)
            if "end" in verbs and loaded.state.actor == obs["current"] \
                    and not obs["players"][loaded.state.actor]["hand"]:  # (else End asks first)
                slow["on"] = bool(kinds[False])  # first a fast end, then a slow one
                pictures._MAPS.clear()  # no picture drawn ahead: the map is drawn now
                sent = await driver.send(loaded, {"do": "end", "player": loaded.state.actor},
                                         route="slash")
                assert "map.png" in sent.reply.files
                kinds[slow["on"]].add(sent.interaction.callback_type)
                assert sent.interaction.reply_latency < 3
            else:
                await driver.step()
        assert kinds[False] == {4}  # CHANNEL_MESSAGE_WITH_SOURCE: answered with the map
        assert kinds[True] == {5}  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, then the followup
