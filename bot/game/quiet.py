"""Quiet hours: a member's nightly window, in her own time zone, when the bot neither reminds
her nor sends her turn DM, and a deadline of hers that would run out in it moves to its end.

A window is local wall-clock time ("23:00-07:00") in an IANA zone (zoneinfo; the tzdata
package supplies the zones where the system has none), so it follows daylight-saving time:
on the night the clocks change the window is an hour shorter or longer in real time, and a
window end that falls in the skipped hour ends when the clocks jump past it. Pure: no store,
no clock of its own (times are unix seconds passed in).
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

_RANGE = re.compile(r"^\s*(\d{1,2})(?::?(\d{2}))?\s*-\s*(\d{1,2})(?::?(\d{2}))?\s*$")
DAY = 24 * 60


class QuietError(ValueError):
    """Quiet hours we cannot read: a catalog key and its params (the reply words it)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key, self.params = key, params


@functools.cache
def zone_names() -> tuple[str, ...]:
    """Every IANA zone name zoneinfo knows, sorted (the /sw-me quiet autocomplete)."""
    return tuple(sorted(z for z in zoneinfo.available_timezones() if "/" in z or z == "UTC"))


def find_zones(typed: str, limit: int = 25) -> list[str]:
    """Zones whose name contains what was typed (any case; spaces as underscores), the ones
    that start with it first."""
    needle = typed.strip().casefold().replace(" ", "_")
    if not needle:
        return ["UTC", "Europe/London", "Europe/Berlin", "America/New_York",
                "America/Los_Angeles", "Asia/Tokyo"][:limit]
    starts = [z for z in zone_names() if z.casefold().startswith(needle)
              or z.casefold().split("/")[-1].startswith(needle)]
    rest = [z for z in zone_names() if needle in z.casefold() and z not in starts]
    return (starts + rest)[:limit]


def zone_of(name: str) -> zoneinfo.ZoneInfo:
    """The IANA zone called `name` (QuietError "quiet.bad_zone" if there is none)."""
    name = name.strip()
    if not name or name not in zone_names():
        raise QuietError("quiet.bad_zone", zone=name[:40])
    return zoneinfo.ZoneInfo(name)


def _minutes(hours: str, minutes: str | None, text: str) -> int:
    h, m = int(hours), int(minutes or 0)
    if h == 24 and m == 0:
        return 0
    if not (0 <= h <= 23 and 0 <= m <= 59):
        raise QuietError("quiet.bad_time", value=text[:40])
    return h * 60 + m


@dataclass(frozen=True, slots=True)
class QuietHours:
    """A nightly window of local time [start, end) in `zone` (minutes after midnight; a
    window that crosses midnight has start > end)."""

    start: int
    end: int
    zone: str

    @classmethod
    def parse(cls, text: str, zone: str) -> QuietHours:
        """From "23:00-07:00" (or "23-7", "2300-0700") and a zone name; QuietError else."""
        m = _RANGE.match(text or "")
        if m is None:
            raise QuietError("quiet.bad_range", value=(text or "")[:40])
        start = _minutes(m.group(1), m.group(2), text)
        end = _minutes(m.group(3), m.group(4), text)
        if start == end:
            raise QuietError("quiet.empty", value=text[:40])
        zone_of(zone)
        return cls(start, end, zone.strip())

    @classmethod
    def stored(cls, quiet: str | None, zone: str | None) -> QuietHours | None:
        """A member's stored quiet hours (None: none, or no longer readable)."""
        if not quiet or not zone:
            return None
        try:
            return cls.parse(quiet, zone)
        except QuietError:
            return None

    @property
    def text(self) -> str:
        return f"{self.start // 60:02d}:{self.start % 60:02d}-{self.end // 60:02d}:{self.end % 60:02d}"

    @property
    def tz(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.zone)

    def _local(self, t: float) -> datetime:
        return datetime.fromtimestamp(t, UTC).astimezone(self.tz)

    def contains(self, t: float) -> bool:
        """Whether the instant `t` falls in the window (by the wall clock there then)."""
        local = self._local(t)
        m = local.hour * 60 + local.minute
        if self.start < self.end:
            return self.start <= m < self.end
        return m >= self.start or m < self.end

    def _instant(self, day: date, minutes: int) -> float:
        """The first instant at which the wall clock there shows `day` at `minutes` or later
        (a time the clocks skipped: the instant they jumped past it)."""
        wall = datetime.combine(day, time(minutes // 60, minutes % 60), tzinfo=self.tz)
        t = wall.timestamp()  # fold=0: the earlier of a repeated hour
        if self._local(t).replace(tzinfo=None) == wall.replace(tzinfo=None):
            return t
        # skipped: the jump lies between the two readings of that wall time; find it
        lo = wall.replace(fold=1).timestamp()
        hi = t
        lo, hi = min(lo, hi), max(lo, hi)
        target = wall.replace(tzinfo=None)
        while hi - lo > 1:
            mid = (lo + hi) / 2
            if self._local(mid).replace(tzinfo=None) >= target:
                hi = mid
            else:
                lo = mid
        return float(round(hi))

    def end_after(self, t: float) -> float:
        """The end of the window `t` falls in (`t` itself when it is not quiet then)."""
        if not self.contains(t):
            return t
        local = self._local(t)
        day = local.date()
        m = local.hour * 60 + local.minute
        if self.start > self.end and m >= self.start:  # before midnight: ends tomorrow
            day += timedelta(days=1)
        return self._instant(day, self.end)

    def shift(self, t: float) -> float:
        """A deadline at `t`, moved to the window's end if it would run out in it."""
        return self.end_after(t)
