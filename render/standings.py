"""A league standings table as a picture, in the style of the map and the final reveal.

Pure: takes plain rows (no discord, no bot types) and returns a Pillow image; `standings_png`
encodes it. Columns: place, player, games played / left, wins, average rank, points, rating
(OpenSkill ordinal) with the last game's trend and a sparkline of the rating history.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from . import theme
from .cards import GOLD, PAD, WIDTH
from .encode import card_png

ROW_H = 56
HEAD = 124
UP = (0, 130, 80)
DOWN = (190, 60, 30)
SOFT = (90, 70, 50)
MAX_ROWS = 30


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


def draw_standings(title: str, subtitle: str, lines: Sequence[StandingsLine],
                   footer: str = "") -> Image.Image:
    shown = list(lines[:MAX_ROWS])
    height = HEAD + ROW_H * max(1, len(shown)) + 70
    im = Image.new("RGB", (WIDTH, height), theme.PARCHMENT)
    draw = ImageDraw.Draw(im)
    draw.text((PAD, 36), title, font=theme.font(34, "serif"), fill=theme.INK, anchor="lm")
    draw.text((PAD, 76), subtitle, font=theme.font(24, "narrow"), fill=SOFT, anchor="lm")
    cols = {"#": 40, "Player": 74, "GP": 390, "Left": 452, "W": 520, "Avg": 590,
            "Pts": 670, "Rating": 790, "Trend": 900}
    head_font, font, small = theme.font(22, "narrow"), theme.font(26, "bold"), theme.font(22, "narrow")
    y = HEAD - 14
    for name, x in cols.items():
        anchor = "lm" if name in ("Player", "Trend") else "rm" if name != "#" else "mm"
        draw.text((x, y), name, font=head_font, fill=SOFT, anchor=anchor)
    draw.line((PAD, HEAD, WIDTH - PAD, HEAD), fill=theme.INK, width=2)
    if not shown:
        draw.text((PAD, HEAD + ROW_H // 2), "Nobody has played yet.", font=font,
                  fill=theme.INK, anchor="lm")
    for i, ln in enumerate(shown):
        top = HEAD + i * ROW_H
        cy = top + ROW_H // 2
        if ln.place == 1 and ln.played:
            draw.rounded_rectangle((PAD - 4, top + 4, WIDTH - PAD + 4, top + ROW_H - 4),
                                   radius=12, fill=(250, 236, 190), outline=GOLD, width=3)
        elif i % 2:
            draw.rectangle((PAD, top + 2, WIDTH - PAD, top + ROW_H - 2), fill=(228, 212, 178))
        draw.text((cols["#"], cy), str(ln.place), font=font, fill=theme.INK, anchor="mm")
        name = ln.name if len(ln.name) <= 18 else ln.name[:17] + "…"
        draw.text((cols["Player"], cy), name + ("*" if ln.away else ""), font=font,
                  fill=theme.INK, anchor="lm")
        draw.text((cols["GP"], cy), str(ln.played), font=font, fill=theme.INK, anchor="rm")
        draw.text((cols["Left"], cy), "—" if ln.left is None else str(ln.left), font=font,
                  fill=SOFT, anchor="rm")
        draw.text((cols["W"], cy), ln.wins, font=font, fill=theme.INK, anchor="rm")
        avg = "—" if ln.avg_rank is None else f"{ln.avg_rank:.2f}"
        draw.text((cols["Avg"], cy), avg, font=font, fill=theme.INK, anchor="rm")
        draw.text((cols["Pts"], cy), ln.points, font=font, fill=theme.INK, anchor="rm")
        draw.text((cols["Rating"], cy), f"{ln.rating:.1f}", font=font, fill=theme.INK,
                  anchor="rm")
        if ln.played:
            arrow = "▲" if ln.trend > 0.05 else "▼" if ln.trend < -0.05 else "•"
            colour = UP if ln.trend > 0.05 else DOWN if ln.trend < -0.05 else SOFT
            draw.text((cols["Trend"], cy), f"{arrow}{abs(ln.trend):.1f}", font=small,
                      fill=colour, anchor="lm")
            _spark(draw, (cols["Trend"] + 74, top + 12, WIDTH - PAD - 8, top + ROW_H - 12),
                   ln.history)
    if footer:
        draw.text((PAD, height - 34), footer, font=small, fill=SOFT, anchor="lm")
    return im


def standings_png(title: str, subtitle: str, lines: Sequence[StandingsLine],
                  footer: str = "") -> bytes:
    return card_png(draw_standings(title, subtitle, lines, footer))
