"""The real bot against the fake Discord: lobby, a full first turn through menus and buttons,
a stale click, coins by DM (and the ephemeral fallback), /sw score, a restart mid-game."""

from __future__ import annotations

import re
from pathlib import Path

from fakediscord import MANAGE_GUILD, CommandError, FakeDiscord, Message
from setups import make_bot

from bot.app import SmallWorldBot


def _menu(msg: Message, kind: str) -> dict:
    cid = next(c for c in msg.custom_ids() if c.startswith("sw:s:") and c.endswith(f":{kind}"))
    return msg.component(cid)


async def _lobby_started(fake: FakeDiscord, ann, bob) -> Message:
    ch = fake.channel
    inter = await fake.slash(ann, ch, "sw new", options={"players": 2, "seed": 4})
    lobby = await fake.wait_for_reply(inter)
    assert "lobby" in lobby.content.lower() and lobby.find_component("Join")
    joined = await fake.click(bob, lobby, label="Join")
    await fake.wait_for_reply(joined)
    assert f"<@{bob['id']}>" in lobby.content  # the lobby message was updated in place
    start = await fake.click(ann, lobby, label="Start")
    await fake.wait_for_ack(start)
    return await fake.wait_for_message(ch, lambda m: "it is your turn" in m.content, timeout=10)


async def test_first_turn_through_the_panel(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    users = {"ann": fake.add_user("ann"), "bob": fake.add_user("bob")}
    ch = fake.channel
    async with fake.running(make_bot(fake, tmp_path / "e2e.db")) as bot:
        await bot.wait_until_ready()
        panel = await _lobby_started(fake, users["ann"], users["bob"])
        assert {"map.png", "combos.png"} <= set(panel.files)
        first_id = re.search(r"<@(\d+)>, it is your turn", panel.content).group(1)
        first = next(u for u in users.values() if u["id"] == first_id)
        other = next(u for u in users.values() if u["id"] != first_id)

        # the other player may not use the panel
        pick = _menu(panel, "p")
        nope = await fake.select(other, panel, pick["custom_id"], [pick["options"][0]["value"]])
        refusal = await fake.wait_for_reply(nope)
        assert refusal.ephemeral and "not your turn" in refusal.content

        # pick the free combo through the menu
        inter = await fake.select(first, panel, pick["custom_id"], [pick["options"][0]["value"]])
        after_pick = await fake.wait_for_reply(inter)
        assert "picks the" in after_pick.content and not after_pick.ephemeral
        # the panel was edited in place: the pick menu of the old version is gone
        assert after_pick.id == panel.id and not any(c.endswith(":p") for c in panel.custom_ids())
        assert pick["custom_id"] not in panel.custom_ids()
        assert list(panel.files) == ["map.png"]  # the row picture went with the pick

        # conquer through /sw conquer with autocomplete (legal targets with their cost): the
        # player hears privately, and the game's living message is edited
        choices = await fake.autocomplete(first, ch, "sw conquer", focused="region", value="")
        assert choices and all("token" in c["name"] for c in choices)
        inter = await fake.slash(first, ch, "sw conquer", options={"region": choices[0]["value"]})
        conquered = await fake.wait_for_reply(inter)
        assert conquered.ephemeral
        assert f"conquer region {choices[0]['value']}" in conquered.content
        await fake.drain(bot)
        assert f"conquer region {choices[0]['value']}" in panel.content
        assert len(fake.messages_in(ch)) == 2  # the lobby and the one living message

        # deploy the rest from the panel menu, then end the turn with the button
        deploy = _menu(panel, "d")
        inter = await fake.select(first, panel, deploy["custom_id"],
                                  [deploy["options"][0]["value"]])
        deployed = await fake.wait_for_reply(inter)
        inter = await fake.click(first, deployed, label="End turn")
        await fake.wait_for_ack(inter)
        turn2 = await fake.wait_for_message(
            ch, lambda m: f"<@{other['id']}>, it is your turn" in m.content, timeout=10)
        assert "map.png" in turn2.files
        assert not re.search(r"\d+ coins", turn2.content)  # no coin totals in public

        dm = await fake.wait_for_dm(first, timeout=5)
        assert "you now have" in dm.content
        coins = int(re.search(r"you now have \*\*(\d+)\*\*", dm.content).group(1))

        # /sw score: ephemeral, same number
        inter = await fake.slash(first, ch, "sw score")
        score = await fake.wait_for_reply(inter)
        assert score.ephemeral and f"**{coins}** coins" in score.content
        inter = await fake.slash(first, fake.dm_channel(first), "sw score")
        in_dm = await fake.wait_for_reply(inter)
        assert f"**{coins}** coins" in in_dm.content and f"<#{ch['id']}>" in in_dm.content

        # nobody's public message carries the coin total sentence
        for msg in fake.messages_in(ch):
            assert "you now have" not in msg.content
    assert not fake.client_errors


async def test_closed_dms_fall_back_to_ephemeral_and_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    users = {"ann": fake.add_user("ann"), "bob": fake.add_user("bob")}
    ch = fake.channel
    db = tmp_path / "restart.db"
    async with fake.running(make_bot(fake, db)) as bot:
        await bot.wait_until_ready()
        panel = await _lobby_started(fake, users["ann"], users["bob"])
        first_id = re.search(r"<@(\d+)>, it is your turn", panel.content).group(1)
        first = next(u for u in users.values() if u["id"] == first_id)
        pick = _menu(panel, "p")
        inter = await fake.select(first, panel, pick["custom_id"], [pick["options"][0]["value"]])
        after_pick = await fake.wait_for_reply(inter)
        assert after_pick.id == panel.id  # edited in place
    # restart: a new bot process on the same database; the old panel's buttons still work
    async with fake.running(make_bot(fake, db)) as bot:
        await bot.wait_until_ready()
        fake.close_dms(first)
        inter = await fake.click(first, after_pick, label="End turn")
        question = await fake.wait_for_reply(inter)  # every token is still in hand: it asks
        assert question.ephemeral and "in hand" in question.content
        await fake.click(first, question, label="Yes, end turn")
        await fake.wait_until(
            lambda: any("you now have" in m.content for m in fake.ephemerals_for(first)),
            timeout=10, what="the ephemeral coin fallback")
        assert not fake.dms_to(first)
        status = await fake.slash(first, ch, "sw status", options={"public": True})
        reply = await fake.wait_for_reply(status)
        assert "round 1/" in reply.content  # the game survived the restart
    assert not fake.client_errors


async def test_moderator_skips_to_the_final_reveal(fake_discord: FakeDiscord,
                                                   tmp_path: Path) -> None:
    fake = fake_discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    mod = fake.add_user("mia", permissions=MANAGE_GUILD)
    ch = fake.channel
    async with fake.running(make_bot(fake, tmp_path / "end.db")) as bot:
        await bot.wait_until_ready()
        await _lobby_started(fake, ann, bob)
        # the moderator tools are hidden from a player without Manage Server, and if a server
        # shows them anyway (integration settings), the bot still refuses
        try:
            await fake.slash(ann, ch, "sw-mod skip")
        except CommandError as exc:
            assert "hidden" in str(exc)
        else:
            raise AssertionError("/sw-mod was shown to a member")
        inter = await fake.slash(ann, ch, "sw-mod skip", force=True)
        refusal = await fake.wait_for_reply(inter)
        assert refusal.ephemeral and "moderators" in refusal.content.lower()
        for _ in range(60):
            inter = await fake.slash(mod, ch, "sw-mod skip")
            reply = await fake.wait_for_reply(inter, timeout=10)
            if "Final scores" in reply.content:
                break
        else:
            raise AssertionError("the game did not end")
        assert "final.png" in reply.files
        waits = [i.callback_at - i.sent_at for i in fake.interactions.values() if i.callback_at]
        assert waits and max(waits) < 3.0
        print(f"\nE2E_ACK n={len(waits)} max={max(waits) * 1000:.0f}ms "
              f"median={sorted(waits)[len(waits) // 2] * 1000:.0f}ms")
        assert "1. **" in reply.content and "coin" in reply.content
        inter = await fake.slash(ann, ch, "sw status")
        after = await fake.wait_for_reply(inter)
        assert after.ephemeral and "/sw new" in after.content
        # the finished game's map and log stay available
        inter = await fake.slash(bob, ch, "sw map")
        shown = await fake.wait_for_reply(inter, timeout=10)
        assert "map.png" in shown.files
        # /sw score in a DM lists no finished game
        inter = await fake.slash(ann, fake.dm_channel(ann), "sw score")
        dm_score = await fake.wait_for_reply(inter)
        assert "not playing" in dm_score.content
    assert not fake.client_errors


async def test_undo_button_and_stale_buttons(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    users = {"ann": fake.add_user("ann"), "bob": fake.add_user("bob")}
    ch = fake.channel
    async with fake.running(make_bot(fake, tmp_path / "undo.db")) as bot:
        await bot.wait_until_ready()
        inter = await fake.slash(users["ann"], ch, "sw new", options={"players": 2, "seed": 9})
        lobby = await fake.wait_for_reply(inter)
        await fake.wait_for_reply(await fake.slash(users["bob"], ch, "sw join"))
        # only the opener (or a moderator) may start
        nope = await fake.click(users["bob"], lobby, label="Start")
        refusal = await fake.wait_for_reply(nope)
        assert refusal.ephemeral and "opened the lobby" in refusal.content
        inter = await fake.slash(users["ann"], ch, "sw start")
        started = await fake.wait_for_reply(inter, timeout=10)
        first_id = re.search(r"<@(\d+)>, it is your turn", started.content).group(1)
        first = next(u for u in users.values() if u["id"] == first_id)
        other = next(u for u in users.values() if u["id"] != first_id)

        # the pick autocomplete shows the row with costs; slot 1 is free
        choices = await fake.autocomplete(first, ch, "sw pick", focused="slot", value="")
        assert len(choices) == 6 and "free" in choices[0]["name"]
        pick = _menu(started, "p")
        await fake.wait_for_reply(await fake.slash(first, ch, "sw pick", options={"slot": 1}))
        # the start message is the living panel: its pick menu and row picture were edited away
        await fake.drain(bot)
        assert pick["custom_id"] not in started.custom_ids()
        assert list(started.files) == ["map.png"] and started.attachments[0].description
        # someone else's conquer autocomplete is empty
        assert await fake.autocomplete(other, ch, "sw conquer", focused="region") == []
        targets = await fake.autocomplete(first, ch, "sw conquer", focused="region")
        inter = await fake.slash(first, ch, "sw conquer", options={"region": targets[0]["value"]})
        await fake.wait_for_reply(inter)
        await fake.drain(bot)
        assert started.find_component("Undo")
        undo = await fake.click(first, started, label="Undo")
        undone = await fake.wait_for_reply(undo)
        assert "took back" in undone.content and not undone.ephemeral
        assert undone.id == started.id and not started.find_component("Undo")
        # a rule break is an ephemeral sentence that says what to do
        inter = await fake.slash(first, ch, "sw deploy", options={"region": 0, "count": 30})
        broken = await fake.wait_for_reply(inter)
        assert broken.ephemeral and "/sw status" in broken.content
    assert not fake.client_errors


async def _play_until_end_leaves_survivors(bot: SmallWorldBot, channel_id: int, seed: int):
    """Drive the game through the service (no Discord) until the actor's `end` would make an
    opponent place survivors; return (attacker user id, defender user id)."""
    import random

    import engine

    service = bot.service
    rng = random.Random(seed)
    for _ in range(3000):
        loaded = await service.view(channel_id)
        state, game = loaded.state, loaded.game
        legal = [a.model_dump(mode="json") for a in engine.legal_actions(state)]
        end = next((a for a in legal if a["do"] == "end"), None)
        if end and state.actor == state.players[state.current]:
            trial = engine.apply(state, engine.parse_action(end))
            waiting = [e for e in trial.events if e["type"] == "must_place" and "tokens" in e]
            pending = engine.observe(trial.state, None)["pending"]
            if waiting and len(pending[0].get("regions", [])) >= 2:  # else placed by the bot
                return (game.seat_named(state.actor).user_id,
                        game.seat_named(waiting[0]["player"]).user_id)
        obs = engine.observe(state, None)
        hostile = [a for a in legal if a["do"] == "conquer"
                   and obs["regions"].get(str(a["region"]), {}).get("owner")
                   not in (None, state.actor)]
        pool = hostile or [a for a in legal if a["do"] in ("conquer", "pick", "deploy")] or legal
        await service.act(channel_id, game.seat_named(state.actor).user_id, rng.choice(pool))
    raise AssertionError("no attack with survivors happened")


async def test_defender_places_survivors_from_the_prompt(fake_discord: FakeDiscord,
                                                         tmp_path: Path) -> None:
    fake = fake_discord
    users = {"ann": fake.add_user("ann"), "bob": fake.add_user("bob")}
    by_id = {u["id"]: u for u in users.values()}
    ch = fake.channel
    async with fake.running(make_bot(fake, tmp_path / "def.db")) as bot:
        await bot.wait_until_ready()
        await _lobby_started(fake, users["ann"], users["bob"])
        attacker_id, defender_id = await _play_until_end_leaves_survivors(
            bot, int(ch["id"]), seed=3)
        attacker, defender = by_id[str(attacker_id)], by_id[str(defender_id)]
        inter = await fake.slash(attacker, ch, "sw end")
        prompt = await fake.wait_for_reply(inter, timeout=10)
        if prompt.ephemeral:  # tokens still in hand: End asks first
            yes = await fake.click(attacker, prompt, label="Yes, end turn")
            await fake.wait_until(lambda: yes.followups, timeout=10)
            prompt = yes.followups[0]
        assert f"<@{defender['id']}>: place your surviving tokens" in prompt.content
        assert not prompt.find_component("Done")  # placing the last survivor ends it
        assert "map.png" in prompt.files
        menu = _menu(prompt, "d")
        assert menu["placeholder"] == "Place your surviving tokens"
        # the attacker cannot place the defender's tokens
        nope = await fake.select(attacker, prompt, menu["custom_id"], [menu["options"][0]["value"]])
        assert "not your turn" in (await fake.wait_for_reply(nope)).content
        message = prompt
        before_map = prompt.files["map.png"]
        for _ in range(10):
            menu = _menu(message, "d")
            inter = await fake.select(defender, message, menu["custom_id"],
                                      [menu["options"][0]["value"]])
            message = await fake.wait_for_reply(inter, timeout=10)
            assert "surviving token" in message.content
            if "it is your turn" in message.content:
                break
        else:
            raise AssertionError("the survivors were never all placed")
        # the same living message now shows the map with the survivors placed, described
        await fake.drain(bot)
        assert message.id == prompt.id and message.files["map.png"] != before_map
        assert all(a.description for a in message.attachments)
        next_picks = any(c.endswith(":p") for c in message.custom_ids())
        assert ("combos.png" in message.files) == next_picks
    assert not fake.client_errors
