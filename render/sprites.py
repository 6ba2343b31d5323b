"""Small pictures drawn with Pillow primitives (supersampled, cached): symbols, pieces, markers."""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

import i18n
from engine import data

from . import text, theme
from .kept import Kept

SS = 4  # supersampling factor
CREAM = (250, 244, 226)
Colour = tuple[int, int, int]


def _canvas(w: int, h: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    im = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    return im, ImageDraw.Draw(im)


def _done(im: Image.Image, reducing_gap: float | None = None) -> Image.Image:
    """Down from the supersampled size. `reducing_gap` 2: a box reduction to twice the size
    first, then Lanczos (half the time, a hair softer) for sprites drawn while a reply waits."""
    return im.resize((im.width // SS, im.height // SS), Image.Resampling.LANCZOS,
                     reducing_gap=reducing_gap)


def _pts(d: int, *xy: float) -> list[tuple[float, float]]:
    """Points given as fractions of the sprite size, at supersampled scale."""
    s = d * SS
    return [(xy[i] * s, xy[i + 1] * s) for i in range(0, len(xy), 2)]


def _disc(draw: ImageDraw.ImageDraw, d: int, fill: Colour, outline: Colour = theme.INK) -> None:
    s = d * SS
    draw.ellipse((SS, SS, s - SS - 1, s - SS - 1), fill=fill, outline=outline, width=2 * SS)


# ----------------------------------------------------------------------------- symbols

def _mountain(draw: ImageDraw.ImageDraw, d: int) -> None:
    draw.polygon(_pts(d, 0.12, 0.74, 0.36, 0.36, 0.58, 0.74), fill=(130, 122, 112))
    draw.polygon(_pts(d, 0.3, 0.74, 0.58, 0.2, 0.88, 0.74), fill=(104, 96, 88))
    draw.polygon(_pts(d, 0.58, 0.2, 0.67, 0.37, 0.61, 0.33, 0.55, 0.4, 0.5, 0.35),
                 fill=(255, 255, 255))
    draw.line(_pts(d, 0.12, 0.74, 0.88, 0.74), fill=theme.INK, width=SS * 2)


def _mine(draw: ImageDraw.ImageDraw, d: int) -> None:
    w = max(2, d // 12) * SS
    draw.line(_pts(d, 0.28, 0.8, 0.66, 0.3), fill=(122, 78, 38), width=w)
    s = d * SS
    draw.arc((0.3 * s, 0.12 * s, 0.95 * s, 0.62 * s), 200, 330, fill=(90, 96, 106), width=w + SS)
    draw.ellipse(_pts(d, 0.14, 0.62, 0.36, 0.84), fill=(236, 190, 40), outline=theme.INK,
                 width=SS)


def _magic(draw: ImageDraw.ImageDraw, d: int) -> None:
    draw.polygon(_pts(d, 0.5, 0.1, 0.6, 0.4, 0.9, 0.5, 0.6, 0.6, 0.5, 0.9, 0.4, 0.6, 0.1, 0.5,
                      0.4, 0.4), fill=(136, 60, 196))
    draw.ellipse(_pts(d, 0.42, 0.42, 0.58, 0.58), fill=(230, 210, 255))


def _cavern(draw: ImageDraw.ImageDraw, d: int) -> None:
    s = d * SS
    draw.chord((0.12 * s, 0.25 * s, 0.88 * s, 1.15 * s), 180, 360, fill=(128, 104, 84))
    draw.chord((0.34 * s, 0.48 * s, 0.66 * s, 1.0 * s), 180, 360, fill=(24, 18, 14))
    draw.line(_pts(d, 0.12, 0.7, 0.88, 0.7), fill=theme.INK, width=SS * 2)


def _lost_tribe(draw: ImageDraw.ImageDraw, d: int) -> None:
    draw.polygon(_pts(d, 0.5, 0.2, 0.82, 0.78, 0.18, 0.78), fill=(200, 150, 90))
    draw.polygon(_pts(d, 0.5, 0.5, 0.6, 0.78, 0.4, 0.78), fill=(60, 40, 24))
    draw.line(_pts(d, 0.38, 0.1, 0.56, 0.34), fill=(90, 60, 30), width=2 * SS)
    draw.line(_pts(d, 0.62, 0.1, 0.44, 0.34), fill=(90, 60, 30), width=2 * SS)
    draw.line(_pts(d, 0.26, 0.6, 0.74, 0.6), fill=(160, 40, 30), width=2 * SS)


SYMBOLS = {"mountain": _mountain, "mine": _mine, "magic_source": _magic, "cavern": _cavern,
           "lost_tribe": _lost_tribe}


@cache
def symbol(kind: str, d: int = 36) -> Image.Image:
    """A region symbol on a cream disc."""
    im, draw = _canvas(d, d)
    _disc(draw, d, CREAM)
    SYMBOLS[kind](draw, d)
    return _done(im)


# ----------------------------------------------------------------------------- pieces

def _troll_lair(draw: ImageDraw.ImageDraw, d: int) -> None:
    """A troll's spiked wooden club (not an arch or a peak: caverns and mountains are)."""
    s = d * SS
    cx, cy, r = 0.6 * s, 0.38 * s, 0.2 * s
    for k in range(7):  # spikes around the head
        t = math.radians(-150 + k * 40)
        tip = (cx + 1.6 * r * math.cos(t), cy + 1.6 * r * math.sin(t))
        a1 = (cx + r * math.cos(t - 0.35), cy + r * math.sin(t - 0.35))
        a2 = (cx + r * math.cos(t + 0.35), cy + r * math.sin(t + 0.35))
        draw.polygon([a1, tip, a2], fill=(246, 240, 220), outline=theme.INK)
    draw.line(_pts(d, 0.24, 0.82, 0.52, 0.48), fill=theme.INK, width=int(0.19 * s))
    draw.line(_pts(d, 0.24, 0.82, 0.52, 0.48), fill=(122, 78, 38), width=int(0.12 * s))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(150, 100, 52), outline=theme.INK,
                 width=2 * SS)


def _fortress(draw: ImageDraw.ImageDraw, d: int) -> None:
    draw.rectangle(_pts(d, 0.28, 0.36, 0.72, 0.8), fill=(120, 120, 128))
    for x in (0.28, 0.44, 0.6):
        draw.rectangle(_pts(d, x, 0.22, x + 0.12, 0.36), fill=(120, 120, 128))
    draw.chord([*_pts(d, 0.42, 0.56), *_pts(d, 0.58, 0.9)], 180, 360, fill=(30, 26, 22))


def _encampment(draw: ImageDraw.ImageDraw, d: int) -> None:
    draw.polygon(_pts(d, 0.5, 0.18, 0.86, 0.76, 0.14, 0.76), fill=(232, 216, 170),
                 outline=(90, 60, 30), width=2 * SS)
    draw.polygon(_pts(d, 0.5, 0.44, 0.62, 0.76, 0.38, 0.76), fill=(90, 60, 30))


def _hero(draw: ImageDraw.ImageDraw, d: int) -> None:
    draw.polygon(_pts(d, 0.24, 0.2, 0.76, 0.2, 0.76, 0.5, 0.5, 0.84, 0.24, 0.5),
                 fill=(40, 70, 150), outline=(250, 250, 250), width=2 * SS)
    draw.polygon(_pts(d, 0.5, 0.28, 0.56, 0.44, 0.7, 0.44, 0.58, 0.54, 0.62, 0.68, 0.5, 0.6,
                      0.38, 0.68, 0.42, 0.54, 0.3, 0.44, 0.44, 0.44), fill=(250, 210, 60))


def _dragon(draw: ImageDraw.ImageDraw, d: int) -> None:
    draw.polygon(_pts(d, 0.5, 0.6, 0.12, 0.26, 0.22, 0.52, 0.1, 0.56, 0.46, 0.72),
                 fill=(30, 20, 20))
    draw.polygon(_pts(d, 0.5, 0.6, 0.88, 0.26, 0.78, 0.52, 0.9, 0.56, 0.54, 0.72),
                 fill=(30, 20, 20))
    draw.ellipse(_pts(d, 0.4, 0.3, 0.6, 0.8), fill=(30, 20, 20))
    draw.polygon(_pts(d, 0.44, 0.34, 0.5, 0.14, 0.56, 0.34), fill=(30, 20, 20))
    draw.ellipse(_pts(d, 0.47, 0.4, 0.53, 0.46), fill=(250, 220, 60))


def _hole(draw: ImageDraw.ImageDraw, d: int) -> None:
    draw.ellipse(_pts(d, 0.16, 0.32, 0.84, 0.74), fill=(110, 80, 50))
    draw.ellipse(_pts(d, 0.26, 0.4, 0.74, 0.68), fill=(10, 8, 6))


PIECES = {"troll_lair": (_troll_lair, (110, 150, 80)), "fortress": (_fortress, (236, 236, 236)),
          "encampment": (_encampment, (150, 110, 70)), "hero": (_hero, (236, 190, 50)),
          "dragon": (_dragon, (200, 50, 40)), "hole": (_hole, (200, 170, 120))}


@cache
def piece(kind: str, count: int = 1, d: int = 38) -> Image.Image:
    """A piece on a coloured disc; a count above 1 sits on a dark badge at its lower right."""
    draw_fn, bg = PIECES.get(kind, (None, (200, 200, 200)))
    extra = 12 if count > 1 else 0
    im, draw = _canvas(d + extra, d)
    _disc(draw, d, bg)
    if draw_fn:
        draw_fn(draw, d)
    if extra:
        b = 24 * SS
        x1, y1 = (d + extra) * SS, d * SS
        draw.ellipse((x1 - b, y1 - b, x1 - 1, y1 - 1), fill=theme.INK,
                     outline=(255, 255, 255), width=2 * SS)
        draw.text((x1 - b / 2, y1 - b / 2), str(count), font=theme.font(17 * SS, "bold"),
                  fill=(255, 255, 255), anchor="mm")
    return _done(im)


@cache
def draw_probe() -> ImageDraw.ImageDraw:
    return ImageDraw.Draw(Image.new("L", (1, 1)))


# ----------------------------------------------------------------------------- markers

LABEL_SIZE, LABEL_LEAST = 22, 14  # race label on a marker: drawn size, smallest allowed


@cache
def label_room() -> float:
    """Drawn width of the widest English race abbreviation: the room of every label."""
    return max(text.width(i18n.t(f"abbr.{r}", "en"), LABEL_SIZE * SS, "narrow")
               for r in data.RACES) / SS

# ~14 KB a marker, ~1.5 KB packed (render.kept): races x counts x colours x languages
MARKERS_BYTES = 2 * 1024 * 1024
_markers = Kept(MARKERS_BYTES)


def marker(count: int, label: str, fill: Colour, *, decline: bool = False,
           ring: Colour | None = None, h: int = 44) -> Image.Image:
    """A rounded tag "3 Orc": token count (big) and race abbreviation, in the owner's colour.

    In decline: grey with hatching in the owner's colour. The label is measured and shrunk
    to the room of the widest English race abbreviation, so no language makes a tag wider
    than the ones the board layout was made for. Kept once drawn (MARKERS_BYTES)."""
    return _markers.get((count, label, fill, decline, ring, h),
                        lambda: _marker(count, label, fill, decline, ring, h))


def clear_markers() -> None:
    """Forget the markers kept (tests: draw each again)."""
    _markers.clear()


def _marker(count: int, label: str, fill: Colour, decline: bool, ring: Colour | None,
            h: int) -> Image.Image:
    fc = theme.font(30 * SS, "bold")
    cnt = str(count) if count else ""
    wc = text.width(cnt, 30 * SS, "bold") / SS if cnt else 0
    ls = text.fit(label, LABEL_SIZE * SS, label_room() * SS, "narrow", least=LABEL_LEAST * SS)
    wl = text.width(label, ls, "narrow") / SS
    w = int(wc + wl + (30 if cnt else 22))
    im, draw = _canvas(w, h)
    s = SS
    box = (s, s, (w - 1) * s, (h - 1) * s)
    body = theme.DECLINE_FILL if decline else fill
    draw.rounded_rectangle(box, radius=12 * s, fill=body)
    if decline:
        hatch = Image.new("RGBA", im.size, (0, 0, 0, 0))
        hd = ImageDraw.Draw(hatch)
        for x in range(-h * s, w * s, 10 * s):
            hd.line((x, h * s, x + h * s, 0), fill=(*fill, 150), width=3 * s)
        mask = Image.new("L", im.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle(box, radius=12 * s, fill=255)
        im.paste(hatch, (0, 0), Image.composite(hatch, Image.new("RGBA", im.size), mask))
    outline = fill if decline else theme.INK
    draw.rounded_rectangle(box, radius=12 * s, outline=outline, width=(4 if decline else 3) * s)
    if decline:
        draw.rounded_rectangle((5 * s, 5 * s, (w - 5) * s, (h - 5) * s), radius=8 * s,
                               outline=theme.INK, width=s)
        draw.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=13 * s, outline=theme.INK,
                               width=2 * s)
    ink = theme.text_on(body)
    x = 11 * s
    stroke = (255, 255, 255) if ink[0] < 128 else theme.INK
    if cnt:
        draw.text((x, h * s / 2), cnt, font=fc, fill=ink, anchor="lm",
                  stroke_width=s if decline else 0, stroke_fill=stroke)
        x += int((wc + 6) * s)
    text.draw(draw, (x, h * s / 2 + s), label, size=ls, kind="narrow", fill=ink, anchor="lm")
    if ring:
        draw.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=13 * s, outline=ring,
                               width=2 * s)
    # a marker is made the first time a map shows its count, race, colour and language:
    # while a reply waits for that map (about 2.5 ms -> 1.2 ms a marker)
    return _done(im, reducing_gap=2.0)


@cache
def region_label(rid: int) -> Image.Image:
    """The region number on a small parchment tag (what players type)."""
    f = theme.font(24 * SS, "serif")
    text = str(rid)
    tw = draw_probe().textlength(text, font=f) / SS
    w, h = int(tw + 14), 32
    im, draw = _canvas(w, h)
    draw.rounded_rectangle((SS, SS, (w - 1) * SS, (h - 1) * SS), radius=6 * SS,
                           fill=(255, 250, 236), outline=theme.INK, width=2 * SS)
    draw.text((w * SS / 2, h * SS / 2 + SS), text, font=f, fill=theme.INK, anchor="mm")
    return _done(im)


@cache
def swatch(fill: Colour, d: int = 30) -> Image.Image:
    im, draw = _canvas(d, d)
    _disc(draw, d, fill)
    return _done(im)
