"""The game as a busy channel sees it, through the real client and the fake Discord: one
living message per game, one new public message per finished turn, no usable stale
components, questions before irreversible steps, alt text on every picture, a tidy command
payload, and short clear answers to odd input."""

from __future__ import annotations

import asyncio
from pathlib import Path

from driver import COIN_NUMBER, GameDriver, StateReader
from fakediscord import FakeDiscord, Message
from setups import make_bot, panel_game_until, users_for

import engine

MOD_COMMAND = "sw-mod"


def transcript(messages: list[Message]) -> str:
    """The channel as people read it: each public message's final text and its files."""
    out = []
    for m in messages:
        files = ", ".join(f"{a.filename} [alt: {a.description}]" for a in m.attachments)
        buttons = [c.get("label") or c.get("placeholder") for c in _walk(m.components)
                   if c.get("type") in (2, 3)]
        out.append(f"--- message {m.id} ({len(m.history) - 1} edits)\n{m.content}"
                   + (f"\n[files: {files}]" if files else "")
                   + (f"\n[components: {buttons}]" if buttons else ""))
    return "\n".join(out)


def _walk(components: list[dict]):
    for comp in components:
        yield comp
        yield from _walk(comp.get("components", []))


async def test_a_three_player_game_is_quiet(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "quiet.db"
    users = users_for(fake, 3)
    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        driver = GameDriver(fake, fake.channel, users, reader, seed=31, mode="mixed",
                            autocomplete=0.5)
        await driver.open_game()
        turn_start = len(fake.messages_in(fake.channel))
        last = await driver.play()
        assert last.state.finished
        await fake.drain(bot)
        n_turns = await reader.n_turns(last.game.id)
        public = fake.messages_in(fake.channel)
        # the lobby, one message per finished turn (it carries the next panel), the end
        assert n_turns >= 30
        assert len(public) <= n_turns + 2, (len(public), n_turns)
        # every action through the panel or a command edited the one living message
        assert driver.live_checks >= len(driver.sent) - 1
        # nothing left to click once the game is over; during it, only the living message
        assert [m for m in public if m.custom_ids()] == []
        # every picture has a description; none tells a coin total before the reveal
        reveal = public[-1]
        assert "final.png" in reveal.files
        n_pictures = 0
        for m in public:
            for a in m.attachments:
                n_pictures += 1
                assert a.description, (m.id, a.filename)
                assert len(a.description) <= 1024
                if m is not reveal:  # coins lying on a combo are public; totals are not
                    assert not COIN_NUMBER.search(a.description), a.description
                    assert ("round" in a.description.lower()) == (a.filename == "map.png")
        assert n_pictures > n_turns
        assert driver.public_leaks(before=reveal.created_at) == []
        truth = engine.observe(last.state, None, reveal_all=True)
        for r in truth["ranking"]:
            assert f"**{r['player']}** — {r['total']} coin" in reveal.content
        # one turn as the channel sees it (printed for the report: pytest -s): the message
        # posted when it began, each edit while it was played, then the next turn's message
        living = public[turn_start]
        revisions = "\n".join(f"~~ revision {i}:\n{rev['content']}\n[components: "
                              f"{len(rev['components'])} rows; files: {rev['attachments']}]"
                              for i, rev in enumerate(living.history))
        print("\nTRANSCRIPT (one turn)\n" + revisions + "\n"
              + transcript(public[turn_start:turn_start + 2]))
        print(f"QUIET: {len(public)} public messages for {n_turns} turns; "
              f"{driver.auto_steps} survivor placements done by the bot; "
              f"{len(driver.confirmations)} confirmations")
    assert not fake.client_errors


async def test_synced_payload_is_tidy(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Moderator tools hidden by default; every option described; boards by player count."""
    fake = fake_discord
    async with fake.running(make_bot(fake, tmp_path / "payload.db")):
        await fake.wait_for_sync()
        mod = fake.command(MOD_COMMAND)
        assert int(mod["default_member_permissions"]) == 1 << 5  # Manage Server
        assert mod["dm_permission"] is False or mod.get("contexts") == [0]
        sw = fake.command("sw")
        assert sw.get("default_member_permissions") in (None, "")
        seen = 0

        def check(node: dict, path: str) -> None:
            nonlocal seen
            for opt in node.get("options", []):
                where = f"{path} {opt['name']}"
                assert opt.get("description") and opt["description"] not in ("…", "..."), where
                seen += 1
                check(opt, where)

        for scope in fake.commands.values():
            for cmd in scope.values():
                assert cmd["description"] and cmd["description"] != "…", cmd["name"]
                check(cmd, cmd["name"])
        assert seen > 40
        new = next(o for o in sw["options"] if o["name"] == "new")
        board = next(o for o in new["options"] if o["name"] == "board")
        assert [c["name"] for c in board["choices"]] == [f"{n} players" for n in (2, 3, 4, 5)]
        names = {o["name"] for o in sw["options"]}
        assert {"help", "status", "score"} <= names and "mod" not in names
        subs = {name: {o["name"] for o in fake.command(name).get("options", [])}
                for name in ("sw-game", "sw-me", "sw-table")}
        assert "board" in subs["sw-game"] and "notify" in subs["sw-me"]
        assert "leave" in subs["sw-table"]
        # organisers' league commands are hidden by default, as /sw-mod is
        organise = fake.command("league-mod")
        assert int(organise["default_member_permissions"]) == 1 << 5
        assert "create" not in {o["name"] for o in fake.command("league").get("options", [])}


async def test_decline_and_end_ask_first(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "ask.db"
    users = users_for(fake, 2)
    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        driver, panel = await panel_game_until(
            fake, reader, users, lambda msg: msg.find_component("Decline…"), tries=80,
            what="Decline button")
        loaded = await driver.loaded()
        actor = driver.user_of(loaded, loaded.state.actor)
        # Decline asks; Cancel changes nothing
        ask = await fake.click(actor, panel, label="Decline…")
        question = await fake.wait_for_reply(ask)
        assert question.ephemeral and "decline" in question.content.lower()
        assert question.find_component("Yes, decline") and question.find_component("Cancel")
        assert (await driver.loaded()).version == loaded.version
        cancel = await fake.click(actor, question, label="Cancel")
        await fake.wait_for_reply(cancel)
        assert not question.custom_ids()  # the question's buttons are gone
        assert (await driver.loaded()).version == loaded.version
        # /sw decline asks too; Yes declines and posts the turn's message
        ask = await fake.slash(actor, fake.channel, "sw decline")
        question = await fake.wait_for_reply(ask)
        assert question.ephemeral and question.find_component("Yes, decline")
        assert (await driver.loaded()).version == loaded.version
        yes = await fake.click(actor, question, label="Yes, decline")
        await fake.wait_until(lambda: yes.followups, timeout=10)
        posted = yes.followups[0]
        assert not posted.ephemeral and "decline" in posted.content and "map.png" in posted.files
        after = await driver.loaded()
        assert after.version > loaded.version
        # the question and the old panel were retired: nothing left on them to press
        await fake.drain(bot)
        assert not question.custom_ids() and not panel.custom_ids()
        assert [m.id for m in fake.messages_in(fake.channel) if m.custom_ids()] == [posted.id]

        # End with tokens in hand asks; the engine would otherwise place them silently
        for _ in range(200):
            loaded = await driver.loaded()
            if loaded.state.finished:
                break
            obs = engine.observe(loaded.state, None)
            hand = obs["players"][loaded.state.actor]["hand"]
            legal = {a.model_dump()["do"] for a in engine.legal_actions(loaded.state)}
            if hand and "end" in legal and obs["stage"] in ("conquest", "redeploy") \
                    and loaded.state.actor == obs["current"]:
                user = driver.user_of(loaded, loaded.state.actor)
                ask = await fake.slash(user, fake.channel, "sw end")
                question = await fake.wait_for_reply(ask)
                assert question.ephemeral and "in hand" in question.content
                assert question.find_component("Yes, end turn")
                assert (await driver.loaded()).version == loaded.version
                break
            await driver.step()
        else:
            raise AssertionError("never held tokens when ending was possible")
    assert not fake.client_errors


async def test_odd_input_gets_short_clear_answers(fake_discord: FakeDiscord,
                                                  tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "odd.db"
    ann, bob = users_for(fake, 2)
    ch = fake.channel
    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        # an enormous value is echoed back short, and the reply is not the apology
        inter = await fake.slash(ann, ch, "sw rules", options={"race": "x" * 5000})
        reply = await fake.wait_for_reply(inter)
        assert reply.ephemeral and len(reply.content) <= 2000
        assert "There is no race called" in reply.content and "Sorry" not in reply.content

        # one lobby message, kept current by /sw join
        new = await fake.slash(ann, ch, "sw new", options={"players": 2, "seed": 9})
        lobby = await fake.wait_for_reply(new)
        join = await fake.slash(bob, ch, "sw join")
        joined = await fake.wait_for_reply(join)
        assert joined.ephemeral
        await fake.drain(bot)
        assert f"<@{bob['id']}>" in lobby.content and lobby.find_component("Start")
        assert [m.id for m in fake.messages_in(ch) if m.custom_ids()] == [lobby.id]

        driver = GameDriver(fake, ch, [ann, bob], reader, seed=9, mode="mixed")
        start = await fake.click(ann, lobby, label="Start")
        await fake.wait_for_ack(start)
        await fake.drain(bot)
        assert not lobby.custom_ids() and "started" in lobby.content
        await driver.play(until=lambda loaded: loaded.state.round >= 3)

        # a negative region is worded for players, not by the validator
        loaded = await driver.loaded()
        actor = driver.user_of(loaded, loaded.state.actor)
        inter = await fake.slash(actor, ch, "sw conquer", options={"region": -3})
        reply = await fake.wait_for_reply(inter)
        assert reply.ephemeral and "region must be 0 or more" in reply.content
        assert "Input should" not in reply.content

        # /sw log keeps the newest lines when it must clip
        inter = await fake.slash(ann, ch, "sw-game log", options={"count": 50})
        reply = await fake.wait_for_reply(inter)
        newest = (await driver.loaded()).version
        assert f"`#{newest}`" in reply.content and len(reply.content) <= 2000

        # /sw board: every region by holder, as text
        inter = await fake.slash(bob, ch, "sw-game board")
        reply = await fake.wait_for_reply(inter)
        assert reply.ephemeral and "Board, round" in reply.content
        obs = engine.observe(loaded.state, None)
        owners = {r["owner"] for r in obs["regions"].values() if r.get("owner")}
        assert all(f"**{o}**" in reply.content for o in owners)

        # /sw help
        inter = await fake.slash(bob, ch, "sw help")
        reply = await fake.wait_for_reply(inter)
        assert "How to play" in reply.content and "/sw pick" in reply.content
        assert "/sw hint" in reply.content and "/sw-game replay" in reply.content

        # the turn DM, once asked for
        for user in (ann, bob):
            inter = await fake.slash(user, ch, "sw-me notify", options={"on": True})
            assert "DM" in (await fake.wait_for_reply(inter)).content
        before = {u["id"]: len(fake.dms_to(u)) for u in (ann, bob)}
        start_round = (await driver.loaded()).state.round
        await driver.play(until=lambda loaded: loaded.state.round > start_round)
        await fake.drain(bot)
        for u in (ann, bob):
            dms = fake.dms_to(u)[before[u["id"]]:]
            assert any("it is your turn" in m.content for m in dms), u["username"]
            # the coin DM breaks the income down, privately
            assert any("Income: regions held" in m.content for m in dms)

        # /sw status after the game: it is over, with the result
        await driver.play()
        await fake.drain(bot)
        inter = await fake.slash(ann, ch, "sw status")
        reply = await fake.wait_for_reply(inter)
        assert "is over" in reply.content and "Final scores" in reply.content
    assert not fake.client_errors
    await asyncio.sleep(0)


async def test_a_deleted_living_message_is_replaced(fake_discord: FakeDiscord,
                                                   tmp_path: Path) -> None:
    """Someone deletes the game's message: the next action posts a new living one."""
    fake = fake_discord
    db = tmp_path / "deleted.db"
    users = users_for(fake, 2)
    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        driver = GameDriver(fake, fake.channel, users, reader, seed=4, mode="slash")
        await driver.open_game()
        await driver.play(until=lambda loaded: loaded.state.round >= 2)
        for _ in range(100):
            loaded = await driver.loaded()
            conquests = [a.model_dump(mode="json") for a in engine.legal_actions(loaded.state)
                         if a.model_dump()["do"] == "conquer"]
            if conquests:
                break
            await driver.step()
        else:
            raise AssertionError("no conquest came up")
        living = driver.panel_message(loaded)
        assert living is not None
        living.deleted = True  # a moderator removed it in the Discord client
        # a mid-turn slash command: the bot tries to edit the message, then posts a new one
        await driver.send(loaded, conquests[0], route="slash")
        await fake.drain(bot)
        after = await driver.loaded()
        fresh = driver.panel_message(after)
        assert fresh is not None and fresh.id != living.id and not fresh.ephemeral
        assert [m.id for m in fake.messages_in(fake.channel) if m.custom_ids()] == [fresh.id]
    assert not fake.client_errors
