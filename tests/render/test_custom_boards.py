"""Boards without a committed geometry file (a scenario's inline "map") render too."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

import engine
import render
from engine import data
from render import builder, geometry, static
from render.__main__ import main

HERE = Path(__file__).resolve().parent
SMALL = HERE / "scenarios" / "inline-small.json"


def contacts(geo) -> tuple[dict[tuple[int, int], int], set[tuple[int, int]]]:
    """(side contact lengths per pair, pairs touching even at a corner); 255 = off the map."""
    w, h, lab = geo.width, geo.height, geo.labels

    def at(x: int, y: int) -> int:
        return lab[y * w + x] if 0 <= x < w and 0 <= y < h else 255

    side: dict[tuple[int, int], int] = {}
    corner: set[tuple[int, int]] = set()
    for y in range(-1, h):
        for x in range(-1, w):
            a = at(x, y)
            for dx, dy in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                b = at(x + dx, y + dy)
                if a != b:
                    key = (min(a, b), max(a, b))
                    corner.add(key)
                    if dx == 0 or dy == 0:
                        side[key] = side.get(key, 0) + 1
    return side, corner


def wanted(board: data.Board) -> set[tuple[int, int]]:
    pairs = {(min(r.id, n), max(r.id, n)) for r in board.regions for n in r.neighbours}
    return pairs | {(r.id, 255) for r in board.regions if r.edge}


def _reference(board: data.Board, *, grid: bool = True) -> dict:
    """A board in the reference/maps format (what a scenario's inline "map" holds)."""
    ref = {"format": "smallworld-board/1", "board": board.id, "players": board.players,
           "turns": board.rounds,
           "regions": [{"id": r.id, "terrain": r.terrain, "features": list(r.symbols),
                        "border": r.edge, "entry": r.entry, "neighbours": list(r.neighbours)}
                       for r in board.regions]}
    if grid and board.grid is not None:
        ref["grid"] = [list(row) for row in board.grid]
    return ref


def _png(path: Path) -> Image.Image:
    im = Image.open(io.BytesIO(path.read_bytes()))
    im.load()
    assert im.format == "PNG"
    return im


def test_cli_draws_a_small_inline_map(tmp_path) -> None:
    out = tmp_path / "small.png"
    assert main([str(SMALL), "-o", str(out), "--highlight", "6"]) == 0
    im = _png(out)
    assert im.width >= 1000
    spec = json.loads(SMALL.read_text())
    board = engine.load_scenario(spec).board
    key = geometry.board_key(board)
    assert key.startswith("custom-")
    assert im.height == static.map_layer(key).height + render.mapview.panel_height(2)


def test_small_inline_map_contacts_are_its_adjacency() -> None:
    board = data.board_from_reference(json.loads(SMALL.read_text())["map"])
    geo = geometry.board_geometry(board)
    assert geo.kind == "tiles"  # the planar path worked: no grid in this map
    side, corner = contacts(geo)
    want = wanted(board)
    assert {k for k, n in side.items() if n >= geo.min_contact} == want
    assert corner == want
    assert set(geo.slots) == {r.id for r in board.regions}


def test_inline_copy_of_an_official_board(tmp_path, scenario_of) -> None:
    spec = scenario_of("official-3p")
    spec["map"] = _reference(data.board(spec.pop("board")))
    src = tmp_path / "inline-3p.json"
    src.write_text(json.dumps(spec))
    out = tmp_path / "inline-3p.png"
    assert main([str(src), "-o", str(out)]) == 0
    assert _png(out).width >= 1000
    state = engine.load_scenario(spec)
    # the same content as the official board: its committed geometry is used
    assert geometry.board_key(state.board) == "official-3p"
    official = engine.load_scenario(scenario_of("official-3p"))
    assert render.map_png(state) == render.map_png(official)


def test_geometry_is_built_once_per_board_content(monkeypatch) -> None:
    spec = json.loads(SMALL.read_text())
    a = data.board_from_reference(spec["map"])
    b = data.board_from_reference(spec["map"])
    assert a is not b and geometry.board_key(a) == geometry.board_key(b)
    geometry.board_geometry(a)
    spec["map"]["regions"][0]["terrain"] = "lake"
    c = data.board_from_reference(spec["map"])
    assert geometry.board_key(c) != geometry.board_key(a)
    # a new process (memory caches cleared) reads the disk cache instead of building again
    geometry.geometry.cache_clear()

    def refuse(*args, **kwargs):
        raise AssertionError("rebuilt although the disk cache holds it")

    monkeypatch.setattr(builder, "build", refuse)
    assert geometry.board_geometry(a).labels == geometry.board_geometry(b).labels


def test_non_planar_map_falls_back_to_discs(tmp_path) -> None:
    # six border regions all adjacent to each other (K6 is not planar) and one inner region
    regions = [{"id": i, "terrain": t, "features": [], "border": True, "entry": True,
                "neighbours": [j for j in range(6) if j != i] + ([6] if i < 2 else [])}
               for i, t in enumerate(("forest", "hill", "farmland", "swamp", "mountain", "sea"))]
    regions.append({"id": 6, "terrain": "hill", "features": ["mine"], "border": False,
                    "entry": False, "neighbours": [0, 1]})
    spec = {"map": {"board": "tangle", "players": 2, "turns": 5, "regions": regions},
            "players": ["ann", "bob"], "seed": 1,
            "seats": {"ann": {"active": {"race": "Orcs", "power": "Hill", "hand": 0}}},
            "regions": {"6": {"owner": "ann", "race": "Orcs", "tokens": 3}}}
    board = data.board_from_reference(spec["map"])
    with pytest.raises(ValueError):
        builder.build(board, allow_fallback=False)
    geo = geometry.board_geometry(board)
    assert geo.kind == "discs" and set(geo.discs) == set(range(7))
    # every region is one disc of its own label, none touching another
    for rid, (x, y, r) in geo.discs.items():
        assert geo.labels[int(y / geo.scale) * geo.width + int(x / geo.scale)] == rid
        for other, (x2, y2, r2) in geo.discs.items():
            if other != rid:
                assert ((x - x2) ** 2 + (y - y2) ** 2) ** 0.5 > r + r2
    src = tmp_path / "tangle.json"
    src.write_text(json.dumps(spec))
    out = tmp_path / "tangle.png"
    assert main([str(src), "-o", str(out)]) == 0
    assert _png(out).width >= 1000


def test_disk_cached_static_layer_is_the_drawn_one() -> None:
    key = "official-2p"
    drawn = static._draw_layer(key)
    static.map_layer.cache_clear()
    first = static.map_layer(key)  # drawn (or read) and written to the cache
    static.map_layer.cache_clear()
    again = static.map_layer(key)  # read back
    assert again.tobytes() == first.tobytes() == drawn.tobytes()
    assert geometry.read_cache(static.layer_cache_name(key)) is not None


def test_static_layer_cache_name_follows_the_fonts(tmp_path, monkeypatch) -> None:
    """Other font files (a changed DejaVu, say) must not reuse layers drawn with the old."""
    from render import theme

    before = static.layer_cache_name("official-2p")
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    for f in theme.FONT_DIR.glob("*.ttf"):
        (fonts / f.name).write_bytes(f.read_bytes())
    monkeypatch.setattr(theme, "FONT_DIR", fonts)
    assert static.layer_cache_name("official-2p") == before  # same bytes, same name
    (fonts / "DejaVuSans-Bold.ttf").write_bytes(b"not the same font")
    static.fonts_digest.cache_clear()
    assert static.layer_cache_name("official-2p") != before
