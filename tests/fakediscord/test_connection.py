"""The fake Discord with the real discord.py client: login and command sync, gateway
sessions (resume, invalidate, a client gone mid-send), guilds, channels and DMs, waits
that report the bot's errors, and the raw wire protocol without discord.py."""

from __future__ import annotations

import asyncio
import io

import aiohttp
import discord
import pytest

from fakediscord import CommandError, FakeDiscord, FakeDiscordError
from fakediscord.gateway import Session
from fakediscord.tinybot import TinyBot

pytestmark = pytest.mark.filterwarnings("error")


async def test_connects_and_syncs(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with fake.running(TinyBot()) as bot:
        assert bot.user.id == int(fake.application_id)
        guild = bot.get_guild(int(fake.guild["id"]))
        assert guild is not None and guild.name == "Test Guild"
        assert bot.get_channel(int(fake.channel["id"])).name == "general"
        await asyncio.wait_for(bot.wait_until_ready(), 2)
        sw = fake.command("sw")
        subs = {o["name"]: o["type"] for o in sw["options"]}
        assert subs["conquer"] == 1 and subs["mod"] == 2
        assert fake.syncs and fake.syncs[-1][0] is None
    assert not fake.sessions[-1].connected
    assert not fake.unhandled


async def test_reconnect_resume_and_invalidate(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ann = fake.add_user("ann")
    async with fake.running(TinyBot()) as bot:
        session = fake.sessions[-1]
        await fake.disconnect_clients()
        await fake.wait_until(lambda: session.connected and session.n_connections == 2, 5)
        again = await fake.slash(ann, fake.channel, "sw hello")
        assert (await fake.wait_for_reply(again)).content == "Hello, ann!"

        await fake.disconnect_clients()  # an interaction sent while away is replayed
        buffered = await fake.slash(ann, fake.channel, "sw hello")
        assert (await fake.wait_for_reply(buffered)).content == "Hello, ann!"
        assert session.n_connections == 3 and len(fake.sessions) == 1

        fake.resume_policy = "invalidate"
        await fake.disconnect_clients()
        await fake.wait_until(lambda: len(fake.sessions) == 2 and fake.sessions[1].ready, 5)
        assert session.ended
        third = await fake.slash(ann, fake.channel, "sw hello")
        assert (await fake.wait_for_reply(third)).content == "Hello, ann!"
        await asyncio.wait_for(bot.wait_until_ready(), 2)


async def test_several_guilds_and_channel_posts(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    other = fake.add_guild("Other Guild", channel_name="games")
    games = fake.channels[other["channel_ids"][0]]
    extra = fake.add_channel("lobby")
    ann = fake.add_user("ann", guild=other)
    async with fake.running(TinyBot(guild_only=int(other["id"]))) as bot:
        assert fake.command("sw", guild=other)["guild_id"] == other["id"]
        with pytest.raises(CommandError, match="not registered"):
            fake.command("sw")
        inter = await fake.slash(ann, games, "sw hello")
        assert inter.payload["data"]["guild_id"] == other["id"]
        assert (await fake.wait_for_reply(inter)).channel_id == games["id"]

        late = fake.add_channel("added-later", guild=other)
        await fake.gateway_sync()
        channel = bot.get_channel(int(late["id"]))
        sent = await channel.send("hi", file=discord.File(io.BytesIO(b"log"), "log.txt"))
        await sent.edit(content="hi again")
        await sent.add_reaction("\N{WHITE HEAVY CHECK MARK}")
        posted = fake.last_message(late)
        assert posted.content == "hi again" and posted.files == {"log.txt": b"log"}
        assert posted.reactions == ["\N{WHITE HEAVY CHECK MARK}"]
        assert [h["content"] for h in posted.history] == ["hi", "hi again"]
        await sent.delete()
        assert fake.messages_in(late) == []
        assert bot.get_channel(int(extra["id"])).name == "lobby"


async def test_dm_and_closed_dm(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    async with fake.running(TinyBot()) as bot:
        ok = await fake.slash(ann, fake.channel, "sw poke", options={"player": bob})
        assert (await fake.wait_for_reply(ok)).content == "poked"
        assert [m.content for m in fake.dms_to(bob)] == ["Your turn!"]
        assert fake.dms_to(ann) == []
        with pytest.raises(FakeDiscordError, match="someone else's DMs"):
            await fake.click(ann, fake.dms_to(bob)[0], "join:99")
        in_dm = await fake.click(bob, fake.dms_to(bob)[0], "join:99")  # a DM interaction
        assert "guild_id" not in in_dm.payload and in_dm.payload["user"]["id"] == bob["id"]
        assert (await fake.wait_for_reply(in_dm)).content == "bob joined game 99"

        fake.close_dms(bob)
        refused = await fake.slash(ann, fake.channel, "sw poke", options={"player": bob})
        assert (await fake.wait_for_reply(refused)).content == "DMs closed (code 50007)"
        assert len(bot.dm_errors) == 1
        assert isinstance(bot.dm_errors[0], discord.Forbidden)
        assert bot.dm_errors[0].code == 50007
        assert len(fake.dms_to(bob)) == 1


async def test_timeout_reports_the_bot_error(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ann = fake.add_user("ann")
    async with fake.running(TinyBot()):
        with pytest.raises(CommandError, match="takes \\(filename, bytes\\)"):
            await fake.slash(ann, fake.channel, "sw upload", options={"save": 42})
        inter = await fake.slash(ann, fake.channel, "sw boom")
        with pytest.raises(TimeoutError, match="Ignoring exception in command 'boom'"):
            await fake.wait_for_reply(inter, timeout=0.5)
    fake.client_errors.clear()


async def test_leaving_running_waits_for_in_flight_work(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ann = fake.add_user("ann")
    async with fake.running(TinyBot()):
        inter = await fake.slash(ann, fake.channel, "sw later")
        assert (await fake.wait_for_reply(inter)).content == "working"
    assert [m.content for m in inter.followups] == ["done"]
    assert not fake.client_errors


async def test_wrong_token_fails_login(fake_discord: FakeDiscord) -> None:
    bot = TinyBot()
    with pytest.raises(discord.LoginFailure):
        async with fake_discord.running(bot, token="not-the-token"):
            pass


async def test_wire_protocol_without_discord_py(fake_discord: FakeDiscord) -> None:
    """A hand-written client: frames, sequence numbers and Discord's error codes."""
    fake = fake_discord
    ann = fake.add_user("ann")
    auth = {"Authorization": f"Bot {fake.token}"}
    app = fake.application_id
    async with aiohttp.ClientSession() as http, http.ws_connect(fake.gateway_url) as ws:
        hello = await ws.receive_json(timeout=2)
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 0}})
        ready, guild = await ws.receive_json(timeout=2), await ws.receive_json(timeout=2)
        assert (ready["t"], ready["s"], guild["t"], guild["s"]) == ("READY", 1, "GUILD_CREATE", 2)

        cmd = {"name": "ping", "description": "Ping", "type": 1}
        async with http.put(f"{fake.api_base}/applications/{app}/commands", json=[cmd],
                            headers=auth) as resp:
            assert resp.headers["Content-Type"] == "application/json"
            synced = await resp.json()
        assert synced[0]["id"] and synced[0]["application_id"] == app

        inter = await fake.slash(ann, fake.channel, "ping")
        frame = await ws.receive_json(timeout=2)
        assert (frame["t"], frame["s"], frame["d"]["id"]) == ("INTERACTION_CREATE", 3, inter.id)
        for key in ("id", "type", "token", "version", "application_id", "attachment_size_limit",
                    "channel", "member"):
            assert key in frame["d"]

        url = f"{fake.api_base}/webhooks/{app}/{inter.token}"
        async with http.post(url, json={"content": "too early"}) as resp:
            assert resp.status == 404 and (await resp.json())["code"] == 10015
        callback = f"{fake.api_base}/interactions/{inter.id}/{inter.token}/callback"
        async with http.post(callback, json={"type": 4, "data": {"content": "pong"}}) as resp:
            body = await resp.json()
            assert resp.status == 200 and body["resource"]["message"]["content"] == "pong"
        async with http.post(callback, json={"type": 4, "data": {"content": "again"}}) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 40060
        async with http.post(f"{fake.api_base}/interactions/1/x/callback", json={"type": 1}) as resp:
            assert resp.status == 404 and (await resp.json())["code"] == 10062
        async with http.get(f"{fake.api_base}/users/@me", headers={"Authorization": "Bot no"}) as resp:
            assert resp.status == 401
        async with http.get(f"{fake.api_base}/nothing/here", headers=auth) as resp:
            assert resp.status == 404
        assert fake.unhandled == [("GET", "/nothing/here")]
        fake.unhandled.clear()

        await ws.send_json({"op": 1, "d": 3})
        assert (await ws.receive_json(timeout=2))["op"] == 11


class _ClosingSocket:
    """A websocket whose client has just closed its end: the next write fails as aiohttp's
    does when a killed bot's connection is closing."""

    closed = False

    async def send_str(self, data: str) -> None:
        raise aiohttp.ClientConnectionResetError("Cannot write to closing transport")


async def test_a_client_gone_mid_send_is_not_a_fake_error(fake_discord: FakeDiscord) -> None:
    """A bot killed while the fake writes to it (SIGTERM during start-up, seen once under load
    as a teardown error) is a client going away, not a fault of the fake: the frame stays in
    the session for a resume, as Discord keeps it, and fake.errors stays empty."""
    fake = fake_discord
    session = Session(id="s", intents=0, identified_at=0.0, ready=True)
    session.ws = _ClosingSocket()  # type: ignore[assignment]
    seq = await fake.dispatch("MESSAGE_CREATE", {"id": "1"}, session=session)
    assert seq == 1 and session.frames[-1]["s"] == 1
    assert fake.errors == []
