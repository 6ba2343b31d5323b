"""PNG encoding: the map goes out as a palette image (small, fast) with a per-board palette."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image

from . import sprites, theme
from .geometry import read_cache, write_cache
from .static import layer_cache_name, map_layer

# zlib level for the pictures: 3 encodes in half the time of 6 for ~15% more bytes, and 1 in
# 3/4 of the time of 3 for ~9% more (5p map ~240 KB, far under Discord's limits; PNG is
# lossless, so the picture is the same). Encoding is most of a map's cost (bench/render.py),
# and a map is drawn for every turn: CPU per action is what limits a machine (issue #11).
COMPRESS_LEVEL = 1
CARD_COLOURS = 128  # the row and final cards: flat fills and text, few colours needed
Colour = tuple[int, int, int]


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))


def reserved_colours() -> list[Colour]:
    """Colours the dynamic layer draws with, plus steps of their anti-aliasing blends."""
    out: list[Colour] = []
    dark, white = (20, 16, 12), (255, 255, 255)
    for c in (*theme.PLAYER_COLOURS, theme.DECLINE_FILL, theme.LOST_TRIBE, theme.PARCHMENT):
        out.append(c)
        out += [_mix(c, dark, t) for t in (0.25, 0.5, 0.75)]
        out += [_mix(c, white, t) for t in (0.3, 0.6)]
    out += [_mix(dark, white, t / 7) for t in range(8)]
    out += [(136, 60, 196), (230, 210, 255), (236, 190, 40), (128, 104, 84), (24, 18, 14),
            (90, 96, 106), (122, 78, 38), (200, 150, 90), (160, 40, 30), sprites.CREAM,
            (200, 50, 40), (40, 70, 150), (250, 210, 60), (96, 120, 70), (150, 150, 140),
            (236, 236, 236), (120, 120, 128), (150, 110, 70), (232, 216, 170), (110, 80, 50),
            (200, 170, 120), (250, 240, 214), theme.INK, (90, 70, 50)]
    seen: list[Colour] = []
    for c in out:
        if c not in seen:
            seen.append(c)
    return seen


@lru_cache(maxsize=12)
def palette(key: str) -> Image.Image:
    """A 256-colour palette: the static map's own colours plus the reserved ones (kept in
    the disk cache next to the static layer)."""
    reserved = reserved_colours()
    name = "palette-" + layer_cache_name(key)[len("static-"):-len(".png")] + ".rgb"
    flat = read_cache(name)
    if flat is None or len(flat) != 768:
        # the colours of a half-size copy: the same palette for a quarter of the work
        q = map_layer(key).reduce(2).quantize(256 - len(reserved),
                                               method=Image.Quantize.MEDIANCUT)
        head = q.getpalette()[: 3 * (256 - len(reserved))]
        flat = bytes(head + [v for c in reserved for v in c])
        write_cache(name, flat)
    pal = Image.new("P", (1, 1))
    pal.putpalette(list(flat))
    return pal


def to_palette(im: Image.Image, key: str) -> Image.Image:
    """`im` on the palette of a board (`key`: render.geometry.board_key, official id works)."""
    return im.quantize(palette=palette(key), dither=Image.Dither.NONE)


def card_png(im: Image.Image) -> bytes:
    """A card picture (combo row, final reveal) as a small palette PNG: quantizing flat fills
    and text to CARD_COLOURS costs less than it saves in encoding, and the file is 1/3."""
    return png_bytes(im.convert("RGB").quantize(CARD_COLOURS, method=Image.Quantize.FASTOCTREE,
                                                dither=Image.Dither.NONE))


def png_bytes(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG", compress_level=COMPRESS_LEVEL)
    return buf.getvalue()
