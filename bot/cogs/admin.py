"""Owner-only text commands, used by mentioning the bot ("@Small World sync")."""

from __future__ import annotations

from discord.ext import commands

from bot.app import SmallWorldBot


class Admin(commands.Cog):
    """Maintenance commands for the bot owner."""

    def __init__(self, bot: SmallWorldBot) -> None:
        self.bot = bot

    # discord.py types Cog.cog_check's ctx as Context[BotT] in a Cog that is not generic in
    # BotT, so any concrete override differs from it
    async def cog_check(self, ctx: commands.Context[SmallWorldBot]) -> bool:  # type: ignore[override]
        return await self.bot.is_owner(ctx.author)

    @commands.command(name="sync", hidden=True)
    async def sync(self, ctx: commands.Context[SmallWorldBot]) -> None:
        """Sync the slash commands (to DEV_GUILD_ID if set, else globally)."""
        synced = await self.bot.sync_commands()
        await ctx.reply(f"Synced {len(synced)} commands.")


async def setup(bot: SmallWorldBot) -> None:
    await bot.add_cog(Admin(bot))
