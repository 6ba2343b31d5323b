"""AI players and the turn clock through the fake Discord with the real client: a member and
three AIs of mixed levels play a whole game; a member's turn limit runs out across a restart
of the bot (a new `python -m bot` process) and the AI plays the turn; reminders arrive by DM;
after repeated timeouts the AI keeps the seat until `/sw back`."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import bot_process
import setups
from driver import GameDriver, StateReader
from fakediscord import FakeDiscord, Message

import engine
from bot.app import SmallWorldBot
from bot.game.moves import only_placement as _only_placement
from bot.store import GuildOptions

FAST = {"ai_turn_delay": 0, "clock_min_limit": "1s", "clock_survivor_limit": "2s",
        "clock_away_after": 2}


def make_bot(fake: FakeDiscord, db: Path, **overrides: object) -> SmallWorldBot:
    return setups.make_bot(fake, db, **{**FAST, **overrides})


def _ai_posts(fake: FakeDiscord) -> list[Message]:
    """What the bot posted on its own (AI turns, timeouts), not as a command's reply."""
    return [m for m in fake.messages_in(fake.channel) if m.source == "channel"]


async def test_one_member_and_three_ais_play_to_the_end(fake_discord: FakeDiscord,
                                                        tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "ai.db"
    ann = fake.add_user("ann")
    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        driver = GameDriver(fake, fake.channel, [ann], reader, seed=17, mode="mixed",
                            autocomplete=0.5, ai=("easy", "normal", "hard"))
        lobby_start = await driver.open_game()
        assert "AI (easy) 1" in lobby_start.content and "AI (hard) 3" in lobby_start.content
        last = await driver.play()
        assert last.state.finished
        reveal = await fake.wait_for_message(fake.channel, lambda m: "Final scores" in m.content,
                                             timeout=20)
        assert driver.ai_waits > 0 and driver.map_posts > 0
        posts = _ai_posts(fake)
        ai_names = [s.name for s in last.game.players if s.ai]
        assert sorted(ai_names) == ["AI (easy) 1", "AI (hard) 3", "AI (normal) 2"]
        # one post per AI turn, each with the map of the position after it
        per_ai = {n: sum(f"**{n}**'s turn ends" in m.content for m in posts) for n in ai_names}
        assert all(v >= last.state.round - 1 for v in per_ai.values()), per_ai
        turn_posts = [m for m in posts if "'s turn ends" in m.content]
        assert all("map.png" in m.files for m in turn_posts)
        # the reveal came once, with every total; nothing public showed coins before it
        assert "final.png" in reveal.files
        # a quiet channel, AI turns and their survivors included: one post per turn (AI
        # defenders placing survivors edit the living message, as members do), plus the
        # lobby and the start
        n_turns = await reader.n_turns(last.game.id)
        public = [m for m in fake.messages_in(fake.channel)
                  if m.created_at >= lobby_start.created_at]
        assert len(public) <= n_turns + 2, (len(public), n_turns)
        truth = engine.observe(last.state, None, reveal_all=True)
        for r in truth["ranking"]:
            assert f"**{r['player']}** — {r['total']} coin" in reveal.content
        assert driver.public_leaks(before=reveal.created_at) == []
        assert driver.coin_checks > 0  # the member's coins still reach her by DM
        # AI actions were stored like anyone's, without a member behind them; the member's
        # only actions without her are survivors the bot placed because they could go only
        # one way (bot.game.moves.only_placement)
        assert reader.store is not None
        rows = await reader.store.actions(last.game.id)
        assert set(ai_names) <= {r.player for r in rows if r.actor_id is None} <= {*ai_names,
                                                                                   "ann"}
        state = engine.load_state(await reader.store.snapshot(last.game.id, 0))
        for row in rows:
            if row.actor_id is None and row.player == "ann":
                forced = _only_placement(state)
                assert forced is not None and forced.model_dump(mode="json") == \
                    engine.parse_action(row.action).model_dump(mode="json"), row
            state = engine.apply(state, engine.parse_action(row.action)).state
        assert state.finished
        assert not fake.unanswered()
    assert not fake.client_errors


async def _wait_state(reader: StateReader, channel_id: int, pred, timeout: float = 60.0):
    end = time.monotonic() + timeout
    while True:
        loaded = await reader.loaded(channel_id)
        if pred(loaded):
            return loaded
        if time.monotonic() > end:
            raise AssertionError(f"state not reached; actor {loaded.state.actor}")
        await asyncio.sleep(0.05)


async def test_timeout_across_a_restart_reminders_and_back(fake_discord: FakeDiscord,
                                                           tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "clock.db"
    ann = fake.add_user("ann")
    ch = fake.channel
    limit = 8.0
    async with StateReader(db) as reader:
        async with fake.running(make_bot(fake, db)) as bot:
            await bot.wait_until_ready()
            driver = GameDriver(fake, ch, [ann], reader, seed=23, mode="panel",
                                ai=("normal",))
            # this server keeps no away days (bot.game.vacations): a turn that runs out goes
            # to the AI at once
            await reader.store.set_guild_options(int(fake.guild["id"]),
                                                 GuildOptions(away_days=0))
            await driver.open_game(new_options={"clock": "8s", "reminders": "dm"})
            # ann's first turn (after the AI's, if the AI starts): she does not move
            mine = await _wait_state(reader, int(ch["id"]),
                                     lambda lo: lo.state.actor == "ann")
            half = await fake.wait_for_dm(ann, lambda m: "it is your turn" in m.content,
                                          timeout=limit)
            assert "left" in half.content and f"<#{ch['id']}>" in half.content
            # the reminder at half her limit (the time it gives is her deadline's, so a late
            # one on a loaded host says less), while her turn is still running
            left = re.search(r"(\d+)s left", half.content)
            assert left is not None and int(left.group(1)) <= limit / 2, half.content
            assert not any("ran out of time" in m.content for m in fake.messages_in(ch))
        # the bot stops in the middle of the wait; the rest of the limit passes while it
        # is down, then a new process on the same database plays the turn at once
        assert mine.state.actor == "ann" and (await driver.loaded()).version == mine.version
        await asyncio.sleep(limit / 2 + 0.5)
        n_sessions = len(fake.sessions)
        restarted = time.perf_counter()
        proc = bot_process.launch(fake, db, AI_TURN_DELAY="0", CLOCK_MIN_LIMIT="1s",
                                  CLOCK_SURVIVOR_LIMIT="2s", CLOCK_AWAY_AFTER="2",
                                  RENDER_PROCESSES="1")
        try:
            await bot_process.wait_connected(fake, proc, n_sessions, timeout=60)
            out = await fake.wait_for_message(ch, lambda m: "ran out of time" in m.content,
                                              timeout=60)
            assert "**ann** ran out of time (8s): the AI (normal) plays this turn" in out.content
            assert "map.png" in out.files and "'s turn ends" in out.content
            # at once: the new process did not give her limit again (it would have reminded
            # her at its half first), however slowly it started on a loaded host
            assert not [m for m in fake.dms_to(ann) if restarted < m.created_at < out.created_at
                        and "it is your turn" in m.content]
            after = await driver.loaded()
            assert after.version > mine.version
            # her coins for the turn the AI played reach her by DM, not the channel
            await fake.wait_for_dm(ann, lambda m: "you now have" in m.content, timeout=10,
                                   after=out.created_at - 0.5)
            # second timeout in a row: the AI keeps the seat until she is back
            away = await fake.wait_for_message(
                ch, lambda m: "`/sw back`" in m.content, timeout=limit * 3)
            assert "After 2 missed turn limits in a row" in away.content
            await _wait_state(reader, int(ch["id"]),
                              lambda lo: lo.game.seat_named("ann").away)
            # while away her commands say how to come back
            inter = await fake.slash(ann, ch, "sw end")
            refused = await fake.wait_for_reply(inter, timeout=10)
            assert refused.ephemeral and "/sw back" in refused.content
            # /sw status shows whose turn and, on her turns, the time left
            inter = await fake.slash(ann, ch, "sw back")
            welcome = await fake.wait_for_reply(inter, timeout=10)
            assert "Welcome back" in welcome.content and not welcome.ephemeral
            back = await _wait_state(reader, int(ch["id"]),
                                     lambda lo: lo.state.actor == "ann"
                                     and not lo.game.seat_named("ann").away, timeout=30)
            # her clock is armed when the AI's turn that handed her the turn is posted, a
            # moment after that action is stored (the stint's session ends)
            end = time.monotonic() + 30
            while not any(d.seat == "ann" and d.kind == "turn"
                          for d in await reader.store.deadlines(back.game.id)):
                assert time.monotonic() < end, "ann's turn limit was never armed"
                await asyncio.sleep(0.05)
            inter = await fake.slash(ann, ch, "sw status")
            status = await fake.wait_for_reply(inter, timeout=10)
            assert "⏳ **ann**:" in status.content and "left in this turn" in status.content
            # and she plays her own turn again
            await driver.step()  # (a slash command mid-turn is answered privately)
            assert (await driver.loaded()).version > back.version
            assert driver.public_leaks() == []
            await asyncio.sleep(1.5)  # let the bot finish editing its messages before the stop
        finally:
            log = await bot_process.stop(proc)
        assert "Traceback" not in log and " ERROR " not in log, log[-2000:]


async def test_lobby_menus_bad_clock_and_mention_reminders(fake_discord: FakeDiscord,
                                                           tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "menus.db"
    ann = fake.add_user("ann")
    ch = fake.channel
    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        # a malformed limit is refused with the format, and no lobby is opened
        inter = await fake.slash(ann, ch, "sw new", options={"clock": "soon"})
        refused = await fake.wait_for_reply(inter)
        assert refused.ephemeral and "`10m`" in refused.content
        assert await reader.store.open_game(int(ch["id"])) is None
        inter = await fake.slash(ann, ch, "sw new", options={"players": 2,
                                                            "reminders": "mention"})
        lobby = await fake.wait_for_reply(inter)
        assert "Clock: no turn time limit" in lobby.content
        # the lobby's menus: a turn limit, then an AI player (the lobby message updates)
        cid = next(c for c in lobby.custom_ids() if c.startswith("sw:lc:"))
        await fake.wait_for_reply(await fake.select(ann, lobby, cid, ["10m"]))
        assert "turn time limit 10m, reminders in the channel" in lobby.content
        cid = next(c for c in lobby.custom_ids() if c.startswith("sw:la:"))
        await fake.wait_for_reply(await fake.select(ann, lobby, cid, ["hard"]))
        assert "**AI (hard) 1**" in lobby.content and lobby.find_component("Remove AI")
        # a member who is not the opener cannot add AIs
        bob = fake.add_user("bob")
        nope = await fake.wait_for_reply(await fake.select(bob, lobby, cid, ["easy"]))
        assert nope.ephemeral and "opened the lobby" in nope.content
        # /sw status in the lobby shows the clock too
        status = await fake.wait_for_reply(await fake.slash(ann, ch, "sw status"))
        assert "turn time limit 10m" in status.content
        game = await reader.store.open_game(int(ch["id"]))
        assert game.options["clock"] == {"limit": 600, "remind": "mention"}
        # Remove AI takes the AI out again
        await fake.wait_for_reply(await fake.click(ann, lobby, label="Remove AI"))
        assert "AI (hard)" not in lobby.content and not lobby.find_component("Remove AI")
    assert not fake.client_errors
