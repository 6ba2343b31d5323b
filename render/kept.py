"""Parts of pictures a drawing process keeps for its next pictures (a map's panel strips and
token tiles on the board's palette, a combo row's pieces, the markers), compressed and
within a budget of bytes.

A part is mostly parchment, flat fills or transparency: compressed it takes about a tenth
of its bytes, and compressing it once and unpacking it at each use costs a fraction of
drawing it again (text layout, supersampled sprites, the palette mapping). The least
recently used are forgotten first. A part taken back has the same pixels (for a palette
image the same indices: its palette is the board's or the row's anyway, and it is only
ever pasted onto a picture on that palette)."""

from __future__ import annotations

import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable

from PIL import Image

LEVEL = 1  # zlib: parts are small and kept a while; the fastest level packs them ~10x


class Kept:
    """Images by what they show, compressed, at most `budget` bytes of them."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.bytes = 0
        self.hits = 0  # parts taken back (tests: the kept parts are used)
        self._items: OrderedDict[Hashable, tuple[str, tuple[int, int], bytes]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable, make: Callable[[], Image.Image]) -> Image.Image:
        """The part kept under `key`, or make() now and keep it."""
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
            self.hits += 1
            mode, size, packed = found
            return Image.frombytes(mode, size, zlib.decompress(packed))
        made = make()
        packed = zlib.compress(made.tobytes(), LEVEL)
        self._items[key] = (made.mode, made.size, packed)
        self.bytes += len(packed)
        while self.bytes > self.budget and self._items:
            _, (_, _, old) = self._items.popitem(last=False)
            self.bytes -= len(old)
        return made

    def clear(self) -> None:
        self._items.clear()
        self.bytes = 0
