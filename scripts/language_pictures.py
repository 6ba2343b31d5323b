"""Draw the README's pictures in other languages: map, combo row and final reveal.

Usage: python scripts/language_pictures.py [LANG ...]   (default: th hu)

Writes docs/map-LANG.png, docs/row-LANG.png and docs/final-LANG.png from the 4-player sample
position (docs/scenarios/map-4p.json) and a seeded game played to its end.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
import render  # noqa: E402


def finished_game(seed: int = 11) -> engine.GameState:
    """A 3-player game on the official board played to the end by seeded random choices."""
    rnd = random.Random(seed)
    state = engine.new_game("official-3p", ["Anna", "Bence", "Csilla"], seed)
    while not state.finished:
        legal = engine.legal_actions(state)
        loud = [a for a in legal if a.do in ("conquer", "pick", "deploy")]
        state = engine.apply(state, rnd.choice(loud if loud and rnd.random() < 0.8 else legal)).state
    return state


def main(langs: list[str]) -> None:
    busy = engine.load_scenario(json.loads((ROOT / "docs/scenarios/map-4p.json").read_text()))
    final = finished_game()
    for lang in langs:
        (ROOT / f"docs/map-{lang}.png").write_bytes(render.map_png(busy, lang=lang))
        (ROOT / f"docs/row-{lang}.png").write_bytes(render.row_png(busy, lang=lang))
        (ROOT / f"docs/final-{lang}.png").write_bytes(render.final_png(final, lang=lang))
        print(f"docs/map-{lang}.png docs/row-{lang}.png docs/final-{lang}.png")


if __name__ == "__main__":
    main(sys.argv[1:] or ["th", "hu"])
