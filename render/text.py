"""Text in every script: complex layout (raqm), a font fallback chain, fitting to a box.

Pillow's basic layout stacks Thai vowel and tone marks wrongly, so every font is opened
with raqm (Pillow's wheels bundle it; it loads the system FriBiDi library). A string is
cut into runs, each drawn with the first font of its kind's chain that has the glyphs:
Noto Sans / DejaVu for Latin, Noto Sans Thai for Thai, DejaVu and Noto Sans Symbols 2 for
other scripts and symbols; a character no bundled font has is shown as U+FFFD instead of
a missing-glyph box.
"""

from __future__ import annotations

import math
import struct
import unicodedata
from functools import cache, lru_cache

from PIL import ImageDraw, ImageFont, features

from engine.data import DATA_DIR

FONT_DIR = DATA_DIR / "fonts"

RAQM_MISSING = (
    "Pillow cannot lay out complex text: its raqm layout needs the FriBiDi library "
    "(libfribidi0 on Debian/Ubuntu: `apt-get install libfribidi0`; fribidi on macOS/Homebrew). "
    "Install it and restart; Thai and other scripts are drawn wrongly without it."
)

# kind -> font files, first choice first
CHAINS: dict[str, tuple[str, ...]] = {
    "bold": ("NotoSans-Bold.ttf", "NotoSansThai-Bold.ttf", "DejaVuSans-Bold.ttf",
             "NotoSansSymbols2-Regular.ttf"),
    "narrow": ("DejaVuSansCondensed-Bold.ttf", "NotoSansThai-Bold.ttf", "NotoSans-Bold.ttf",
               "DejaVuSans-Bold.ttf", "NotoSansSymbols2-Regular.ttf"),
    "serif": ("DejaVuSerif-Bold.ttf", "NotoSansThai-Bold.ttf", "NotoSans-Bold.ttf",
              "DejaVuSans-Bold.ttf", "NotoSansSymbols2-Regular.ttf"),
}
REPLACEMENT = "\ufffd"
# a colour as ImageDraw takes it (Pillow's own alias for it is private)
Ink = float | tuple[int, ...] | str
_JOINERS = {"\u200c", "\u200d"}


def require_raqm() -> None:
    """Fail with one clear sentence when Pillow's complex-text layout is unavailable."""
    if not features.check("raqm"):
        raise RuntimeError(RAQM_MISSING)


@cache
def coverage(file: str) -> frozenset[int]:
    """The code points a font file maps to a glyph (its cmap, formats 4 and 12)."""
    blob = (FONT_DIR / file).read_bytes()
    n_tables = struct.unpack_from(">H", blob, 4)[0]
    cmap = None
    for i in range(n_tables):
        tag, _, offset, _ = struct.unpack_from(">4sIII", blob, 12 + 16 * i)
        if tag == b"cmap":
            cmap = offset
    if cmap is None:
        return frozenset()
    points: set[int] = set()
    n_sub = struct.unpack_from(">H", blob, cmap + 2)[0]
    for i in range(n_sub):
        _, _, sub = struct.unpack_from(">HHI", blob, cmap + 4 + 8 * i)
        at = cmap + sub
        fmt = struct.unpack_from(">H", blob, at)[0]
        if fmt == 4:
            seg2 = struct.unpack_from(">H", blob, at + 6)[0]
            ends = struct.unpack_from(f">{seg2 // 2}H", blob, at + 14)
            starts = struct.unpack_from(f">{seg2 // 2}H", blob, at + 16 + seg2)
            deltas = struct.unpack_from(f">{seg2 // 2}h", blob, at + 16 + 2 * seg2)
            ro_at = at + 16 + 3 * seg2
            ranges = struct.unpack_from(f">{seg2 // 2}H", blob, ro_at)
            for k, (s, e) in enumerate(zip(starts, ends, strict=True)):
                if s == 0xFFFF:
                    continue
                for c in range(s, e + 1):
                    if ranges[k] == 0:
                        glyph = (c + deltas[k]) & 0xFFFF
                    else:
                        where = ro_at + 2 * k + ranges[k] + 2 * (c - s)
                        glyph = struct.unpack_from(">H", blob, where)[0]
                        glyph = (glyph + deltas[k]) & 0xFFFF if glyph else 0
                    if glyph:
                        points.add(c)
        elif fmt == 12:
            n_groups = struct.unpack_from(">I", blob, at + 12)[0]
            for g in range(n_groups):
                s, e, first = struct.unpack_from(">III", blob, at + 16 + 12 * g)
                if first or s:
                    points.update(range(s, e + 1))
    return frozenset(points)


@cache
def font(size: int, kind: str = "bold", index: int = 0) -> ImageFont.FreeTypeFont:
    """Font `index` of a kind's chain at `size`, with raqm layout."""
    require_raqm()
    return ImageFont.truetype(str(FONT_DIR / CHAINS[kind][index]), size,
                              layout_engine=ImageFont.Layout.RAQM)


def _pick(ch: str, kind: str) -> int | None:
    cp = ord(ch)
    for i, file in enumerate(CHAINS[kind]):
        if cp in coverage(file):
            return i
    return None


@lru_cache(maxsize=8192)
def runs(text: str, kind: str = "bold") -> tuple[tuple[int, str], ...]:
    """(font index, text) runs; marks and joiners stay with the character before them."""
    out: list[tuple[int, str]] = []
    for ch in text:
        if out and (unicodedata.category(ch).startswith("M") or ch in _JOINERS
                    or 0xFE00 <= ord(ch) <= 0xFE0F):
            out[-1] = (out[-1][0], out[-1][1] + ch)
            continue
        i = _pick(ch, kind)
        if i is None:
            i, ch = _pick(REPLACEMENT, kind) or 0, REPLACEMENT
        if ch == " " and out:
            out[-1] = (out[-1][0], out[-1][1] + ch)  # a space belongs to the run it follows
        elif out and out[-1][0] == i:
            out[-1] = (i, out[-1][1] + ch)
        else:
            out.append((i, ch))
    return tuple(out)


def has_glyphs(text: str, kind: str = "bold") -> bool:
    """True when every character has a glyph in some font of the chain (no U+FFFD needed)."""
    return all(_pick(ch, kind) is not None for ch in text
               if not unicodedata.category(ch).startswith(("M", "C")))


@lru_cache(maxsize=8192)
def width(text: str, size: int, kind: str = "bold") -> float:
    """Drawn width in pixels (raqm advance of every run)."""
    return sum(font(size, kind, i).getlength(s) for i, s in runs(text, kind))


@lru_cache(maxsize=1024)  # the recurring words: a combo's, a marker's, the legend's
def _mask(f: ImageFont.FreeTypeFont, s: str, anchor: str, mode: str,
          start: tuple[float, float]) -> tuple[object, tuple[int, int]]:
    """The glyph coverage of one run, as ImageDraw.text lays it out (raqm shaping and
    rasterising were most of what a combo row cost; the same words recur in every picture)."""
    return f.getmask2(s, mode, None, None, None, 0, anchor, 0, start, stroke_filled=True)


def _text(d: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, f: ImageFont.FreeTypeFont,
          fill: Ink | None, anchor: str, stroke_width: int, stroke_fill: Ink | None) -> None:
    """ImageDraw.text for one line without stroke, with the glyphs cached: the same pixels."""
    if stroke_width or "\n" in s or d.fontmode not in ("L", "1") or fill is None:
        d.text(xy, s, font=f, fill=fill, anchor=anchor, stroke_width=stroke_width,
               stroke_fill=stroke_fill)
        return
    ink, fill_ink = d._getink(fill)
    ink = fill_ink if ink is None else ink
    x, y = xy
    mask, (ox, oy) = _mask(f, s, anchor, d.fontmode, (math.modf(x)[0], math.modf(y)[0]))
    d.draw.draw_bitmap((int(x) + ox, int(y) + oy), mask, ink)


def draw(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *, size: int,
         kind: str = "bold", fill: Ink | None = None, anchor: str = "la",
         stroke_width: int = 0, stroke_fill: Ink | None = None) -> float:
    """Draw `text` like ImageDraw.text (anchors l/m/r + a/m/s), return its width."""
    parts = runs(text, kind)
    x, y = xy
    if len(parts) == 1:
        i, s = parts[0]
        _text(d, (x, y), s, font(size, kind, i), fill, anchor, stroke_width, stroke_fill)
        return width(text, size, kind)
    total = width(text, size, kind)
    h, v = anchor[0], anchor[1]
    x -= {"l": 0, "m": total / 2, "r": total}[h]
    ascent, descent = font(size, kind, 0).getmetrics()
    base = y + {"a": ascent, "m": (ascent - descent) / 2, "s": 0, "d": -descent}[v]
    for i, s in parts:
        f = font(size, kind, i)
        _text(d, (x, base), s, f, fill, "ls", stroke_width, stroke_fill)
        x += f.getlength(s)
    return total


@lru_cache(maxsize=4096)
def fit(text: str, size: int, max_width: float, kind: str = "bold", least: int = 12) -> int:
    """The largest font size <= `size` at which `text` is at most `max_width` wide (not
    below `least`: a caller that must never overflow checks `width` at that size)."""
    while size > least and width(text, size, kind) > max_width:
        size -= 1
    return size
