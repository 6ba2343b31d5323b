"""Build the drawn shape of a board: a label raster whose contacts are the rules' adjacency.

Used by scripts/build_geometry.py (the committed data/geometry/<board>.json of the official
boards) and by render.geometry at runtime for any other Board (a scenario's inline "map").

Each board becomes a label raster (one byte per pixel: region id) whose contacts are exactly
the rules' adjacency: two regions share a border of at least MIN_CONTACT raster pixels iff
they are neighbours, non-neighbours never touch (not even at a corner), and a region touches
the raster's outer edge iff its `edge` flag is set.

- With a coarse `grid` (whose cell contacts match the adjacency): the grid is upsampled,
  then its borders are relaxed towards a domain-warped copy of itself.
- Without one: the adjacency graph is embedded in the plane (Tutte's barycentric embedding
  with the edge regions on the frame), each triangle of the embedding is split between its
  three corners (barycentric dual), and the result is relaxed the same way, with an extra
  pull towards even region areas.
- If neither gives exact contacts (e.g. a non-planar graph): `fallback` draws every region as
  a disc on a force-directed layout; the static layer then draws adjacency as lines.

Relaxation flips one boundary pixel at a time and refuses any flip that would create a
contact between non-neighbours, shrink a required border below MIN_CONTACT, or cut a region
in two, so the contact set is an invariant; it is checked again at the end.
Per region the builder also lays out the slots of the marker, the region number, the symbols
and the pieces (`slots`), so nothing overlaps. Deterministic (fixed seeds), stdlib only.
"""

from __future__ import annotations

import base64
import math
import random
import zlib

from engine import data

OUT = 255  # pseudo label for "outside the map"
MIN_CONTACT = 8  # raster pixels of shared border for a visible border
WIDTH = 500  # raster width; the renderer draws it at SCALE x
SCALE = 2


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
                pair = (a, c) if a < c else (c, a)
                delta[pair] = delta.get(pair, 0) - 1
            if c != b:
                pair = (b, c) if b < c else (c, b)
                delta[pair] = delta.get(pair, 0) + 1
        for pair, d in delta.items():
            if d < 0 and self.pairs.get(pair, 0) + d < self.min_contact:
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
    by_label: dict[int, list[int]] = {}
    for i, v in enumerate(ras.lab):
        by_label.setdefault(v, []).append(i)
    for r in board.regions:
        cells = by_label.get(r.id, [])
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

    def _keys(self, box):
        c = self.cell
        for gy in range(int(box[1] // c), int(box[3] // c) + 1):
            for gx in range(int(box[0] // c), int(box[2] // c) + 1):
                yield (gx, gy)

    def add(self, box: tuple[float, float, float, float], owner: int, hard: bool) -> None:
        self.boxes.append((*box, owner, hard))
        for k in self._keys(box):
            self.buckets.setdefault(k, []).append(len(self.boxes) - 1)

    def overlap(self, box: tuple[float, float, float, float],
                owner: int = -1) -> tuple[float, float, float]:
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


def slots(board: data.Board, ras: Raster, anchor: dict[str, list]) -> dict[str, dict]:
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

        def box(x: float, y: float) -> tuple[float, float, float, float]:
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

    out: dict[str, dict] = {}
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
                               "icons": [drawn(p) for p in icons]}
    for region in order:
        reg = areas[region.id]
        mx, my = (v / k for v in out[str(region.id)]["marker"])
        pieces = [put(reg, PIECE_BOX, (mx + (dx_piece if j % 2 == 0 else -dx_piece),
                                       my + (j // 2) * dy_icon), hard=False)
                  for j in range(N_PIECE_SLOTS)]
        out[str(region.id)]["pieces"] = [drawn(p) for p in pieces]
    return out


# ----------------------------------------------------------------------------- fallback

BLANK = 254  # label of the background between the discs of the fallback layout


def fallback(board: data.Board, w: int, h: int, seed: int) -> tuple[Raster, dict[int, list]]:
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


# ----------------------------------------------------------------------------- build

ASPECT_NO_GRID = 0.95


def aspect(board: data.Board) -> float:
    """Height / width of the drawn map: the grid's own shape, else nearly square."""
    if board.grid:
        return min(1.4, max(0.5, len(board.grid) / len(board.grid[0])))
    return ASPECT_NO_GRID


def _finish(board: data.Board, ras: Raster, seed: int) -> Raster:
    ras = ras.upscale(4)
    ras.relax(ras.warped(seed + 7, 10.0, 30.0), None, 14, seed + 1, w_target=3.0, min_area=200)
    ras.relax(None, None, 3, seed + 2, w_smooth=1.0, min_area=200)
    problems = check(board, ras)
    if problems:
        raise ValueError(f"{board.id}: contacts differ from the adjacency: {problems[:5]}")
    return ras


def _from_grid(board: data.Board, w: int, h: int, seed: int) -> Raster:
    ras = from_grid(board, w // 4, h // 4)
    ras.relax(ras.warped(seed, 3.5, 8.0), None, 8, seed, w_target=2.0)
    return _finish(board, ras, seed)


def _from_graph(board: data.Board, w: int, h: int, seed: int) -> Raster:
    ras = from_graph(board, w // 4, h // 4, seed)
    area = {r.id: (2.6 if r.terrain == "sea" else 1.0) for r in board.regions}
    total = sum(area.values())
    ta = {k: v * ras.w * ras.h / total for k, v in area.items()}
    ras.relax(None, ta, 40, seed, w_area=6.0, w_smooth=0.6, min_area=12)
    return _finish(board, ras, seed)


def tiles(board: data.Board, w: int, h: int, seed: int) -> Raster:
    """The exact-contact raster: the grid path if there is a grid, else (or if that fails)
    the planar path. ValueError when neither works."""
    errors = []
    paths = ([_from_grid] if board.grid is not None else []) + [_from_graph]
    for path in paths:
        try:
            return path(board, w, h, seed)
        except Exception as exc:  # noqa: BLE001 - any failure: try the next path
            errors.append(f"{path.__name__[6:]}: {exc}")
    raise ValueError(f"{board.id}: no exact layout ({'; '.join(errors)})")


def build(board: data.Board, *, allow_fallback: bool = True) -> dict:
    """The geometry of `board` as a JSON-able dict (the data/geometry file format)."""
    w = WIDTH
    h = int(round(WIDTH * aspect(board)))
    seed = 1000 + board.players
    discs = None
    try:
        ras = tiles(board, w, h, seed)
    except ValueError:
        if not allow_fallback:
            raise
        ras, discs = fallback(board, w, h, seed)
    anchor = anchors(board, ras)
    geo = {
        "_doc": "Generated by render/builder.py (scripts/build_geometry.py); do not edit. "
                "labels: zlib+base64 of width*height bytes (region id, row-major; 254 = "
                "background of the disc fallback); draw at scale x; anchors: per region "
                "[x, y, clearance] in drawn pixels, best spot first; slots: per region the "
                "centres of marker, label, icons, pieces in drawn pixels; discs: fallback "
                "only, per region [x, y, radius].",
        "board": board.id,
        "kind": "tiles" if discs is None else "discs",
        "width": ras.w,
        "height": ras.h,
        "scale": SCALE,
        "min_contact": ras.min_contact,
        "labels": base64.b64encode(zlib.compress(bytes(ras.lab), 9)).decode("ascii"),
        "anchors": anchor,
        "slots": slots(board, ras, anchor),
    }
    if discs is not None:
        geo["discs"] = {str(i): v for i, v in discs.items()}
    return geo
