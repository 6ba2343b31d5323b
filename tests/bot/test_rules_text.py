"""`/sw rules` and the pick menu's notes in every catalog language."""

from __future__ import annotations

import pytest

import i18n
from bot import rules_text


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_rules_notes_fit_a_select_option_in_every_language(lang: str) -> None:
    """The pick menu shows `short` as an option description (Discord: at most 100
    characters): every race with every power fits whole, without the cut."""
    from engine import data as engine_data

    for race in engine_data.RACES:
        for power in engine_data.POWERS:
            whole = i18n.t("rules.combo_note", lang, race=race, power=power,
                           race_note=rules_text.note("race", race, lang),
                           power_note=rules_text.note("power", power, lang))
            assert len(whole) <= rules_text.DESCRIPTION_ROOM, (lang, len(whole), whole)
            assert rules_text.short(race, power, lang) == whole
            assert "?" not in (rules_text.note("race", race, lang),
                               rules_text.note("power", power, lang))


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_rules_answer_in_every_language(lang: str) -> None:
    rules_text.check_complete()
    orcs = rules_text.lookup(race="Orcs", lang=lang)
    assert orcs.startswith(f"**{i18n.name('race', 'Orcs', lang)}**") and "5" in orcs
    assert rules_text.lookup(race=i18n.name("race", "Orcs", lang), lang=lang) == orcs
    flying = rules_text.lookup(power="flying", lang=lang)
    assert i18n.name("power", "Flying", lang) in flying
    for topic in rules_text.TOPIC_IDS:
        text = rules_text.lookup(topic=rules_text.topic_name(topic, lang), lang=lang)
        assert text == rules_text.lookup(topic=topic, lang=lang)
        assert i18n.t(f"rules.topic.{topic}", lang) in text
    unknown = rules_text.lookup(race="Gnolls", lang=lang)
    assert "Gnolls" in unknown and i18n.name("race", "Ratmen", lang) in unknown
    if lang != "en":
        assert rules_text.lookup(race="Orcs", lang=lang) != rules_text.lookup(race="Orcs")
        assert "There is no race" not in unknown


def test_rules_in_hungarian_and_thai_use_the_rulebooks_names() -> None:
    assert rules_text.lookup(race="Halflings", lang="hu").startswith("**Félszerzetek** (")
    assert "földi üreg" in rules_text.lookup(race="Halflings", lang="hu")
    assert rules_text.lookup(power="Dragon Master", lang="th").startswith("**ควาญมังกร**")
    assert rules_text.short("Elves", "Forest", "hu") == (
        "Erdei: +1/erdő · Elfek: nem veszítenek lapkát")
