"""Where things go inside each drawn region: clearance anchors and the slots of every box.

`anchors` gives per region greedy max-clearance spots (a chamfer distance map); `slots` lays
out the marker, the region number, the symbols and up to three pieces so that nothing
overlaps where room allows (render/static.py draws at these spots). Stdlib only.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TypedDict

from engine import data

from .raster import SCALE, Raster

Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Anchors = dict[str, list[list[float]]]  # per region id (text): [x, y, clearance], best first


class RegionSlots(TypedDict):
    """Where one region's boxes go, centres [x, y] in drawn pixels (the geometry file's)."""

    marker: list[float]
    label: list[float]
    icons: list[list[float]]
    pieces: list[list[float]]

# ----------------------------------------------------------------------------- anchors

def distance_map(ras: Raster) -> list[float]:
    """Chamfer distance (3-4) of every pixel to the nearest other-label pixel or the edge."""
    w, h, lab = ras.w, ras.h, ras.lab
    big = 1e9
    d = [big] * (w * h)
    for y in range(h):
        for x in range(w):
            i = y * w + x
            a = lab[i]
            if ras.at(x + 1, y) != a or ras.at(x - 1, y) != a or ras.at(x, y + 1) != a \
                    or ras.at(x, y - 1) != a:
                d[i] = 1.0
    for y in range(h):
        for x in range(w):
            i = y * w + x
            a = lab[i]
            for dx, dy, c in ((-1, 0, 1.0), (0, -1, 1.0), (-1, -1, 1.4142), (1, -1, 1.4142)):
                xx, yy = x + dx, y + dy
                if 0 <= xx < w and 0 <= yy < h and lab[yy * w + xx] == a:
                    v = d[yy * w + xx] + c
                    if v < d[i]:
                        d[i] = v
    for y in range(h - 1, -1, -1):
        for x in range(w - 1, -1, -1):
            i = y * w + x
            a = lab[i]
            for dx, dy, c in ((1, 0, 1.0), (0, 1, 1.0), (1, 1, 1.4142), (-1, 1, 1.4142)):
                xx, yy = x + dx, y + dy
                if 0 <= xx < w and 0 <= yy < h and lab[yy * w + xx] == a:
                    v = d[yy * w + xx] + c
                    if v < d[i]:
                        d[i] = v
    return d


def anchors(board: data.Board, ras: Raster, n_slots: int = 7) -> Anchors:
    """Per region, spots for the marker, label and icons: greedy max-clearance points."""
    d = distance_map(ras)
    w = ras.w
    pix: dict[int, list[int]] = {}
    for i, v in enumerate(ras.lab):
        pix.setdefault(v, []).append(i)
    out: Anchors = {}
    for r in board.regions:
        cells = pix[r.id]
        slots: list[list[float]] = []
        for k in range(n_slots):
            best: int | None = None
            best_s = -1e9
            for i in cells[::3]:
                x, y = i % w, i // w
                s = min(d[i], 14.0 if k else 1e9)
                for sx, sy, sr in slots:
                    s = min(s, math.dist((x, y), (sx, sy)) - sr * (0.9 if k > 1 else 1.0))
                if s > best_s:
                    best, best_s = i, s
            if best is None:
                raise ValueError(f"{board.id}: region {r.id} has no pixel on the raster")
            x, y = best % w, best // w
            slots.append([x, y, round(max(1.0, min(d[best], best_s)), 1)])
        out[str(r.id)] = [[x * SCALE, y * SCALE, rr * SCALE] for x, y, rr in slots]
    return out


# ----------------------------------------------------------------------------- slots

MARKER_BOX = (92, 46)  # drawn pixels: the widest token marker ("10 Ske")
LABEL_BOX = (44, 34)  # the region number tag
ICON_BOX = (38, 38)  # a symbol disc
PIECE_BOX = (50, 42)  # a piece disc, with room for its count badge
N_PIECE_SLOTS = 3
GAP = 4  # drawn pixels kept free between any two boxes


class _Taken:
    """Boxes already placed on the whole map (raster units), bucketed for quick overlap sums.

    Each box has an owner region and is hard (marker, number, symbol: always drawn) or soft
    (a piece spot: drawn only when the region holds that many kinds of piece)."""

    def __init__(self, cell: int = 24) -> None:
        self.cell = cell
        self.buckets: dict[tuple[int, int], list[int]] = {}
        self.boxes: list[tuple[float, float, float, float, int, bool]] = []

    def _keys(self, box: Box) -> Iterator[tuple[int, int]]:
        c = self.cell
        for gy in range(int(box[1] // c), int(box[3] // c) + 1):
            for gx in range(int(box[0] // c), int(box[2] // c) + 1):
                yield (gx, gy)

    def add(self, box: Box, owner: int, hard: bool) -> None:
        self.boxes.append((*box, owner, hard))
        for k in self._keys(box):
            self.buckets.setdefault(k, []).append(len(self.boxes) - 1)

    def overlap(self, box: Box, owner: int = -1) -> tuple[float, float, float]:
        """Overlap areas with (hard boxes, soft boxes of `owner`, other soft boxes)."""
        seen: set[int] = set()
        hard = same = other = 0.0
        x0, y0, x1, y1 = box
        for k in self._keys(box):
            for i in self.buckets.get(k, ()):
                if i in seen:
                    continue
                seen.add(i)
                a0, b0, a1, b1, who, is_hard = self.boxes[i]
                dx = min(x1, a1) - max(x0, a0)
                dy = min(y1, b1) - max(y0, b0)
                if dx > 0 and dy > 0:
                    if is_hard:
                        hard += dx * dy
                    elif who == owner:
                        same += dx * dy
                    else:
                        other += dx * dy
        return hard, same, other


class _Region:
    """One region's pixels as a summed-area table: O(1) "how much of this box is outside"."""

    def __init__(self, ras: Raster, rid: int, own: list[int]) -> None:
        w, lab = ras.w, ras.lab
        self.rid = rid
        xs = [i % w for i in own]
        ys = [i // w for i in own]
        self.x0, self.x1, self.y0, self.y1 = min(xs), max(xs) + 1, min(ys), max(ys) + 1
        bw = self.bw = self.x1 - self.x0
        sat = self.sat = [0] * ((bw + 1) * (self.y1 - self.y0 + 1))
        for yy in range(self.y1 - self.y0):
            row = (self.y0 + yy) * w + self.x0
            base, prev = (yy + 1) * (bw + 1), yy * (bw + 1)
            acc = 0
            for xx in range(bw):
                acc += lab[row + xx] != rid
                sat[base + xx + 1] = sat[prev + xx + 1] + acc
        # box centres: the region's own pixels (step 2), then a band around it for spilling
        self.inner = [(x + 0.5, y + 0.5) for x, y in zip(xs, ys, strict=True)
                      if x % 2 == 0 and y % 2 == 0] or [(xs[0] + 0.5, ys[0] + 0.5)]
        band = 14
        self.wide = [(x + 0.5, y + 0.5)
                     for y in range(max(0, self.y0 - band) // 2 * 2, min(ras.h, self.y1 + band), 2)
                     for x in range(max(0, self.x0 - band) // 2 * 2, min(w, self.x1 + band), 2)]

    def outside(self, cx: float, cy: float, hw: float, hh: float) -> int:
        x0, x1 = round(cx - hw), round(cx + hw)
        y0, y1 = round(cy - hh), round(cy + hh)
        full = (x1 - x0) * (y1 - y0)
        cx0, cx1 = max(x0, self.x0), min(x1, self.x1)
        cy0, cy1 = max(y0, self.y0), min(y1, self.y1)
        if cx0 >= cx1 or cy0 >= cy1:
            return full
        a, b = cx0 - self.x0, cx1 - self.x0
        c, d = (cy0 - self.y0) * (self.bw + 1), (cy1 - self.y0) * (self.bw + 1)
        sat = self.sat
        notr = sat[d + b] - sat[d + a] - sat[c + b] + sat[c + a]
        return full - (cx1 - cx0) * (cy1 - cy0) + notr


def slots(board: data.Board, ras: Raster, anchor: Anchors) -> dict[str, RegionSlots]:
    """Per region, where the marker, the number, each symbol and up to three pieces go.

    Two passes over the regions, smallest first: markers, numbers and symbols, then the
    piece spots. Each box takes the free spot nearest its preferred place (marker at the
    region's widest point, number above it, symbols below, pieces beside) that lies wholly
    inside its region and keeps GAP from every box placed so far on the map. Failing that, the
    spot (in or near the region) that overlaps other boxes least, then leaves the region
    least. Summed-area tables make each test O(1)."""
    w, h = ras.w, ras.h
    k = SCALE
    half_gap = GAP / 2 / k
    cells: dict[int, list[int]] = {}
    for i, v in enumerate(ras.lab):
        cells.setdefault(v, []).append(i)
    taken = _Taken()
    order = sorted(board.regions, key=lambda r: (len(cells.get(r.id, ())), r.id))
    areas = {r.id: _Region(ras, r.id, cells[r.id]) for r in order}

    def put(reg: _Region, size: tuple[int, int], goal: tuple[float, float],
            hard: bool = True) -> tuple[float, float]:
        hw, hh = size[0] / 2 / k, size[1] / 2 / k
        gx, gy = goal

        def dist2(c: tuple[float, float]) -> float:
            return (c[0] - gx) ** 2 + (c[1] - gy) ** 2

        def box(x: float, y: float) -> Box:
            return (x - hw - half_gap, y - hh - half_gap, x + hw + half_gap, y + hh + half_gap)

        best = None
        for x, y in sorted(reg.inner, key=dist2):
            if reg.outside(x, y, hw, hh) == 0 and not any(taken.overlap(box(x, y))):
                best = (x, y)
                break
        if best is None:
            # never on a marker, number or symbol; then: stay in the region (a piece drawn
            # in a neighbour would read as the neighbour's), not on this region's other
            # piece spots, not on other regions' piece spots (rarely both in use)
            best_cost = None
            for x, y in reg.wide:
                if x - hw < 0 or y - hh < 0 or x + hw > w or y + hh > h:
                    continue
                hard_px, same, other = taken.overlap(box(x, y), reg.rid)
                cost = (1000 * hard_px + 30 * same + 3 * other + 4 * reg.outside(x, y, hw, hh)
                        + 0.5 * math.sqrt(dist2((x, y))))
                if best_cost is None or cost < best_cost:
                    best, best_cost = (x, y), cost
            if best is None:
                best = min(reg.inner, key=dist2)
        taken.add(box(*best), reg.rid, hard)
        return best

    def drawn(p: tuple[float, float]) -> list[float]:
        return [round(p[0] * k, 1), round(p[1] * k, 1)]

    out: dict[str, RegionSlots] = {}
    dy_label = (MARKER_BOX[1] + LABEL_BOX[1]) / 2 / k + 1
    dy_icon = (MARKER_BOX[1] + ICON_BOX[1]) / 2 / k + 1
    dx_piece = (MARKER_BOX[0] + PIECE_BOX[0]) / 2 / k + 1
    for region in order:
        reg = areas[region.id]
        ax, ay = anchor[str(region.id)][0][0] / k, anchor[str(region.id)][0][1] / k
        mx, my = put(reg, MARKER_BOX, (ax, ay))
        label = put(reg, LABEL_BOX, (mx, my - dy_label))
        n_icons = (region.terrain == "mountain") + len(region.symbols)
        icons = [put(reg, ICON_BOX, (mx + (j - (n_icons - 1) / 2) * (ICON_BOX[0] + GAP) / k,
                                     my + dy_icon)) for j in range(n_icons)]
        out[str(region.id)] = {"marker": drawn((mx, my)), "label": drawn(label),
                               "icons": [drawn(p) for p in icons], "pieces": []}
    for region in order:
        reg = areas[region.id]
        mx, my = (v / k for v in out[str(region.id)]["marker"])
        pieces = [put(reg, PIECE_BOX, (mx + (dx_piece if j % 2 == 0 else -dx_piece),
                                       my + (j // 2) * dy_icon), hard=False)
                  for j in range(N_PIECE_SLOTS)]
        out[str(region.id)]["pieces"] = [drawn(p) for p in pieces]
    return out
