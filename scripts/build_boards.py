"""Build data/boards/*.json (the project's board format) from the reference transcriptions.

Usage: python scripts/build_boards.py [REFERENCE_MAPS_DIR]

The reference files carry provenance (source ids, notes, disputes); the project's copy keeps
only what the game needs: terrain, symbols, edge/entry flags, neighbours, rounds and the
coarse display grid. tests/test_data.py checks the copy against the reference.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_REFERENCE = ROOT / "tests" / "data" / "reference" / "maps"


def convert(ref: dict) -> dict:
    regions = []
    for r in sorted(ref["regions"], key=lambda r: r["id"]):
        regions.append(
            {
                "id": r["id"],
                "terrain": r["terrain"],
                "symbols": sorted(r["features"]),
                "edge": r["border"],
                "entry": r["entry"],
                "neighbours": sorted(r["neighbours"]),
            }
        )
    return {
        "id": ref["board"],
        "players": ref["players"],
        "rounds": ref["turns"],
        "regions": regions,
        "grid": ref.get("grid"),
    }


def main(argv: list[str]) -> int:
    ref_dir = Path(argv[1]) if len(argv) > 1 else DEFAULT_REFERENCE
    out_dir = ROOT / "data" / "boards"
    out_dir.mkdir(parents=True, exist_ok=True)
    for path in sorted(ref_dir.glob("official-*p.json")):
        board = convert(json.loads(path.read_text(encoding="utf-8")))
        lines = [
            "{",
            f'  "id": {json.dumps(board["id"])},',
            f'  "players": {board["players"]},',
            f'  "rounds": {board["rounds"]},',
            '  "regions": [',
            ",\n".join("    " + json.dumps(r) for r in board["regions"]),
            "  ],",
            f'  "grid": {json.dumps(board["grid"])}',
            "}",
        ]
        (out_dir / path.name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {out_dir / path.name}: {len(board['regions'])} regions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
