"""Draw the README's end-of-game pictures: the end card and a replay frame's caption strip.

Usage: python scripts/story_pictures.py [LANG]   (default: en)

Writes docs/endcard.png (with a made-up win-chance series) and docs/replay-strip.png (the
bottom of the replay's 8th frame: the map's panel and the caption strip) from a 3-player
game on the official board played to its end by the easy AI.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import ai  # noqa: E402
import engine  # noqa: E402
import story  # noqa: E402
from render import encode, replay, storycard  # noqa: E402


def finished_story(seed: int = 11) -> story.Story:
    start = state = engine.new_game("official-3p", ["Anna", "Bence", "Csilla"], seed)
    actions, events = [], []
    while not state.finished:
        action = ai.choose(state, "easy", len(actions))
        step = engine.apply(state, action)
        actions.append(action.model_dump(mode="json"))
        events.append([dict(e) for e in step.events])
        state = step.state
    return story.tell(start, actions, events)


def main(lang: str) -> None:
    tale = finished_story()
    n = len(tale.frames)
    chances = []
    for k in range(n):  # an even start drifting to the winner: what ai.evaluate would give
        row = {p: (1 - k / n) / len(tale.players) for p in tale.players}
        row[tale.winners[0]] += k / n
        chances.append(row)
    (ROOT / "docs/endcard.png").write_bytes(storycard.end_card_png(tale, lang, chances))
    shown, strip = replay.frame_image(tale, 7, lang)
    im = Image.new("P", (shown.width, 230 + strip.height))
    im.putpalette(shown.getpalette() or [])
    im.paste(shown.crop((0, shown.height - 230, shown.width, shown.height)), (0, 0))
    im.paste(strip, (0, 230))
    (ROOT / "docs/replay-strip.png").write_bytes(encode.png_bytes(im))
    print("docs/endcard.png docs/replay-strip.png")
    print(storycard.end_card_alt(tale, lang))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "en")
