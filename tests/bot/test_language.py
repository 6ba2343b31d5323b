"""Which language, where: the resolution order over a real SQLite store."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import discord

from bot.language import Languages, of_game, parse
from bot.store import open_store


async def test_choice_then_locale_then_fallback_then_server(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'lang.db'}")
    try:
        langs = Languages(store)
        assert await langs.for_user(1) == "en"
        await langs.set_guild(9, "is")
        assert await langs.for_user(1, guild_id=9) == "is"
        assert await langs.for_user(1, guild_id=9, fallback="hu") == "hu"  # a game's DM
        assert await langs.for_user(1, discord.Locale.thai, guild_id=9) == "th"
        assert await langs.for_user(1, "ja", guild_id=9) == "is"  # a locale we lack
        await langs.set_user(1, "fi")
        assert await langs.for_user(1, discord.Locale.thai, guild_id=9) == "fi"
        inter = SimpleNamespace(user=SimpleNamespace(id=2), locale=discord.Locale.hungarian,
                                guild_id=9)
        assert await langs.for_interaction(inter) == "hu"
        assert await langs.for_user(2, guild_id=9) == "hu"  # remembered for later DMs
        await langs.set_user(1, None)
        fresh = Languages(store)  # another process reads what was stored
        assert await fresh.user(1) is None and await fresh.guild(9) == "is"
    finally:
        await store.close()


def test_game_language_and_parsing() -> None:
    assert of_game(SimpleNamespace(options={"language": "th"})) == "th"
    assert of_game(SimpleNamespace(options={})) == "en"
    assert parse("Magyar") == "hu" and parse("is") == "is" and parse("Klingon") is None
