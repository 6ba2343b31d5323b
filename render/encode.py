"""PNG encoding: the map goes out as a palette image (small, fast) with a per-board palette,
encoded in bands so that the next map of a game reuses the rows its turn did not change."""

from __future__ import annotations

import io
import struct
import zlib
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Protocol

from PIL import Image

from . import sprites, theme
from .geometry import read_cache, write_cache
from .static import layer_cache_name, map_layer


class _Packer(Protocol):
    """A deflate compressor (zlib's or ISA-L's Compress object)."""

    def compress(self, data: bytes, /) -> bytes: ...

    def flush(self, mode: int, /) -> bytes: ...


try:  # ISA-L's deflate, for the bands of maps: see COMPRESS_LEVEL
    from isal import isal_zlib
    from isal.isal_zlib import DEFLATED, Z_FULL_FLUSH, adler32, crc32

    def _packer() -> _Packer:
        """Raw deflate (no zlib header or checksum) at COMPRESS_LEVEL."""
        return isal_zlib.compressobj(COMPRESS_LEVEL, DEFLATED, -15)
except ImportError:  # pragma: no cover - a platform without its wheels: zlib does the same
    from zlib import DEFLATED, Z_FULL_FLUSH, adler32, crc32

    def _packer() -> _Packer:
        """Raw deflate (no zlib header or checksum) at COMPRESS_LEVEL."""
        return zlib.compressobj(COMPRESS_LEVEL, DEFLATED, -15)


# deflate level for the pictures. zlib: 3 encodes in half the time of 6 for ~15% more bytes,
# and 1 in 3/4 of the time of 3 for ~9% more (5p map ~240 KB, far under Discord's limits; PNG
# is lossless, so the picture is the same). Encoding is most of a map's cost
# (bench/render.py), and a map is drawn for every turn: CPU per action is what limits a
# machine (issue #11). The map's bands are deflated by ISA-L (isal) where it is installed
# (the default): at its level 1, 41 us a band of 32 rows where zlib took 120, and 3% fewer
# bytes; its checksums 2.6 us a band against 17 (measured on a 2-player map).
COMPRESS_LEVEL = 1
CARD_COLOURS = 128  # the row and final cards: flat fills and text, few colours needed
Colour = tuple[int, int, int]


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    r, g, bl = (round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    return r, g, bl


def reserved_colours() -> list[Colour]:
    """Colours the dynamic layer draws with, plus steps of their anti-aliasing blends."""
    out: list[Colour] = []
    dark, white = (20, 16, 12), (255, 255, 255)
    for c in (*theme.PLAYER_COLOURS, theme.DECLINE_FILL, theme.LOST_TRIBE, theme.PARCHMENT):
        out.append(c)
        out += [_mix(c, dark, t) for t in (0.25, 0.5, 0.75)]
        out += [_mix(c, white, t) for t in (0.3, 0.6)]
    out += [_mix(dark, white, t / 7) for t in range(8)]
    out += [(136, 60, 196), (230, 210, 255), (236, 190, 40), (128, 104, 84), (24, 18, 14),
            (90, 96, 106), (122, 78, 38), (200, 150, 90), (160, 40, 30), sprites.CREAM,
            (200, 50, 40), (40, 70, 150), (250, 210, 60), (96, 120, 70), (150, 150, 140),
            (236, 236, 236), (120, 120, 128), (150, 110, 70), (232, 216, 170), (110, 80, 50),
            (200, 170, 120), (250, 240, 214), theme.INK, (90, 70, 50)]
    seen: list[Colour] = []
    for c in out:
        if c not in seen:
            seen.append(c)
    return seen


@lru_cache(maxsize=12)
def palette(key: str) -> Image.Image:
    """A 256-colour palette: the static map's own colours plus the reserved ones (kept in
    the disk cache next to the static layer)."""
    reserved = reserved_colours()
    name = "palette-" + layer_cache_name(key)[len("static-"):-len(".png")] + ".rgb"
    flat = read_cache(name)
    if flat is None or len(flat) != 768:
        # the colours of a half-size copy: the same palette for a quarter of the work
        q = map_layer(key).reduce(2).quantize(256 - len(reserved),
                                               method=Image.Quantize.MEDIANCUT)
        head = (q.getpalette() or [])[: 3 * (256 - len(reserved))]
        flat = bytes(head + [v for c in reserved for v in c])
        write_cache(name, flat)
    pal = Image.new("P", (1, 1))
    pal.putpalette(list(flat))
    return pal


def palette_index(pal: Image.Image, colour: Colour) -> int:
    """The index a pixel of `colour` is mapped to on palette `pal` (the same as any pixel of
    that colour in a picture mapped to it)."""
    return Image.new("RGB", (1, 1), colour).quantize(
        palette=pal, dither=Image.Dither.NONE).tobytes()[0]


def to_palette(im: Image.Image, key: str) -> Image.Image:
    """`im` on the palette of a board (`key`: render.geometry.board_key, official id works)."""
    return im.quantize(palette=palette(key), dither=Image.Dither.NONE)


def card_png(im: Image.Image) -> bytes:
    """A card picture (combo row, final reveal) as a small palette PNG: quantizing flat fills
    and text to CARD_COLOURS costs less than it saves in encoding, and the file is 1/3."""
    return png_bytes(im.convert("RGB").quantize(CARD_COLOURS, method=Image.Quantize.FASTOCTREE,
                                                dither=Image.Dither.NONE))


def png_bytes(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG", compress_level=COMPRESS_LEVEL)
    return buf.getvalue()


# -- the map, encoded in bands ----------------------------------------------------------------
# Between two turns of a game about a quarter of the map's rows change (tokens of a few
# regions, the players' panel). The map's zlib stream is made of independently compressed
# bands of BAND_ROWS rows (each ends in a full flush, so it refers to no earlier byte); a band
# whose rows are unchanged since some earlier map drawn in this process reuses its compressed
# bytes. Same pixels as png_bytes, a PNG any decoder reads, ~1/3 of the encoding time for the
# next map of a game (bench/render.py prints both).
BAND_ROWS = 32
BAND_CACHE_BYTES = 8 * 1024 * 1024  # compressed bands kept per process (~35 five-player maps)
_bands: OrderedDict[bytes, bytes] = OrderedDict()
_band_bytes = 0


def clear_bands() -> None:
    """Forget the bands kept so far (benchmarks: time an encoding with nothing to reuse)."""
    global _band_bytes
    _bands.clear()
    _band_bytes = 0


def bands_kept() -> int:
    """How many compressed bands this process keeps (a new band adds one)."""
    return len(_bands)


@contextmanager
def no_bands_kept() -> Iterator[None]:
    """Encode as a process that kept no band yet; the bands kept before come back after."""
    global _bands, _band_bytes
    saved = _bands, _band_bytes
    _bands, _band_bytes = OrderedDict(), 0
    try:
        yield
    finally:
        _bands, _band_bytes = saved


def chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, kind, data, CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _adler_after(adler: int, band_adler: int, n: int) -> int:
    """The Adler-32 of a stream whose Adler-32 was `adler`, then a band of `n` bytes whose own
    Adler-32 is `band_adler` (zlib's adler32_combine, which Python's zlib does not offer)."""
    a = ((adler & 0xFFFF) + (band_adler & 0xFFFF) - 1) % 65521
    b = ((adler >> 16) + (band_adler >> 16) + n * ((adler & 0xFFFF) - 1)) % 65521
    return (b << 16) | a


def _deflated(rows: bytes) -> bytes:
    """`rows` as raw deflate blocks ending in a full flush (referring to no earlier byte)."""
    packer = _packer()
    return packer.compress(rows) + packer.flush(Z_FULL_FLUSH)


def _band(rows: bytes, band_adler: int) -> bytes:
    global _band_bytes
    key = crc32(rows).to_bytes(4, "big") + len(rows).to_bytes(4, "big") + \
        band_adler.to_bytes(4, "big")
    found = _bands.get(key)
    if found is not None:
        _bands.move_to_end(key)
        return found
    found = _bands[key] = _deflated(rows)
    _band_bytes += len(found)
    while _band_bytes > BAND_CACHE_BYTES:
        _band_bytes -= len(_bands.popitem(last=False)[1])
    return found


@lru_cache(maxsize=256)
def _repeated(row: bytes, n: int) -> tuple[bytes, int, int]:
    """(deflated, Adler-32, length) of `row` repeated `n` times (an animation's transparent
    rows recur in a few lengths: compressed once per process)."""
    rows = row * n
    return _deflated(rows), adler32(rows), len(rows)


def zlib_of_pieces(pieces: Iterable[bytes | tuple[bytes, int]]) -> bytes:
    """One zlib stream of pieces of data, each compressed on its own: bytes, or (row, n)
    for a row repeated n times (kept compressed: such runs recur)."""
    parts, adler = [b"\x78\x01"], 1  # zlib header: deflate, 32K window, fastest
    for piece in pieces:
        if isinstance(piece, tuple):
            packed, piece_adler, size = _repeated(*piece)
        else:
            packed, piece_adler, size = _deflated(piece), adler32(piece), len(piece)
        adler = _adler_after(adler, piece_adler, size)
        parts.append(packed)
    parts.append(b"\x03\x00")  # an empty final block (fixed Huffman): the stream ends here
    parts.append(struct.pack(">I", adler))
    return b"".join(parts)


def banded_zlib(im: Image.Image) -> bytes:
    """The zlib stream of an 8-bit image's rows ("P" or "L": palette indices) as PNG stores
    them: bands of BAND_ROWS rows, each compressed on its own and kept, so that a band whose
    rows some earlier picture of this process had is not compressed again."""
    # each row as PNG stores it: a filter byte (0, none) and the row; one paste lays them out
    width, height = im.size
    filtered = Image.new(im.mode, (width + 1, height), 0)
    filtered.paste(im, (1, 0))  # P onto P (or L onto L): the indices as they are
    raw, stride = filtered.tobytes(), width + 1
    parts, adler = [b"\x78\x01"], 1  # zlib header: deflate, 32K window, fastest
    for top in range(0, height, BAND_ROWS):
        rows = raw[top * stride:min(height, top + BAND_ROWS) * stride]
        band_adler = adler32(rows)  # checks the band's key and sums the stream
        adler = _adler_after(adler, band_adler, len(rows))
        parts.append(_band(rows, band_adler))
    parts.append(b"\x03\x00")  # an empty final block (fixed Huffman): the stream ends here
    parts.append(struct.pack(">I", adler))
    return b"".join(parts)


def banded_png(im: Image.Image) -> bytes:
    """A palette image ("P", 8 bits, no transparency) as PNG, its unchanged bands reused."""
    if im.mode != "P" or "transparency" in im.info or im.palette is None:
        return png_bytes(im)
    rawmode, colours = im.palette.getdata()
    if rawmode != "RGB":
        return png_bytes(im)
    width, height = im.size
    head = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((b"\x89PNG\r\n\x1a\n", chunk(b"IHDR", head), chunk(b"PLTE", colours),
                     chunk(b"IDAT", banded_zlib(im)),
                     chunk(b"IEND", b"")))
