"""Animated PNG of palette frames that change a little from one to the next (a game's maps).

Each frame after the first is stored as the rectangle that holds its changes, and inside it
only the boxes that changed carry pixels: everything else is one palette index made
transparent (tRNS), blended over the frame before (APNG's OP_OVER), so it shows that frame's
pixels. Runs of rows of that index are compressed once per process. The changed boxes come
from the caller when it knows them (render.replay: the layers two maps do not share), else
from comparing the pixels band by band.

The transparent index must be one no frame shows. Quantizing to a palette picks the first of
equal entries, so a later duplicate of a colour is never picked; `unused_index` finds one,
and render.replay checks this Pillow's choice before using it. The first frame is checked
too (one that shows it raises IndexInUse: write again with no transparent index, whole
rectangles of real pixels, bigger but right).

A frame comes as parts stacked from the top (the map, then the caption strip), 8-bit images
of one mode ("P" on the animation's palette, or "L" of its indices) of the animation's
width; every frame has parts of the same heights.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator, Sequence

from PIL import Image, ImageChops

from .encode import banded_zlib, chunk, zlib_of_pieces

BAND_ROWS = 32  # as the maps' PNG bands (encode.BAND_ROWS): rows compared at a time
SIGNATURE = b"\x89PNG\r\n\x1a\n"
Box = tuple[int, int, int, int]
Band = tuple[Box, int]  # a band's changed box (frame pixels), its part's top row


class IndexInUse(ValueError):
    """A frame shows the palette index chosen as transparent."""


def unused_index(palette: bytes) -> int | None:
    """A palette index that quantizing never picks: a later duplicate of an earlier colour."""
    seen: set[bytes] = set()
    found = None
    for i in range(len(palette) // 3):
        colour = palette[3 * i:3 * i + 3]
        if colour in seen:
            found = i
        seen.add(colour)
    return found


def _delay(ms: int) -> bytes:
    """An fcTL delay as (numerator, denominator): milliseconds, or centiseconds if too long."""
    ms = max(0, int(ms))
    return struct.pack(">HH", ms, 1000) if ms <= 0xFFFF else struct.pack(">HH", ms // 10, 100)


class AnimatedPng:
    """Frames in, one APNG out: `add(parts, delay_ms)` per frame, then `finish()`. Loops
    forever (num_plays 0). `transparent`: the palette index to leave unchanged pixels as
    (unused_index), or None to store whole rectangles."""

    def __init__(self, size: tuple[int, int], palette: bytes, n_frames: int,
                 transparent: int | None) -> None:
        self.width, self.height = size
        self.palette = palette
        self.n_frames = n_frames
        self.clear = transparent
        self.parts: list[bytes] = []
        self.previous: list[Image.Image] = []  # the last frame's parts
        self.seq = 0  # APNG sequence numbers: fcTL and fdAT chunks share one count
        self.added = 0

    def _control(self, box: Box, delay_ms: int, over: bool) -> bytes:
        x0, y0, x1, y1 = box
        body = (struct.pack(">IIIII", self.seq, x1 - x0, y1 - y0, x0, y0) + _delay(delay_ms)
                + bytes((0, 1 if over else 0)))  # dispose: none; blend: over or source
        self.seq += 1
        return chunk(b"fcTL", body)

    def _check(self, parts: Sequence[Image.Image]) -> None:
        if self.added >= self.n_frames:
            raise ValueError(f"this animation has {self.n_frames} frames")
        heights = [p.height for p in parts]
        if any(p.mode != parts[0].mode or p.mode not in ("P", "L") or p.width != self.width
               for p in parts) or \
                sum(heights) != self.height or (
                    self.previous and heights != [p.height for p in self.previous]):
            raise ValueError(f"a frame must be 8-bit parts of one mode, {self.width} wide, "
                             f"{self.height} high in all, as high as the first frame's")

    def _bands(self, parts: Sequence[Image.Image]) -> list[Band]:
        """The changes: per band of rows that changed, its box in the frame (the changed
        columns only) and its part's top row in the frame."""
        out: list[Band] = []
        y, w = 0, self.width
        for part, before in zip(parts, self.previous, strict=True):
            diff = ImageChops.difference(part, before)
            box = diff.getbbox()
            if box is not None:
                for top in range(box[1] - box[1] % BAND_ROWS, box[3], BAND_ROWS):
                    bottom = min(part.height, top + BAND_ROWS)
                    found = diff.crop((0, top, w, bottom)).getbbox()
                    if found is not None:
                        out.append(((found[0], y + top, found[2], y + bottom), y))
            y += part.height
        return out

    def _split(self, parts: Sequence[Image.Image], boxes: Iterable[Box]) -> list[Band]:
        """Boxes of the frame cut where its parts meet (each piece inside one part), clipped
        to the frame, top to bottom."""
        out: list[Band] = []
        for x0, y0, x1, y1 in boxes:
            x0, x1 = max(0, x0), min(self.width, x1)
            top = 0
            for part in parts:
                a, b = max(y0, top), min(y1, top + part.height)
                if a < b and x0 < x1:
                    out.append(((x0, a, x1, b), top))
                top += part.height
        return sorted(out, key=lambda band: band[0][1])

    def _rows(self, parts: Sequence[Image.Image], box: Box,
              bands: list[Band]) -> Iterator[bytes | tuple[bytes, int]]:
        """The rectangle `box` as PNG scanlines (filter byte 0 each), in pieces for
        encode.zlib_of_pieces: runs of transparent rows, and runs of rows that hold
        changes (`bands`: boxes that may overlap, top to bottom)."""
        x0, y0, x1, y1 = box
        width = x1 - x0 + 1
        if self.clear is None:  # every pixel of the rectangle as it is
            top = 0
            for part in parts:
                a, b = max(y0, top), min(y1, top + part.height)
                if a < b:
                    rows = Image.new(part.mode, (width, b - a), 0)
                    rows.paste(part.crop((x0, a - top, x1, b - top)), (1, 0))
                    yield rows.tobytes()
                top += part.height
            return
        blank = b"\x00" + bytes((self.clear,)) * (width - 1)
        by_top: dict[int, Image.Image] = {}
        top = 0
        for part in parts:
            by_top[top] = part
            top += part.height
        y = y0
        i = 0
        while i < len(bands):  # a run: boxes whose rows overlap or meet, as one piece
            first, last = bands[i][0][1], bands[i][0][3]
            j = i + 1
            while j < len(bands) and bands[j][0][1] <= last:
                last = max(last, bands[j][0][3])
                j += 1
            if first > y:
                yield blank, first - y
            run = Image.new(parts[0].mode, (width, last - first), self.clear)
            for (bx0, by0, bx1, by1), top in bands[i:j]:
                run.paste(by_top[top].crop((bx0, by0 - top, bx1, by1 - top)),
                          (bx0 - x0 + 1, by0 - first))
            run.paste(0, (0, 0, 1, last - first))
            yield run.tobytes()
            y, i = last, j
        if y1 > y:
            yield blank, y1 - y

    def add(self, parts: Sequence[Image.Image], delay_ms: int,
            changed: Iterable[Box] | None = None) -> None:
        """One frame: `parts` stacked from the top, shown for `delay_ms`. `changed`, if the
        caller knows it: boxes of the frame outside which no pixel differs from the last
        frame (else they are found by comparing the pixels)."""
        self._check(parts)
        if not self.previous:
            whole = Image.new(parts[0].mode, (self.width, self.height))
            y = 0
            for part in parts:
                whole.paste(part, (0, y))
                y += part.height
            if self.clear is not None and whole.histogram()[self.clear]:
                raise IndexInUse(f"the first frame shows palette index {self.clear}")
            self.parts.append(self._control((0, 0, self.width, self.height), delay_ms, False))
            # in bands, as a map is (encode.banded_zlib): the bands of rows that show only
            # the board may be kept already, by any map of that board drawn in this process
            self.parts.append(chunk(b"IDAT", banded_zlib(whole)))
        else:
            bands = self._bands(parts) if changed is None else self._split(parts, changed)
            if bands:
                box = (min(b[0][0] for b in bands), bands[0][0][1],
                       max(b[0][2] for b in bands), max(b[0][3] for b in bands))
            else:  # nothing changed: one pixel, as it was
                box = (0, 0, 1, 1)
                bands = [((0, 0, 1, 1), 0)]
            packed = zlib_of_pieces(self._rows(parts, box, bands))
            self.parts.append(self._control(box, delay_ms, self.clear is not None))
            self.parts.append(chunk(b"fdAT", struct.pack(">I", self.seq) + packed))
            self.seq += 1
        self.previous = list(parts)
        self.added += 1

    def finish(self) -> bytes:
        if self.added != self.n_frames:
            raise ValueError(f"{self.added} frames added of the {self.n_frames} announced")
        head = struct.pack(">IIBBBBB", self.width, self.height, 8, 3, 0, 0, 0)
        out = [SIGNATURE, chunk(b"IHDR", head),
               chunk(b"acTL", struct.pack(">II", self.n_frames, 0)),
               chunk(b"PLTE", self.palette)]
        if self.clear is not None:
            out.append(chunk(b"tRNS", b"\xff" * self.clear + b"\x00"))
        return b"".join([*out, *self.parts, chunk(b"IEND", b"")])


AnimationFrame = tuple[Sequence[Image.Image], int, Iterable[Box] | None]  # add()'s arguments


def animated_png(frames: Iterable[AnimationFrame], size: tuple[int, int], palette: bytes,
                 n_frames: int, transparent: int | None) -> bytes:
    """The APNG of `n_frames` frames (parts, delay ms, changed boxes or None) on one
    palette (see AnimatedPng)."""
    writer = AnimatedPng(size, palette, n_frames, transparent)
    for parts, delay, changed in frames:
        writer.add(parts, delay, changed)
    return writer.finish()
