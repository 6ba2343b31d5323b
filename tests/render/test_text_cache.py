"""render.text draws runs from cached glyph masks: the pixels must be exactly those of
ImageDraw.text, in every script, anchor and fractional position, and colour."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from render import text

CASES = [
    ("Hello 3 tokens", "bold", 28, (10.5, 40.25), "lm", (20, 20, 20)),
    ("ภาษาไทย mixed ✓", "narrow", 22, (33.7, 60.0), "la", (200, 10, 10)),
    ("Größe Ωmega", "serif", 30, (250.0, 60.5), "mm", (0, 0, 0)),
    ("Wizards", "bold", 26, (490.0, 100.0), "rs", (90, 70, 50)),
    ("Wizards", "bold", 26, (490.25, 100.75), "rs", (255, 255, 255)),
]


def _plain(d, xy, s, f, fill, anchor, stroke_width, stroke_fill) -> None:
    d.text(xy, s, font=f, fill=fill, anchor=anchor, stroke_width=stroke_width,
           stroke_fill=stroke_fill)


@pytest.mark.parametrize(("s", "kind", "size", "xy", "anchor", "fill"), CASES)
def test_cached_glyphs_draw_the_same_pixels(monkeypatch: pytest.MonkeyPatch, s: str, kind: str,
                                            size: int, xy: tuple[float, float], anchor: str,
                                            fill: tuple[int, int, int]) -> None:
    cached = Image.new("RGB", (520, 130), (248, 238, 212))
    for _ in range(2):  # the second time from the cache
        text.draw(ImageDraw.Draw(cached), xy, s, size=size, kind=kind, fill=fill,
                  anchor=anchor)
    monkeypatch.setattr(text, "_text", _plain)
    plain = Image.new("RGB", (520, 130), (248, 238, 212))
    for _ in range(2):
        text.draw(ImageDraw.Draw(plain), xy, s, size=size, kind=kind, fill=fill, anchor=anchor)
    assert cached.tobytes() == plain.tobytes()
    assert plain.getbbox() is not None and cached.tobytes() != \
        Image.new("RGB", (520, 130), (248, 238, 212)).tobytes()  # something was drawn
