"""The fake Discord works with the real discord.py client (a tiny bot defined here)."""

from __future__ import annotations

import asyncio
import io
import re

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from fakediscord import MANAGE_GUILD, CommandError, FakeDiscord, FakeDiscordError
from fakediscord.gateway import Session

pytestmark = pytest.mark.filterwarnings("error")

REGIONS = [1, 2, 10, 11, 14, 21, 33]


def png_bytes() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 6), (30, 120, 40)).save(buf, format="PNG")
    return buf.getvalue()


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"join:(?P<game>\d+)"):
    """A persistent button that survives restarts: the game id lives in the custom_id."""

    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Button(label="Join", custom_id=f"join:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} joined game {self.game}", ephemeral=True)


class Counter(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=30)
        self.count = 0

    @discord.ui.button(label="+1", custom_id="counter:inc")
    async def inc(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.count += 1
        await interaction.response.edit_message(content=f"count: {self.count}", view=self)

    @discord.ui.button(label="Reset", custom_id="counter:reset")
    async def reset(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()  # deferred update (type 6), then edit @original
        self.count = 0
        await interaction.edit_original_response(content="count: 0 (reset)", view=self)

    @discord.ui.select(custom_id="counter:race", options=[
        discord.SelectOption(label="Orcs", value="orcs"),
        discord.SelectOption(label="Elves", value="elves"),
    ])
    async def race(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}")


class NameModal(discord.ui.Modal, title="Name your game"):
    name = discord.ui.TextInput(label="Name", custom_id="game_name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"game named {self.name.value}")


def make_group(bot: TinyBot) -> app_commands.Group:
    sw = app_commands.Group(name="sw", description="Small World")
    mod = app_commands.Group(name="mod", description="Moderators", parent=sw)

    @sw.command(description="Say hello")
    async def hello(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Hello, {interaction.user.name}!")

    @sw.command(description="Your coins")
    async def score(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("You have 7 coins", ephemeral=True)

    @sw.command(description="Conquer a region")
    @app_commands.describe(region="Region id")
    async def conquer(interaction: discord.Interaction, region: int) -> None:
        await interaction.response.send_message(f"Conquered region {region}")

    @conquer.autocomplete("region")
    async def conquer_region(interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=f"Region {r}", value=r)
                for r in REGIONS if str(r).startswith(current)]

    @sw.command(name="map", description="The map")
    async def map_(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("The map", file=discord.File(io.BytesIO(png_bytes()),
                                                                     "map.png"))

    @sw.command(description="The row of combos, privately")
    async def row(interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Row", description="6 combos")
        await interaction.response.send_message(
            embed=embed, file=discord.File(io.BytesIO(png_bytes()), "row.png"), ephemeral=True)

    @sw.command(description="Upload a saved game")
    async def upload(interaction: discord.Interaction, save: discord.Attachment) -> None:
        data = await save.read()
        await interaction.response.send_message(f"{save.filename}: {len(data)} bytes, "
                                                f"starts {data[:5]!r}")

    @sw.command(description="Reply, keep working, then follow up")
    async def later(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("working")
        await asyncio.sleep(0.2)
        await interaction.followup.send("done")

    @sw.command(description="Every way to touch an interaction reply")
    async def edits(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("v1")
        original = await interaction.original_response()  # GET @original
        followup = await interaction.followup.send(f"f1 after {original.content}", wait=True)
        await followup.edit(content="f2")
        await interaction.edit_original_response(content="v2")
        gone = await interaction.followup.send("temporary", ephemeral=True, wait=True)
        await gone.delete()

    @sw.command(description="Choose an ally")
    async def ally(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=30)
        select = discord.ui.UserSelect(custom_id="ally:who")

        async def chosen(inner: discord.Interaction) -> None:
            await inner.response.send_message(f"allied with {select.values[0].name}")

        select.callback = chosen
        view.add_item(select)
        await interaction.response.send_message("Pick an ally", view=view)

    @sw.command(description="A bug")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")

    @sw.command(description="Edit the deferred reply")
    async def status(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        await interaction.edit_original_response(content="status: all fine")

    @sw.command(description="A counter with a button and a select")
    async def counter(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("count: 0", view=Counter())

    @sw.command(description="Open a lobby with a persistent button")
    async def lobby(interaction: discord.Interaction, game: int) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(JoinButton(game))
        await interaction.response.send_message(f"Lobby for game {game}", view=view)

    @sw.command(description="Name the game")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @sw.command(description="DM a player")
    async def poke(interaction: discord.Interaction, player: discord.User) -> None:
        try:
            view = discord.ui.View(timeout=None)
            view.add_item(JoinButton(99))
            await player.send("Your turn!", view=view)
        except discord.Forbidden as exc:
            bot.dm_errors.append(exc)
            await interaction.response.send_message(
                f"DMs closed (code {exc.code})", ephemeral=True)
        else:
            await interaction.response.send_message("poked", ephemeral=True)

    @sw.command(description="Too slow")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.3)
        try:
            await interaction.response.send_message("late")
        except discord.NotFound as exc:
            bot.late_errors.append(exc)

    @mod.command(description="Kick a player")
    async def kick(interaction: discord.Interaction, player: discord.Member) -> None:
        await interaction.response.send_message(f"kicked {player.display_name}")

    return sw


def make_league() -> app_commands.Group:
    league = app_commands.Group(name="league", description="Leagues",
                                default_permissions=discord.Permissions(manage_guild=True))
    season = app_commands.Group(name="season", description="Seasons", parent=league)

    @season.command(description="Open a season")
    @app_commands.choices(board=[app_commands.Choice(name="3 players", value="official-3p"),
                                 app_commands.Choice(name="4 players", value="official-4p")])
    async def create(interaction: discord.Interaction, name: str, board: str,
                     rounds: app_commands.Range[int, 1, 10] = 8) -> None:
        await interaction.response.send_message(f"season {name} on {board}, {rounds} rounds")

    return league


class TinyBot(commands.Bot):
    def __init__(self, guild_only: int | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None, guild_ready_timeout=0.05)
        self.seen: list[str] = []
        self.dm_errors: list[discord.Forbidden] = []
        self.late_errors: list[discord.NotFound] = []
        self.guild_only = guild_only

    async def on_message(self, message: discord.Message) -> None:
        if not message.author.bot:
            self.seen.append(f"{message.author.name}: {message.content}")

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton)
        if self.guild_only:
            guild = discord.Object(self.guild_only)
            self.tree.add_command(make_group(self), guild=guild)
            await self.tree.sync(guild=guild)
        else:
            self.tree.add_command(make_group(self))
            self.tree.add_command(make_league())
            await self.tree.sync()


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
