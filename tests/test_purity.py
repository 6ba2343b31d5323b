"""Import discipline: engine/ uses only stdlib + pydantic; render/ never imports discord."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _imports(package: str) -> dict[str, set[str]]:
    """Top-level module names imported (absolutely) by each file of a package."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_engine_imports_only_stdlib_and_pydantic() -> None:
    files = _imports("engine")
    assert files, "engine/ has no Python files"
    allowed = set(sys.stdlib_module_names) | {"pydantic", "pydantic_core", "engine"}
    for path, names in files.items():
        bad = names - allowed
        assert not bad, f"{path} imports {sorted(bad)}"


def test_engine_has_no_global_random_or_io_libraries() -> None:
    for path, names in _imports("engine").items():
        assert not names & {"asyncio", "discord", "aiosqlite", "PIL", "sqlite3"}, path
    for path in (ROOT / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            # random.Random(...) instances only: no module-level random.shuffle/choice/...
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "random"):
                assert node.attr == "Random", f"{path}: random.{node.attr}"


def test_render_never_imports_discord_or_aiosqlite() -> None:
    for path, names in _imports("render").items():
        bad = names & {"discord", "aiosqlite", "bot"}
        assert not bad, f"{path} imports {sorted(bad)}"


def test_import_checker_notices_a_forbidden_import(tmp_path: Path) -> None:
    tree = ast.parse("import discord\nfrom aiosqlite import connect\nfrom . import x\n")
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    assert names == {"discord", "aiosqlite"}


def test_ai_imports_only_stdlib_and_engine() -> None:
    files = _imports("ai")
    assert files, "ai/ has no Python files"
    allowed = set(sys.stdlib_module_names) | {"engine", "ai"}
    for path, names in files.items():
        bad = names - allowed
        assert not bad, f"{path} imports {sorted(bad)}"
    for path in (ROOT / "ai").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):  # seeded random.Random instances only
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "random"):
                assert node.attr == "Random", f"{path}: random.{node.attr}"


def _run_time_imports(tree: ast.AST) -> set[str]:
    """Modules a file imports when it runs: imports under `if TYPE_CHECKING:` left out."""
    hidden = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
              and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
              for inner in node.body for n in ast.walk(inner)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found
def test_story_imports_only_stdlib_and_engine() -> None:
    """The game's story is data for render and the bot alike: no pictures, no Discord."""
    files = _imports("story")
    assert files, "story/ has no Python files"
    allowed = set(sys.stdlib_module_names) | {"engine", "story"}
    for path, names in files.items():
        bad = names - allowed
        assert not bad, f"{path} imports {sorted(bad)}"


def test_league_core_modules_are_pure() -> None:
    """Ratings, table formation, season tables and export: no discord, no database, no I/O
    libraries, so they can be tested (and reused) on their own; the league's models and
    audit wording add only the catalogs and the service errors."""
    core = {"bot.league.ratings", "bot.league.tables", "bot.league.standings",
            "bot.league.export"}
    extra = {"models": {"i18n", "bot.errors", "bot.league"}, "audit": {"i18n"}}
    for name in ("ratings", "tables", "standings", "export", "models", "audit"):
        path = ROOT / "bot" / "league" / f"{name}.py"
        modules = _run_time_imports(ast.parse(path.read_text(encoding="utf-8")))
        tops = {m.split(".")[0] for m in modules}
        allowed = set(sys.stdlib_module_names) | {"openskill", "bot", "i18n"}
        assert tops <= allowed, f"bot/league/{name}.py imports {sorted(tops - allowed)}"
        assert not tops & {"asyncio", "sqlite3", "socket"}, name
        inner = {m for m in modules if m.startswith(("bot", "i18n"))}
        assert inner <= core | extra.get(name, set()), (name, inner - core)


def test_run_time_imports_leave_out_type_checking_blocks() -> None:
    tree = ast.parse("from typing import TYPE_CHECKING\nimport json\n"
                     "if TYPE_CHECKING:\n    from bot.store.rows import GameRow\n")
    assert _run_time_imports(tree) == {"typing", "json"}


def test_i18n_imports_only_the_standard_library() -> None:
    """...and the message parser it shares with the engine (engine/icu.py, stdlib only)."""
    files = _imports("i18n")
    assert files, "i18n/ has no Python files"
    allowed = set(sys.stdlib_module_names) | {"i18n", "engine"}
    for path, names in files.items():
        bad = names - allowed
        assert not bad, f"{path} imports {sorted(bad)}"
    for path in (ROOT / "i18n").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                assert not [a for a in node.names if a.name.split(".")[0] == "engine"], path
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                    and node.module.split(".")[0] == "engine":
                assert node.module == "engine.icu", f"{path} imports {node.module}"


def test_render_imports_only_engine_i18n_and_pillow_of_the_outside() -> None:
    # and isal: ISA-L's deflate for the map's PNG bands (zlib where it is missing)
    # and story (the game's story, stdlib + engine) for the end card and the replay
    allowed = set(sys.stdlib_module_names) | {"PIL", "engine", "i18n", "render", "isal",
                                                "story"}
    for path, names in _imports("render").items():
        bad = names - allowed
        assert not bad, f"{path} imports {sorted(bad)}"


def test_no_bot_module_is_imported_inside_a_function() -> None:
    """An import of a bot module hidden in a function would dodge an import circle unseen
    (lint-imports checks the floors). Only the entry point imports late, on purpose: a bad
    setting is answered before discord.py is even loaded."""
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if path.name == "__main__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(fn):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                         [node.module] if isinstance(node, ast.ImportFrom) and node.module
                         else [])
                hidden = [n for n in names if n.split(".")[0] == "bot"]
                assert not hidden, f"{path.relative_to(ROOT)}:{node.lineno} imports {hidden}"
