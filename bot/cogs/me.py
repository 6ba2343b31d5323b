"""Just you: `/sw-me notify` (a DM when it is your turn), `/sw-me stats` and `/sw-me history`
(anyone's record over the server's finished games; yours by default)."""

from __future__ import annotations

import discord
from discord import app_commands

import i18n
from bot.chat.archive import history_page, stats_text
from bot.cogs.tree import Commands, in_server, me
from bot.language import reply_language
from bot.ui import NO_MENTIONS, send


class MeCommands(Commands):
    """A member's own settings."""

    @me.command(name="notify", description="Get a DM when it is your turn (on or off)")
    @app_commands.describe(on="True: DM me when I must act; False: stop")
    async def notify(self, interaction: discord.Interaction, on: bool) -> None:
        await self.service.store.set_turn_dm(interaction.user.id, on)
        await send(interaction, i18n.t("notify.on" if on else "notify.off",
                                       await reply_language(interaction)), ephemeral=True)

    @me.command(name="stats", description="A record over this server's finished games: wins, "
                                          "ranks, favourite races and combos")
    @app_commands.describe(member="Whose (default: yours)")
    @in_server()
    async def stats(self, interaction: discord.Interaction,
                    member: discord.User | None = None) -> None:
        who = member or interaction.user
        await send(interaction, await stats_text(self.service.store, interaction.guild_id or 0,
                                                 who.id, await reply_language(interaction)),
                   ephemeral=True, allowed_mentions=NO_MENTIONS)

    @me.command(name="history", description="Finished games on this server, newest first, "
                                            "with their replays")
    @app_commands.describe(member="Whose (default: yours)")
    @in_server()
    async def history(self, interaction: discord.Interaction,
                      member: discord.User | None = None) -> None:
        who = member or interaction.user
        content, view = await history_page(self.service.store, interaction.guild_id or 0,
                                           who.id, 0, await reply_language(interaction))
        await send(interaction, content, view=view, ephemeral=True,
                   allowed_mentions=NO_MENTIONS)
