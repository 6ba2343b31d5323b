"""Which language, where: a player's own replies and DMs, a game's public posts and pictures.

- Ephemeral replies: the user's `/sw-language` choice, else the language of their Discord
  client (the interaction's locale) when we have it, else the server's language, else
  English.
- DMs: the user's choice, else the locale they last used with the bot, else the game's.
- A game's public posts and pictures: the language it was opened with (chosen at the
  lobby, else the server's language then), kept in the game's options.
Settings live in the store (table language_settings); this caches them per process.
"""

from __future__ import annotations

from typing import Any

import i18n

USER, GUILD = "user", "guild"
FOLLOW_DISCORD = "discord"  # the /sw-language choice that clears a user's override


def parse(value: str | None) -> str | None:
    """Our language code for a user's choice (None: not a language we speak)."""
    if not value:
        return None
    value = str(value).strip()
    if value in i18n.LANGUAGES:
        return value
    for lang in i18n.LANGUAGES:
        if value.lower() == i18n.t("lang.name", lang).lower():
            return lang
    return None


class Languages:
    """Language settings over the store, cached (one writer: this process)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self._cache: dict[tuple[str, int], str | None] = {}
        self._seen_locale: dict[int, str] = {}

    async def _get(self, scope: str, target_id: int | None) -> str | None:
        if target_id is None:
            return None
        key = (scope, int(target_id))
        if key not in self._cache:
            self._cache[key] = await self.store.language(scope, int(target_id))
        return self._cache[key]

    async def user(self, user_id: int) -> str | None:
        return await self._get(USER, user_id)

    async def guild(self, guild_id: int | None) -> str | None:
        return await self._get(GUILD, guild_id)

    async def set_user(self, user_id: int, language: str | None) -> None:
        await self.store.set_language(USER, int(user_id), language)
        self._cache[(USER, int(user_id))] = language

    async def set_guild(self, guild_id: int, language: str | None) -> None:
        await self.store.set_language(GUILD, int(guild_id), language)
        self._cache[(GUILD, int(guild_id))] = language

    def saw(self, user_id: int, locale: Any) -> None:
        """Remember the client locale a user last spoke to the bot with (for later DMs)."""
        if locale is not None:
            self._seen_locale[int(user_id)] = str(getattr(locale, "value", locale))

    async def for_user(self, user_id: int, locale: Any = None, guild_id: int | None = None,
                       fallback: str | None = None) -> str:
        """A user's language: their choice > their client's locale > `fallback` (e.g. the
        game's, for a DM) > the server's > English."""
        chosen = await self.user(user_id)
        if chosen:
            return chosen
        locale = locale if locale is not None else self._seen_locale.get(int(user_id))
        code = str(getattr(locale, "value", locale)) if locale is not None else ""
        if code in i18n.DISCORD_LOCALES:
            return i18n.DISCORD_LOCALES[code]
        return fallback or await self.guild(guild_id) or i18n.DEFAULT

    async def for_interaction(self, interaction: Any) -> str:
        """The language of an ephemeral reply to this interaction."""
        self.saw(interaction.user.id, getattr(interaction, "locale", None))
        return await self.for_user(interaction.user.id, getattr(interaction, "locale", None),
                                   getattr(interaction, "guild_id", None))

    async def for_new_game(self, guild_id: int | None, chosen: str | None = None) -> str:
        """The language a new lobby's game will speak in public."""
        return chosen or await self.guild(guild_id) or i18n.DEFAULT


def of_game(game: Any) -> str:
    """The language a game speaks in public (stored with it when its lobby opened)."""
    opts = getattr(game, "opts", None)
    language = opts.language if opts is not None else (
        (getattr(game, "options", None) or {}).get("language"))
    return i18n.normalize(language) if language else i18n.DEFAULT


async def reply_language(interaction: Any) -> str:
    """The ephemeral-reply language for an interaction (English if the bot has no settings)."""
    languages: Languages | None = getattr(interaction.client, "languages", None)
    if languages is None:
        return i18n.normalize(str(getattr(getattr(interaction, "locale", None), "value", "")))
    return await languages.for_interaction(interaction)
