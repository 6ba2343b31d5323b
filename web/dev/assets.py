"""The dev harness's pictures and words, made by the bot's own code (not shipped):

    python web/dev/assets.py        # writes web/dev/out/

the map layer as WebP, each piece's PNG, and /api/i18n/{lang} answers as the server would give
them (docs/web.md "Words": the page's words plus the game's names), one JSON file a language.
"""

from __future__ import annotations

import json
from pathlib import Path

import i18n
from engine import data
from render import page
from render.sprites import PIECES

OUT = Path(__file__).resolve().parent / "out"
TERRAINS = ("forest", "farmland", "hill", "swamp", "mountain", "sea", "lake")


def words(lang: str) -> dict[str, object]:
    cat = i18n.catalog(lang)
    return {
        "lang": lang,
        "words": {k: v for k, v in cat.items() if k.startswith("web.")},
        "races": {r: i18n.name("race", r, lang) for r in data.RACES},
        "abbr": {r: i18n.t(f"abbr.{r}", lang) for r in data.RACES},
        "powers": {p: i18n.name("power", p, lang) for p in data.POWERS},
        "terrain": {t: i18n.name("terrain", t, lang) for t in TERRAINS},
        "pieces": {p: i18n.name("piece", p, lang) for p in PIECES},
    }


def main() -> None:
    (OUT / "sprites").mkdir(parents=True, exist_ok=True)
    (OUT / "i18n").mkdir(exist_ok=True)
    (OUT / "official-4p.webp").write_bytes(page.layer_webp("official-4p"))
    for kind in PIECES:
        (OUT / "sprites" / f"{kind}.png").write_bytes(page.piece_png(kind))
    for lang in i18n.LANGUAGES:
        (OUT / "i18n" / f"{lang}.json").write_text(json.dumps(words(lang), ensure_ascii=False))
    print(f"wrote the layer, {len(PIECES)} pieces and {len(i18n.LANGUAGES)} word files to {OUT}")


if __name__ == "__main__":
    main()
