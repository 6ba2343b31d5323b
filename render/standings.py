"""A league standings table as a picture, in the style of the map and the final reveal.

Pure: takes plain rows (no discord, no bot types) and returns a Pillow image; `standings_png`
encodes it. Columns: place, player, games played / left, wins, average rank, points, rating
(OpenSkill ordinal) with the last game's trend and a sparkline of the rating history.
Column words come from the i18n catalogs (domain league/) in the picture's language; every
word goes through render.text (raqm layout, font fallback chain), so Thai is shaped and
no script is drawn as missing-glyph boxes, and each heading is fitted into its column.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

import i18n

from . import text, theme
from .cards import GOLD, PAD, WIDTH
from .encode import card_png

ROW_H = 56
HEAD = 124
UP = (0, 130, 80)
DOWN = (190, 60, 30)
SOFT = (90, 70, 50)
MAX_ROWS = 30
# column -> x of its anchor; headings left-anchored (lm), centred (mm) or right-anchored (rm)
COLUMNS = {"#": 40, "player": 74, "gp": 390, "left": 452, "w": 520, "avg": 590,
           "pts": 670, "rating": 790, "trend": 900}
HEAD_SIZE = 22
LEAST = 12


@dataclass(frozen=True, slots=True)
class StandingsLine:
    place: int
    name: str
    played: int
    left: int | None
    wins: str  # already formatted (shared wins as decimals)
    avg_rank: float | None
    points: str
    rating: float
    trend: float
    history: tuple[float, ...] = field(default_factory=tuple)
    away: bool = False  # left the season (results still count)


def _spark(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int],
           values: Sequence[float]) -> None:
    x0, y0, x1, y1 = box
    vals = list(values)[-12:]
    if len(vals) < 2:
        return
    lo, hi = min(vals), max(vals)
    span = (hi - lo) or 1.0
    pts = [(x0 + (x1 - x0) * i / (len(vals) - 1), y1 - (y1 - y0) * (v - lo) / span)
           for i, v in enumerate(vals)]
    draw.line(pts, fill=theme.INK, width=3, joint="curve")
    ex, ey = pts[-1]
    colour = UP if vals[-1] >= vals[-2] else DOWN
    draw.ellipse((ex - 5, ey - 5, ex + 5, ey + 5), fill=colour, outline=theme.INK)


def _anchor(col: str) -> str:
    return "lm" if col in ("player", "trend") else "mm" if col == "#" else "rm"


def heading_room(col: str) -> float:
    """The width a column's heading may take: up to the previous column's anchor for a
    right-anchored heading, up to the next one for a left-anchored heading."""
    names = list(COLUMNS)
    i = names.index(col)
    x = COLUMNS[col]
    if col == "#":
        return 2 * (COLUMNS["player"] - x) - 8
    if _anchor(col) == "lm":
        nxt = COLUMNS[names[i + 1]] - 60 if i + 1 < len(names) else WIDTH - PAD
        return nxt - x - 8
    return x - COLUMNS[names[i - 1]] - 8 - (200 if names[i - 1] == "player" else 0)


def headings(lang: str) -> dict[str, tuple[str, int]]:
    """Each column's heading in `lang` with the font size that fits it into its column."""
    out = {}
    for col in COLUMNS:
        word = "#" if col == "#" else i18n.t(f"league.pic.{col}", lang)
        out[col] = (word, text.fit(word, HEAD_SIZE, heading_room(col), "narrow", LEAST))
    return out


def draw_standings(title: str, subtitle: str, lines: Sequence[StandingsLine],
                   footer: str = "", lang: str = i18n.DEFAULT) -> Image.Image:
    shown = list(lines[:MAX_ROWS])
    height = HEAD + ROW_H * max(1, len(shown)) + 70
    im = Image.new("RGB", (WIDTH, height), theme.PARCHMENT)
    draw = ImageDraw.Draw(im)
    room = WIDTH - 2 * PAD
    text.draw(draw, (PAD, 36), title, size=text.fit(title, 34, room, "serif", 18), kind="serif",
              fill=theme.INK, anchor="lm")
    text.draw(draw, (PAD, 76), subtitle, size=text.fit(subtitle, 24, room, "narrow", 14),
              kind="narrow", fill=SOFT, anchor="lm")
    cols = COLUMNS
    y = HEAD - 14
    for col, (word, size) in headings(lang).items():
        text.draw(draw, (cols[col], y), word, size=size, kind="narrow", fill=SOFT,
                  anchor=_anchor(col))
    draw.line((PAD, HEAD, WIDTH - PAD, HEAD), fill=theme.INK, width=2)

    def cell(x: float, y: float, s: str, *, fill: text.Ink = theme.INK, anchor: str = "rm",
             size: int = 26, kind: str = "bold") -> None:
        text.draw(draw, (x, y), s, size=size, kind=kind, fill=fill, anchor=anchor)

    if not shown:
        nobody = i18n.t("league.pic.nobody", lang)
        cell(PAD, HEAD + ROW_H // 2, nobody, anchor="lm",
             size=text.fit(nobody, 26, room, "bold", 14))
    for i, ln in enumerate(shown):
        top = HEAD + i * ROW_H
        cy = top + ROW_H // 2
        if ln.place == 1 and ln.played:
            draw.rounded_rectangle((PAD - 4, top + 4, WIDTH - PAD + 4, top + ROW_H - 4),
                                   radius=12, fill=(250, 236, 190), outline=GOLD, width=3)
        elif i % 2:
            draw.rectangle((PAD, top + 2, WIDTH - PAD, top + ROW_H - 2), fill=(228, 212, 178))
        cell(cols["#"], cy, str(ln.place), anchor="mm")
        name = ln.name if len(ln.name) <= 18 else ln.name[:17] + "…"
        name += "*" if ln.away else ""
        cell(cols["player"], cy, name, anchor="lm",
             size=text.fit(name, 26, cols["gp"] - cols["player"] - 50, "bold", 14))
        cell(cols["gp"], cy, str(ln.played))
        cell(cols["left"], cy, "—" if ln.left is None else str(ln.left), fill=SOFT)
        cell(cols["w"], cy, ln.wins)
        cell(cols["avg"], cy, "—" if ln.avg_rank is None else f"{ln.avg_rank:.2f}")
        cell(cols["pts"], cy, ln.points)
        cell(cols["rating"], cy, f"{ln.rating:.1f}")
        if ln.played:
            arrow = "▲" if ln.trend > 0.05 else "▼" if ln.trend < -0.05 else "•"
            colour = UP if ln.trend > 0.05 else DOWN if ln.trend < -0.05 else SOFT
            cell(cols["trend"], cy, f"{arrow}{abs(ln.trend):.1f}", fill=colour, anchor="lm",
                 size=22, kind="narrow")
            _spark(draw, (cols["trend"] + 74, top + 12, WIDTH - PAD - 8, top + ROW_H - 12),
                   ln.history)
    if footer:
        text.draw(draw, (PAD, height - 34), footer, size=text.fit(footer, 22, room, "narrow", 12),
                  kind="narrow", fill=SOFT, anchor="lm")
    return im


def standings_png(title: str, subtitle: str, lines: Sequence[StandingsLine],
                  footer: str = "", lang: str = i18n.DEFAULT) -> bytes:
    return card_png(draw_standings(title, subtitle, lines, footer, lang))
