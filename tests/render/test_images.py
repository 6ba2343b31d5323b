"""The pictures decode, have the documented size, and stay within the upload budget."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageStat

import engine
import render
from render import cards, encode, static
from render.mapview import panel_height
from render.masks import region_mask


def _decode(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


def test_map_png_size_and_budget(busy_state) -> None:
    png = render.map_png(busy_state)
    im = _decode(png)
    layer = static.map_layer(busy_state.board.id)
    assert im.format == "PNG"
    assert im.size == (layer.width, layer.height + panel_height(len(busy_state.players)))
    assert im.width >= 1000
    assert len(png) <= 600 * 1024


@pytest.mark.parametrize(("lang", "viewer", "highlight"), [
    ("en", None, ()), ("en", None, (1, 2, 9)), ("th", 0, (3,)), ("hu", 1, ())])
def test_map_png_is_the_drawn_picture_exactly(busy_state, lang, viewer, highlight) -> None:
    """The whole drawing, mapped to the palette at once, is what Discord is shown: the
    shortcuts (only the boxes drawn in mapped, panel strips mapped once, bands of the
    encoding reused, the fast zlib level) change bytes and work, never pixels. Twice each:
    the second picture comes from what the first one cached."""
    from render import encode
    from render.mapview import draw_map

    seat = None if viewer is None else busy_state.players[viewer]
    drawn = encode.to_palette(draw_map(busy_state.board, engine.observe(busy_state, seat),
                                       viewer=seat, highlight=highlight, lang=lang),
                              busy_state.board.id)
    for _ in range(2):
        shown = _decode(render.map_png(busy_state, viewer=seat, highlight=highlight,
                                       lang=lang))
        assert shown.mode == "P"
        assert shown.convert("RGB").tobytes() == drawn.convert("RGB").tobytes()


def test_static_layer_is_drawn_once_per_board(busy_state) -> None:
    board_id = busy_state.board.id
    assert static.map_layer(board_id) is static.map_layer(board_id)
    render.map_png(busy_state)
    assert static.map_layer.cache_info().currsize >= 1


@pytest.mark.parametrize("board_id", engine.data.BOARD_IDS)
def test_water_looks_like_water(board_id: str) -> None:
    layer = static.map_layer(board_id)
    for region in engine.data.board(board_id).regions:
        (ox, oy), mask = region_mask(board_id, region.id)
        crop = layer.crop((ox, oy, ox + mask.width, oy + mask.height))
        r, g, b = ImageStat.Stat(crop, mask).mean
        assert (b > r + 20 and b > g) == region.is_water, (region.id, region.terrain, (r, g, b))


def test_row_png_shows_six_combos(busy_state) -> None:
    im = _decode(render.row_png(busy_state))
    assert im.width >= 1000
    assert im.height >= 6 * 80


@pytest.mark.parametrize("lang", ["en", "th"])
def test_every_combo_row_keeps_its_colours_on_the_shared_palette(lang: str) -> None:
    """Rows go out on one palette made from sample rows: any race and power, in any order
    and language, must come out within a hair of the drawing (a colour the palette missed
    would show as a wrong-coloured banner)."""
    from PIL import ImageChops

    from render.cards import draw_row

    races, powers = engine.data.RACES, engine.data.POWERS
    for k in range(0, 12, 3):
        row = [{"power": powers[(7 * k + 3 * i) % len(powers)],
                "race": races[(5 * k + 2 * i + 1) % len(races)], "cost": i,
                "coins_on_combo": (k + i) % 4} for i in range(6)]
        drawn = draw_row({"row": row}, lang)
        shown = _decode(encode.banded_png(cards.row_image({"row": row}, lang)))
        assert shown.mode == "P"
        diff = ImageChops.difference(drawn, shown.convert("RGB"))
        assert max(ImageStat.Stat(diff).mean) < 0.5  # mean error per channel (0-255)
        assert max(hi for _, hi in diff.getextrema()) < 64  # no pixel far off


def test_final_png_only_after_the_game(scenario_of) -> None:
    state = engine.load_scenario(scenario_of("official-3p"))
    with pytest.raises(ValueError):
        render.final_png(state)


def test_final_picture_ranks_and_notes_the_tie(drawn_strings) -> None:
    observation = {
        "players": {"ann": {}, "bob": {}, "cid": {}},
        "regions": {"1": {"owner": "ann", "race": "Orcs", "tokens": 4}},
        "finished": True,
        "ranking": [{"player": "ann", "total": 30, "tokens": 4, "rank": 1},
                    {"player": "bob", "total": 30, "tokens": 2, "rank": 2},
                    {"player": "cid", "total": 12, "tokens": 7, "rank": 3}],
        "winners": ["ann"],
    }
    seen = drawn_strings
    im = render.draw_final(observation, {"ann": [1, 3, 5], "bob": [2, 2, 4],
                                         "cid": [1, 1, 2]})
    assert im.width >= 1000
    assert "Winner: ann" in seen
    assert "30 coins" in seen and "12 coins" in seen
    assert any("Tie on coins" in s and "ann 4 tokens" in s and "bob 2 tokens" in s for s in seen)
    assert "Regions held at the end of each round" in seen


def test_cli_writes_a_png(tmp_path, scenario_of) -> None:
    from render.__main__ import main

    src = tmp_path / "s.json"
    import json

    src.write_text(json.dumps(scenario_of("official-2p")))
    out = tmp_path / "map.png"
    assert main([str(src), "-o", str(out), "--highlight", "3,4"]) == 0
    assert _decode(out.read_bytes()).width >= 1000


def test_row_names_each_combo_its_tokens_cost_and_coins(busy_state, drawn_strings) -> None:
    seen = drawn_strings
    cards.clear_pieces()  # draw every piece now, not from an earlier test's
    render.row_png(busy_state)
    row = engine.observe(busy_state, None)["row"]
    races, powers = engine.data.races(), engine.data.powers()
    for slot, combo in enumerate(row):
        assert combo["race"] in seen and combo["power"] in seen
        assert f"cost {slot}" in seen
        n = races[combo["race"]].tokens + powers[combo["power"]].tokens
        assert f"{n} tokens" in seen
        if combo["coins_on_combo"]:
            assert str(combo["coins_on_combo"]) in seen
    # the combos are numbered 1-6, as /sw pick and the pick menu number them
    numbers = [t for t in seen if t.isdigit() and t in {"1", "2", "3", "4", "5", "6"}]
    assert {"1", "2", "3", "4", "5", "6"} <= set(numbers) and "0" not in seen
