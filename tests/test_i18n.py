"""Catalogs: every language has every key, the same placeholders, its plural forms; every
event kind and every engine refusal has a sentence in every language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import i18n
from engine import data
from engine.errors import MESSAGES, format_english
from engine.events import EVENT_KINDS, EVENT_TYPES, PRIVATE_KINDS

ROOT = Path(__file__).resolve().parents[1]
OTHERS = [lang for lang in i18n.LANGUAGES if lang != "en"]


def sample(kind: str, name: str):
    """A value for a placeholder of `kind` (plain, plural, select, race, ...)."""
    return {"plural": 3, "race": "Orcs", "power": "Hill", "piece": "hero",
            "terrain": "forest", "select": "other"}.get(kind, f"<{name}>")


def test_catalog_files_are_the_languages() -> None:
    for domain in i18n.domains():
        files = {p.stem for p in (i18n.CATALOG_DIR / domain).glob("*.json")}
        assert files == set(i18n.LANGUAGES), domain or "core"


def test_a_key_lives_in_one_file(tmp_path, monkeypatch) -> None:
    (tmp_path / "extra").mkdir()
    (tmp_path / "en.json").write_text('{"a.b": "one"}', encoding="utf-8")
    (tmp_path / "extra" / "en.json").write_text('{"a.c": "two", "a.b": "again"}',
                                                encoding="utf-8")
    monkeypatch.setattr(i18n, "CATALOG_DIR", tmp_path)
    i18n._raw.cache_clear()
    try:
        with pytest.raises(ValueError, match="a.b"):
            i18n.catalog("en")
    finally:
        monkeypatch.undo()
        i18n._raw.cache_clear()
    assert i18n.domains()[0] == "" and "lang.name" in i18n.catalog("en")


@pytest.mark.parametrize("lang", OTHERS)
def test_every_key_with_the_same_placeholders(lang: str) -> None:
    en, other = i18n.catalog("en"), i18n.catalog(lang)
    assert sorted(set(en) - set(other)) == [], f"{lang} lacks keys"
    assert sorted(set(other) - set(en)) == [], f"{lang} has keys English lacks"
    for key, message in en.items():
        assert kinds(other[key]) == kinds(message), (lang, key)


def kinds(message: str) -> dict[str, str]:
    """Placeholder names with their name type; plain, plural and select are all numbers or
    words to a translation (a language without plurals may print a count plainly)."""
    return {n: (k if k in i18n.NAME_TYPES else "") for n, k in i18n.placeholders(message).items()}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_plural_forms_are_the_languages_categories(lang: str) -> None:
    need = i18n.PLURAL_CATEGORIES[lang]
    for key, message in i18n.catalog(lang).items():
        for forms in i18n.plural_categories_used(message):
            if "=" in "".join(forms):
                continue
            # "other" always; "one" where the language has it (Thai has none to give)
            assert need <= forms | ({"one"} if lang == "th" else set()), (lang, key, forms)
            assert forms <= {"zero", "one", "two", "few", "many", "other"}, (lang, key)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_message_formats(lang: str) -> None:
    for key, message in i18n.catalog(lang).items():
        params = {n: sample(k, n) for n, k in i18n.placeholders(message).items()}
        out = i18n.t(key, lang, **params)
        assert "{" not in out.replace("{}", ""), (lang, key, out)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_event_kind_and_refusal_has_a_sentence(lang: str) -> None:
    cat = i18n.catalog(lang)
    for kind in EVENT_KINDS:
        assert f"event.{kind}" in cat, (lang, kind)
    assert "event.scored_private" in cat and {"scored"} == PRIVATE_KINDS
    for key in MESSAGES:
        assert f"refusal.{key}" in cat, (lang, key)


def test_engine_emits_only_typed_event_kinds() -> None:
    # the engine records its events as engine.events models (events.add(Model, ...)), never
    # as dicts
    source = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "engine").glob("*.py"))
    assert not re.findall(r'"type": "(\w+)"', source)
    built = set(re.findall(r"events\.add\((\w+),", source))
    models = {cls.__name__ for cls in EVENT_TYPES.values()}
    assert built and built <= models, built - models


def test_english_refusals_are_the_engines_sentences() -> None:
    en = i18n.catalog("en")
    for key, message in MESSAGES.items():
        assert en[f"refusal.{key}"] == message
        for n in (1, 2):
            params = {name: (n if kind == "plural" else sample(kind, name))
                      for name, kind in i18n.placeholders(message).items()}
            assert i18n.t(f"refusal.{key}", "en", **params) == format_english(message, params)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_race_and_power_is_named(lang: str) -> None:
    cat = i18n.catalog(lang)
    for race in data.RACES:
        assert cat[f"race.{race}"].strip() and cat[f"abbr.{race}"].strip()
    for power in data.POWERS:
        assert cat[f"power.{power}"].strip()


def test_names_not_from_a_rulebook_are_marked() -> None:
    nl = i18n.notes("nl")
    assert "race" in " ".join(str(v) for v in nl.values()).lower()
    th = " ".join(str(v) for v in i18n.notes("th").values())
    for power in ("Berserk", "Dragon Master", "Stout"):  # OCR-damaged in the Thai seed
        assert power in th


def test_rulebook_terms_are_used() -> None:
    assert i18n.name("race", "Ghouls", "da") == "Levende Døde"
    assert i18n.name("race", "Ghouls", "hu") == "Élőhalottak"
    assert i18n.name("power", "Hill", "is") == "Hæð"
    assert i18n.name("race", "Sorcerers", "th") == "จอมขมังเวทย์"
    assert i18n.name("power", "Dragon Master", "fi") == "Lohikäärmeenkesyttäjä"
    assert i18n.name("race", "Wizards", "sv") == "Trollkarlar"
    assert i18n.name("race", "Wizards", "no") == "Trollmenn"


def test_plural_rules_follow_cldr() -> None:
    assert [i18n.plural_category("is", n) for n in (1, 11, 21, 111, 2)] == [
        "one", "other", "one", "other", "other"]
    assert {i18n.plural_category("th", n) for n in (0, 1, 2)} == {"other"}
    for lang in ("en", "da", "nl", "fi", "hu", "no", "sv"):
        assert [i18n.plural_category(lang, n) for n in (0, 1, 2, 21)] == [
            "other", "one", "other", "other"]
    assert i18n.t("final.coins", "is", n=21) == "21 skildingur"
    assert i18n.t("final.coins", "is", n=11) == "11 skildingar"


def test_missing_key_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    real = i18n.catalog

    def without(lang: str) -> dict:
        cat = dict(real(lang))
        if lang == "hu":
            cat.pop("row.title")
        return cat

    monkeypatch.setattr(i18n, "catalog", without)
    assert i18n.t("row.title", "hu") == real("en")["row.title"]
    assert i18n.t("final.title", "hu") == real("hu")["final.title"]
    with pytest.raises(KeyError):
        i18n.t("no.such.key", "hu")


def test_locales_map_to_languages() -> None:
    assert i18n.normalize("hu") == "hu"
    assert i18n.normalize("sv-SE") == "sv"
    assert i18n.normalize("nb") == "no"
    assert i18n.normalize("en-GB") == "en"
    assert i18n.normalize("ja") == "en"
    assert i18n.normalize(None) == "en"


def test_placeholders_and_plurals_in_messages() -> None:
    msg = "{n, plural, one {# token of {p}} other {# tokens of {p}}} {r, race}"
    assert i18n.placeholders(msg) == {"n": "plural", "p": "", "r": "race"}
    assert i18n.format_message(msg, "en", {"n": 1, "p": "x", "r": "Orcs"}) == "1 token of x Orcs"
    assert i18n.format_message(msg, "th", {"n": 1, "p": "x", "r": "Orcs"}) == \
        "1 tokens of x ออร์ค"
    with pytest.raises(ValueError):
        i18n.format_message("{broken", "en", {})
