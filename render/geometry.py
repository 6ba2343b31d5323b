"""The drawn shape of each board, and where a board's pictures are cached.

Official boards: data/geometry/<board>.json, written by scripts/build_geometry.py. Any other
Board (a scenario's inline "map") gets the same builder (render/builder.py, with raster.py,
embedding.py and placement.py) at runtime; the result is kept in memory per board content and
on disk in the cache directory.

Every per-board cache in render/ is keyed by `board_key(board)`: the official id when the
board's content equals an official board, else "custom-<content digest>".
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import zlib
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageFilter

from engine import data

from . import builder

GEOMETRY_DIR = data.DATA_DIR / "geometry"
CACHE_ENV = "SMALLWORLD_RENDER_CACHE"  # a directory; "" or "off" disables the disk cache
# the modules a built geometry depends on: a change to any of them rebuilds cached ones
BUILDER_SOURCES = ("builder.py", "raster.py", "embedding.py", "placement.py")


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
    slots: dict[int, builder.RegionSlots]
    kind: str = "tiles"  # "tiles": regions tile the map; "discs": the fallback layout
    discs: dict[int, tuple[float, float, float]] | None = None
    # drawn-size labels with rounded stair steps (precomputed), zlib-compressed: read only to
    # draw the static layer, mostly found in the disk cache instead (~1 MB a board unpacked)
    smooth: bytes | None = None
    source: str = ""  # digest of the whole geometry record (labels, slots, smoothing)

    @property
    def size(self) -> tuple[int, int]:
        return (self.width * self.scale, self.height * self.scale)

    def label_image(self) -> Image.Image:
        """The raster as an "L" image at raster size."""
        return Image.frombytes("L", (self.width, self.height), self.labels)

    def drawn_labels(self) -> Image.Image:
        """The labels at drawn size with the raster's stair steps rounded off ("L")."""
        if self.smooth is not None:
            smooth = zlib.decompress(self.smooth)
            if len(smooth) == self.size[0] * self.size[1]:
                return Image.frombytes("L", self.size, smooth)
        return smooth_labels(self.label_image(), self.size)

    @property
    def digest(self) -> str:
        """Changes whenever anything drawn from this geometry would change."""
        return self.source or hashlib.sha1(self.labels).hexdigest()[:16]


def smooth_labels(raster: Image.Image, size: tuple[int, int]) -> Image.Image:
    """Upscale a label raster to drawn size and round its corners (a 5x5 mode filter)."""
    return raster.resize(size, Image.Resampling.NEAREST).filter(ImageFilter.ModeFilter(5))


def with_smooth(raw: builder.GeometryFile) -> builder.GeometryFile:
    """Add the precomputed "smooth" field to a builder dict (the mode filter is the slowest
    step of drawing a static layer, so it is done once, when the geometry is made)."""
    labels = zlib.decompress(base64.b64decode(raw["labels"]))
    raster = Image.frombytes("L", (raw["width"], raw["height"]), labels)
    size = (raw["width"] * raw["scale"], raw["height"] * raw["scale"])
    smooth = smooth_labels(raster, size).tobytes()
    raw["smooth"] = base64.b64encode(zlib.compress(smooth, 9)).decode("ascii")
    return raw


def cache_dir() -> Path | None:
    """Where built geometry and static layers of this process are kept (None: nowhere)."""
    env = os.environ.get(CACHE_ENV)
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "none") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "smallworld-render"


def read_cache(name: str) -> bytes | None:
    d = cache_dir()
    if d is None:
        return None
    try:
        return (d / name).read_bytes()
    except OSError:
        return None


def write_cache(name: str, blob: bytes) -> None:
    """Best effort, atomic (write then rename): a failure only costs a rebuild later."""
    d = cache_dir()
    if d is None:
        return
    try:
        d.mkdir(parents=True, exist_ok=True)
        tmp = d / f".{name}.{os.getpid()}.tmp"
        tmp.write_bytes(blob)
        tmp.replace(d / name)
    except OSError:
        pass


@cache
def source_digest(*modules: str) -> str:
    """A digest of render/ source files: cached pictures are redrawn when the code changes."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha1()
    for m in modules:
        h.update((here / m).read_bytes())
    return h.hexdigest()[:10]


def content_digest(board: data.Board) -> str:
    """Digest of what the pictures depend on: regions, grid and player count (the seed)."""
    blob = board.model_dump(mode="json", include={"players", "regions", "grid"})
    raw = json.dumps(blob, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha1(raw).hexdigest()[:16]


@cache
def _official_digests() -> dict[str, str]:
    return {content_digest(data.board(b)): b for b in data.BOARD_IDS}


_BOARDS: dict[str, data.Board] = {}


@lru_cache(maxsize=256)
def board_key(board: data.Board) -> str:
    """The cache key of a board: its official id if its content is official, else a digest."""
    digest = content_digest(board)
    official = _official_digests().get(digest)
    if official is not None:
        return official
    key = f"custom-{digest}"
    _BOARDS[key] = board
    return key


def board_of(key: str) -> data.Board:
    """The Board behind a key from board_key (official ids work directly)."""
    board = _BOARDS.get(key)
    return board if board is not None else data.board(key)


def _triple(v: list[float]) -> tuple[float, float, float]:
    x, y, z = v
    return (x, y, z)


def _parse(raw: builder.GeometryFile, blob: bytes) -> Geometry:
    labels = zlib.decompress(base64.b64decode(raw["labels"]))
    if len(labels) != raw["width"] * raw["height"]:
        raise ValueError(f"{raw['board']}: label raster has the wrong size")
    discs = raw.get("discs")
    return Geometry(
        board=raw["board"],
        width=raw["width"],
        height=raw["height"],
        scale=raw["scale"],
        labels=labels,
        anchors={int(k): tuple(_triple(s) for s in v) for k, v in raw["anchors"].items()},
        min_contact=raw["min_contact"],
        slots={int(k): v for k, v in raw.get("slots", {}).items()},
        kind=raw.get("kind", "tiles"),
        discs={int(k): _triple(v) for k, v in discs.items()} if discs else None,
        smooth=base64.b64decode(raw["smooth"]) if "smooth" in raw else None,
        source=hashlib.sha1(blob).hexdigest()[:16],
    )


@lru_cache(maxsize=32)
def geometry(key: str) -> Geometry:
    """The geometry of a board key: the committed file, else the disk cache, else built now."""
    path = GEOMETRY_DIR / f"{key}.json"
    if key in data.BOARD_IDS and path.exists():
        blob = path.read_bytes()
        return _parse(json.loads(blob), blob)
    name = f"geometry-{key}-{source_digest(*BUILDER_SOURCES)}.json"
    cached = read_cache(name)
    if cached is not None:
        try:
            return _parse(json.loads(cached), cached)
        except (ValueError, KeyError, zlib.error):
            pass
    raw = with_smooth(builder.build(board_of(key)))
    blob = json.dumps(raw, separators=(",", ":")).encode()
    write_cache(name, blob)
    return _parse(raw, blob)


def board_geometry(board: data.Board) -> Geometry:
    return geometry(board_key(board))
