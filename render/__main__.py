"""python -m render SCENARIO.json -o OUT.png [--row ROW.png] [--highlight 3,14]: draw a position.

A missing or unreadable file, bad JSON or an impossible scenario is answered with one line on
stderr and exit status 1 (a usage error: 2), never a traceback."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import engine

from . import map_png, row_png

PROG = "python -m render"


class CommandError(Exception):
    """A one-line answer for the user (the message names the file and what is wrong)."""


def _region_ids(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"region ids are whole numbers, got {text!r}") from None


def one_line(exc: BaseException) -> str:
    """An exception as one line: pydantic's first error with where it is, else the first line."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            found = errors()
        except Exception:  # noqa: BLE001 - not a pydantic error after all
            found = []
        if found:
            first = found[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            return f"{where + ': ' if where else ''}{first.get('msg', exc)}{more}"
    text = str(exc).strip() or exc.__class__.__name__
    if isinstance(exc, KeyError):
        text = f"missing {text}"
    return text.splitlines()[0]


def read_scenario(path: Path) -> Any:
    """The JSON of a scenario file, or a CommandError saying why it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise CommandError(f"{path}: no such file") from None
    except OSError as exc:
        raise CommandError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path}: not a UTF-8 text file") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: "
                           f"{exc.msg})") from None


def _write(path: Path, png: bytes) -> None:
    try:
        path.write_bytes(png)
    except OSError as exc:
        raise CommandError(f"{path}: cannot write it ({exc.strerror or exc})") from None


def draw(args: argparse.Namespace) -> None:
    spec = read_scenario(args.scenario)
    try:
        state = engine.load_scenario(spec)
    except (ValueError, KeyError, TypeError) as exc:
        raise CommandError(f"{args.scenario}: not a valid scenario: {one_line(exc)}") from None
    if args.viewer is not None and args.viewer not in state.players:
        raise CommandError(f"--viewer {args.viewer!r} is not a player of {args.scenario}")
    _write(args.out, map_png(state, viewer=args.viewer, highlight=args.highlight))
    if args.row:
        _write(args.row, row_png(state))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    ap.add_argument("scenario", type=Path, help="a scenario JSON file (docs/DESIGN.md format)")
    ap.add_argument("-o", "--out", type=Path, required=True, help="PNG file to write")
    ap.add_argument("--row", type=Path, help="also write the combo row to this PNG")
    ap.add_argument("--viewer", help="draw a player's own view (shows their coins)")
    ap.add_argument("--highlight", type=_region_ids, default=[],
                    help="comma-separated region ids to outline")
    args = ap.parse_args(argv)
    try:
        draw(args)
    except CommandError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
