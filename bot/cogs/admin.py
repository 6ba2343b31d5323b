"""Owner-only text commands, used by mentioning the bot ("@Small World sync")."""

from __future__ import annotations

from discord.ext import commands


class Admin(commands.Cog):
    """Maintenance commands for the bot owner."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_check(self, ctx: commands.Context) -> bool:  # type: ignore[override]
        return await self.bot.is_owner(ctx.author)

    @commands.command(name="sync", hidden=True)
    async def sync(self, ctx: commands.Context) -> None:
        """Sync the slash commands (to DEV_GUILD_ID if set, else globally)."""
        synced = await self.bot.sync_commands()  # type: ignore[attr-defined]
        await ctx.reply(f"Synced {len(synced)} commands.")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Admin(bot))
