"""Pillow pictures of a game state: the map, the combo row, the final reveal (PNG bytes);
and of a finished game's story: the end card and the animated replay.

Pure functions of an observation: every picture is drawn from `engine.observe(state, viewer)`
(the public view has no coins). The drawing functions take (board, observation) and return
Pillow images; the entry points below wrap them and encode PNG. The end card and the replay
take a story.Story (story.tell: the game told from its log), refuse an unfinished one, and
have their alt text beside them (end_card_alt, replay_alt).
"""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image

import engine

from .cards import draw_final, draw_row, row_image, row_on_palette
from .encode import banded_png, card_png, palette
from .geometry import board_key
from .mapview import Observation, draw_map, map_image
from .masks import board_masks
from .page import board_drawing, layer_webp, piece_png
from .replay import deeds_text, replay_alt, replay_png
from .static import layout, map_layer
from .storycard import end_card_alt, end_card_png

__all__ = ["board_drawing", "board_key", "deeds_text", "draw_final", "draw_map", "draw_row", "end_card_alt", "end_card_png",
           "final_png", "layer_webp", "map_image", "map_png", "observation_png", "piece_png",
           "replay_alt", "replay_png", "row_png", "warm"]


def warm(boards: Iterable[str | engine.data.Board] = engine.data.BOARD_IDS, *,
         highlights: bool = False) -> None:
    """Build the cached per-board layers now, e.g. at bot start (boards: ids or Boards; a
    custom Board's geometry is built here if it is in no cache yet). With `highlights`, also
    every region's highlight masks (~1 s for the four boards, or a read of the disk cache:
    render.masks; otherwise they are made with the board's first highlight)."""
    for board in boards:
        key = board if isinstance(board, str) else board_key(board)
        map_layer(key)
        layout(key)
        palette(key)
        if highlights:  # (and the combo row's palette: the same kind of work)
            row_on_palette(Image.new("RGB", (1, 1)))
            board_masks(key)


def observation_png(board: engine.data.Board, observation: Observation, *, viewer: str | None = None,
                    highlight: Iterable[int] = (), lang: str = "en") -> bytes:
    """The map PNG of an observation already taken (for callers that hold one)."""
    return banded_png(map_image(board, observation, viewer=viewer, highlight=highlight,
                                lang=lang))


def map_png(state: engine.GameState, *, viewer: str | None = None, highlight: Iterable[int] = (),
            lang: str = "en") -> bytes:
    """The map of `state` as PNG: public view (no coins) unless `viewer` names a player;
    every word in `lang` (an i18n language code)."""
    observation = engine.observe(state, viewer)
    return observation_png(state.board, observation, viewer=viewer, highlight=highlight,
                           lang=lang)


def row_png(state: engine.GameState, lang: str = "en") -> bytes:
    """The six visible combos with their tokens, cost and the coins lying on them."""
    return banded_png(row_image(engine.observe(state, None), lang))


def final_png(state: engine.GameState, regions_by_round: dict[str, list[int]] | None = None,
              lang: str = "en") -> bytes:
    """The end-of-game reveal: coins, ranking, tie-break note (only once the game is over)."""
    observation = engine.observe(state, None)
    if not observation.get("finished"):
        raise ValueError("the final scores are secret until the game is over")
    return card_png(draw_final(observation, regions_by_round, lang))
