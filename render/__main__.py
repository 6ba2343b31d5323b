"""python -m render SCENARIO.json -o OUT.png [--row ROW.png] [--highlight 3,14]: draw a position."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import engine

from . import map_png, row_png


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m render", description=__doc__)
    ap.add_argument("scenario", type=Path, help="a scenario JSON file (DESIGN.md format)")
    ap.add_argument("-o", "--out", type=Path, required=True, help="PNG file to write")
    ap.add_argument("--row", type=Path, help="also write the combo row to this PNG")
    ap.add_argument("--viewer", help="draw a player's own view (shows their coins)")
    ap.add_argument("--highlight", default="", help="comma-separated region ids to outline")
    args = ap.parse_args(argv)
    state = engine.load_scenario(json.loads(args.scenario.read_text(encoding="utf-8")))
    highlight = [int(x) for x in args.highlight.split(",") if x.strip()]
    args.out.write_bytes(map_png(state, viewer=args.viewer, highlight=highlight))
    if args.row:
        args.row.write_bytes(row_png(state))
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
