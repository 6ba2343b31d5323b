"""A restart in the middle of a vacation and of an open vote (issue 20), through the fake
Discord: the bot runs in-process, then as a `python -m bot` subprocess on the same SQLite
file. After the restart the table still shows who is away and until when, the vote's buttons
on the old message still count, the outcome is posted once and logged in the game's history,
and the member comes back with `/sw back`."""

from __future__ import annotations

import time
from pathlib import Path

import bot_process
import pytest
from driver import GameDriver, StateReader
from fakediscord import FakeDiscord
from long_helpers import make_bot

pytestmark = pytest.mark.slow

WORKERS = {"RENDER_PROCESSES": "1", "AI_PROCESSES": "1"}


async def test_a_vacation_and_a_vote_survive_a_restart(fake_discord: FakeDiscord,
                                                        tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "restart.db"
    ann, bob, cid = (fake.add_user(n) for n in ("ann", "bob", "cid"))
    ch = fake.channel
    async with StateReader(db) as reader:
        async with fake.running(make_bot(fake, db)) as bot:
            await bot.wait_until_ready()
            driver = GameDriver(fake, ch, [ann, bob, cid], reader, seed=7, mode="panel")
            await driver.open_game(new_options={"clock": "12h"})
            game_id = driver.game_id
            # cid goes away for two days
            away = await fake.wait_for_reply(await fake.slash(cid, ch, "sw-me away",
                                                              options={"time": "2d"}))
            assert away.ephemeral and "5 of 7 left" in away.content
            # ann calls a vote: two hours more for the turn going on
            call = await fake.slash(ann, ch, "sw-table vote",
                                    options={"kind": "time", "time": "2h"})
            vote_msg = await fake.wait_for_reply(call)
            assert not vote_msg.ephemeral
            assert "<@{}> calls a vote: add 2h to the turn going on.".format(ann["id"]) in \
                vote_msg.content and "Yes 1, no 0 of 3 seated players; 2 decide" in \
                vote_msg.content
            # a second vote while one is open: one sentence, nothing opened
            second = await fake.wait_for_reply(await fake.slash(bob, ch, "sw-table vote",
                                                                options={"kind": "pause"}))
            assert second.ephemeral and "has a vote open already" in second.content
            # bob says no first (1-1): still open
            no = await fake.click(bob, vote_msg, label="No")
            await fake.wait_for_ack(no)
            assert "Yes 1, no 1" in vote_msg.content
            before = {d.kind: d.due_at for d in await reader.store.deadlines(game_id)}
        # the bot stops with cid away and the vote open; a new process takes over
        n_sessions = len(fake.sessions)
        proc = bot_process.launch(fake, db, **WORKERS)
        try:
            await bot_process.wait_connected(fake, proc, n_sessions, timeout=60)
            status = await fake.wait_for_reply(await fake.slash(bob, ch, "sw status"),
                                               timeout=20)
            assert "🏖️ **cid** is away until <t:" in status.content
            assert "🗳️ A vote is open: add 2h to the turn going on (yes 1, 2 needed" in \
                status.content
            # cid's Yes on the old message counts: 2 of 3, the vote passes
            started = time.perf_counter()
            yes = await fake.click(cid, vote_msg, label="Yes")
            await fake.wait_for_ack(yes, timeout=20)
            outcome = await fake.wait_for_message(
                ch, lambda m: "The table voted" in m.content, timeout=20, after=started)
            assert "The table voted (2 of 3): 2h more for the turn going on." in \
                outcome.content
            assert "Passed (yes 2, no 1 of 3)" in vote_msg.content
            assert not vote_msg.custom_ids()  # the old message keeps the tally, no buttons
            after = {d.kind: d.due_at for d in await reader.store.deadlines(game_id)}
            for kind in ("turn", "half", "near"):
                if kind in before and kind in after:
                    assert after[kind] == pytest.approx(before[kind] + 7200), kind
            log = await fake.wait_for_reply(await fake.slash(bob, ch, "sw-game log"),
                                            timeout=20)
            assert "🗳️ Vote: add 2h to the turn going on — passed (yes 2, no 1)." in \
                log.content
            # cid is back: the table is told
            back = await fake.wait_for_reply(await fake.slash(cid, ch, "sw back"),
                                             timeout=20)
            assert back.ephemeral and "Welcome back" in back.content
            await fake.wait_until(lambda: any("**cid** is back." in m.content
                                              for m in fake.messages_in(ch)), timeout=20,
                                  what="the channel told that cid is back")
            await fake.wait_until(lambda: sum("The table voted" in m.content
                                              for m in fake.messages_in(ch)) == 1,
                                  timeout=5)
            loaded = await reader.loaded(int(ch["id"]))
            assert loaded.game.seat_named("cid").until is None
            assert driver.public_leaks() == []
        finally:
            log_text = await bot_process.stop(proc)
        assert "Traceback" not in log_text, log_text[-2000:]
        # the vote closed once, in the store too
        (vote,) = await reader.store.votes_of(game_id)
        assert vote.outcome == "passed" and vote.posted and vote.yes == (int(ann["id"]),
                                                                          int(cid["id"]))
    assert not fake.client_errors
