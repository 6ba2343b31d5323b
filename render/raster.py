"""The label raster of a drawn board: one byte per pixel (a region id), its contacts, its checks.

A `Raster` keeps per-pair contact lengths and per-region areas up to date as pixels flip, and
its `relax` moves borders towards a target while keeping the contact set exactly the rules'
adjacency: two regions share at least `min_contact` pixels of border iff they are neighbours,
non-neighbours never touch (not even at a corner), a region touches the outside (OUT) iff its
`edge` flag is set, and no region is cut in two. `check` verifies all of this from scratch.
Stdlib only; render/builder.py drives it.
"""

from __future__ import annotations

import random

from engine import data

OUT = 255  # pseudo label for "outside the map"
MIN_CONTACT = 8  # raster pixels of shared border for a visible border
SCALE = 2  # the renderer draws the raster at SCALE x


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

                def score(lbl: int, n8: list[int] = n8, t: int = t) -> float:
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

