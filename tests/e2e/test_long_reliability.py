"""The away-day bank and reliability through the fake Discord (issue 20): a moderator sets
the server's bank; a member's turn that runs out spends an away day before the AI takes over
(the channel says until when); a turn skipped by a moderator counts as missed; `/sw-me
profile` shows her record; a table that asks for reliability refuses her Join with her figure
and the requirement, and changes nothing."""

from __future__ import annotations

import time
from pathlib import Path

from driver import StateReader
from fakediscord import MANAGE_GUILD, FakeDiscord
from long_helpers import make_bot

FAST = {"ai_turn_delay": 0, "clock_min_limit": "1s", "clock_survivor_limit": "2s"}


async def test_the_bank_a_missed_turn_the_profile_and_a_table_that_asks(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "rel.db"
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    mod = fake.add_user("modda", permissions=MANAGE_GUILD)
    ch = fake.channel
    other = fake.add_channel("second")
    async with fake.running(make_bot(fake, db, **FAST)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        server = await fake.wait_for_reply(await fake.slash(mod, ch, "sw-mod server",
                                                            options={"away_days": 1}))
        assert "each member may spend 1 in any 30 days" in server.content
        # ann and an AI; ann's 2s turn runs out: her one away day gives her a day more
        lobby = await fake.wait_for_reply(await fake.slash(
            ann, ch, "sw new", options={"players": 2, "seed": 5, "clock": "2s"}))
        cid = next(c for c in lobby.custom_ids() if c.startswith("sw:la:"))
        await fake.wait_for_reply(await fake.select(ann, lobby, cid, ["normal"]))
        await fake.wait_for_ack(await fake.click(ann, lobby, label="Start"))
        await fake.wait_until(
            lambda: any("one of their away days" in m.content for m in fake.messages_in(ch)),
            timeout=60, what="an away day spent")
        line = next(m.content for m in fake.messages_in(ch) if "one of their away days" in
                    m.content)
        assert f"**ann** ran out of time: one of their away days gives <@{ann['id']}> until" \
               in line and "(0 days left in the bank)" in line
        loaded = await reader.loaded(int(ch["id"]))
        assert loaded.state.actor == "ann"  # not the AI's to play yet
        turn = next(d for d in await reader.store.deadlines(loaded.game.id)
                    if d.kind == "turn")
        assert 86000 < turn.due_at - time.time() <= 86400
        # her bank is spent: a vacation is refused with the days it takes and those left;
        # a time nobody can read too; neither changes anything
        for options, said in (({"time": "2d"}, "That takes 2 away days, and you have 0 left "
                                               "of the 1 this server allows in any 30 days."),
                              ({"time": "soon"}, "`soon` is not a time I can read"),
                              ({"time": "20m"}, "A vacation lasts at least an hour.")):
            refused = await fake.wait_for_reply(await fake.slash(ann, ch, "sw-me away",
                                                                 options=options))
            assert refused.ephemeral and said in refused.content, refused.content
        assert await reader.store.vacation_at(int(fake.guild["id"]), int(ann["id"]),
                                              time.time()) is None
        # a moderator skips her turn: missed
        await fake.wait_for_reply(await fake.slash(mod, ch, "sw-mod skip"), timeout=20)
        profile = await fake.wait_for_reply(await fake.slash(ann, ch, "sw-me profile"))
        assert profile.ephemeral
        assert "0 turns played, 1 missed, 0 played for them while away" in profile.content
        assert "Missed 1 of their last 1 turn (100%)." in profile.content
        assert "Vacations: 1." in profile.content  # the away day her turn spent
        # bob's table asks for at most 10% missed: ann's Join is refused, with her figure
        table = await fake.wait_for_reply(await fake.slash(bob, other, "sw new",
                                                           options={"players": 3}))
        rules = await fake.wait_for_reply(await fake.slash(
            bob, other, "sw-table settings", options={"max_missed": 10, "vacations": "ai"}))
        assert "to join, at most 10% of the last 50 turns missed" in rules.content
        assert "while a player is away, the AI plays their turns" in rules.content
        refused = await fake.wait_for_reply(await fake.click(ann, table, label="Join"))
        assert refused.ephemeral
        assert "This table asks for at most 10% of the last 50 turns missed; you missed 1 " \
               "of your last 1 (100%)." in refused.content
        game = await reader.store.open_game(int(other["id"]))
        assert [s.user_id for s in game.players] == [int(bob["id"])]
        # and ann may read bob's (empty) record
        theirs = await fake.wait_for_reply(await fake.slash(ann, ch, "sw-me profile",
                                                            options={"member": bob}))
        assert "has no turns, vacations or games left on this server yet" in theirs.content
    assert not fake.client_errors
