"""data/geometry: drawn contacts are exactly the rules' adjacency, on every board."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from engine import data
from render.geometry import geometry

OUT = 255
ROOT = Path(__file__).resolve().parents[2]


def contacts(geo) -> tuple[dict[tuple[int, int], int], set[tuple[int, int]]]:
    """(4-neighbour contact lengths per pair, pairs touching even at a corner); 255 = outside."""
    w, h, lab = geo.width, geo.height, geo.labels

    def at(x: int, y: int) -> int:
        return lab[y * w + x] if 0 <= x < w and 0 <= y < h else OUT

    side: dict[tuple[int, int], int] = {}
    corner: set[tuple[int, int]] = set()
    for y in range(-1, h):
        for x in range(-1, w):
            a = at(x, y)
            for dx, dy, diag in ((1, 0, False), (0, 1, False), (1, 1, True), (-1, 1, True)):
                b = at(x + dx, y + dy)
                if a == b:
                    continue
                key = (min(a, b), max(a, b))
                corner.add(key)
                if not diag:
                    side[key] = side.get(key, 0) + 1
    return side, corner


def wanted(board: data.Board) -> set[tuple[int, int]]:
    pairs = {(min(r.id, n), max(r.id, n)) for r in board.regions for n in r.neighbours}
    pairs |= {(r.id, OUT) for r in board.regions if r.edge}
    return pairs


@pytest.mark.parametrize("board_id", data.BOARD_IDS)
def test_visible_borders_are_exactly_the_adjacency(board_id: str) -> None:
    board = data.board(board_id)
    geo = geometry(board_id)
    side, corner = contacts(geo)
    want = wanted(board)
    visible = {k for k, n in side.items() if n >= geo.min_contact}
    # every pair of neighbours shares a border at least min_contact raster pixels long
    assert {k for k in want if k not in visible} == set()
    # and no other pair touches at all, not even diagonally at a corner
    assert corner - want == set()
    # the edge flag matches: a region touches the map edge iff it is an edge region
    for r in board.regions:
        assert ((r.id, OUT) in visible) == r.edge, r.id
    assert geo.min_contact * geo.scale >= 20  # a visible stretch of border when drawn


@pytest.mark.parametrize("board_id", data.BOARD_IDS)
def test_every_region_is_one_piece(board_id: str) -> None:
    geo = geometry(board_id)
    w, h, lab = geo.width, geo.height, geo.labels
    seen = bytearray(w * h)
    pieces: dict[int, int] = {}
    for start in range(w * h):
        if seen[start]:
            continue
        rid = lab[start]
        pieces[rid] = pieces.get(rid, 0) + 1
        stack = [start]
        seen[start] = 1
        while stack:
            i = stack.pop()
            x, y = i % w, i // w
            for j, ok in ((i + 1, x + 1 < w), (i - 1, x > 0), (i + w, y + 1 < h), (i - w, y > 0)):
                if ok and not seen[j] and lab[j] == rid:
                    seen[j] = 1
                    stack.append(j)
    board = data.board(board_id)
    assert pieces == {r.id: 1 for r in board.regions}


@pytest.mark.parametrize("board_id", data.BOARD_IDS)
def test_anchors_lie_in_their_region(board_id: str) -> None:
    geo = geometry(board_id)
    for rid, slots in geo.anchors.items():
        x, y, _ = slots[0]
        assert geo.labels[int(y / geo.scale) * geo.width + int(x / geo.scale)] == rid


def test_geometry_file_is_what_the_script_builds() -> None:
    spec = importlib.util.spec_from_file_location("build_geometry",
                                                  ROOT / "scripts" / "build_geometry.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    built = mod.build("official-2p")
    import base64
    import zlib
    assert zlib.decompress(base64.b64decode(built["labels"])) == geometry("official-2p").labels


@pytest.mark.parametrize("board_id", data.BOARD_IDS)
def test_slots_never_cover_a_marker_number_or_symbol(board_id: str) -> None:
    from render.builder import ICON_BOX, LABEL_BOX, MARKER_BOX, PIECE_BOX

    geo = geometry(board_id)
    board = data.board(board_id)
    boxes = []  # (region, hard, centre, size)
    for r in board.regions:
        s = geo.slots[r.id]
        n_icons = (r.terrain == "mountain") + len(r.symbols)
        assert len(s["icons"]) == n_icons and len(s["pieces"]) == 3
        boxes += [(r.id, True, s["marker"], MARKER_BOX), (r.id, True, s["label"], LABEL_BOX)]
        boxes += [(r.id, True, p, ICON_BOX) for p in s["icons"]]
        boxes += [(r.id, False, p, PIECE_BOX) for p in s["pieces"]]
        # the marker and the number sit in their own region
        for x, y in (s["marker"], s["label"]):
            assert geo.labels[int(y / geo.scale) * geo.width + int(x / geo.scale)] == r.id
    for i, (ra, hard_a, (xa, ya), (wa, ha)) in enumerate(boxes):
        for rb, hard_b, (xb, yb), (wb, hb) in boxes[i + 1:]:
            if hard_a or hard_b:
                assert not (abs(xa - xb) * 2 < wa + wb and abs(ya - yb) * 2 < ha + hb), (ra, rb)
