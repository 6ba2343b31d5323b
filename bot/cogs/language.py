"""`/sw-language`: the language the bot answers a member in, or (moderators) the language of
a server's games. A top-level command: /sw has no room left for it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.app import SmallWorldBot
from bot.cogs.tree import LANGUAGE_CHOICES, Choice
from bot.language import FOLLOW_DISCORD, reply_language
from bot.ui import send


class Language(commands.Cog):
    """Languages of members and servers."""

    def __init__(self, bot: SmallWorldBot) -> None:
        self.bot = bot

    # top level (like /sw-mod): a member sets it anywhere, DMs included
    @app_commands.command(name="sw-language",
                          description="Choose the language I answer you in (or this server's "
                                      "games, for moderators)")
    @app_commands.describe(language="A language, or Discord to follow your Discord setting",
                           server="Set it for this server's games (moderators)")
    @app_commands.choices(language=[*LANGUAGE_CHOICES,
                                    Choice(name="Discord", value=FOLLOW_DISCORD)])
    async def language(self, interaction: discord.Interaction, language: str | None = None,
                       server: bool = False) -> None:
        languages = self.bot.languages
        code = None if language in (None, FOLLOW_DISCORD) else i18n.normalize(language)
        if server:
            if interaction.guild_id is None:
                raise app_commands.NoPrivateMessage()
            if not self.bot.is_mod(interaction):
                lang = await reply_language(interaction)
                await send(interaction, i18n.t("lang.need_mod", lang), ephemeral=True)
                return
            if language is not None:
                await languages.set_guild(interaction.guild_id, code)
            said = ("lang.set_server" if code else "lang.reset_server") if language else "lang.show"
        else:
            if language is not None:
                await languages.set_user(interaction.user.id, code)
            said = ("lang.set_user" if code else "lang.reset_user") if language else "lang.show"
        lang = code if (server and code) else await reply_language(interaction)
        if said == "lang.show":
            mine = await languages.user(interaction.user.id)
            guild = await languages.guild(interaction.guild_id)
            text_ = i18n.t(said, lang,
                           user=i18n.t("lang.name", mine) if mine else i18n.t("lang.discord", lang),
                           server=i18n.t("lang.name", guild or i18n.DEFAULT))
        else:
            text_ = i18n.t(said, lang)
        await send(interaction, text_, ephemeral=True)



async def setup(bot: SmallWorldBot) -> None:
    await bot.add_cog(Language(bot))
