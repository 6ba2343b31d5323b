"""The command payload discord.py builds with our Translator passes Discord's sync checks
offline: valid, unique names and 1-100 character descriptions in every locale we cover."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import discord
import pytest
from discord.ext import commands

import i18n
from bot.app import EXTENSIONS
from bot.cogs.reading import HELP
from bot.game.service import GameService
from bot.league import LeagueService
from bot.store import open_store
from bot.translator import LOCALES, CatalogTranslator

SUB = {1, 2}  # option types: SUB_COMMAND, SUB_COMMAND_GROUP


def valid_name(name: str) -> bool:
    """Discord's ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$, lower case where it has case."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    for ch in name:
        if ch in "-_" or unicodedata.category(ch)[0] in "LN":
            continue
        if 0x0E00 <= ord(ch) <= 0x0E7F or 0x0900 <= ord(ch) <= 0x097F:  # Thai, Devanagari
            continue
        return False
    return True


@pytest.fixture
async def payload(tmp_path: Path) -> list[dict]:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    store = await open_store(f"sqlite:///{tmp_path / 'cmds.db'}")
    bot.store, bot.service = store, GameService(store)  # type: ignore[attr-defined]
    bot.leagues = LeagueService(store, bot.service)  # type: ignore[attr-defined]
    try:
        for ext in EXTENSIONS:
            await bot.load_extension(ext)
        translator = CatalogTranslator()
        await bot.tree.set_translator(translator)
        yield [await c.get_translated_payload(bot.tree, translator)
               for c in bot.tree.get_commands()]
    finally:
        for ext in reversed(EXTENSIONS):  # takes the league's hooks off the game service
            if ext in bot.extensions:
                await bot.unload_extension(ext)
        await store.close()


def _walk(items: list[dict], path: str = ""):
    """Every command, group and option with its siblings' list."""
    for item in items:
        yield f"{path} {item['name']}".strip(), item, items
        if item.get("type", 1) in SUB or "options" in item and path == "":
            yield from _walk(item.get("options", []), f"{path} {item['name']}".strip())


def test_every_name_and_description_is_translated_and_valid(payload: list[dict]) -> None:
    seen = 0
    for where, item, _siblings in _walk(payload):
        seen += 1
        names = {"": item["name"], **(item.get("name_localizations") or {})}
        descriptions = {"": item["description"], **(item.get("description_localizations") or {})}
        for locale in LOCALES:
            assert locale in names, f"{where}: no {locale} name"
            assert locale in descriptions, f"{where}: no {locale} description"
        for locale, name in names.items():
            assert valid_name(name), f"{where} [{locale}]: invalid name {name!r}"
        for locale, text in descriptions.items():
            assert 1 <= len(text) <= 100, f"{where} [{locale}]: {len(text)} characters"
        for choice in item.get("choices") or []:
            for locale, text in {"": choice["name"], **(choice.get("name_localizations") or {})
                                 }.items():
                assert 1 <= len(text) <= 100, (where, locale, text)
    assert seen > 60


def _chars(item: dict) -> int:
    """What Discord counts against a command's 4000 characters: every name, description and
    choice (name and value) of the command, its groups and options, each field counted at its
    longest localization (Discord's rule when localizations are present)."""
    def longest(obj: dict, key: str) -> int:
        return max(len(str(v)) for v in [obj.get(key, ""),
                                          *(obj.get(f"{key}_localizations") or {}).values()])

    n = longest(item, "name") + longest(item, "description")
    for choice in item.get("choices") or []:
        n += longest(choice, "name") + len(str(choice["value"]))
    return n + sum(_chars(o) for o in item.get("options") or [])


def test_the_payload_keeps_within_discords_limits(payload: list[dict]) -> None:
    """At most 25 subcommands, groups, options or choices at any level, 100 commands, and at
    most 4000 characters per command (Discord refuses the whole sync else)."""
    assert len(payload) <= 100
    for where, item, siblings in _walk(payload):
        assert len(siblings) <= 25, where
        assert len(item.get("options") or []) <= 25, where
        assert len(item.get("choices") or []) <= 25, where
    sizes = {command["name"]: _chars(command) for command in payload}
    assert all(size <= 4000 for size in sizes.values()), sizes


def test_names_are_unique_among_siblings_in_every_locale(payload: list[dict]) -> None:
    def name_in(item: dict, locale: str) -> str:
        return (item.get("name_localizations") or {}).get(locale, item["name"])

    groups = [payload] + [item.get("options", []) for _, item, _ in _walk(payload)]
    for siblings in groups:
        for locale in ("", *LOCALES):
            names = [name_in(s, locale) if locale else s["name"] for s in siblings]
            assert len(names) == len(set(names)), (locale, sorted(names))


def test_translations_follow_the_english_they_translate(payload: list[dict]) -> None:
    """A description changed in English without its translations fails here, by name."""
    english = {item["description"] for where, item, _ in _walk(payload)}
    for lang in set(LOCALES.values()):
        missing = english - set(i18n.commands(lang)["descriptions"])
        assert not missing, (lang, sorted(missing))


def test_hungarian_and_thai_clients_see_their_words(payload: list[dict]) -> None:
    sw = next(c for c in payload if c["name"] == "sw")
    conquer = next(o for o in sw["options"] if o["name"] == "conquer")
    assert conquer["name_localizations"]["hu"] == "hódít"
    assert conquer["name_localizations"]["th"] == "ยึด"
    assert "régió" in conquer["description_localizations"]["hu"].lower()
    place = next(o for o in sw["options"] if o["name"] == "power")["options"]
    piece = next(o for o in next(p for p in place if p["name"] == "place")["options"]
                 if o["name"] == "piece")
    fortress = next(c for c in piece["choices"] if c["value"] == "fortress")
    assert fortress["name_localizations"]["th"] == "ป้อมปราการ"
    assert fortress["name_localizations"]["hu"] == "Erőd"
    assert not valid_name("Hódít") and not valid_name("two words") and valid_name("ร่ายเวท")


def test_board_and_ai_level_choices_are_worded(payload: list[dict]) -> None:
    sw = next(c for c in payload if c["name"] == "sw")
    new = next(o for o in sw["options"] if o["name"] == "new")
    board = next(o for o in new["options"] if o["name"] == "board")
    two = next(c for c in board["choices"] if c["value"] == "official-2p")
    assert two["name"] == "2 players"
    assert two["name_localizations"]["hu"] == "2 játékos"
    assert two["name_localizations"]["th"] == "ผู้เล่น 2 คน"
    mod = next(c for c in payload if c["name"] == "sw-mod")
    kick = next(o for o in mod["options"] if o["name"] == "kick")
    ai = next(o for o in kick["options"] if o["name"] == "ai")
    hard = next(c for c in ai["choices"] if c["value"] == "hard")
    assert hard["name_localizations"]["fi"] == "vaikea"
    new_reminders = next(o for o in new["options"] if o["name"] == "reminders")
    dm = next(c for c in new_reminders["choices"] if c["value"] == "dm")
    assert dm["name"] == "by DM" and dm["name_localizations"]["hu"] == "privát üzenetben"


def test_every_choice_is_translated_except_language_names(payload: list[dict]) -> None:
    """Choices read in the client's language too (a language's own name stays as it is)."""
    for where, item, _ in _walk(payload):
        for choice in item.get("choices") or []:
            if item["name"] == "language":
                continue
            for locale in LOCALES:
                got = (choice.get("name_localizations") or {}).get(locale)
                assert got, f"{where} {choice['name']!r}: no {locale} name"


def test_league_commands_read_in_hungarian_and_thai(payload: list[dict]) -> None:
    league = next(c for c in payload if c["name"] == "league")
    assert league["name_localizations"]["hu"] == "liga"
    assert league["name_localizations"]["th"] == "ลีก"
    subs = {o["name"]: o for o in league["options"]}
    organisers = {o["name"]: o for o in next(c for c in payload
                                               if c["name"] == "league-mod")["options"]}
    assert organisers["void"]["name_localizations"]["hu"] == "megsemmisít"
    assert "szervezők" in organisers["void"]["description_localizations"]["hu"]
    assert subs["standings"]["name_localizations"]["th"] == "ตารางคะแนน"
    audit = {o["name"]: o for o in subs["audit"]["options"]}
    void = next(c for c in audit["action"]["choices"] if c["value"] == "void")
    assert void["name_localizations"]["hu"] == "megsemmisítés"
    assert void["name_localizations"]["th"] == "เป็นโมฆะ"


def test_one_english_word_can_be_two_words_by_its_path(payload: list[dict]) -> None:
    """Thai's end of a turn is not the end of a game or a season: a path entry wins."""
    def sub(path: str) -> dict:
        first, *rest = path.split()
        item = next(c for c in payload if c["name"] == first)
        for name in rest:
            item = next(o for o in item["options"] if o["name"] == name)
        return item
    ends = {p: sub(p)["name_localizations"]["th"]
            for p in ("sw end", "sw-mod end", "league-mod season end")}
    assert ends["sw end"] == i18n.commands("th")["names"]["end"]
    assert len(set(ends.values())) == 3, ends
    assert sub("sw-mod end")["name_localizations"]["hu"] == sub("sw end")["name_localizations"]["hu"]


def _command_paths(items: list[dict], path: str = "") -> set[str]:
    out: set[str] = set()
    for item in items:
        here = f"{path} {item['name']}".strip()
        subs = [o for o in item.get("options", []) if o.get("type") in SUB]
        if subs:
            out |= _command_paths(subs, here)
        else:
            out.add(here)
    return out


async def test_help_names_real_commands_and_fits_a_message(payload: list[dict]) -> None:
    """/sw help: every command it names exists (in English, where the names are), and the whole
    text fits one Discord message (2000 characters) in every language."""
    known = _command_paths(payload)
    named = set()
    for key in HELP:
        for span in re.findall(r"`/([^`]+)`", i18n.t(key, "en")):
            words = span.replace("|", " ").split()
            path = " ".join(w for w in words[:3] if re.fullmatch(r"[a-z-]+", w))
            while path and path not in known and " " in path:
                path = path.rsplit(" ", 1)[0]  # drop an option or argument word
            named.add(path)
            assert path in known or any(k.startswith(path + " ") for k in known), span
    assert {"sw hint", "sw-game replay", "sw-me stats", "sw-me away"} <= named
    for lang in i18n.LANGUAGES:
        text = "\n".join(i18n.t(key, lang) for key in HELP)
        assert len(text) <= 2000, (lang, len(text))
