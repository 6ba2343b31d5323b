"""The long game through the fake Discord with the real client (issue 20): a member who is
away has standing orders, so her survivors are placed the moment she is attacked and she is
told by DM; her turn DM brings her catch-up with its map; the first private reply of another
member's turn brings hers; `/sw-me catchup` any time. Every public and private text is
scanned for coins that are not its reader's own."""

from __future__ import annotations

from pathlib import Path

from driver import GameDriver, StateReader
from fakediscord import FakeDiscord
from long_helpers import leaks_of, make_bot, scenario_game, spec, transcript

import engine

CONFIRM = ("Yes, end turn", "Yes, decline")


async def _yes(fake: FakeDiscord, user: dict, reply) -> None:
    """Say yes to an End or Decline that asks first."""
    for label in CONFIRM:
        button = reply.find_component(label)
        if reply.ephemeral and button:
            inter = await fake.click(user, reply, button["custom_id"])
            await fake.wait_until(lambda i=inter: i.followups or i.reply, timeout=20,
                                  what="the answer to a confirmation")
            return


async def test_orders_while_away_and_the_catch_up(fake_discord: FakeDiscord,
                                                  tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "orders.db"
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    ch = fake.channel
    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        # bob wants turn DMs and has standing orders: spread his survivors
        for command, options in (("sw-me notify", {"on": True}),
                                 ("sw-me orders", {"survivors": "spread"})):
            said = await fake.wait_for_reply(await fake.slash(bob, ch, command,
                                                              options=options))
            assert said.ephemeral
        assert "Standing orders: spread" in said.content
        loaded = await scenario_game(bot, spec(), {"ann": ann, "bob": bob}, ch,
                                     guild=int(fake.guild["id"]))
        game_id = loaded.game.id
        # bob goes away for a day; his reason stays his
        away = await fake.wait_for_reply(await fake.slash(
            bob, ch, "sw-me away", options={"time": "1d", "reason": "dentist"}))
        assert away.ephemeral and "You are away until <t:" in away.content
        assert "1 running game" in away.content and "6 of 7 left" in away.content
        await fake.wait_until(lambda: any("**bob** is away until" in m.content
                                          for m in fake.messages_in(ch)), timeout=10,
                              what="the channel told that bob is away")
        assert not any("dentist" in m.text for m in fake.messages_in(ch))
        # ann attacks bob's region 7 (3 Ratmen: 2 survive) and ends her turn
        done = await fake.wait_for_reply(await fake.slash(ann, ch, "sw conquer",
                                                          options={"region": 7}), timeout=20)
        assert done.ephemeral
        end = await fake.wait_for_reply(await fake.slash(ann, ch, "sw end"), timeout=20)
        await _yes(fake, ann, end)
        # bob's survivors went down at once, by his orders, and he was told by DM
        orders = await fake.wait_for_dm(bob, lambda m: "standing orders" in m.content,
                                        timeout=20)
        assert "Your standing orders (spread) placed your 2 surviving tokens: 1 on region " \
               "10, 1 on region 12." in orders.content
        after = await reader.loaded(int(ch["id"]))
        assert after.state.actor == "bob" and str(after.state.stage.value) != "survivors"
        rows = await reader.store.actions(game_id)
        assert [(r.action["region"], r.action["count"]) for r in rows
                if r.player == "bob" and r.action["do"] == "deploy"] == [(10, 1), (12, 1)]
        # his turn DM: what happened since his last move, and the map of it
        turn_dm = await fake.wait_for_dm(bob, lambda m: "it is your turn" in m.content,
                                         timeout=20)
        assert "📬" not in turn_dm.content  # no head: the DM says which game already
        assert "**ann** took your region 7." in turn_dm.content
        assert "map.png" in turn_dm.files
        alt = turn_dm.attachments[0].description or ""
        assert "The region you lost is outlined: 7." in alt
        # his clock waits for his return: the limit counts from the vacation's end
        assert not [d for d in await reader.store.deadlines(game_id) if d.kind == "turn"]
        # /sw back: the channel is told; /sw-me catchup shows the same, privately
        back = await fake.wait_for_reply(await fake.slash(bob, ch, "sw back"))
        assert back.ephemeral and "Welcome back" in back.content
        await fake.wait_until(lambda: any("**bob** is back." in m.content
                                          for m in fake.messages_in(ch)), timeout=10,
                              what="the channel told that bob is back")
        mine = await fake.wait_for_reply(await fake.slash(bob, ch, "sw-me catchup"),
                                         timeout=20)
        assert mine.ephemeral and "**ann** took your region 7." in mine.content
        assert "map.png" in mine.files
        # bob declines (asked first); ann's first private reply of her turn tells her so
        decline = await fake.wait_for_reply(await fake.slash(bob, ch, "sw decline"),
                                            timeout=20)
        await _yes(fake, bob, decline)
        await fake.wait_until(lambda: decline.ephemeral, timeout=1)
        now = await reader.loaded(int(ch["id"]))
        assert now.state.actor == "ann"
        legal = [a.model_dump(mode="json") for a in engine.legal_actions(now.state)]
        move = next(a for a in legal if a["do"] == "conquer")
        first = await fake.wait_for_reply(await fake.slash(
            ann, ch, "sw conquer", options={"region": move["region"]}), timeout=20)
        assert first.ephemeral and "Done" in first.content
        assert "📬 Since your last move in game #" in first.content
        assert "**bob**'s Forest Ratmen go into decline." in first.content
        second_move = [a for a in engine.legal_actions((await reader.loaded(int(ch["id"])))
                                                       .state)
                       if a.model_dump(mode="json")["do"] == "conquer"]
        if second_move:  # her next reply does not tell it again
            region = second_move[0].model_dump(mode="json")["region"]
            again = await fake.wait_for_reply(await fake.slash(
                ann, ch, "sw conquer", options={"region": region}), timeout=20)
            assert "📬" not in again.content
        # secrets: nothing public shows coins; no private text shows another's coins
        driver = GameDriver(fake, ch, [ann, bob], reader, seed=1)
        assert driver.public_leaks() == []
        for user, seat in ((ann, "ann"), (bob, "bob")):
            private = [m.content for m in fake.dms_to(user)] + \
                [m.content for m in fake.ephemerals_for(user)]
            assert await leaks_of(reader.store, game_id, int(user["id"]), private, seat) == []
        print("\n" + transcript([orders, turn_dm], "DM to bob"))
        print(transcript([first], "ephemeral reply to ann's first action of her turn"))
    assert not fake.client_errors
