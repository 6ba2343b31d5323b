"""Player-facing words in nine languages: key-based catalogs, named placeholders, plurals.

Standard library, plus the message parser it shares with the engine (engine/icu.py, itself
standard library only); nothing else of ours, so render and the bot can both use it. Each
language's messages live in `catalogs/<lang>.json` (the core: names, events, refusals, the
turn) and in one file per further domain, `catalogs/<domain>/<lang>.json` (e.g. `league/`,
`clock/`): smaller files, and one area's words change without touching another's. A key
belongs to exactly one file. Keys map to ICU-style messages:

    "event.deployed": "{player} puts {count, plural, one {# token} other {# tokens}} on region {region}."

Syntax: `{name}` is a named value; `{n, plural, one {...} other {...}}` picks a form by the
language's CLDR cardinal rule (`#` is the number; `=0 {...}` matches exactly); and
`{x, race}`, `{x, power}`, `{x, piece}`, `{x, terrain}` name an id in the message's
language (the catalog's `race.<x>` etc.); `{x, select, true {..} other {..}}` picks a
form by value. A key missing in a language falls back to English.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import SupportsIndex, SupportsInt

from engine.icu import ARG as _ARG
from engine.icu import NAME_TYPES, plural_forms
from engine.icu import compiled as _compiled
from engine.icu import parts as _parts

CATALOG_DIR = Path(__file__).resolve().parent / "catalogs"

DEFAULT = "en"
# Our language codes (Discord's where Discord has the language; Icelandic it has not).
LANGUAGES: tuple[str, ...] = ("en", "da", "nl", "fi", "hu", "is", "no", "sv", "th")
# Discord locale -> our code. Discord has no Icelandic; "no" is its Norwegian (Bokmål).
DISCORD_LOCALES: dict[str, str] = {
    "en-US": "en", "en-GB": "en", "da": "da", "nl": "nl", "fi": "fi", "hu": "hu",
    "no": "no", "sv-SE": "sv", "th": "th",
}
ALIASES = {"nb": "no", "nn": "no", "nb-NO": "no", "sv": "sv", "is-IS": "is"}


def _one_integer(n: int) -> str:
    return "one" if n == 1 else "other"


def _icelandic(n: int) -> str:
    # CLDR: one when t = 0 and i % 10 = 1 and i % 100 != 11 (integers: 1, 21, 31, ... not 11).
    return "one" if n % 10 == 1 and n % 100 != 11 else "other"


# CLDR cardinal plural rules, restricted to whole numbers (all our counts are whole).
PLURAL_RULES: dict[str, Callable[[int], str]] = {
    "en": _one_integer, "da": _one_integer, "nl": _one_integer, "fi": _one_integer,
    "hu": _one_integer, "no": _one_integer, "sv": _one_integer, "is": _icelandic,
    "th": lambda n: "other",
}
# The categories each language's plural messages must give (CLDR, whole numbers).
PLURAL_CATEGORIES: dict[str, frozenset[str]] = {
    lang: frozenset({"other"} if lang == "th" else {"one", "other"}) for lang in LANGUAGES
}


def normalize(lang: str | None) -> str:
    """Our code for a language tag or Discord locale; English for anything unknown."""
    if not lang:
        return DEFAULT
    lang = str(lang)
    if lang in LANGUAGES:
        return lang
    if lang in DISCORD_LOCALES:
        return DISCORD_LOCALES[lang]
    if lang in ALIASES:
        return ALIASES[lang]
    base = lang.split("-")[0].lower()
    return base if base in LANGUAGES else ALIASES.get(base, DEFAULT)


def plural_category(lang: str, n: int) -> str:
    return PLURAL_RULES.get(normalize(lang), _one_integer)(abs(int(n)))


def domains() -> tuple[str, ...]:
    """The catalog domains beside the core file ("" names the core)."""
    return ("",) + tuple(sorted(p.name for p in CATALOG_DIR.iterdir() if p.is_dir()))


def catalog_files(lang: str) -> list[Path]:
    """The files holding `lang`'s messages: the core file, then each domain's that exists."""
    return [path for d in domains()
            if (path := (CATALOG_DIR / d / f"{lang}.json")).exists()]


@cache
def _raw(lang: str) -> tuple[dict[str, str], dict[str, str]]:
    messages: dict[str, str] = {}
    notes_: dict[str, str] = {}
    for path in catalog_files(lang):
        raw = json.loads(path.read_text(encoding="utf-8"))
        notes_.update(raw.get("_notes", {}))
        for key, value in raw.items():
            if key.startswith("_"):
                continue
            if key in messages:
                raise ValueError(f"{path}: key {key!r} is already defined in another file")
            messages[key] = value
    return messages, notes_


def catalog(lang: str) -> dict[str, str]:
    """The messages of one language from all its files (notes under "_" keys left out)."""
    return _raw(lang)[0]


def notes(lang: str) -> dict[str, str]:
    """The catalogs' `_notes`: which terms are not from a rulebook, and why."""
    return _raw(lang)[1]


@cache
def commands(lang: str) -> dict[str, dict[str, str]]:
    """Slash-command names, descriptions and choice names of one language, keyed by the
    English text ({"names": {...}, "descriptions": {...}, "choices": {...}}; empty for
    English and unknown languages)."""
    path = CATALOG_DIR.parent / "commands" / f"{normalize(lang)}.json"
    if normalize(lang) == DEFAULT or not path.exists():
        return {"names": {}, "descriptions": {}, "choices": {}}
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {"names": raw.get("names", {}), "descriptions": raw.get("descriptions", {}),
            "choices": raw.get("choices", {})}


def has(key: str, lang: str | None = DEFAULT) -> bool:
    return key in catalog(normalize(lang)) or key in catalog(DEFAULT)


def template(key: str, lang: str = DEFAULT) -> str:
    """The raw message of `key` in `lang`, else in English; KeyError if English lacks it."""
    lang = normalize(lang)
    found = catalog(lang).get(key)
    if found is None:
        found = catalog(DEFAULT)[key]
    return found


class Msg:
    """A catalog message as a value: a placeholder given a Msg is filled with that message
    worded in the outer message's language (a field name inside a refusal, say)."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, /, **params: object) -> None:
        self.key, self.params = key, params

    def __call__(self, lang: str | None = DEFAULT) -> str:
        return t(self.key, lang, **self.params)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and (self.key, self.params) == (other.key, other.params)

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Msg({self.key!r}, **{self.params!r})"


def t(key: str, lang: str | None = DEFAULT, /, **params: object) -> str:
    """The message `key` in `lang` (English if that language lacks it), filled with params."""
    lang = normalize(lang)
    return format_message(template(key, lang), lang, params)


def name(kind: str, ident: str | None, lang: str | None = DEFAULT) -> str:
    """A race, power, piece or terrain in `lang`; an unknown id is shown as it is."""
    if ident is None:
        return "?"
    key = f"{kind}.{ident}"
    return t(key, lang) if has(key, lang) else str(ident).replace("_", " ")


# ---------------------------------------------------------------- message syntax
# (the parser is engine/icu.py, shared with the engine's English sentences)

def _count(value: object) -> int:
    """A plural argument as a number: what int() takes (an int, a float, a digit string)."""
    if type(value) is int:  # nearly every call: skip the Protocol checks (~4 us each)
        return value
    if isinstance(value, str | SupportsInt | SupportsIndex):
        return int(value)
    raise TypeError(f"a plural argument must be a number, not {value!r}")


def format_message(message: str, lang: str, params: Mapping[str, object]) -> str:
    out = []
    for kind, arg, typ, form_items in _compiled(message):
        if kind == "text":
            out.append(arg)
            continue
        value = params[arg]
        if typ == "plural":
            forms = dict(form_items)
            form = forms.get(f"={value}")
            if form is None:
                form = forms.get(plural_category(lang, _count(value)), forms["other"])
            out.append(format_message(form.replace("#", str(value)), lang, params))
        elif typ == "select":
            forms = dict(form_items)
            key = str(value).lower() if isinstance(value, bool) else str(value)
            out.append(format_message(forms.get(key, forms["other"]), lang, params))
        elif typ in NAME_TYPES:
            out.append(name(typ, None if value is None else str(value), lang))
        else:
            out.append(value(lang) if isinstance(value, Msg) else str(value))
    return "".join(out)


def placeholders(message: str) -> dict[str, str]:
    """Every argument of a message with its type ("" for plain), plural forms included."""
    found: dict[str, str] = {}
    for kind, part in _parts(message):
        if kind != "arg":
            continue
        m = _ARG.match(part)
        if not m:
            raise ValueError(f"bad argument {part!r}")
        arg, typ, rest = m.group(1), m.group(2) or "", m.group(3)
        found[arg] = typ if typ else found.get(arg, "")
        if typ in ("plural", "select"):
            for form in plural_forms(rest or "").values():
                for a, ty in placeholders(form).items():
                    if a != arg:
                        found.setdefault(a, ty)
    return found


def plural_categories_used(message: str) -> list[frozenset[str]]:
    """The form names of every plural argument in a message (nested ones too)."""
    out = []
    for kind, part in _parts(message):
        if kind != "arg":
            continue
        m = _ARG.match(part)
        if m and m.group(2) == "plural":
            forms = plural_forms(m.group(3) or "")
            out.append(frozenset(k for k in forms if not k.startswith("=")))
            for form in forms.values():
                out.extend(plural_categories_used(form))
    return out


__all__ = [
    "CATALOG_DIR", "DEFAULT", "DISCORD_LOCALES", "LANGUAGES", "PLURAL_CATEGORIES", "Msg",
    "catalog", "commands", "format_message", "has", "name", "normalize", "notes", "placeholders",
    "plural_categories_used", "plural_category", "t", "template",
]
