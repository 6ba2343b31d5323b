"""Build data/geometry/<board>.json: the drawn shape of every official board, for render/.

Usage: python scripts/build_geometry.py [BOARD_ID ...]

The builder itself is render/builder.py (render also runs it at runtime for boards that have
no committed file, e.g. a scenario's inline map); see its docstring for the method. This
script writes the committed files and refuses any board whose contacts are not exact.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import data  # noqa: E402
from render import builder  # noqa: E402
from render.geometry import with_smooth  # noqa: E402


def build(board_id: str) -> dict:
    """The geometry dict of an official board (no disc fallback: exact contacts or fail)."""
    try:
        return with_smooth(builder.build(data.board(board_id), allow_fallback=False))
    except ValueError as exc:
        raise SystemExit(str(exc)) from exc


def main(argv: list[str]) -> int:
    ids = argv[1:] or list(data.BOARD_IDS)
    out_dir = ROOT / "data" / "geometry"
    out_dir.mkdir(parents=True, exist_ok=True)
    for board_id in ids:
        geo = build(board_id)
        path = out_dir / f"{board_id}.json"
        path.write_text(json.dumps(geo, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
