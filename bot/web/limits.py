"""Rate limits: a token bucket per key (a member, an address)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

KEPT = 8192


class Buckets:
    """`rate` tokens a second, at most `burst` saved up, per key; the least recently used
    keys are forgotten beyond KEPT (a forgotten key starts full, which only forgives)."""

    def __init__(self, rate: float, burst: float, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.now = rate, burst, clock
        self._level: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()

    def take(self, key: Hashable, cost: float = 1.0) -> bool:
        """Spend `cost` for `key`: False (and nothing spent) when it has not enough."""
        now = self.now()
        level, then = self._level.get(key, (self.burst, now))
        level = min(self.burst, level + (now - then) * self.rate)
        ok = level >= cost
        self._level[key] = (level - cost if ok else level, now)
        self._level.move_to_end(key)
        while len(self._level) > KEPT:
            self._level.popitem(last=False)
        return ok
