"""The message syntax (a small ICU subset), parsed: one parser for the engine's own English
sentences (engine/errors.py) and for the bot's catalogs (i18n imports it from here, and
nothing else of the engine). Standard library only, so the engine stays pure.

`{name}` is a named value; `{n, plural, one {...} other {...}}` picks a form (`#` is the
number, `=0 {...}` matches exactly); `{x, select, a {...} other {...}}` picks by value;
`{x, race}`, `{x, power}`, `{x, piece}`, `{x, terrain}` name an id.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

NAME_TYPES = ("race", "power", "piece", "terrain")
ARG = re.compile(r"\{\s*(\w+)\s*(?:,\s*(\w+)\s*(?:,(.*))?)?\}\Z", re.S)
_FORM = re.compile(r"\s*(=\d+|\w+)\s*\{")

# ("text", literal, None, ()) or ("arg", name, type or None, ((form, text), ...))
Part = tuple[str, str, str | None, tuple[tuple[str, str], ...]]


def parts(text: str) -> Iterator[tuple[str, str]]:
    """Literal text and whole {...} arguments (braces nest inside plural forms)."""
    depth, start = 0, 0
    lit: list[str] = []
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                if lit:
                    yield "text", "".join(lit)
                lit, start = [], i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                yield "arg", text[start:i + 1]
        elif depth == 0:
            lit.append(ch)
        if depth < 0:
            raise ValueError(f"unbalanced braces in {text!r}")
    if depth:
        raise ValueError(f"unbalanced braces in {text!r}")
    if lit:
        yield "text", "".join(lit)


def plural_forms(body: str) -> dict[str, str]:
    """`one {..} other {..}` -> {"one": "..", "other": ".."}."""
    forms: dict[str, str] = {}
    i = 0
    body = body.strip()
    while i < len(body):
        m = _FORM.match(body, i)
        if not m:
            raise ValueError(f"bad plural forms {body!r}")
        depth, j = 1, m.end()
        while depth:
            if j >= len(body):
                raise ValueError(f"bad plural forms {body!r}")
            depth += {"{": 1, "}": -1}.get(body[j], 0)
            j += 1
        forms[m.group(1)] = body[m.end():j - 1]
        i = j
        while i < len(body) and body[i].isspace():
            i += 1
    return forms


@lru_cache(maxsize=8192)
def compiled(message: str) -> tuple[Part, ...]:
    """A message parsed once: ("text", literal, None, ()) and ("arg", name, type, forms)
    parts. Messages are a finite set (catalog templates and their plural forms), and parsing
    them was most of what formatting cost (every reply formats dozens)."""
    out: list[Part] = []
    for kind, part in parts(message):
        if kind == "text":
            out.append(("text", part, None, ()))
            continue
        m = ARG.match(part)
        if not m:
            raise ValueError(f"bad argument {part!r}")
        arg, typ, rest = m.group(1), m.group(2), m.group(3)
        forms: tuple[tuple[str, str], ...] = ()
        if typ in ("plural", "select"):
            forms = tuple(plural_forms(rest or "").items())
        elif typ is not None and typ not in NAME_TYPES:
            raise ValueError(f"unknown argument type {typ!r} in {message!r}")
        out.append(("arg", arg, typ, forms))
    return tuple(out)
