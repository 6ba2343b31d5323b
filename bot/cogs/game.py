"""The /sw commands (/sw, /sw-table, /sw-game, /sw-me): one cog whose rooms are the mixins
below, one per thing a member does (bot/cogs/tree.py draws the tree). Commands only translate Discord into calls of the flow,
the game service and the Announcer."""

from __future__ import annotations

from discord.ext import commands

from bot.app import SmallWorldBot
from bot.cogs.me import MeCommands
from bot.cogs.play import PlayCommands
from bot.cogs.reading import ReadingCommands
from bot.cogs.table import TableCommands
from bot.cogs.tree import game, me, sw, table


class Game(PlayCommands, TableCommands, ReadingCommands, MeCommands, commands.Cog):
    """Small World games, one per channel."""

    sw = sw
    table = table
    game = game
    me = me

    def __init__(self, bot: SmallWorldBot) -> None:
        self.bot = bot


async def setup(bot: SmallWorldBot) -> None:
    await bot.add_cog(Game(bot))
