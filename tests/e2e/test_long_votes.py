"""Seat votes through the fake Discord (issue 20): the vote is one public message with Yes and
No buttons; a majority of the seated members decides and the outcome is posted once; votes
out of place and a stranger's get one sentence and change nothing; a moderator acts alone; a
game ended by the table is scored as it stands and revealed."""

from __future__ import annotations

from pathlib import Path

from driver import GameDriver, StateReader
from fakediscord import MANAGE_GUILD, FakeDiscord
from long_helpers import make_bot, transcript

from bot.store import GameStatus


async def test_votes_at_a_table(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "votes.db"
    ann, bob, cid = (fake.add_user(n) for n in ("ann", "bob", "cid"))
    eve = fake.add_user("eve")  # not at the table
    mod = fake.add_user("modda", permissions=MANAGE_GUILD)
    ch = fake.channel
    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        driver = GameDriver(fake, ch, [ann, bob, cid], reader, seed=7, mode="panel")
        await driver.open_game(new_options={"clock": "12h"})
        game_id = driver.game_id
        for _ in range(3):
            await driver.step()
        # out of place: one sentence each, nothing opened
        for user, options, said in (
                (ann, {"kind": "resume"}, "The clock is not paused"),
                (ann, {"kind": "time"}, "Say how much time"),
                (ann, {"kind": "ai"}, "Name the member whose seat the AI should take"),
                (eve, {"kind": "pause"}, "Only the players seated at this game can vote")):
            refused = await fake.wait_for_reply(await fake.slash(user, ch, "sw-table vote",
                                                                 options=options))
            assert refused.ephemeral and said in refused.content, refused.content
        assert await reader.store.open_vote_of(game_id) is None
        # ann calls a pause; bob's Yes makes 2 of 3
        vote_msg = await fake.wait_for_reply(await fake.slash(ann, ch, "sw-table vote",
                                                              options={"kind": "pause"}))
        first_text = vote_msg.content
        stranger = await fake.wait_for_reply(await fake.click(eve, vote_msg, label="Yes"))
        assert stranger.ephemeral and "Only the players seated" in stranger.content
        await fake.wait_for_ack(await fake.click(bob, vote_msg, label="Yes"))
        outcome = await fake.wait_for_message(ch, lambda m: "The table voted" in m.content,
                                              timeout=20)
        assert "The table voted (2 of 3): the turn clock is paused until a vote resumes it." \
            in outcome.content
        assert "Passed (yes 2, no 0 of 3)" in vote_msg.content and not vote_msg.custom_ids()
        assert not [d for d in await reader.store.deadlines(game_id) if d.kind != "vote"]
        status = await fake.wait_for_reply(await fake.slash(cid, ch, "sw status"))
        assert "⏸️ The turn clock is paused (the table's vote)." in status.content
        print("\n" + transcript([vote_msg], "the vote's message (first: "
                                + first_text.replace("\n", " ") + ")"))
        print(transcript([outcome], "the outcome, posted once"))
        # play goes on while paused; then a moderator ends the game alone
        await driver.step()
        loaded = await driver.loaded()
        end = await fake.wait_for_reply(await fake.slash(mod, ch, "sw-table vote",
                                                         options={"kind": "end"}))
        assert "Vote: end the game now and score it as it stands. Passed" in end.content
        reveal = await fake.wait_for_message(ch, lambda m: "game ends now" in m.content,
                                             timeout=20)
        ranking = (await reader.store.get_game(game_id)).options["ended"]["ranking"]
        for r in ranking:
            assert f"**{r['player']}** — {r['total']} coin" in reveal.content
        game = await reader.store.get_game(game_id)
        assert game.status is GameStatus.ENDED
        assert sum("The table voted" in m.content for m in fake.messages_in(ch)) == 2
        log = await fake.wait_for_reply(await fake.slash(ann, ch, "sw-game log",
                                                         options={"count": 50}))
        assert "🗳️ Vote: pause the game's turn clock — passed (yes 2, no 0)." in log.content
        assert "🗳️ Vote: end the game now and score it as it stands — passed" in log.content
        # the coins were secret until the end: nothing public before the reveal shows any
        assert driver.public_leaks(before=reveal.created_at) == []
        assert loaded.version
    assert not fake.client_errors
