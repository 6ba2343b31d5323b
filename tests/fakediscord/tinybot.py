"""The tiny discord.py bot the fake's own tests run against: slash commands (nested
groups, options, autocomplete, attachments), views, a persistent dynamic button, a modal,
DMs, deliberate bugs and late answers."""

from __future__ import annotations

import asyncio
import io
import re

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image

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
