"""Each region's outline as an SVG path, traced from the same label raster the pictures draw.

The web board (bot/web) lays these paths over the static map layer (render.static.map_layer)
for taps, keyboard focus and highlights, so a tap lands on exactly the region the picture
shows there. A region's outline is the boundary of its pixels in the smoothed labels at
drawn size (geometry.drawn_labels: the same rounded borders the picture has), walked into
closed rings and thinned with Douglas-Peucker; coordinates are image pixels, frame included
(static.MARGIN), so they match layout()'s spots and the layer image.

Pure and cached: per board key in memory, and in the render disk cache by the geometry's
digest (tracing a 5-player board takes about a second).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from functools import lru_cache

from .geometry import geometry, read_cache, source_digest, write_cache
from .static import MARGIN

TOLERANCE = 1.2  # drawn pixels a thinned outline may stray from the pixel boundary
Point = tuple[int, int]
Ring = list[Point]


def _edges(labels: bytes, width: int, height: int) -> dict[int, dict[Point, list[Point]]]:
    """Per region, its boundary as directed unit edges, clockwise on the screen (y down: the
    region on the right when walking them): start corner -> end corners."""
    out: dict[int, dict[Point, list[Point]]] = defaultdict(lambda: defaultdict(list))

    for y in range(height):
        row = labels[y * width:(y + 1) * width]
        above = labels[(y - 1) * width:y * width] if y > 0 else None
        below = labels[(y + 1) * width:(y + 2) * width] if y + 1 < height else None
        prev = -1
        for x in range(width + 1):
            cur = row[x] if x < width else -1
            if cur != prev:  # a vertical edge at x, between prev (left) and cur (right)
                if prev >= 0:  # prev's right side: walk down
                    out[prev][(x, y)].append((x, y + 1))
                if cur >= 0:  # cur's left side: walk up
                    out[cur][(x, y + 1)].append((x, y))
            prev = cur
        for x in range(width):
            cur = row[x]
            if above is None or above[x] != cur:  # top side of (x, y): walk right
                out[cur][(x, y)].append((x + 1, y))
            if below is None or below[x] != cur:  # bottom side: walk left
                out[cur][(x + 1, y + 1)].append((x, y + 1))
    return out


def _rings(edges: dict[Point, list[Point]]) -> Iterator[Ring]:
    """Closed rings from directed unit edges. Where a ring touches itself at a corner
    (two edges leave one point) either way closes a ring; every edge is used once."""
    while edges:
        start = next(iter(edges))
        ring = [start]
        here = start
        while True:
            nexts = edges[here]
            nxt = nexts.pop()
            if not nexts:
                del edges[here]
            if nxt == start:
                break
            ring.append(nxt)
            here = nxt
        yield _corners(ring)


def _corners(ring: Ring) -> Ring:
    """Drop the points in the middle of straight runs."""
    n = len(ring)
    out = []
    for i, p in enumerate(ring):
        a, c = ring[i - 1], ring[(i + 1) % n]
        if (p[0] - a[0], p[1] - a[1]) != (c[0] - p[0], c[1] - p[1]):
            out.append(p)
    return out or ring


def _thin(points: Ring, tol: float) -> Ring:
    """Douglas-Peucker on an open polyline (both ends kept)."""
    if len(points) < 3:
        return list(points)
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        lo, hi = stack.pop()
        (ax, ay), (bx, by) = points[lo], points[hi]
        dx, dy = bx - ax, by - ay
        norm = (dx * dx + dy * dy) ** 0.5
        far, worst = -1.0, -1
        for i in range(lo + 1, hi):
            px, py = points[i]
            d = (abs(dy * (px - ax) - dx * (py - ay)) / norm if norm
                 else ((px - ax) ** 2 + (py - ay) ** 2) ** 0.5)
            if d > far:
                far, worst = d, i
        if far > tol:
            keep[worst] = True
            stack += [(lo, worst), (worst, hi)]
    return [p for p, k in zip(points, keep, strict=True) if k]


def _thin_ring(ring: Ring, tol: float) -> Ring:
    """A closed ring thinned: split at its two most distant points, each half thinned."""
    if len(ring) <= 4:
        return ring
    far = max(range(len(ring)), key=lambda i: (ring[i][0] - ring[0][0]) ** 2
              + (ring[i][1] - ring[0][1]) ** 2)
    first = _thin(ring[:far + 1], tol)
    second = _thin([*ring[far:], ring[0]], tol)
    return first[:-1] + second[:-1]


def _area(ring: Ring) -> float:
    return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1],
                                                                   strict=True))


def _path(rings: list[Ring]) -> str:
    """SVG path data, one M...Z per ring (holes included: draw with fill-rule evenodd)."""
    parts = []
    for ring in rings:
        pts = [f"{x + MARGIN} {y + MARGIN}" for x, y in ring]
        parts.append("M" + "L".join(pts) + "Z")
    return "".join(parts)


def trace(labels: bytes, width: int, height: int, tol: float = TOLERANCE
          ) -> dict[int, str]:
    """Region id -> SVG path of its outline, from a label raster (one byte a pixel). Specks
    (rings under four square pixels) are dropped."""
    out = {}
    for rid, edges in sorted(_edges(labels, width, height).items()):
        rings = [_thin_ring(r, tol) for r in _rings(edges)]
        rings = [r for r in rings if len(r) >= 3 and abs(_area(r)) >= 4]
        if rings:
            out[rid] = _path(rings)
    return out


@lru_cache(maxsize=8)
def outlines(key: str) -> dict[int, str]:
    """Region id -> outline path of a board (key: render.board_key), in layer pixels.
    Background pixels (the disc layout's 254) are no region and get no path."""
    geo = geometry(key)
    name = f"outline-{key}-{geo.digest}-{source_digest('outline.py')}.json"
    blob = read_cache(name)
    if blob is not None:
        try:
            return {int(k): str(v) for k, v in json.loads(blob).items()}
        except (ValueError, AttributeError):
            pass
    w, h = geo.size
    found = trace(geo.drawn_labels().tobytes(), w, h)
    n_regions = len(geo.slots) or 254
    found = {rid: p for rid, p in found.items() if rid < n_regions}
    write_cache(name, json.dumps(found, separators=(",", ":")).encode())
    return found
