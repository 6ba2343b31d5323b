"""A board's region masks, and the highlight masks of turn maps (the band inside a region's
border), made once per board and kept small.

Eroding a region into its highlight is most of a highlight's cost (about 11 ms a region), so
the masks are made for every region of a board at once, the first time one of them is
wanted, and written to the disk cache (render.geometry.cache_dir): a later drawing process
reads them back instead of eroding again. In memory they stay compressed (a mask is mostly
empty: about 1/20 of its pixels), and only the last HELD are kept as images.
"""

from __future__ import annotations

import struct
import zlib
from functools import lru_cache

from PIL import Image, ImageChops, ImageFilter

from .geometry import board_of, geometry, read_cache, source_digest, write_cache
from .static import MARGIN

PAD = 6  # pixels of margin around a region's box
HELD = 48  # highlight masks kept as images (the regions of the turn maps being drawn)
_ENTRY = struct.Struct(">HhhHHII")  # region, offset x/y, width, height, bytes of ring/edge

Offset = tuple[int, int]
Packed = tuple[Offset, tuple[int, int], bytes, bytes]  # offset, size, ring, edge (zlib)


def region_mask(key: str, rid: int) -> tuple[Offset, Image.Image]:
    """(offset, mask) of one region at drawn size, cropped to its box (frame included)."""
    geo = geometry(key)
    lab = geo.label_image().point([255 if i == rid else 0 for i in range(256)])
    lab = lab.resize(geo.size, Image.Resampling.NEAREST)
    box = lab.getbbox()
    if box is None:
        raise ValueError(f"board {key} draws no pixel of region {rid}")
    x0, y0, x1, y1 = box
    x0, y0 = max(0, x0 - PAD), max(0, y0 - PAD)
    x1, y1 = min(lab.width, x1 + PAD), min(lab.height, y1 + PAD)
    return (x0 + MARGIN, y0 + MARGIN), lab.crop((x0, y0, x1, y1))


def _eroded(key: str, rid: int) -> tuple[Offset, Image.Image, Image.Image]:
    """(offset, ring, edge) of a highlighted region: `ring` is the band 5 px deep inside its
    border (drawn dark), `edge` that band less its outer 2 px (drawn in the highlight colour).
    A 3x3 minimum filter applied k times is the (2k+1)x(2k+1) one, pixel for pixel, at a
    fraction of the cost."""
    offset, mask = region_mask(key, rid)
    eroded = mask
    steps = []
    for _ in range(5):
        eroded = eroded.filter(ImageFilter.MinFilter(3))
        steps.append(eroded)
    ring = ImageChops.subtract(mask, steps[4])  # 11x11 erosion
    core = ImageChops.subtract(mask, steps[1])  # 5x5 erosion
    return offset, ring, ImageChops.subtract(ring, core)


def _pack(masks: dict[int, Packed]) -> bytes:
    parts = []
    for rid, ((ox, oy), (w, h), ring, edge) in sorted(masks.items()):
        parts += [_ENTRY.pack(rid, ox, oy, w, h, len(ring), len(edge)), ring, edge]
    return b"".join(parts)


def _unpack(blob: bytes, n_regions: int) -> dict[int, Packed] | None:
    """The masks of a board from the disk cache; None when the file is not whole."""
    masks: dict[int, Packed] = {}
    at = 0
    try:
        while at < len(blob):
            rid, ox, oy, w, h, n_ring, n_edge = _ENTRY.unpack_from(blob, at)
            at += _ENTRY.size
            ring, edge = blob[at:at + n_ring], blob[at + n_ring:at + n_ring + n_edge]
            at += n_ring + n_edge
            if len(edge) != n_edge:
                return None
            masks[rid] = ((ox, oy), (w, h), ring, edge)
    except struct.error:
        return None
    return masks if sorted(masks) == list(range(n_regions)) else None


@lru_cache(maxsize=12)
def board_masks(key: str) -> dict[int, Packed]:
    """Every region's highlight masks of a board, compressed: from the disk cache, else made
    now (and written there)."""
    geo = geometry(key)
    n = len(board_of(key).regions)
    name = f"highlights-{key}-{geo.digest[:8]}-{source_digest('masks.py', 'static.py')}.bin"
    blob = read_cache(name)
    found = _unpack(blob, n) if blob is not None else None
    if found is not None:
        return found
    made: dict[int, Packed] = {}
    for rid in range(n):
        offset, ring, edge = _eroded(key, rid)
        made[rid] = (offset, ring.size, zlib.compress(ring.tobytes(), 6),
                     zlib.compress(edge.tobytes(), 6))
    write_cache(name, _pack(made))
    return made


@lru_cache(maxsize=HELD)
def highlight_masks(key: str, rid: int) -> tuple[Offset, Image.Image, Image.Image]:
    """(offset, ring, edge) of a highlighted region (see _eroded), from board_masks."""
    offset, size, ring, edge = board_masks(key)[rid]
    return (offset, Image.frombytes("L", size, zlib.decompress(ring)),
            Image.frombytes("L", size, zlib.decompress(edge)))
