"""Short rule texts for `/sw rules`: every race, every special power and a few topics, in
every catalog language (domain rules/: i18n/catalogs/rules/<lang>.json).

Token numbers come from data/ (engine.data), so they cannot drift from what the engine uses.
Names are the catalogs' (the rulebooks' own words); a race, power or topic may be asked for
by its English id or by its name in any of our languages.
"""

from __future__ import annotations

import i18n
from bot.text import clip, echo
from engine import data as engine_data

TOPIC_IDS = ("turn", "conquest", "die", "decline", "picking", "coins", "undo")


def _english(prefix: str, ids: tuple[str, ...] | list[str]) -> dict[str, str]:
    return {x: i18n.t(f"{prefix}.{x}", "en") for x in ids}


# the English texts by id (the English catalog's), for code that wants them without a language
RACES: dict[str, str] = _english("rules.race", list(engine_data.RACES))
POWERS: dict[str, str] = _english("rules.power", list(engine_data.POWERS))
TOPICS: dict[str, str] = _english("rules.topic", TOPIC_IDS)

DESCRIPTION_ROOM = 100  # characters of a select option's description (Discord's limit)


def note(kind: str, ident: str, lang: str = i18n.DEFAULT) -> str:
    """One short clause for the pick menu: what a race or power does."""
    key = f"rules.short.{kind}.{ident}"
    return i18n.t(key, lang) if i18n.has(key, lang) else "?"


def short(race: str, power: str, lang: str = i18n.DEFAULT) -> str:
    """What a combo does, in at most 100 characters: "Forest: +1 per Forest · Elves: ..."
    (a test checks every combo in every language fits without cutting)."""
    return i18n.t("rules.combo_note", lang, race=race, power=power,
                  race_note=note("race", race, lang),
                  power_note=note("power", power, lang))[:DESCRIPTION_ROOM]


def _find(asked: str, kind: str, ids: tuple[str, ...] | list[str], lang: str) -> str | None:
    """The id whose English id or name in `lang` (else in any language) is `asked`."""
    want = asked.strip().casefold()
    for langs in ((lang, i18n.DEFAULT), i18n.LANGUAGES):
        for x in ids:
            if x.casefold() == want or any(
                    i18n.name(kind, x, lg).casefold() == want for lg in langs):
                return x
    return None


def _topic(asked: str, lang: str) -> str | None:
    want = asked.strip().casefold()
    for langs in ((lang, i18n.DEFAULT), i18n.LANGUAGES):
        for x in TOPIC_IDS:
            if x == want or any(i18n.t(f"rules.topic_name.{x}", lg).casefold() == want
                                for lg in langs):
                return x
    return None


def topic_name(topic: str, lang: str = i18n.DEFAULT) -> str:
    return i18n.t(f"rules.topic_name.{topic}", lang)


def _names(kind: str, ids: tuple[str, ...] | list[str], lang: str) -> str:
    return ", ".join(i18n.name(kind, x, lang) for x in ids)


def lookup(*, race: str | None = None, power: str | None = None, topic: str | None = None,
           lang: str = i18n.DEFAULT) -> str:
    """The rule text for the given race, power and/or topic (an index when nothing given)."""
    lang = i18n.normalize(lang)
    parts: list[str] = []
    if race:
        key = _find(race, "race", list(engine_data.RACES), lang)
        parts.append(
            i18n.t("rules.race_head", lang, race=key, tokens=engine_data.races()[key].tokens,
                   text=i18n.t(f"rules.race.{key}", lang)) if key is not None else
            i18n.t("rules.no_race", lang, name=echo(race),
                   names=_names("race", list(engine_data.RACES), lang)))
    if power:
        key = _find(power, "power", list(engine_data.POWERS), lang)
        parts.append(
            i18n.t("rules.power_head", lang, power=key,
                   tokens=engine_data.powers()[key].tokens,
                   text=i18n.t(f"rules.power.{key}", lang)) if key is not None else
            i18n.t("rules.no_power", lang, name=echo(power),
                   names=_names("power", list(engine_data.POWERS), lang)))
    if topic:
        key = _topic(topic, lang)
        parts.append(
            i18n.t("rules.topic_head", lang, topic=topic_name(key, lang),
                   text=i18n.t(f"rules.topic.{key}", lang)) if key is not None else
            i18n.t("rules.no_topic", lang, name=echo(topic),
                   names=", ".join(topic_name(x, lang) for x in TOPIC_IDS)))
    if not parts:
        parts = [i18n.t("rules.topic.turn", lang),
                 i18n.t("rules.ask", lang,
                        topics=", ".join(topic_name(x, lang) for x in TOPIC_IDS))]
    return clip("\n\n".join(parts))


def check_complete() -> None:
    """Every race and power of the engine has its texts in every language (a test calls
    this; the catalogs' own parity test checks the languages against English)."""
    need = ([f"rules.{k}.{r}" for r in engine_data.RACES for k in ("race", "short.race")]
            + [f"rules.{k}.{p}" for p in engine_data.POWERS for k in ("power", "short.power")]
            + [f"rules.topic.{t}" for t in TOPIC_IDS])
    missing = sorted({(lang, k) for lang in i18n.LANGUAGES for k in need
                      if k not in i18n.catalog(lang)})
    if missing:
        raise ValueError(f"rules texts out of step with engine.data: {missing[:10]}")
