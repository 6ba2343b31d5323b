"""The combo row laid out of kept pieces (title, numbered card, a combo's badge and banner,
its cost and coins) is the drawing mapped to the row palette, pixel for pixel: as combos are
picked and the rest move up, in every language, from fresh pieces and from kept ones."""

from __future__ import annotations

import random

import pytest

import engine
import i18n
import render
from render import cards


def _rows_along_picks(seed: int, picks: int = 5) -> list[dict]:
    """The visible rows of a game as its players pick (and coins pile on skipped combos)."""
    state = engine.new_game("official-3p", ["a", "b", "c"], seed)
    rng = random.Random(seed)
    rows = []
    while len(rows) <= picks:
        obs = engine.observe(state, None)
        if not rows or obs["row"] != rows[-1]["row"]:
            rows.append({"row": obs["row"]})
        legal = engine.legal_actions(state)
        if not legal:
            break
        picks_now = [a for a in legal if a.model_dump(mode="json")["do"] == "pick"]
        state = engine.apply(state, rng.choice(picks_now or legal)).state
    return rows


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_rows_along_a_game_are_the_drawing_exactly(lang: str) -> None:
    cards.clear_pieces()
    rows = _rows_along_picks(seed=sum(map(ord, lang)))
    assert len(rows) >= 4
    for observation in rows + rows[:2]:  # the last two entirely from kept pieces
        drawn = cards.row_on_palette(cards.draw_row(observation, lang))
        shown = cards.row_image(observation, lang)
        assert shown.tobytes() == drawn.tobytes()
        assert shown.getpalette() == drawn.getpalette()
    assert cards._pieces.hits > 0


def test_an_empty_row_and_a_short_one() -> None:
    for observation in ({"row": []}, {}, {"row": _rows_along_picks(3)[0]["row"][:2]}):
        drawn = cards.row_on_palette(cards.draw_row(observation))
        assert cards.row_image(observation).tobytes() == drawn.tobytes()


def test_row_png_is_the_row_image(busy_state) -> None:
    import io

    from PIL import Image

    shown = Image.open(io.BytesIO(render.row_png(busy_state, lang="fi")))
    shown.load()
    expected = cards.row_image(engine.observe(busy_state, None), "fi")
    assert shown.tobytes() == expected.tobytes()
