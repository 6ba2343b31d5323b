"""Slash commands in the players' languages: discord.py's Translator over the i18n catalogs.

Discord shows a command's localized name and description to a user whose client runs in
that locale. Names and descriptions are looked up by their English text in
i18n/commands/<lang>.json, a name first by its command's whole path ("league-mod season end"),
so one English word can be two words in a language (Thai's "end" of a turn is not the end of
a season); choices that name a piece use the game catalog's piece names, a board its player count
and an AI level its word (the svc catalog); other choices (the league's audit actions) are
looked up by their English text in the command catalogs' "choices".
Discord has no Icelandic locale, so Icelandic players see the English command names.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

import i18n
from engine import data as engine_data

BOARDS = {b: engine_data.board(b).players for b in engine_data.BOARD_IDS}

NAMES = (Where.command_name, Where.group_name, Where.parameter_name)
DESCRIPTIONS = (Where.command_description, Where.group_description, Where.parameter_description)
# Discord locales we translate the commands for, and our language for each
LOCALES: dict[str, str] = {loc: lang for loc, lang in i18n.DISCORD_LOCALES.items() if lang != "en"}


class CatalogTranslator(app_commands.Translator):
    """Answers discord.py's per-locale questions from the catalogs (None: keep English)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = LOCALES.get(locale.value)
        if lang is None:
            return None
        where = context.location
        if where in NAMES:
            names = i18n.commands(lang)["names"]
            path = _path(context)
            return (names.get(path) if path is not None else None) or names.get(string.message)
        if where in DESCRIPTIONS:
            return i18n.commands(lang)["descriptions"].get(string.message)
        if where is Where.choice_name:
            return _choice(getattr(context.data, "value", None), string.message, lang)
        return None


def _path(context: app_commands.TranslationContextTypes) -> str | None:
    """A command's, group's or parameter's whole path: "league-mod season end", "sw-table ai-add level"."""
    item = context.data
    if context.location is Where.parameter_name:
        command = getattr(item, "command", None)
        return f"{command.qualified_name} {item.name}" if command is not None else None
    return getattr(item, "qualified_name", None)


def _choice(value: object, english: str, lang: str) -> str | None:
    """A choice's name in `lang`, when the choice names a piece, a board, an AI level or a
    kind of reminder (others, such as language names, stay as they are)."""
    if not isinstance(value, str):
        return None
    if i18n.has(f"piece.{value}", lang):
        piece = i18n.name("piece", value, lang)
        return piece[:1].upper() + piece[1:]
    if value in BOARDS:
        return i18n.t("svc.choice.board", lang, n=BOARDS[value])
    for key in (f"svc.ai_level.{value}", f"svc.remind_choice.{value}",
                f"vote.choice.{value}", f"orders.{value}", f"rel.vacation.{value}"):
        if i18n.has(key) and english in (value, i18n.t(key, "en")):
            return i18n.t(key, lang)
    return i18n.commands(lang)["choices"].get(english)
