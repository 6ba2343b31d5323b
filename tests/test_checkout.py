"""A fresh clone is self-contained: nothing reads outside the checkout."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE_DIRS = ("engine", "render", "bot", "tests", "bench", "scripts", "ai", "i18n")
OUTSIDE = re.compile(r"(^|[/\\])\.\.[/\\]|^shared$|(^|[/\\])shared[/\\]")


def _python_files() -> list[Path]:
    return [p for d in SOURCE_DIRS if (ROOT / d).is_dir() for p in sorted((ROOT / d).rglob("*.py"))]


def _escapes(tree: ast.AST) -> list[str]:
    """String literals that name a path outside the checkout ("../x", "shared/..."), and
    `Path(__file__)...parent` chains that climb above the repository root."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if OUTSIDE.search(node.value.strip()):
                found.append(repr(node.value))
        elif isinstance(node, ast.Attribute) and node.attr == "parent":
            inner = node.value
            if (isinstance(inner, ast.Subscript) and isinstance(inner.value, ast.Attribute)
                    and inner.value.attr == "parents"):
                found.append(ast.unparse(node))  # parents[N].parent: climbing past the root
    return found


def test_no_source_file_reaches_outside_the_checkout() -> None:
    files = _python_files()
    assert len(files) > 50
    bad = {}
    for path in files:
        if path.name == "test_checkout.py":  # its own examples of what is refused
            continue
        hits = _escapes(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        if hits:
            bad[str(path.relative_to(ROOT))] = hits
    assert not bad


def test_the_checker_notices_an_escape() -> None:
    # the escaping source is assembled from parts, so that this file itself holds no such path
    outside = "shared"
    tree = ast.parse(f'R = Path(__file__).resolve().parents[1].parent / "{outside}" / "x"\n'
                     f'S = "../{outside}/reference"\n')
    assert len(_escapes(tree)) == 3


def test_what_docstrings_cite_is_in_the_repository() -> None:
    assert "§16" in (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    assert "## Engine contract" in (ROOT / "docs" / "DESIGN.md").read_text(encoding="utf-8")
    maps = sorted(p.name for p in (ROOT / "tests" / "data" / "reference" / "maps").iterdir())
    assert maps == [f"official-{n}p.json" for n in (2, 3, 4, 5)]
    for path in _python_files():
        text = path.read_text(encoding="utf-8")
        assert "COMMON.md" not in text or path.name == "test_checkout.py", path
