"""Whole games through the fake Discord, played as users would (tests/e2e/driver.py): turn
panel menus and buttons, slash commands with autocomplete, survivors' prompts. Checks the map
after every turn, secret coins (DM / ephemeral fallback, exact totals), the public final
reveal, a restart in a new process, double clicks and refusals."""

from __future__ import annotations

import asyncio
from pathlib import Path

import bot_process
from driver import GameDriver, StateReader, percentile
from fakediscord import FakeDiscord, Message
from setups import make_bot, panel_game_until, users_for

import engine


async def _full_game(fake: FakeDiscord, db: Path, n: int, seed: int, mode: str,
                     autocomplete: float, check_pictures: bool = False) -> GameDriver:
    users = users_for(fake, n)
    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        driver = GameDriver(fake, fake.channel, users, reader, seed=seed, mode=mode,
                            autocomplete=autocomplete, check_pictures=check_pictures)
        await driver.open_game()
        last = await driver.play()
        assert driver.picture_checks == (driver.map_posts if check_pictures else 0)
        assert last.state.finished

        # the final reveal: public, with the picture, every true total, ranking and tie-break
        final_sent = driver.sent[-1]
        reveal = final_sent.reply
        assert not reveal.ephemeral and "final.png" in reveal.files and "map.png" in reveal.files
        truth = engine.observe(last.state, None, reveal_all=True)
        ranking = truth["ranking"]
        assert [r["rank"] for r in ranking] == sorted(r["rank"] for r in ranking)
        for r in ranking:
            assert f"**{r['player']}** — {r['total']} coin" in reveal.content, (r, reveal.content)
        assert "Ties on coins are broken by" in reveal.content

        # nothing public before the reveal shows a coin total or an income
        assert driver.public_leaks(before=reveal.created_at) == []
        assert driver.public_leaks()  # the detector sees the totals once they are revealed
        # every ended turn posted the map; every scoring reached its owner
        n_turns = sum(1 for t in driver.turns)
        assert driver.map_posts >= n_turns - 1 and driver.map_posts > 0
        assert driver.coin_checks >= n_turns - n  # the last round's scores come with the reveal
        routes = {s.route for s in driver.sent}
        assert routes == {"panel", "slash"}, routes
        verbs = {s.action["do"] for s in driver.sent}
        assert {"pick", "conquer", "end"} <= verbs
        assert not fake.unanswered()
    assert not fake.client_errors
    return driver


def _turn_report(driver: GameDriver, label: str) -> None:
    """Interactions per turn: every action costs one gesture (no menus to open first), so a
    turn with four conquests, one redeployment and End is six."""
    for t in driver.turns:
        closing = sum(v in ("end", "decline") for v in t.verbs)
        pick = t.verbs.count("pick")
        other = t.gestures - t.conquests - t.redeploys - closing - pick
        assert other >= 0
    four = [t for t in driver.turns if t.conquests == 4 and "pick" not in t.verbs]
    typical = [t for t in four if t.redeploys <= 1 and t.verbs[-1] in ("end", "decline")]
    gestures = [t.gestures for t in typical]
    total = [t.gestures + t.autocompletes for t in typical]
    print(f"\nTURN_INTERACTIONS {label}: turns={len(driver.turns)}, with 4 conquests={len(four)}; "
          f"4 conquests + <=1 redeploy + end: n={len(typical)} gestures={sorted(gestures)} "
          f"incl. autocomplete={sorted(total)} "
          f"panel-only={[t.gestures for t in typical if t.panel_only]}")
    assert all(t.gestures <= 6 for t in typical if t.panel_only)
    ends = driver.latencies["end_turn"]
    acts = driver.latencies["action"]
    print(f"LATENCY {label}: action p50={percentile(acts, 50) * 1000:.0f}ms "
          f"p99={percentile(acts, 99) * 1000:.0f}ms n={len(acts)}; end turn "
          f"p50={percentile(ends, 50) * 1000:.0f}ms p99={percentile(ends, 99) * 1000:.0f}ms "
          f"n={len(ends)}")


async def test_two_player_game_through_the_panel(fake_discord: FakeDiscord,
                                                 tmp_path: Path) -> None:
    driver = await _full_game(fake_discord, tmp_path / "g2.db", 2, seed=11, mode="panel",
                              autocomplete=1.0, check_pictures=True)
    _turn_report(driver, "2p panel")
    panel_share = sum(s.route == "panel" for s in driver.sent) / len(driver.sent)
    assert panel_share > 0.8  # the panel offers almost every action a turn needs


async def test_five_player_game_with_slash_commands(fake_discord: FakeDiscord,
                                                    tmp_path: Path) -> None:
    driver = await _full_game(fake_discord, tmp_path / "g5.db", 5, seed=5, mode="mixed",
                              autocomplete=0.5)
    _turn_report(driver, "5p mixed")
    slashes = [s for s in driver.sent if s.route == "slash"]
    assert len(slashes) > 50


async def test_closed_dms_get_the_coins_ephemerally(fake_discord: FakeDiscord,
                                                    tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "dm.db"
    users = users_for(fake, 2)
    for u in users:
        fake.close_dms(u)
    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        driver = GameDriver(fake, fake.channel, users, reader, seed=3, mode="mixed",
                            autocomplete=0.3)
        await driver.open_game()
        await driver.play(until=lambda loaded: loaded.state.round >= 3)
        assert driver.coin_checks >= 4  # each ephemeral fallback carried the exact total
        for u in users:
            assert not fake.dms_to(u)
        assert driver.public_leaks() == []
    assert not fake.client_errors


async def test_restart_in_a_new_process_continues_the_game(fake_discord: FakeDiscord,
                                                           tmp_path: Path) -> None:
    """First half with the bot in this process, then `python -m bot` as a subprocess on the
    same SQLite file (settings DISCORD_API_BASE/DISCORD_GATEWAY point it at the fake)."""
    fake = fake_discord
    db = tmp_path / "restart.db"
    users = users_for(fake, 2)
    async with StateReader(db) as reader:
        async with fake.running(make_bot(fake, db)) as bot:
            await bot.wait_until_ready()
            driver = GameDriver(fake, fake.channel, users, reader, seed=8, mode="mixed",
                                autocomplete=0.5)
            await driver.open_game()
            await driver.play(until=lambda loaded: loaded.state.round >= 2)
            # stop in the middle of a turn, after a pick or a conquest
            await driver.step()
            before = await driver.loaded()
        assert not before.state.finished and before.version > 0
        n_sessions = len(fake.sessions)
        proc = bot_process.launch(fake, db)
        try:
            await bot_process.wait_connected(fake, proc, n_sessions, timeout=30)
            resumed = await driver.loaded()
            assert resumed.version == before.version
            assert engine.dump_state(resumed.state) == engine.dump_state(before.state)
            # the old panel message still works in the new process
            panel = driver.panel_message(resumed)
            assert panel is not None
            await driver.play(until=lambda loaded: loaded.state.round >= 3)
            after = await driver.loaded()
            assert after.version > before.version + 2
            assert driver.sent[-1].interaction.reply is not None
            assert driver.public_leaks() == []
        finally:
            log = await bot_process.stop(proc, timeout=15)
        assert "Traceback" not in log and " ERROR " not in log, log[-2000:]
        assert proc.returncode == 0, log[-2000:]


def _offers_conquests(msg: Message) -> bool:
    """The actor's panel offers conquests (and End turn)."""
    return bool(any(c.endswith(":c") for c in msg.custom_ids()) and msg.find_component("End turn"))


async def test_double_click_applies_once(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "double.db"
    users = users_for(fake, 2)
    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        driver, _ = await panel_game_until(fake, reader, users, _offers_conquests, tries=50,
                                           what="conquest menu")
        loaded = await driver.loaded()
        actor = driver.user_of(loaded, loaded.state.actor)
        msg = driver.panel_message(loaded)
        cid = next(c for c in msg.custom_ids() if c.endswith(":c"))
        value = msg.component(cid)["options"][0]["value"]
        a, b = await asyncio.gather(fake.select(actor, msg, cid, [value]),
                                    fake.select(actor, msg, cid, [value]))
        ra, rb = await asyncio.gather(fake.wait_for_reply(a), fake.wait_for_reply(b))
        assert sorted([ra.ephemeral, rb.ephemeral]) == [False, True]
        bounced = ra if ra.ephemeral else rb
        assert "out of date" in bounced.content
        after = await driver.loaded()
        assert after.version == loaded.version + 1

        # the same with the End turn button (and its question when tokens are in hand)
        await fake.wait_until(lambda: driver.panel_message(after) is not None, timeout=10)
        msg = driver.panel_message(after)
        assert msg.find_component("End turn") is not None
        hand = engine.observe(after.state, None)["players"][after.state.actor]["hand"]
        if hand:
            ask = await fake.click(actor, msg, label="End turn")
            msg = await fake.wait_for_reply(ask)
            assert msg.ephemeral and msg.find_component("Yes, end turn")
        label = "Yes, end turn" if hand else "End turn"
        a, b = await asyncio.gather(fake.click(actor, msg, label=label),
                                    fake.click(actor, msg, label=label))

        def answer(i):
            return i.followups[0] if i.followups and i.reply and i.reply.ephemeral \
                and not i.reply.custom_ids() and "see the channel" in i.reply.content \
                else i.reply

        await fake.wait_until(lambda: answer(a) is not None and answer(b) is not None
                              and (answer(a).ephemeral != answer(b).ephemeral), timeout=10)
        ra, rb = answer(a), answer(b)
        assert sorted([ra.ephemeral, rb.ephemeral]) == [False, True]
        assert "out of date" in (ra if ra.ephemeral else rb).content
        final = await driver.loaded()
        assert final.version == after.version + 1
        ended = [m for m in fake.messages_in(fake.channel) if "it is your turn" in m.content
                 and m.created_at > a.sent_at]
        assert len(ended) == 1  # one turn change announced
    assert not fake.client_errors


async def test_outsider_and_wrong_turn_player_change_nothing(fake_discord: FakeDiscord,
                                                             tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "refuse.db"
    users = users_for(fake, 2)
    eve = fake.add_user("eve")
    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        driver, _ = await panel_game_until(fake, reader, users, _offers_conquests, tries=50,
                                           what="conquest menu")
        loaded = await driver.loaded()
        dump = engine.dump_state(loaded.state)
        actor = driver.user_of(loaded, loaded.state.actor)
        waiting = next(u for u in users if u["id"] != actor["id"])
        msg = driver.panel_message(loaded)
        cid = next(c for c in msg.custom_ids() if c.endswith(":c"))
        value = msg.component(cid)["options"][0]["value"]
        region = int(value.split('"region":')[1].split(",")[0].rstrip("}"))
        tries = [
            (eve, await fake.select(eve, msg, cid, [value]), "not playing"),
            (eve, await fake.click(eve, msg, label="End turn"), "not playing"),
            (eve, await fake.slash(eve, fake.channel, "sw conquer", options={"region": region}),
             "not playing"),
            (waiting, await fake.select(waiting, msg, cid, [value]), "not your turn"),
            (waiting, await fake.click(waiting, msg, label="End turn"), "not your turn"),
            (waiting, await fake.slash(waiting, fake.channel, "sw end"), "not your turn"),
        ]
        for _user, inter, words in tries:
            reply = await fake.wait_for_reply(inter)
            assert reply.ephemeral and words in reply.content, reply.content
        assert await fake.autocomplete(eve, fake.channel, "sw conquer", focused="region") == []
        assert await fake.autocomplete(waiting, fake.channel, "sw conquer",
                                       focused="region") == []
        after = await driver.loaded()
        assert after.version == loaded.version
        assert engine.dump_state(after.state) == dump
        # the real actor's click still works afterwards
        ok = await fake.select(actor, msg, cid, [value])
        assert not (await fake.wait_for_reply(ok)).ephemeral
    assert not fake.client_errors
