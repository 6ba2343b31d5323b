"""A first label raster for a board, before relaxation: from its grid, its graph, or discs.

- `from_grid`: a coarse grid whose cell contacts match the adjacency, upsampled.
- `from_graph`: the adjacency graph embedded in the plane (Tutte's barycentric embedding with
  the edge regions on the frame), each triangle of the embedding split between its three
  corners (barycentric dual); a degree-2 inner region is carved into its neighbours' border.
- `fallback`: when no exact layout exists (e.g. a non-planar graph), every region a disc on a
  force-directed layout; the static layer then draws adjacency as lines.
Deterministic (fixed seeds), stdlib only.
"""

from __future__ import annotations

import math
import random

from engine import data

from .raster import SCALE, Raster, ValueNoise, adjacency


def from_grid(board: data.Board, w: int, h: int) -> Raster:
    if not board.grid:
        raise ValueError("the board has no grid")
    # (an empty cell would leave its row short: refused below like a ragged row)
    grid = [[c for c in row if c is not None] for row in board.grid]
    gh, gw = len(grid), len(board.grid[0])
    n = len(board.regions)
    cells = {c for row in grid for c in row}
    if any(len(row) != gw for row in grid) or cells != set(range(n)):
        raise ValueError("the grid must be rectangular and name every region exactly")
    lab = [grid[y * gh // h][x * gw // w] for y in range(h) for x in range(w)]
    return Raster(w, h, lab, adjacency(board), 3)


def outer_cycles(board: data.Board) -> list[list[int]]:
    """Orders of the edge regions around the frame (cycles through edge-edge borders; the
    first 50 or so found, each a candidate frame for the embedding)."""
    edge = [r.id for r in board.regions if r.edge]
    nb = {r.id: [n for n in r.neighbours if board.regions[n].edge] for r in board.regions}
    start = edge[0]
    path = [start]
    cycles: list[list[int]] = []
    budget = [200_000]  # a non-planar or odd input must not search forever

    def dfs(u: int) -> None:
        budget[0] -= 1
        if len(cycles) > 50 or budget[0] < 0:
            return
        if len(path) == len(edge):
            if start in nb[u]:
                cycles.append(path[:])
            return
        for v in sorted(nb[u]):
            if v not in path:
                path.append(v)
                dfs(v)
                path.pop()

    dfs(start)
    if not cycles:
        raise ValueError("edge regions do not form a cycle")
    return cycles


def tutte(board: data.Board, cycle: list[int], w: float, h: float,
          skip: set[int]) -> dict[int, tuple[float, float]]:
    # the frame regions on an ellipse (convex, so no degenerate triangle), from the top left
    pos: dict[int, tuple[float, float]] = {}
    n = len(cycle)
    for i, r in enumerate(cycle):
        t = -0.75 * math.pi + 2 * math.pi * i / n
        pos[r] = (w / 2 + 0.5 * w * math.cos(t), h / 2 + 0.5 * h * math.sin(t))
    inner = [r.id for r in board.regions if not r.edge and r.id not in skip]
    for r in inner:
        pos[r] = (w / 2, h / 2)
    nbs = {r.id: [n for n in r.neighbours if n not in skip] for r in board.regions}
    for _ in range(3000):
        for r in inner:
            xs = [pos[n] for n in nbs[r]]
            pos[r] = (sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs))
    return pos


def crossings(board: data.Board, pos: dict[int, tuple[float, float]]) -> int:
    edges = [(r.id, n) for r in board.regions for n in r.neighbours
             if r.id < n and r.id in pos and n in pos]

    def ccw(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    count = 0
    for i, (a, b) in enumerate(edges):
        for c, d in edges[i + 1:]:
            if len({a, b, c, d}) < 4:
                continue
            p, q, r, s = pos[a], pos[b], pos[c], pos[d]
            if ccw(p, q, r) * ccw(p, q, s) < 0 and ccw(r, s, p) * ccw(r, s, q) < 0:
                count += 1
    return count


def triangles(board: data.Board, pos: dict[int, tuple[float, float]],
              skip: set[int]) -> list[tuple[int, int, int]]:
    out: set[tuple[int, int, int]] = set()
    adj = {r.id: set(r.neighbours) - skip for r in board.regions if r.id not in skip}
    for u in adj:
        for v in adj[u]:
            for t in adj[u] & adj[v]:
                lo, mid, hi = sorted((u, v, t))
                tri = (lo, mid, hi)
                if tri in out:
                    continue
                # a face iff no other vertex lies inside the triangle
                a, b, c = (pos[i] for i in tri)
                det = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1])
                if abs(det) < 1e-9:
                    continue
                inside = False
                for o in adj:
                    if o in tri:
                        continue
                    p = pos[o]
                    l1 = ((b[1] - c[1]) * (p[0] - c[0]) + (c[0] - b[0]) * (p[1] - c[1])) / det
                    l2 = ((c[1] - a[1]) * (p[0] - c[0]) + (a[0] - c[0]) * (p[1] - c[1])) / det
                    if l1 > 0 and l2 > 0 and 1 - l1 - l2 > 0:
                        inside = True
                        break
                if not inside:
                    out.add(tri)
    return sorted(out)


def from_graph(board: data.Board, w: int, h: int, seed: int) -> Raster:
    skip = {r.id for r in board.regions if not r.edge and len(r.neighbours) == 2}
    best: tuple[int, dict[int, tuple[float, float]]] | None = None
    for cyc in outer_cycles(board):
        pos = tutte(board, cyc, w - 1, h - 1, skip)
        n_cross = crossings(board, pos)
        if best is None or n_cross < best[0]:
            best = (n_cross, pos)
        if n_cross == 0:
            break
    assert best is not None  # outer_cycles found at least one cycle, or raised
    n_cross, pos = best
    if n_cross:
        raise ValueError(f"{board.id}: no crossing-free embedding found ({n_cross})")
    tris = triangles(board, pos, skip)
    noise = {r.id: ValueNoise(seed + r.id, w / 6, w, h) for r in board.regions}
    lab = [-1] * (w * h)
    for tri in tris:
        a, b, c = (pos[i] for i in tri)
        det = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1])
        x0, x1 = int(min(a[0], b[0], c[0])), int(max(a[0], b[0], c[0])) + 1
        y0, y1 = int(min(a[1], b[1], c[1])), int(max(a[1], b[1], c[1])) + 1
        for y in range(max(0, y0), min(h, y1 + 1)):
            for x in range(max(0, x0), min(w, x1 + 1)):
                l1 = ((b[1] - c[1]) * (x - c[0]) + (c[0] - b[0]) * (y - c[1])) / det
                l2 = ((c[1] - a[1]) * (x - c[0]) + (a[0] - c[0]) * (y - c[1])) / det
                l3 = 1 - l1 - l2
                if min(l1, l2, l3) < -1e-6:
                    continue
                ls = [lam + 0.08 * noise[i](x, y)
                      for lam, i in zip((l1, l2, l3), tri, strict=True)]
                lab[y * w + x] = tri[ls.index(max(ls))]
    # fill any pixel no triangle covered (frame corners) from its nearest labelled pixel
    frontier = [i for i, v in enumerate(lab) if v >= 0]
    while -1 in lab:
        nxt = []
        for i in frontier:
            x, y = i % w, i // w
            for xx, yy in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= xx < w and 0 <= yy < h and lab[yy * w + xx] == -1:
                    lab[yy * w + xx] = lab[i]
                    nxt.append(yy * w + xx)
        frontier = nxt
    # a degree-2 region sits in its neighbours' border, carved out of the first one, as far
    # from any third region as the border allows
    for r in sorted(skip):
        u, v = board.regions[r].neighbours
        spot, room = None, -1.0
        for i, lbl in enumerate(lab):
            if lbl != u or not any(0 <= j < w * h and lab[j] == v
                                   for j in (i + 1, i - 1, i + w, i - w)):
                continue
            x, y = i % w, i // w
            clear = 30.0
            for yy in range(max(0, y - 30), min(h, y + 31)):
                for xx in range(max(0, x - 30), min(w, x + 31)):
                    if lab[yy * w + xx] not in (u, v):
                        clear = min(clear, math.dist((x, y), (xx, yy)))
            if clear > room:
                spot, room = (x, y), clear
        if spot is None:
            raise ValueError(f"{board.id}: region {r} has no border between its neighbours")
        cx, cy = spot
        rad = min(w / 16, room - 2)
        for y in range(int(cy - rad), int(cy + rad) + 1):
            for x in range(int(cx - rad), int(cx + rad) + 1):
                if 0 <= x < w and 0 <= y < h and math.dist((x, y), (cx, cy)) <= rad \
                        and lab[y * w + x] == u:
                    lab[y * w + x] = r
    return Raster(w, h, lab, adjacency(board), 3)


# ----------------------------------------------------------------------------- fallback

BLANK = 254  # label of the background between the discs of the fallback layout


def fallback(board: data.Board, w: int, h: int,
             seed: int) -> tuple[Raster, dict[int, list[float]]]:
    """Every region a disc, placed by a force-directed layout (for non-planar input)."""
    rng = random.Random(seed)
    n = len(board.regions)
    pos = [[rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h] for _ in range(n)]
    ideal = math.sqrt(w * h / max(1, n))
    temp = w / 8
    edges = [(r.id, m) for r in board.regions for m in r.neighbours if r.id < m]
    for _ in range(300):
        disp = [[0.0, 0.0] for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
                d = max(0.5, math.hypot(dx, dy))
                f = ideal * ideal / d / d
                disp[i][0] += dx * f
                disp[i][1] += dy * f
                disp[j][0] -= dx * f
                disp[j][1] -= dy * f
        for i, j in edges:
            dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
            d = max(0.5, math.hypot(dx, dy))
            f = d / ideal
            disp[i][0] -= dx * f
            disp[i][1] -= dy * f
            disp[j][0] += dx * f
            disp[j][1] += dy * f
        for i in range(n):
            dx, dy = disp[i]
            d = max(1e-9, math.hypot(dx, dy))
            step = min(d, temp)
            pos[i][0] += dx / d * step
            pos[i][1] += dy / d * step
        temp = max(0.5, temp * 0.98)
    # stretch the layout over the raster, then size the discs by the closest pair (the
    # margin depends on the radius and the radius on the stretch: a few rounds settle it)
    x0, x1 = min(p[0] for p in pos), max(p[0] for p in pos)
    y0, y1 = min(p[1] for p in pos), max(p[1] for p in pos)
    span = max(x1 - x0, 1e-9), max(y1 - y0, 1e-9)
    rad = min(w, h) / 8
    centres: dict[int, tuple[float, float]] = {}
    for _ in range(6):
        pad = rad + 4
        fx, fy = (w - 2 * pad) / span[0], (h - 2 * pad) / span[1]
        centres = {i: (pad + (p[0] - x0) * fx, pad + (p[1] - y0) * fy)
                   for i, p in enumerate(pos)}
        dmin = min((math.dist(centres[i], centres[j]) for i in range(n)
                    for j in range(i + 1, n)), default=float(w))
        rad = max(4.0, min(0.46 * dmin, min(w, h) / 5))
    lab = [BLANK] * (w * h)
    for i, (cx, cy) in centres.items():
        for y in range(max(0, int(cy - rad)), min(h, int(cy + rad) + 2)):
            for x in range(max(0, int(cx - rad)), min(w, int(cx + rad) + 2)):
                if (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= rad * rad:
                    lab[y * w + x] = i
    discs = {i: [round(cx * SCALE, 1), round(cy * SCALE, 1), round(rad * SCALE, 1)]
             for i, (cx, cy) in centres.items()}
    return Raster(w, h, lab, adjacency(board)), discs

