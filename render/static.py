"""The per-board static layer (terrain, water, borders, labels, symbols), drawn once, cached."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engine import data

from . import sprites, theme
from .geometry import Geometry, geometry

MARGIN = 14  # parchment frame around the map, drawn pixels
SS = 2  # the static layer is drawn at twice the size, then reduced


def _lut(values: dict[int, int], default: int = 0) -> list[int]:
    return [values.get(i, default) for i in range(256)]


def _region_colour(region: data.Region) -> tuple[int, int, int]:
    rng = random.Random(region.id * 7919 + 17)
    j = rng.randint(-10, 10)
    return tuple(max(0, min(255, c + j + rng.randint(-3, 3))) for c in theme.TERRAIN[region.terrain])


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


def _edges(lab: Image.Image) -> Image.Image:
    """255 where a pixel's right or lower neighbour has another label."""
    dx = ImageChops.difference(lab, ImageChops.offset(lab, 1, 0))
    dy = ImageChops.difference(lab, ImageChops.offset(lab, 0, 1))
    return ImageChops.lighter(dx, dy).point(lambda v: 255 if v else 0)


def _terrain_layer(board: data.Board, geo: Geometry) -> Image.Image:
    """Terrain, water shading, texture and borders of the map, at SS x the drawn size."""
    w, h = geo.size[0] * SS, geo.size[1] * SS
    lab = geo.label_image().resize(geo.size, Image.Resampling.NEAREST)
    lab = lab.filter(ImageFilter.ModeFilter(5))  # round off the raster's stair steps
    lab = lab.resize((w, h), Image.Resampling.NEAREST)
    pal = []
    for i in range(256):
        pal += list(_region_colour(board.regions[i])) if i < len(board.regions) else [0, 0, 0]
    coloured = lab.copy()
    coloured.putpalette(pal)
    base = coloured.convert("RGB")
    # shallows along the shores of seas and the lake
    water = lab.point(_lut({r.id: 255 for r in board.regions if r.is_water}))
    inner = water.filter(ImageFilter.GaussianBlur(14 * SS))
    shallow = ImageChops.subtract(water, inner).point(lambda v: min(255, v * 2))
    base = Image.composite(Image.new("RGB", (w, h), (160, 200, 222)), base, shallow)
    # texture glyphs on a jittered lattice, only where the whole glyph lies in one region
    draw = ImageDraw.Draw(base)
    rng = random.Random(geo.board)
    step = 30 * SS
    px = lab.load()
    for gy in range(0, h, step):
        for gx in range(0, w, step):
            x = gx + rng.uniform(0.1, 0.9) * step
            y = gy + rng.uniform(0.1, 0.9) * step
            s = rng.uniform(0.5, 0.7) * step
            pts = [(x, y), (x - s * 0.7, y - s * 0.7), (x + s * 0.7, y + s * 0.7),
                   (x - s * 0.7, y + s * 0.7), (x + s * 0.7, y - s * 0.7)]
            if any(not (0 <= a < w and 0 <= b < h) for a, b in pts):
                continue
            rid = px[int(x), int(y)]
            if any(px[int(a), int(b)] != rid for a, b in pts[1:]):
                continue
            _glyph(draw, board.regions[rid].terrain, x, y, s * 0.6, rng)
    # a soft darkening along every border, then the borders themselves
    edges = _edges(lab)
    shade = edges.filter(ImageFilter.GaussianBlur(7 * SS)).point(lambda v: min(110, v * 3))
    base = Image.composite(Image.new("RGB", (w, h), (60, 40, 24)), base, shade)
    line = edges.filter(ImageFilter.MaxFilter(5))
    base.paste(theme.BORDER, (0, 0), line)
    return base


@cache
def map_layer(board_id: str) -> Image.Image:
    """The framed map with terrain, borders, region numbers and symbols (RGB, drawn size)."""
    board = data.board(board_id)
    geo = geometry(board_id)
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
    spots = layout(board_id)
    for region in board.regions:
        sp = spots[region.id]
        paste_centered(im, sprites.region_label(region.id), *sp.label)
        items = (["mountain"] if region.terrain == "mountain" else []) + list(region.symbols)
        for kind, xy in zip(items, sp.icons, strict=False):
            paste_centered(im, sprites.symbol(kind), *xy)
    return im


MARKER_BOX = (92, 46)
LABEL_BOX = (44, 34)
ICON_BOX = (38, 38)
PIECE_BOX = (44, 40)


@dataclass(frozen=True)
class Spots:
    """Where one region's things go, in image pixels (frame included)."""

    marker: tuple[float, float]
    label: tuple[float, float]
    icons: tuple[tuple[float, float], ...]
    pieces: tuple[tuple[float, float], ...]


class _Placer:
    """Boxes placed in one region: each takes the free spot nearest its preferred offset."""

    def __init__(self, lab, size: tuple[int, int], rid: int, centre: tuple[float, float]) -> None:
        self.lab, self.size, self.rid, self.centre = lab, size, rid, centre
        self.placed: list[tuple[float, float, float, float]] = []

    def coverage(self, x: float, y: float, bw: float, bh: float) -> int:
        """How many of 9 sample points of the box lie in the region (0 if off the map)."""
        mw, mh = self.size
        x0, y0, x1, y1 = x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2
        if x0 < 2 or y0 < 2 or x1 > mw - 3 or y1 > mh - 3:
            return 0
        lab, rid = self.lab, self.rid
        return sum(lab[int(x0 + (x1 - x0) * k / 2), int(y0 + (y1 - y0) * j / 2)] == rid
                   for k in range(3) for j in range(3))

    def clashes(self, x: float, y: float, bw: float, bh: float) -> int:
        n = 0
        for px, py, pw, ph in self.placed:
            if abs(x - px) * 2 < bw + pw and abs(y - py) * 2 < bh + ph:
                n += 1
        return n

    def fits(self, x: float, y: float, bw: float, bh: float) -> bool:
        mw, mh = self.size
        x0, y0, x1, y1 = x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2
        if x0 < 2 or y0 < 2 or x1 > mw - 3 or y1 > mh - 3:
            return False
        lab, rid = self.lab, self.rid
        for k in (0, 4, 2, 1, 3):
            for j in (0, 4, 2, 1, 3):
                if lab[int(x0 + (x1 - x0) * k / 4), int(y0 + (y1 - y0) * j / 4)] != rid:
                    return False
        return True

    def _rings(self, goal: tuple[float, float], step: int, reach: int):
        cx, cy = self.centre
        for r in range(0, reach, step):
            n = max(1, int(r * 6.28 / 6))
            yield sorted(((cx + r * math.cos(6.283 * k / n), cy + r * math.sin(6.283 * k / n))
                          for k in range(n)), key=lambda p: math.dist(p, goal))

    def put(self, bw: float, bh: float, prefer: tuple[float, float]) -> tuple[float, float]:
        """Fully inside and clear if possible, else the best partial spot nearby."""
        cx, cy = self.centre
        goal = (cx + prefer[0], cy + prefer[1])
        best = None
        for ring in self._rings(goal, 4, 150):
            for x, y in ring:
                if self.fits(x, y, bw, bh) and not self.clashes(x, y, bw, bh):
                    best = (x, y)
                    break
            if best:
                break
        if best is None:
            best_key = None
            best = (cx, cy)
            for ring in self._rings(goal, 8, 96):
                for x, y in ring:
                    cov = self.coverage(x, y, bw, bh)
                    if cov:
                        clash = self.clashes(x, y, bw, bh)
                        key = (clash == 0, cov - 4 * clash)
                        if best_key is None or key > best_key:
                            best, best_key = (x, y), key
        self.placed.append((best[0], best[1], bw, bh))
        return best


@cache
def layout(board_id: str) -> dict[int, Spots]:
    """Place marker, number, symbols and piece spots of every region inside the region,
    starting from the region's widest point (its first anchor)."""
    board = data.board(board_id)
    geo = geometry(board_id)
    lab = geo.label_image().resize(geo.size, Image.Resampling.NEAREST).load()

    def shift(p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] + MARGIN, p[1] + MARGIN)

    out = {}
    for region in board.regions:
        cx, cy, _ = geo.anchors[region.id][0]
        pl = _Placer(lab, geo.size, region.id, (cx, cy))
        marker = pl.put(*MARKER_BOX, (0, 0))
        label = pl.put(*LABEL_BOX, (0, -40))
        n_icons = (region.terrain == "mountain") + len(region.symbols)
        icons = tuple(pl.put(*ICON_BOX, (-30 + 40 * k, 44)) for k in range(n_icons))
        pieces = tuple(pl.put(*PIECE_BOX, (70 if k % 2 == 0 else -70, 0)) for k in range(3))
        out[region.id] = Spots(shift(marker), shift(label), tuple(map(shift, icons)),
                               tuple(map(shift, pieces)))
    return out


def paste_centered(im: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    im.paste(sprite, (int(x - sprite.width / 2), int(y - sprite.height / 2)), sprite)
