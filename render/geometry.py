"""The drawn shape of each board: data/geometry/<board>.json (scripts/build_geometry.py)."""

from __future__ import annotations

import base64
import json
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image

GEOMETRY_DIR = Path(__file__).resolve().parents[1] / "data" / "geometry"


@dataclass(frozen=True)
class Geometry:
    """A label raster (pixel = region id) plus per-region spots, in drawn pixels."""

    board: str
    width: int  # raster size
    height: int
    scale: int  # drawn size = raster size * scale
    labels: bytes
    anchors: dict[int, tuple[tuple[float, float, float], ...]]
    min_contact: int

    @property
    def size(self) -> tuple[int, int]:
        return (self.width * self.scale, self.height * self.scale)

    def label_image(self) -> Image.Image:
        """The raster as an "L" image at raster size."""
        return Image.frombytes("L", (self.width, self.height), self.labels)


@cache
def geometry(board_id: str) -> Geometry:
    raw = json.loads((GEOMETRY_DIR / f"{board_id}.json").read_text(encoding="utf-8"))
    labels = zlib.decompress(base64.b64decode(raw["labels"]))
    if len(labels) != raw["width"] * raw["height"]:
        raise ValueError(f"{board_id}: label raster has the wrong size")
    return Geometry(
        board=raw["board"],
        width=raw["width"],
        height=raw["height"],
        scale=raw["scale"],
        labels=labels,
        anchors={int(k): tuple(tuple(s) for s in v) for k, v in raw["anchors"].items()},
        min_contact=raw["min_contact"],
    )
