"""What the web board draws with: the same board, layer and pieces as the pictures.

The page (bot/web) shows the map's static layer (terrain, symbols, region numbers: the very
pixels under the pieces of every chat map) as its background, lays each region's traced
outline over it, and puts token tags and pieces where the pictures put them. Each entry
point returns bytes, ready to serve, so the bot can have them made in a drawing worker.
"""

from __future__ import annotations

import io
import json

from .geometry import board_of, geometry
from .outline import outlines
from .sprites import PIECES, piece
from .static import layout, map_layer

LAYER_QUALITY = 80  # WebP: ~110 KB for the 5-player board, no visible loss at 1x
PIECE_SIZE = 38  # drawn pixels, as on the maps


def board_drawing(key: str) -> bytes:
    """The board's drawing data as JSON (docs/web.md "Board data"): size, the layer's
    address (with a digest, so a changed layer is fetched again) and per region its
    outline, terrain, symbols, neighbours and spots."""
    board = board_of(key)
    geo = geometry(key)
    spots = layout(key)
    paths = outlines(key)
    layer = map_layer(key)
    regions = []
    for region in board.regions:
        sp = spots.get(region.id)
        if sp is None or region.id not in paths:
            continue
        regions.append({
            "id": region.id, "terrain": region.terrain, "path": paths[region.id],
            "marker": [round(c, 1) for c in sp.marker],
            "label": [round(c, 1) for c in sp.label],
            "pieces": [[round(c, 1) for c in p] for p in sp.pieces],
            "neighbours": list(region.neighbours), "entry": region.entry,
            "symbols": list(region.symbols),
        })
    out = {"key": key, "width": layer.width, "height": layer.height,
           "layer": f"/board/{key}.webp?v={geo.digest}", "regions": regions}
    return json.dumps(out, separators=(",", ":")).encode()


def layer_webp(key: str) -> bytes:
    """The static map layer as WebP (the page's background)."""
    buf = io.BytesIO()
    map_layer(key).save(buf, "WEBP", quality=LAYER_QUALITY, method=6)
    return buf.getvalue()


def piece_png(kind: str) -> bytes:
    """One piece's picture, as the maps draw it (KeyError: no such piece)."""
    if kind not in PIECES:
        raise KeyError(kind)
    buf = io.BytesIO()
    piece(kind, 1, PIECE_SIZE).save(buf, "PNG", optimize=True)
    return buf.getvalue()
