"""What every bench script shares at its edge: a bad file or argument is one line on stderr
and exit status 1, never a traceback."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn


def fail(message: str) -> NoReturn:
    """Print `<script>: message` to stderr and exit 1."""
    print(f"bench/{Path(sys.argv[0]).name}: {message}", file=sys.stderr)
    raise SystemExit(1)


def read_json(path: Path) -> Any:
    """A JSON file's content, or one line saying why it cannot be had."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        fail(f"{path}: no such file")
    except OSError as exc:
        fail(f"{path}: cannot read it ({exc.strerror or exc})")
    except UnicodeDecodeError:
        fail(f"{path}: not a UTF-8 text file")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})")


def folder(path: str) -> Path:
    """An existing folder (for argparse `type=`)."""
    p = Path(path)
    if not p.is_dir():
        fail(f"{p}: no such folder")
    return p
