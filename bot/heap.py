"""The garbage collector of a long-lived process: what start-up made is set aside.

CPython's full collection walks every object that can hold others; in the bot that is about
150 000 of them, nearly all made by start-up (modules, functions, discord.py's and
pydantic's classes, the boards), and a walk took 100-250 ms on a loaded two-core host, a
pause that any click answered at that moment waited out (bench/bot.py's p99). `settle` runs
one full collection and then freezes the survivors (gc.freeze): later collections walk only
what was made after, the games' live objects. Nothing is leaked that was not kept anyway:
the frozen objects are the ones start-up keeps for the life of the process.

What is left still costs: measured in bench/bot.py (50 games, 10 against AIs, 2 cores) a full
collection of the bot walked ~40 000 live objects (the engine's shared actions and their
field sets are about half) in 50-140 ms, three times in three minutes, and the event loop
waited it out. Not changed: the two settings tried in the bench (a young generation of
20 000 objects; no full collection while the games ran) gave end-turn p99s of 123 and 105 ms,
inside the bench's run-to-run spread that day (89-135 ms), and the bot grew 16 MB; fewer live
objects in the bot was not tried.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


def _libc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, where the C library has it."""
    with contextlib.suppress(OSError, AttributeError, TypeError):
        found: Callable[[int], int] = ctypes.CDLL(ctypes.util.find_library("c")).malloc_trim
        return found
    return None


_TRIM = _libc_trim()


def trim() -> bool:
    """Give the memory the C allocator keeps free back to the system (glibc's malloc_trim:
    Pillow frees a picture's buffers, but the allocator keeps the pages for its next
    picture). About a millisecond; False where there is no such call."""
    if _TRIM is None:
        return False
    _TRIM(0)
    return True


def settle(what: str = "process") -> int:
    """Collect, then set every surviving object aside from later collections; returns how
    many objects were set aside (all frozen so far)."""
    started = time.perf_counter()
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    log.debug("%s: %d objects set aside from the collector in %.0f ms", what, frozen,
              (time.perf_counter() - started) * 1000)
    return frozen
