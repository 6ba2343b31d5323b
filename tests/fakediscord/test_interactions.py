"""The fake Discord with the real discord.py client: users acting through interactions
(slash commands, options, autocomplete, buttons, selects, modals) and how the bot's
answers land (public, ephemeral, deferred, followups, edits, files, late callbacks)."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from fakediscord import MANAGE_GUILD, CommandError, FakeDiscord, FakeDiscordError
from fakediscord.tinybot import TinyBot, png_bytes

pytestmark = pytest.mark.filterwarnings("error")


async def test_public_and_ephemeral_replies(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ann = fake.add_user("ann")
    async with fake.running(TinyBot()):
        inter = await fake.slash(ann, fake.channel, "sw hello")
        reply = await fake.wait_for_reply(inter)
        assert reply.content == "Hello, ann!"
        assert not reply.ephemeral and reply.interaction_id == inter.id
        assert fake.messages_in(fake.channel) == [reply]
        assert 0 < inter.ack_latency <= inter.reply_latency < 3

        secret = await fake.slash(ann, fake.channel, "sw", subcommand="score")
        private = await fake.wait_for_reply(secret)
        assert private.ephemeral and private.content == "You have 7 coins"
        assert private not in fake.messages_in(fake.channel)
        assert fake.ephemerals_for(ann) == [private]
        bob = fake.add_user("bob")
        assert fake.ephemerals_for(bob) == []
        with pytest.raises(FakeDiscordError, match="ephemeral to ann"):
            await fake.click(bob, private, "anything")
        assert fake.messages_in(fake.channel, ephemeral=True) == [private]


async def test_deferred_followup_with_png(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ann = fake.add_user("ann")
    async with fake.running(TinyBot()):
        inter = await fake.slash(ann, fake.channel, "sw map")
        reply = await fake.wait_for_reply(inter)
        assert inter.callback_type == 5 and inter.deferred
        assert reply.content == "The map" and not reply.loading and not reply.ephemeral
        assert reply.files == {"map.png": png_bytes()}
        assert reply.attachments[0].content_type == "image/png"
        assert reply.id == inter.original_id  # the followup replaced the "thinking" message
        async with aiohttp.ClientSession() as session, session.get(
                reply.attachments[0].url) as resp:
            assert await resp.read() == png_bytes()

        status = await fake.slash(ann, fake.channel, "sw status")
        edited = await fake.wait_for_reply(status)
        assert edited.content == "status: all fine" and edited.ephemeral


async def test_callback_with_file_and_embed(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ann = fake.add_user("ann")
    async with fake.running(TinyBot()):
        reply = await fake.wait_for_reply(await fake.slash(ann, fake.channel, "sw row"))
        assert reply.ephemeral and reply.embeds[0]["title"] == "Row"
        assert "6 combos" in reply.text
        assert reply.files == {"row.png": png_bytes()}


async def test_user_uploads_an_attachment_option(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ann = fake.add_user("ann")
    async with fake.running(TinyBot()):
        inter = await fake.slash(ann, fake.channel, "sw upload",
                                 options={"save": ("game.json", b'{"seed": 7}')})
        reply = await fake.wait_for_reply(inter)
        assert reply.content == "game.json: 11 bytes, starts b'{\"see'"


async def test_concurrent_interactions(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    users = [fake.add_user(f"user{i}") for i in range(8)]
    async with fake.running(TinyBot()):
        sent = await asyncio.gather(*(fake.slash(u, fake.channel, "sw hello") for u in users))
        replies = await asyncio.gather(*(fake.wait_for_reply(i) for i in sent))
        assert [r.content for r in replies] == [f"Hello, user{i}!" for i in range(8)]
        seqs = [i.seq for i in sent]
        assert len(set(seqs)) == 8 and all(r.interaction_id == i.id for r, i in zip(replies, sent, strict=True))


async def test_autocomplete_and_options(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ann = fake.add_user("ann")
    async with fake.running(TinyBot()):
        choices = await fake.autocomplete(ann, fake.channel, "sw conquer", focused="region",
                                          value="1")
        assert choices == [{"name": f"Region {r}", "value": r} for r in (1, 10, 11, 14)]
        assert await fake.autocomplete(ann, fake.channel, "sw conquer", focused="region",
                                       value="3") == [{"name": "Region 33", "value": 33}]

        inter = await fake.slash(ann, fake.channel, "sw conquer", options={"region": 14})
        assert inter.payload["data"]["options"] == [
            {"type": 1, "name": "conquer", "options": [
                {"type": 4, "name": "region", "value": 14}]}]
        assert (await fake.wait_for_reply(inter)).content == "Conquered region 14"

        with pytest.raises(CommandError, match="missing required"):
            await fake.slash(ann, fake.channel, "sw conquer")
        with pytest.raises(CommandError, match="unknown options"):
            await fake.slash(ann, fake.channel, "sw conquer", options={"region": 1, "x": 2})
        with pytest.raises(CommandError, match="wants an integer"):
            await fake.slash(ann, fake.channel, "sw conquer", options={"region": "14"})
        with pytest.raises(CommandError, match="no subcommand 'fly'"):
            await fake.slash(ann, fake.channel, "sw fly")
        with pytest.raises(CommandError, match="not registered"):
            await fake.slash(ann, fake.channel, "chess")
        with pytest.raises(CommandError, match="no autocomplete"):
            await fake.autocomplete(ann, fake.channel, "sw lobby", focused="game", value="1")


async def test_button_and_select(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ann = fake.add_user("ann")
    async with fake.running(TinyBot()):
        msg = await fake.wait_for_reply(await fake.slash(ann, fake.channel, "sw counter"))
        assert msg.custom_ids() == ["counter:inc", "counter:reset", "counter:race"]
        for expected in (1, 2):
            click = await fake.click(ann, msg, "counter:inc")
            assert await fake.wait_for_reply(click) is msg
            assert click.callback_type == 7 and msg.content == f"count: {expected}"
        assert [h["content"] for h in msg.history] == ["count: 0", "count: 1", "count: 2"]

        reset = await fake.click(ann, msg, "counter:reset")
        assert await fake.wait_for_reply(reset) is msg
        assert reset.callback_type == 6 and msg.content == "count: 0 (reset)"

        picked = await fake.select(ann, msg, "counter:race", ["elves"])
        assert (await fake.wait_for_reply(picked)).content == "picked elves"
        with pytest.raises(FakeDiscordError, match="no options"):
            await fake.select(ann, msg, "counter:race", ["dwarves"])
        with pytest.raises(FakeDiscordError, match="no button"):
            await fake.click(ann, msg, "counter:dec")


async def test_dynamic_button_survives_restart(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ann = fake.add_user("ann")
    async with fake.running(TinyBot()):
        lobby = await fake.wait_for_reply(
            await fake.slash(ann, fake.channel, "sw lobby", options={"game": 7}))
    first = fake.sessions[-1]
    assert not first.connected

    async with fake.running(TinyBot()):  # a new process: nothing in memory but the code
        assert fake.sessions[-1] is not first
        joined = await fake.wait_for_reply(await fake.click(ann, lobby, "join:7"))
        assert joined.content == "ann joined game 7" and joined.ephemeral


async def test_modal_submit(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ann = fake.add_user("ann")
    async with fake.running(TinyBot()):
        inter = await fake.slash(ann, fake.channel, "sw name")
        modal = await fake.wait_for_modal(inter)
        assert modal["title"] == "Name your game"
        submit = await fake.submit_modal(ann, inter, {"game_name": "Friday"})
        assert (await fake.wait_for_reply(submit)).content == "game named Friday"


async def test_nested_groups_and_permissions(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ann = fake.add_user("ann")
    mia = fake.add_user("mia", permissions=MANAGE_GUILD)
    async with fake.running(TinyBot()):
        kick = await fake.slash(mia, fake.channel, "sw", group="mod", subcommand="kick",
                                options={"player": ann})
        assert kick.payload["data"]["resolved"]["users"][ann["id"]]["username"] == "ann"
        assert (await fake.wait_for_reply(kick)).content == "kicked ann"

        opts = {"name": "Spring", "board": "official-4p"}
        with pytest.raises(CommandError, match="hidden"):
            await fake.slash(ann, fake.channel, "league season create", options=opts)
        with pytest.raises(CommandError, match="not one of the choices"):
            await fake.slash(mia, fake.channel, "league season create",
                             options={**opts, "board": "official-9p"})
        with pytest.raises(CommandError, match="above max"):
            await fake.slash(mia, fake.channel, "league season create",
                             options={**opts, "rounds": 11})
        with pytest.raises(CommandError, match="is a group"):
            await fake.slash(mia, fake.channel, "league season")
        create = await fake.slash(mia, fake.channel, "league season create",
                                  options={**opts, "rounds": 9})
        data = create.payload["data"]
        assert [data["name"], data["options"][0]["name"],
                data["options"][0]["options"][0]["name"]] == ["league", "season", "create"]
        reply = await fake.wait_for_reply(create)
        assert reply.content == "season Spring on official-4p, 9 rounds"


async def test_late_callback_is_refused(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.interaction_timeout = 0.1
    ann = fake.add_user("ann")
    async with fake.running(TinyBot()) as bot:
        inter = await fake.slash(ann, fake.channel, "sw slow")
        await fake.wait_until(lambda: bot.late_errors, timeout=3)
        assert bot.late_errors[0].code == 10062 and inter.reply is None
        assert inter.expired and fake.unanswered() == [inter]


async def test_original_and_followup_edits(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ann = fake.add_user("ann")
    async with fake.running(TinyBot()):
        inter = await fake.slash(ann, fake.channel, "sw edits")
        await fake.drain()
        original = fake.messages[inter.original_id]
        assert [h["content"] for h in original.history] == ["v1", "v2"]
        assert [m.content for m in inter.followups] == ["f2", "temporary"]
        assert [h["content"] for h in inter.followups[0].history] == ["f1 after v1", "f2"]
        assert inter.followups[1].deleted and inter.followups[1].ephemeral
        assert [m.content for m in fake.messages_in(fake.channel)] == ["v2", "f2"]
        assert ("GET", f"/webhooks/{fake.application_id}/{inter.token}/messages/@original") in [
            (r.method, r.path) for r in fake.requests]


async def test_user_select_and_user_messages(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    async with fake.running(TinyBot()) as bot:
        prompt = await fake.wait_for_reply(await fake.slash(ann, fake.channel, "sw ally"))
        chosen = await fake.select(ann, prompt, "ally:who", [bob])
        assert chosen.payload["data"]["values"] == [bob["id"]]
        assert (await fake.wait_for_reply(chosen)).content == "allied with bob"

        await fake.say(bob, fake.channel, "good game")
        await fake.gateway_sync()
        await fake.drain()
        assert bot.seen == ["bob: good game"]
