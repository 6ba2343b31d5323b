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
