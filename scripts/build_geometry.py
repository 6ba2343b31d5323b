"""Build data/geometry/<board>.json: the drawn shape of every region, for render/.

Usage: python scripts/build_geometry.py [BOARD_ID ...]

Each board becomes a label raster (one byte per pixel: region id, zlib + base64) whose
contacts are exactly the rules' adjacency: two regions share a border of at least
MIN_CONTACT raster pixels iff they are neighbours, non-neighbours never touch (not even at
a corner), and a region touches the raster's outer edge iff its `edge` flag is set.

- 2p-4p: the board's coarse `grid` (whose cell contacts already match the adjacency) is
  upsampled, then its borders are relaxed towards a domain-warped copy of itself.
- 5p (no grid): the adjacency graph is embedded in the plane (Tutte's barycentric embedding
  with the edge regions on the frame), each triangle of the embedding is split between its
  three corners (barycentric dual), and the result is relaxed the same way, with an extra
  pull towards even region areas.

Relaxation flips one boundary pixel at a time and refuses any flip that would create a
contact between non-neighbours, shrink a required border below MIN_CONTACT, or cut a region
in two, so the contact set is an invariant; it is checked again at the end.
Deterministic: fixed seeds. Pure Python + Pillow-free (stdlib only).
"""

from __future__ import annotations

import base64
import json
import math
import random
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import data  # noqa: E402

OUT = 255  # pseudo label for "outside the map"
MIN_CONTACT = 8  # raster pixels of shared border for a visible border
WIDTH = 500  # raster width; the renderer draws it at SCALE x
SCALE = 2
ASPECT = {"official-2p": 8 / 13, "official-3p": 10 / 14, "official-4p": 13 / 14,
          "official-5p": 0.95}


# ----------------------------------------------------------------------------- noise

class ValueNoise:
    """Smooth 2-D value noise in [-1, 1] on a lattice of `cell` pixels (seeded)."""

    def __init__(self, seed: int, cell: float, w: int, h: int) -> None:
        rng = random.Random(seed)
        self.cell = cell
        self.nx = int(w / cell) + 3
        self.ny = int(h / cell) + 3
        self.v = [[rng.uniform(-1, 1) for _ in range(self.nx)] for _ in range(self.ny)]

    def __call__(self, x: float, y: float) -> float:
        fx, fy = x / self.cell, y / self.cell
        ix, iy = int(fx), int(fy)
        tx, ty = fx - ix, fy - iy
        tx = tx * tx * (3 - 2 * tx)
        ty = ty * ty * (3 - 2 * ty)
        v = self.v
        a = v[iy][ix] + (v[iy][ix + 1] - v[iy][ix]) * tx
        b = v[iy + 1][ix] + (v[iy + 1][ix + 1] - v[iy + 1][ix]) * tx
        return a + (b - a) * ty


# ----------------------------------------------------------------------------- raster

class Raster:
    """A label map with incremental contact counts and areas."""

    def __init__(self, w: int, h: int, lab: list[int], adj: dict[int, set[int]],
                 min_contact: int = MIN_CONTACT) -> None:
        self.w, self.h, self.lab, self.adj = w, h, lab, adj
        self.min_contact = min_contact
        self.recount()

    def at(self, x: int, y: int) -> int:
        if 0 <= x < self.w and 0 <= y < self.h:
            return self.lab[y * self.w + x]
        return OUT

    def recount(self) -> None:
        self.area: dict[int, int] = {}
        self.pairs: dict[tuple[int, int], int] = {}
        w, h = self.w, self.h
        for y in range(h):
            for x in range(w):
                a = self.lab[y * w + x]
                self.area[a] = self.area.get(a, 0) + 1
                for b in (self.at(x + 1, y), self.at(x, y + 1)):
                    if b != a:
                        k = (a, b) if a < b else (b, a)
                        self.pairs[k] = self.pairs.get(k, 0) + 1
                if x == 0 or y == 0:
                    for b in ((self.at(x - 1, y),) if x == 0 else ()) + (
                        (self.at(x, y - 1),) if y == 0 else ()
                    ):
                        k = (a, b) if a < b else (b, a)
                        self.pairs[k] = self.pairs.get(k, 0) + 1

    def diagonal_pairs(self) -> set[tuple[int, int]]:
        """Pairs touching through any 8-neighbourhood contact (outside included)."""
        out = set()
        for y in range(-1, self.h + 1):
            for x in range(-1, self.w + 1):
                a = self.at(x, y)
                for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    b = self.at(x + dx, y + dy)
                    if a != b and not (a == OUT and b == OUT):
                        out.add((a, b) if a < b else (b, a))
        return out

    def can_flip(self, x: int, y: int, a: int, b: int, min_area: int) -> bool:
        if self.area[a] <= min_area:
            return False
        ring = [self.at(x, y - 1), self.at(x + 1, y - 1), self.at(x + 1, y),
                self.at(x + 1, y + 1), self.at(x, y + 1), self.at(x - 1, y + 1),
                self.at(x - 1, y), self.at(x - 1, y - 1)]
        adj_b = self.adj[b]
        for c in ring:
            if c != b and c not in adj_b:
                return False
        # a stays 4-connected: its 4-neighbours of p lie in one circular run of a's
        runs = 0
        for i in range(8):
            if ring[i] == a and ring[i - 1] != a:
                runs += 1
        if runs > 1:
            # more than one run: fine only if all 4-neighbour a's are in the same run
            seen_run = None
            run_id = -1
            start = next((i for i in range(8) if ring[i] != a), None)
            if start is None:
                return True
            for k in range(1, 9):
                i = (start + k) % 8
                if ring[i] == a and ring[i - 1] != a:
                    run_id += 1
                if ring[i] == a and i % 2 == 0:
                    if seen_run is None:
                        seen_run = run_id
                    elif seen_run != run_id:
                        return False
        # required borders stay long enough
        delta: dict[tuple[int, int], int] = {}
        for c in (ring[0], ring[2], ring[4], ring[6]):
            if c != a:
                k = (a, c) if a < c else (c, a)
                delta[k] = delta.get(k, 0) - 1
            if c != b:
                k = (b, c) if b < c else (c, b)
                delta[k] = delta.get(k, 0) + 1
        for k, d in delta.items():
            if d < 0 and self.pairs.get(k, 0) + d < self.min_contact:
                return False
        return True

    def flip(self, x: int, y: int, a: int, b: int) -> None:
        for c in (self.at(x, y - 1), self.at(x + 1, y), self.at(x, y + 1), self.at(x - 1, y)):
            if c != a:
                k = (a, c) if a < c else (c, a)
                self.pairs[k] -= 1
                if not self.pairs[k]:
                    del self.pairs[k]
            if c != b:
                k = (b, c) if b < c else (c, b)
                self.pairs[k] = self.pairs.get(k, 0) + 1
        self.area[a] -= 1
        self.area[b] = self.area.get(b, 0) + 1
        self.lab[y * self.w + x] = b

    def relax(self, target: list[int] | None, target_area: dict[int, float] | None,
              sweeps: int, seed: int, w_target: float = 2.0, w_area: float = 0.0,
              w_smooth: float = 1.0, min_area: int = 30) -> None:
        """Greedy constrained relaxation of the boundary pixels."""
        rng = random.Random(seed)
        w = self.w
        for _ in range(sweeps):
            boundary = []
            lab = self.lab
            for y in range(self.h):
                row = y * w
                for x in range(w):
                    a = lab[row + x]
                    if (x + 1 < w and lab[row + x + 1] != a) or (x > 0 and lab[row + x - 1] != a) \
                            or (y + 1 < self.h and lab[row + w + x] != a) \
                            or (y > 0 and lab[row - w + x] != a):
                        boundary.append((x, y))
            rng.shuffle(boundary)
            for x, y in boundary:
                a = lab[y * w + x]
                n8 = [self.at(x + dx, y + dy) for dx, dy in
                      ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))]
                cands = {n8[0], n8[2], n8[4], n8[6]} - {a, OUT}
                if not cands:
                    continue
                t = target[y * w + x] if target is not None else -1

                def score(lbl: int, n8=n8, t=t) -> float:
                    s = w_smooth * n8.count(lbl) + (w_target if lbl == t else 0.0)
                    if w_area and target_area:
                        s -= w_area * self.area[lbl] / target_area[lbl]
                    return s

                best, best_s = a, score(a) + 1e-9
                for b in cands:
                    s = score(b)
                    if s > best_s:
                        best, best_s = b, s
                if best != a and self.can_flip(x, y, a, best, min_area):
                    self.flip(x, y, a, best)

    def upscale(self, k: int) -> Raster:
        w, h = self.w * k, self.h * k
        lab = [0] * (w * h)
        for y in range(h):
            src = (y // k) * self.w
            row = y * w
            for x in range(w):
                lab[row + x] = self.lab[src + x // k]
        return Raster(w, h, lab, self.adj, self.min_contact * k)

    def warped(self, seed: int, amp: float, cell: float) -> list[int]:
        """A domain-warped copy of the labels (the organic target)."""
        nx = ValueNoise(seed, cell, self.w, self.h)
        ny = ValueNoise(seed + 1, cell, self.w, self.h)
        nx2 = ValueNoise(seed + 2, cell / 3, self.w, self.h)
        ny2 = ValueNoise(seed + 3, cell / 3, self.w, self.h)
        out = [0] * (self.w * self.h)
        for y in range(self.h):
            for x in range(self.w):
                dx = amp * (nx(x, y) + 0.35 * nx2(x, y))
                dy = amp * (ny(x, y) + 0.35 * ny2(x, y))
                sx = min(self.w - 1, max(0, int(x + dx)))
                sy = min(self.h - 1, max(0, int(y + dy)))
                out[y * self.w + x] = self.lab[sy * self.w + sx]
        return out


# ----------------------------------------------------------------------------- boards

def adjacency(board: data.Board) -> dict[int, set[int]]:
    adj = {r.id: set(r.neighbours) for r in board.regions}
    adj[OUT] = {r.id for r in board.regions if r.edge}
    for r in board.regions:
        if r.edge:
            adj[r.id].add(OUT)
    return adj


def from_grid(board: data.Board, w: int, h: int) -> Raster:
    grid = board.grid
    gh, gw = len(grid), len(grid[0])
    lab = [grid[y * gh // h][x * gw // w] for y in range(h) for x in range(w)]
    return Raster(w, h, lab, adjacency(board), 3)


def outer_cycle(board: data.Board) -> list[int]:
    """The edge regions in order around the frame (a cycle through edge-edge borders)."""
    edge = [r.id for r in board.regions if r.edge]
    nb = {r.id: [n for n in r.neighbours if board.regions[n].edge] for r in board.regions}
    start = edge[0]
    path = [start]
    cycles = []

    def dfs(u: int) -> None:
        if len(cycles) > 50:
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

    def ccw(a, b, c):
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
    out = set()
    adj = {r.id: set(r.neighbours) - skip for r in board.regions if r.id not in skip}
    for u in adj:
        for v in adj[u]:
            for t in adj[u] & adj[v]:
                tri = tuple(sorted((u, v, t)))
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
    best = None
    for cyc in outer_cycle(board):
        pos = tutte(board, cyc, w - 1, h - 1, skip)
        c = crossings(board, pos)
        if best is None or c < best[0]:
            best = (c, pos)
        if c == 0:
            break
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
        best, best_c = None, -1.0
        for i, lbl in enumerate(lab):
            if lbl != u or not any(0 <= j < w * h and lab[j] == v
                                   for j in (i + 1, i - 1, i + w, i - w)):
                continue
            x, y = i % w, i // w
            c = 30.0
            for yy in range(max(0, y - 30), min(h, y + 31)):
                for xx in range(max(0, x - 30), min(w, x + 31)):
                    if lab[yy * w + xx] not in (u, v):
                        c = min(c, math.dist((x, y), (xx, yy)))
            if c > best_c:
                best, best_c = (x, y), c
        cx, cy = best
        rad = min(w / 16, best_c - 2)
        for y in range(int(cy - rad), int(cy + rad) + 1):
            for x in range(int(cx - rad), int(cx + rad) + 1):
                if 0 <= x < w and 0 <= y < h and math.dist((x, y), (cx, cy)) <= rad \
                        and lab[y * w + x] == u:
                    lab[y * w + x] = r
    return Raster(w, h, lab, adjacency(board), 3)


# ----------------------------------------------------------------------------- checks

def check(board: data.Board, ras: Raster) -> list[str]:
    """Problems with the raster's contacts (empty list = exact match)."""
    adj = adjacency(board)
    want = {(min(a, b), max(a, b)) for a in adj for b in adj[a]}
    have = {k for k, n in ras.pairs.items() if n >= ras.min_contact}
    problems = []
    for k in sorted(want - have):
        problems.append(f"missing border {k} ({ras.pairs.get(k, 0)} px)")
    for k in sorted(set(ras.pairs) - want):
        problems.append(f"unwanted border {k}")
    for k in sorted(ras.diagonal_pairs() - want):
        problems.append(f"unwanted corner touch {k}")
    # each region one 4-connected piece
    seen = set()
    for r in board.regions:
        cells = [i for i, v in enumerate(ras.lab) if v == r.id]
        if not cells:
            problems.append(f"region {r.id} empty")
            continue
        stack, comp = [cells[0]], {cells[0]}
        while stack:
            i = stack.pop()
            x, y = i % ras.w, i // ras.w
            for xx, yy in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                j = yy * ras.w + xx
                if 0 <= xx < ras.w and 0 <= yy < ras.h and j not in comp and ras.lab[j] == r.id:
                    comp.add(j)
                    stack.append(j)
        if len(comp) != len(cells):
            problems.append(f"region {r.id} in pieces")
        seen |= comp
    return problems


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


def anchors(board: data.Board, ras: Raster, n_slots: int = 7) -> dict[str, list]:
    """Per region, spots for the marker, label and icons: greedy max-clearance points."""
    d = distance_map(ras)
    w = ras.w
    pix: dict[int, list[int]] = {}
    for i, v in enumerate(ras.lab):
        pix.setdefault(v, []).append(i)
    out = {}
    for r in board.regions:
        cells = pix[r.id]
        slots: list[list[float]] = []
        for k in range(n_slots):
            best, best_s = None, -1e9
            for i in cells[::3]:
                x, y = i % w, i // w
                s = min(d[i], 14.0 if k else 1e9)
                for sx, sy, sr in slots:
                    s = min(s, math.dist((x, y), (sx, sy)) - sr * (0.9 if k > 1 else 1.0))
                if s > best_s:
                    best, best_s = i, s
            x, y = best % w, best // w
            slots.append([x, y, round(max(1.0, min(d[best], best_s)), 1)])
        out[str(r.id)] = [[x * SCALE, y * SCALE, rr * SCALE] for x, y, rr in slots]
    return out


# ----------------------------------------------------------------------------- build

def build(board_id: str) -> dict:
    board = data.board(board_id)
    w = WIDTH
    h = int(round(WIDTH * ASPECT[board_id]))
    seed = 1000 + board.players
    if board.grid is not None:
        ras = from_grid(board, w // 4, h // 4)
        ras.relax(ras.warped(seed, 3.5, 8.0), None, 8, seed, w_target=2.0)
    else:
        ras = from_graph(board, w // 4, h // 4, seed)
        area = {r.id: (2.6 if r.terrain == "sea" else 1.0) for r in board.regions}
        total = sum(area.values())
        ta = {k: v * ras.w * ras.h / total for k, v in area.items()}
        ras.relax(None, ta, 40, seed, w_area=6.0, w_smooth=0.6, min_area=12)
        probs = check(board, ras)
        if probs:
            print(board_id, "coarse:", probs[:10])
    ras = ras.upscale(4)
    ras.relax(ras.warped(seed + 7, 10.0, 30.0), None, 14, seed + 1, w_target=3.0, min_area=200)
    ras.relax(None, None, 3, seed + 2, w_smooth=1.0, min_area=200)
    problems = check(board, ras)
    if problems:
        raise SystemExit(f"{board_id}: contacts differ from the adjacency: {problems}")
    return {
        "_doc": "Generated by scripts/build_geometry.py; do not edit. labels: zlib+base64 of "
                "width*height bytes (region id, row-major); draw at scale x; anchors: per region "
                "[x, y, clearance] in drawn pixels, best spot first.",
        "board": board_id,
        "width": ras.w,
        "height": ras.h,
        "scale": SCALE,
        "min_contact": ras.min_contact,
        "labels": base64.b64encode(zlib.compress(bytes(ras.lab), 9)).decode("ascii"),
        "anchors": anchors(board, ras),
    }


def main(argv: list[str]) -> int:
    ids = argv[1:] or list(data.BOARD_IDS)
    out_dir = ROOT / "data" / "geometry"
    out_dir.mkdir(parents=True, exist_ok=True)
    for board_id in ids:
        geo = build(board_id)
        path = out_dir / f"{board_id}.json"
        path.write_text(json.dumps(geo, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
