"""The per-board static layer (terrain, water, borders, labels, symbols), drawn once, cached."""

from __future__ import annotations

import hashlib
import io
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engine import data

from . import sprites, theme
from .geometry import (
    Geometry,
    board_of,
    content_digest,
    geometry,
    read_cache,
    source_digest,
    write_cache,
)

MARGIN = 14  # parchment frame around the map, drawn pixels
SS = 2  # the static layer is drawn at twice the size, then reduced


def _lut(values: dict[int, int], default: int = 0) -> list[int]:
    return [values.get(i, default) for i in range(256)]


def _region_colour(region: data.Region) -> tuple[int, int, int]:
    rng = random.Random(region.id * 7919 + 17)
    j = rng.randint(-10, 10)
    r, g, b = (max(0, min(255, c + j + rng.randint(-3, 3))) for c in theme.TERRAIN[region.terrain])
    return r, g, b


def _glyph(draw: ImageDraw.ImageDraw, terrain: str, x: float, y: float, s: float,
           rng: random.Random) -> None:
    ink = theme.TERRAIN_INK[terrain]
    w = max(2, int(s / 7))
    if terrain == "forest":
        draw.polygon([(x, y - s * 0.6), (x + s * 0.38, y + s * 0.25), (x - s * 0.38, y + s * 0.25)],
                     fill=ink)
        draw.line((x, y + s * 0.2, x, y + s * 0.5), fill=(84, 58, 36), width=w)
    elif terrain == "farmland":
        for k in range(3):
            dy = (k - 1) * s * 0.28
            draw.line((x - s * 0.5, y + dy, x + s * 0.5, y + dy - s * 0.18), fill=ink, width=w)
    elif terrain == "hill":
        draw.arc((x - s * 0.6, y - s * 0.3, x + s * 0.6, y + s * 0.6), 200, 340, fill=ink,
                 width=w + 1)
    elif terrain == "swamp":
        draw.line((x - s * 0.5, y + s * 0.3, x + s * 0.5, y + s * 0.3), fill=ink, width=w)
        for dx in (-0.2, 0.0, 0.2):
            draw.line((x + dx * s, y + s * 0.3, x + dx * s * 1.6, y - s * 0.3), fill=ink, width=w)
    elif terrain == "mountain":
        draw.line((x - s * 0.5, y + s * 0.3, x, y - s * 0.4, x + s * 0.5, y + s * 0.3), fill=ink,
                  width=w + 1, joint="curve")
    else:  # sea, lake: waves
        for dx in (-0.25, 0.25):
            draw.arc((x + (dx - 0.25) * s, y - s * 0.2, x + (dx + 0.25) * s, y + s * 0.3), 200,
                     340, fill=ink, width=w)


def _dilate(mask: Image.Image, r: int) -> Image.Image:
    """Max over a (2r+1)-square, as 2x(2r) shifted maxima (much faster than MaxFilter)."""
    for horizontal in (True, False):
        out = mask
        for d in range(-r, r + 1):
            if d == 0:
                continue
            shifted = Image.new("L", mask.size, 0)
            shifted.paste(mask, (d, 0) if horizontal else (0, d))
            out = ImageChops.lighter(out, shifted)
        mask = out
    return mask


def _edges(lab: Image.Image) -> Image.Image:
    """255 where a pixel's right or lower neighbour has another label."""
    dx = ImageChops.difference(lab, ImageChops.offset(lab, 1, 0))
    dy = ImageChops.difference(lab, ImageChops.offset(lab, 0, 1))
    return ImageChops.lighter(dx, dy).point(lambda v: 255 if v else 0)


def _terrain_layer(board: data.Board, geo: Geometry) -> Image.Image:
    """Terrain, water shading, texture and borders of the map, at SS x the drawn size."""
    w, h = geo.size[0] * SS, geo.size[1] * SS
    lab = geo.drawn_labels().resize((w, h), Image.Resampling.NEAREST)
    pal = []
    for i in range(256):
        pal += list(_region_colour(board.regions[i])) if i < len(board.regions) \
            else list(theme.PARCHMENT)
    coloured = lab.copy()
    coloured.putpalette(pal)
    base = coloured.convert("RGB")
    # shallows along the shores of seas and the lake
    water = lab.point(_lut({r.id: 255 for r in board.regions if r.is_water}))
    if water.getbbox():
        inner = water.filter(ImageFilter.GaussianBlur(14 * SS))
        shallow = ImageChops.subtract(water, inner).point(lambda v: min(255, v * 2))
        base = Image.composite(Image.new("RGB", (w, h), (160, 200, 222)), base, shallow)
    # texture glyphs on a jittered lattice, only where the whole glyph lies in one region
    draw = ImageDraw.Draw(base)
    rng = random.Random(geo.board)
    step = 30 * SS
    labels = lab.tobytes()  # the region under pixel (x, y): labels[y * w + x]
    n = len(board.regions)
    for gy in range(0, h, step):
        for gx in range(0, w, step):
            x = gx + rng.uniform(0.1, 0.9) * step
            y = gy + rng.uniform(0.1, 0.9) * step
            s = rng.uniform(0.5, 0.7) * step
            pts = [(x, y), (x - s * 0.7, y - s * 0.7), (x + s * 0.7, y + s * 0.7),
                   (x - s * 0.7, y + s * 0.7), (x + s * 0.7, y - s * 0.7)]
            if any(not (0 <= a < w and 0 <= b < h) for a, b in pts):
                continue
            rid = labels[int(y) * w + int(x)]
            if rid >= n or any(labels[int(b) * w + int(a)] != rid for a, b in pts[1:]):
                continue
            _glyph(draw, board.regions[rid].terrain, x, y, s * 0.6, rng)
    # a soft darkening along every border, then the borders themselves
    edges = _edges(lab)
    shade = edges.filter(ImageFilter.GaussianBlur(7 * SS)).point(lambda v: min(110, v * 3))
    if geo.kind == "discs":  # no shading on the blank background
        shade = ImageChops.multiply(shade, lab.point(lambda v: 0 if v >= n else 255))
    base = Image.composite(Image.new("RGB", (w, h), (60, 40, 24)), base, shade)
    line = _dilate(edges, 2)
    base.paste(theme.BORDER, (0, 0), line)
    if geo.kind == "discs" and geo.discs:
        _links(base, board, geo.discs, lab)
    return base


def _links(base: Image.Image, board: data.Board,
           discs: dict[int, tuple[float, float, float]], lab: Image.Image) -> None:
    """Fallback layout: adjacency as ink lines between the discs (on the background only)."""
    lines = Image.new("L", base.size, 0)
    draw = ImageDraw.Draw(lines)
    for r in board.regions:
        for m in r.neighbours:
            if r.id < m:
                (x0, y0, _), (x1, y1, _) = discs[r.id], discs[m]
                draw.line((x0 * SS, y0 * SS, x1 * SS, y1 * SS), fill=255, width=5 * SS)
    n = len(board.regions)
    lines = ImageChops.multiply(lines, lab.point(lambda v: 255 if v >= n else 0))
    base.paste(theme.BORDER, (0, 0), lines)


def _draw_layer(key: str) -> Image.Image:
    board = board_of(key)
    geo = geometry(key)
    mw, mh = geo.size
    big = Image.new("RGB", ((mw + 2 * MARGIN) * SS, (mh + 2 * MARGIN) * SS), theme.PARCHMENT)
    big.paste(_terrain_layer(board, geo), (MARGIN * SS, MARGIN * SS))
    draw = ImageDraw.Draw(big)
    m = MARGIN * SS
    draw.rectangle((m - 4 * SS, m - 4 * SS, m + mw * SS + 4 * SS - 1, m + mh * SS + 4 * SS - 1),
                   outline=theme.INK, width=5 * SS)
    draw.rectangle((SS * 3, SS * 3, big.width - SS * 3, big.height - SS * 3),
                   outline=theme.PARCHMENT_DARK, width=2 * SS)
    im = big.reduce(SS)
    spots = layout(key)
    for region in board.regions:
        sp = spots[region.id]
        paste_centered(im, sprites.region_label(region.id), *sp.label)
        items = (["mountain"] if region.terrain == "mountain" else []) + list(region.symbols)
        for kind, xy in zip(items, sp.icons, strict=False):
            paste_centered(im, sprites.symbol(kind), *xy)
    return im


def layer_cache_name(key: str) -> str:
    """File name of a board's static layer in the disk cache: board content, geometry,
    drawing code and fonts all go into it, so a stale picture is never reused."""
    geo = geometry(key)
    board = board_of(key)
    code = source_digest("static.py", "sprites.py", "theme.py")
    return (f"static-{key}-{content_digest(board)[:8]}-{geo.digest[:8]}-{code}"
            f"-{fonts_digest(theme.FONT_DIR)}.png")


@lru_cache(maxsize=4)
def fonts_digest(folder: Path) -> str:
    """A digest of the font files the labels are drawn with (read once per process)."""
    h = hashlib.sha1()
    for font in sorted(folder.glob("*.ttf")):
        h.update(font.name.encode())
        h.update(font.read_bytes())
    return h.hexdigest()[:8]


@lru_cache(maxsize=12)  # a few MB each: bounded, custom boards come and go
def map_layer(key: str) -> Image.Image:
    """The framed map with terrain, borders, region numbers and symbols (RGB, drawn size).

    Drawn once per board per process; also kept as PNG in the disk cache (render.geometry
    cache_dir), so later processes only decode it."""
    name = layer_cache_name(key)
    blob = read_cache(name)
    if blob is not None:
        try:
            kept = Image.open(io.BytesIO(blob))
            kept.load()
            if kept.mode == "RGB":
                return kept
        except (OSError, ValueError):
            pass
    im = _draw_layer(key)
    buf = io.BytesIO()
    im.save(buf, "PNG", compress_level=1)
    write_cache(name, buf.getvalue())
    return im


@dataclass(frozen=True)
class Spots:
    """Where one region's things go, in image pixels (frame included)."""

    marker: tuple[float, float]
    label: tuple[float, float]
    icons: tuple[tuple[float, float], ...]
    pieces: tuple[tuple[float, float], ...]


@lru_cache(maxsize=64)
def layout(key: str) -> dict[int, Spots]:
    """Marker, number, symbol and piece spots of every region (computed by the builder, see
    render/placement.py `slots`: inside the region and clear of each other where room allows)."""
    geo = geometry(key)

    def shift(p: Sequence[float]) -> tuple[float, float]:
        return (p[0] + MARGIN, p[1] + MARGIN)

    return {rid: Spots(shift(s["marker"]), shift(s["label"]), tuple(map(shift, s["icons"])),
                       tuple(map(shift, s["pieces"])))
            for rid, s in geo.slots.items()}


def paste_centered(im: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    im.paste(sprite, (int(x - sprite.width / 2), int(y - sprite.height / 2)), sprite)
