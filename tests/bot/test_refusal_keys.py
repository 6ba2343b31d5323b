"""Every refusal the bot raises is a catalog key, so each reader gets it in their language.

A ServiceError (or any subclass) must be raised as `X.said("key", ...)`; the one direct
construction allowed is RuleBroken re-raising an engine refusal with its key and params
(`RuleBroken(message, code, key, params)`). An English literal or f-string as the message
would reach a Hungarian or Thai reader untranslated.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bot.cogs.admin  # noqa: F401 - imported so their ServiceError subclasses are known
import bot.cogs.game  # noqa: F401
import bot.cogs.league  # noqa: F401
import bot.league  # noqa: F401
import i18n
from bot.errors import ServiceError

ROOT = Path(__file__).resolve().parents[2]
ALL = sorted((ROOT / "bot").rglob("*.py"))  # every package of the bot: cogs, league, store
FILES = ALL
# Parsed once at collection: CPython 3.11's ast.parse can fail with "recursion depth
# mismatch" after other tests ran into a RecursionError (python/cpython#106905).
TREES = {p: ast.parse(p.read_text(encoding="utf-8")) for p in ALL}


def _error_names() -> set[str]:
    names, todo = set(), [ServiceError]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo += cls.__subclasses__()
    return names


ERRORS = _error_names()


def _called_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):  # bot.service.LobbyError(...)
        return func.attr
    return None


def violations(source: str | ast.AST) -> list[tuple[int, str]]:
    """(line, why) for every ServiceError raised other than through `.said(key)`."""
    out = []
    tree = ast.parse(source) if isinstance(source, str) else source
    for node in ast.walk(tree):
        if not isinstance(node, ast.Raise) or node.exc is None:
            continue
        exc = node.exc
        if isinstance(exc, ast.Name) and exc.id in ERRORS:
            out.append((node.lineno, f"bare {exc.id}"))
            continue
        if not isinstance(exc, ast.Call):
            continue
        func = exc.func
        if isinstance(func, ast.Attribute) and func.attr == "said":
            key = exc.args[0] if exc.args else None
            if not isinstance(key, ast.Constant | ast.JoinedStr):
                out.append((node.lineno, "said() without a literal key"))
            continue
        name = _called_name(func)
        if name not in ERRORS:
            continue
        if name == "RuleBroken" and len(exc.args) >= 4:
            continue  # an engine refusal re-raised with its key and params
        out.append((node.lineno, f"{name}(...) built from a sentence, not a key"))
    return out


def _key_literals(tree: ast.AST) -> set[str]:
    keys = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "said" and node.args
                and isinstance(node.args[0], ast.Constant)):
            keys.add(node.args[0].value)
    return keys


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_refusals_are_raised_by_key(path: Path) -> None:
    rel = str(path.relative_to(ROOT))
    found = violations(TREES[path])
    assert not found, f"{rel}: " + "; ".join(f"line {n}: {why}" for n, why in found)


def test_every_said_key_is_in_every_catalog() -> None:
    keys = set().union(*(_key_literals(TREES[p]) for p in FILES))
    assert "svc.secret" in keys and "svc.lobby_size" in keys
    assert "league.err.no_open_season" in keys and "league.only_organisers" in keys
    for lang in i18n.LANGUAGES:
        missing = sorted(k for k in keys if k not in i18n.catalog(lang))
        assert not missing, f"{lang} lacks {missing}"


BAD = '''
def f(x):
    raise LobbyError("The game is full.")
def g(x):
    raise NotAllowed(f"No {x}.")
def h(x):
    raise RuleBroken("That is not an action I know.", "invalid_action")
def i(x):
    raise StaleVersion
'''
GOOD = '''
def f(x):
    raise LobbyError.said("svc.full", limit=x)
def g(exc):
    raise RuleBroken(text.violation(exc.message), exc.code, exc.key, exc.params) from None
def h():
    raise ValueError("not a refusal")
'''
SNIPPETS = (ast.parse(BAD), ast.parse(GOOD))


def test_the_checker_catches_sentences() -> None:
    bad, good = SNIPPETS
    assert [n for n, _ in violations(bad)] == [3, 5, 7, 9]
    assert violations(good) == []
