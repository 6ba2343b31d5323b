"""Just you: `/sw-me notify` (a DM when it is your turn)."""

from __future__ import annotations

import discord
from discord import app_commands

import i18n
from bot.cogs.tree import Commands, me
from bot.language import reply_language
from bot.ui import send


class MeCommands(Commands):
    """A member's own settings."""

    @me.command(name="notify", description="Get a DM when it is your turn (on or off)")
    @app_commands.describe(on="True: DM me when I must act; False: stop")
    async def notify(self, interaction: discord.Interaction, on: bool) -> None:
        await self.service.store.set_turn_dm(interaction.user.id, on)
        await send(interaction, i18n.t("notify.on" if on else "notify.off",
                                       await reply_language(interaction)), ephemeral=True)
