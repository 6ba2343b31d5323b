"""Pillow pictures of a game state: the map, the combo row, the final reveal (PNG bytes).

Pure functions of an observation: every picture is drawn from `engine.observe(state, viewer)`
(the public view has no coins). The drawing functions take (board, observation) and return
Pillow images; the entry points below wrap them and encode PNG.
"""

from __future__ import annotations

from collections.abc import Iterable

import engine

from .cards import draw_final, draw_row
from .encode import png_bytes, to_palette
from .mapview import draw_map

__all__ = ["draw_final", "draw_map", "draw_row", "final_png", "map_png", "observation_png",
           "row_png", "warm"]


def warm(board_ids: Iterable[str] = engine.data.BOARD_IDS) -> None:
    """Build the cached per-board layers now (about a second per board), e.g. at bot start."""
    from .encode import palette
    from .static import layout, map_layer

    for board_id in board_ids:
        map_layer(board_id)
        layout(board_id)
        palette(board_id)


def observation_png(board, observation: dict, *, viewer: str | None = None,
                    highlight: Iterable[int] = ()) -> bytes:
    """The map PNG of an observation already taken (for callers that hold one)."""
    im = draw_map(board, observation, viewer=viewer, highlight=highlight)
    return png_bytes(to_palette(im, board.id))


def map_png(state, *, viewer: str | None = None, highlight: Iterable[int] = ()) -> bytes:
    """The map of `state` as PNG: public view (no coins) unless `viewer` names a player."""
    observation = engine.observe(state, viewer)
    return observation_png(state.board, observation, viewer=viewer, highlight=highlight)


def row_png(state) -> bytes:
    """The six visible combos with their tokens, cost and the coins lying on them."""
    return png_bytes(draw_row(engine.observe(state, None)))


def final_png(state, regions_by_round: dict[str, list[int]] | None = None) -> bytes:
    """The end-of-game reveal: coins, ranking, tie-break note (only once the game is over)."""
    observation = engine.observe(state, None)
    if not observation.get("finished"):
        raise ValueError("the final scores are secret until the game is over")
    return png_bytes(draw_final(observation, regions_by_round))
