"""Colours, fonts and sizes shared by every picture (Okabe-Ito player colours)."""

from __future__ import annotations

from PIL import ImageFont

import i18n

from . import text

FONT_DIR = text.FONT_DIR

# Okabe & Ito (2008), colour-blind safe; order = seat order.
PLAYER_COLOURS: tuple[tuple[int, int, int], ...] = (
    (213, 94, 0),  # vermillion
    (0, 114, 178),  # blue
    (240, 228, 66),  # yellow
    (204, 121, 167),  # reddish purple
    (0, 158, 115),  # bluish green
)

TERRAIN = {
    "forest": (92, 128, 74),
    "farmland": (222, 204, 128),
    "hill": (171, 180, 104),
    "swamp": (120, 132, 104),
    "mountain": (160, 148, 136),
    "sea": (70, 126, 170),
    "lake": (104, 160, 200),
}
TERRAIN_INK = {  # texture strokes
    "forest": (46, 82, 40),
    "farmland": (176, 150, 78),
    "hill": (112, 124, 60),
    "swamp": (70, 86, 64),
    "mountain": (96, 86, 78),
    "sea": (150, 190, 222),
    "lake": (170, 208, 232),
}
PARCHMENT = (236, 222, 190)
PARCHMENT_DARK = (206, 186, 144)
INK = (48, 36, 26)  # borders, frame, text
BORDER = (58, 42, 28)
DECLINE_FILL = (196, 196, 196)
LOST_TRIBE = (128, 98, 64)
HIGHLIGHT = (255, 255, 255)


def font(size: int, kind: str = "bold") -> ImageFont.FreeTypeFont:
    """The first font of a kind ("bold", "narrow", "serif"), raqm layout; words in any
    script go through render.text, which falls back along the kind's font chain."""
    return text.font(size, kind)


def player_colour(seat: int) -> tuple[int, int, int]:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def text_on(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on `fill`."""
    r, g, b = fill[:3]
    return (20, 16, 12) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (255, 255, 255)


def abbr(race: str | None, lang: str = "en") -> str:
    """The race's short name on map markers, in the picture's language."""
    if race is None:
        return "?"
    key = f"abbr.{race}"
    return i18n.t(key, lang) if i18n.has(key, lang) else race[:3]
