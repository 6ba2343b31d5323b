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

Relaxation (render/raster.py) flips one boundary pixel at a time and refuses any flip that
would create a contact between non-neighbours, shrink a required border below MIN_CONTACT, or
cut a region in two, so the contact set is an invariant; it is checked again at the end.
Per region the builder also lays out the slots of the marker, the region number, the symbols
and the pieces (render/placement.py), so nothing overlaps. Deterministic (fixed seeds),
stdlib only. The first rasters come from render/embedding.py.
"""

from __future__ import annotations

import base64
import zlib
from typing import NotRequired, TypedDict

from engine import data

from .embedding import fallback, from_graph, from_grid
from .placement import (
    ICON_BOX,
    LABEL_BOX,
    MARKER_BOX,
    PIECE_BOX,
    Anchors,
    RegionSlots,
    anchors,
    slots,
)
from .raster import MIN_CONTACT, SCALE, Raster, check

__all__ = ["ICON_BOX", "LABEL_BOX", "MARKER_BOX", "MIN_CONTACT", "PIECE_BOX", "SCALE", "WIDTH",
           "GeometryFile", "RegionSlots", "aspect", "build", "tiles"]

WIDTH = 500  # raster width; the renderer draws it at SCALE x

# The data/geometry file format, as `build` writes it and render.geometry reads it (the keys
# it reads with a default are optional; "smooth" is added by render.geometry.with_smooth).
class GeometryFile(TypedDict):
    _doc: NotRequired[str]
    board: str
    kind: NotRequired[str]  # "tiles" (the default) or "discs"
    width: int
    height: int
    scale: int
    min_contact: int
    labels: str  # zlib + base64 of width * height label bytes
    anchors: Anchors
    slots: NotRequired[dict[str, RegionSlots]]
    discs: NotRequired[dict[str, list[float]]]  # the fallback's [x, y, radius] per region
    smooth: NotRequired[str]  # zlib + base64 of the drawn-size smoothed labels


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


def build(board: data.Board, *, allow_fallback: bool = True) -> GeometryFile:
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
    geo: GeometryFile = {
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
