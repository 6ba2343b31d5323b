"""The map drawn from its parts (the static layer on the palette, highlights set by index,
sprites in kept tiles, panel strips) is the whole drawing mapped to the palette, pixel for
pixel, along whole games: each map reuses what the ones before it kept."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import engine
import render
from render import encode, mapview


def _positions(board_id: str, seed: int, every: int = 7, most: int = 9):
    """States along a random game of `board_id`, with a few regions to highlight each."""
    board = engine.data.board(board_id)
    state = engine.new_game(board_id, [f"p{i}" for i in range(board.players)], seed)
    rng = random.Random(seed)
    out = []
    for step in range(every * most * 3):
        legal = engine.legal_actions(state)
        if not legal:
            break
        state = engine.apply(state, rng.choice(legal)).state
        if step % every == every - 1:
            out.append((state, tuple(rng.sample(range(len(board.regions)), rng.randint(0, 5)))))
        if len(out) == most:
            break
    return out


@pytest.mark.parametrize("board_id", engine.data.BOARD_IDS)
def test_maps_along_a_game_are_the_drawing_exactly(board_id: str) -> None:
    mapview.clear_strips()
    encode.clear_bands()
    positions = _positions(board_id, seed=len(board_id))
    assert len(positions) >= 6
    tiles_before = 0
    for state, highlight in positions + positions[:2]:  # the last two: all from the caches
        obs = engine.observe(state, None)
        drawn = encode.to_palette(mapview.draw_map(state.board, obs, highlight=highlight),
                                  board_id)
        shown = Image.open(io.BytesIO(render.map_png(state, highlight=highlight)))
        shown.load()
        assert shown.tobytes() == drawn.tobytes(), (state.round, highlight)
        assert shown.getpalette() == drawn.getpalette()
        tiles_before = max(tiles_before, len(mapview._tiles))
    assert tiles_before > 0  # the tiles were used (and kept) on the way


def test_overlapping_sprites_share_a_tile_and_keep_their_order() -> None:
    """Sprites whose boxes meet go into one tile, drawn in their order (a piece over its
    marker); a sprite whose box meets two groups joins them."""
    dot = Image.new("RGBA", (10, 10))
    placed = [(("a",), dot, (0, 0)), (("b",), dot, (20, 0)), (("c",), dot, (5, 5)),
              (("d",), dot, (12, 2)), (("e",), dot, (100, 100))]
    groups = mapview._groups(placed)
    assert [[w[0][0] for w in members] for _, members in groups] == [["a", "b", "c", "d"],
                                                                     ["e"]]
    assert groups[0][0] == (0, 0, 30, 15)


@pytest.mark.parametrize("viewer", [None, 0])
def test_a_map_shows_only_its_fields(busy_state, viewer) -> None:
    """A map drawn from MAP_FIELDS alone is the picture of the whole observation (the bot
    keys its picture cache by them)."""
    seat = None if viewer is None else busy_state.players[viewer]
    obs = engine.observe(busy_state, seat)
    shown = mapview.shown_on_map(obs)
    assert set(shown) < set(obs)  # some fields are left out
    for highlight in ((), (1, 4)):
        whole = mapview.map_image(busy_state.board, obs, viewer=seat, highlight=highlight)
        part = mapview.map_image(busy_state.board, shown, viewer=seat, highlight=highlight)
        assert whole.tobytes() == part.tobytes()
