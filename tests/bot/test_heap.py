"""bot/heap.py: what exists when a process settles is set aside from the collector; what is
made later is still collected."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from bot import heap


class _Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def unfrozen() -> Iterator[None]:
    try:
        yield
    finally:
        gc.unfreeze()  # this test process keeps collecting everything


def test_settle_sets_the_survivors_aside_and_later_garbage_is_still_collected(
        unfrozen: None) -> None:
    kept = _Cycle()
    frozen = heap.settle("test")
    assert frozen == gc.get_freeze_count() > 1000
    assert not any(o is kept for o in gc.get_objects())  # no longer walked by a pass

    later = _Cycle()
    gone = weakref.ref(later)
    del later
    gc.collect()
    assert gone() is None


def test_trim_gives_the_allocators_free_pages_back() -> None:
    """On glibc (this project's hosts) trim calls malloc_trim; freed buffers of a picture's
    size leave the process's resident memory."""
    def resident_kb() -> int:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))

    blocks = [bytearray(64 * 1024) for _ in range(800)]  # 50 MB below the mmap threshold
    for b in blocks:
        b[::4096] = b"\x01" * len(b[::4096])  # touched: resident
    del blocks[:-1]  # all but the heap's top block: the allocator cannot shrink by itself
    before = resident_kb()
    assert heap.trim()
    assert resident_kb() < before - 20_000
