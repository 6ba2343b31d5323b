"""Quiet hours follow the member's wall clock, daylight-saving nights included: the window's
end is found in her zone's time, not at a fixed offset from UTC. Expected instants are worked
out by hand from the zones' rules (Europe/Oslo: CET +01:00, CEST +02:00 from 2027-03-28
01:00 UTC, back on 2027-10-31 01:00 UTC; America/New_York: EST -05:00, EDT -04:00 from
2027-03-14 07:00 UTC)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.game.quiet import QuietError, QuietHours, find_zones


def utc(*args: int) -> float:
    return datetime(*args, tzinfo=UTC).timestamp()


def test_a_window_across_midnight_on_an_ordinary_night() -> None:
    q = QuietHours.parse("23:00-07:00", "Europe/Oslo")
    assert q.text == "23:00-07:00"
    # 2027-01-15 is winter (CET, +01:00): 23:00 local = 22:00 UTC, 07:00 local = 06:00 UTC
    assert not q.contains(utc(2027, 1, 15, 21, 59))
    assert q.contains(utc(2027, 1, 15, 22, 0))
    assert q.end_after(utc(2027, 1, 15, 22, 30)) == utc(2027, 1, 16, 6, 0)
    assert q.end_after(utc(2027, 1, 16, 3, 0)) == utc(2027, 1, 16, 6, 0)
    assert q.end_after(utc(2027, 1, 16, 6, 0)) == utc(2027, 1, 16, 6, 0)  # over: unchanged
    assert q.shift(utc(2027, 1, 16, 12, 0)) == utc(2027, 1, 16, 12, 0)


def test_oslo_spring_forward_night() -> None:
    q = QuietHours.parse("23:00-07:00", "Europe/Oslo")
    # 2027-03-27 23:00 CET = 22:00 UTC; the clocks jump at 01:00 UTC; 07:00 CEST = 05:00 UTC
    due = utc(2027, 3, 28, 2, 30)  # 04:30 CEST: inside
    assert q.contains(due)
    assert q.shift(due) == utc(2027, 3, 28, 5, 0)  # not 06:00 as a fixed +01:00 would say
    # a window that ends in the skipped hour ends when the clocks jump past it
    gap = QuietHours.parse("01:00-02:30", "Europe/Oslo")
    assert gap.shift(utc(2027, 3, 28, 0, 15)) == utc(2027, 3, 28, 1, 0)


def test_oslo_fall_back_night() -> None:
    q = QuietHours.parse("23:00-07:00", "Europe/Oslo")
    # 2027-10-30 23:00 CEST = 21:00 UTC; back to CET at 01:00 UTC; 07:00 CET = 06:00 UTC
    assert q.contains(utc(2027, 10, 30, 21, 0))
    assert q.shift(utc(2027, 10, 31, 4, 0)) == utc(2027, 10, 31, 6, 0)
    # a window ending in the repeated hour ends the first time the clock shows it
    twice = QuietHours.parse("00:00-02:30", "Europe/Oslo")
    assert twice.shift(utc(2027, 10, 30, 23, 0)) == utc(2027, 10, 31, 0, 30)


def test_new_york_spring_forward_night() -> None:
    q = QuietHours.parse("22:00-06:00", "America/New_York")
    # 2027-03-13 22:00 EST = 2027-03-14 03:00 UTC; jump at 07:00 UTC; 06:00 EDT = 10:00 UTC
    assert q.contains(utc(2027, 3, 14, 3, 0)) and not q.contains(utc(2027, 3, 14, 2, 59))
    assert q.shift(utc(2027, 3, 14, 8, 0)) == utc(2027, 3, 14, 10, 0)  # EST would say 11:00
    # the same wall-clock window a week before ends an hour later in UTC
    assert q.shift(utc(2027, 3, 7, 8, 0)) == utc(2027, 3, 7, 11, 0)


def test_a_daytime_window_and_other_spellings() -> None:
    q = QuietHours.parse("9-17", "UTC")
    assert (q.start, q.end) == (9 * 60, 17 * 60)
    assert q.shift(utc(2027, 5, 1, 16, 59)) == utc(2027, 5, 1, 17, 0)
    assert not q.contains(utc(2027, 5, 1, 8, 59))
    assert QuietHours.parse("2300-0700", "Asia/Tokyo").text == "23:00-07:00"
    assert QuietHours.parse(" 23:30 - 24:00 ", "UTC").end == 0


@pytest.mark.parametrize(("text", "zone", "key"), [
    ("soon", "UTC", "quiet.bad_range"),
    ("23:00", "UTC", "quiet.bad_range"),
    ("25:00-07:00", "UTC", "quiet.bad_time"),
    ("23:61-07:00", "UTC", "quiet.bad_time"),
    ("07:00-07:00", "UTC", "quiet.empty"),
    ("23:00-07:00", "Mars/Olympus_Mons", "quiet.bad_zone"),
    ("23:00-07:00", "", "quiet.bad_zone"),
])
def test_bad_input_is_refused_with_a_key(text: str, zone: str, key: str) -> None:
    with pytest.raises(QuietError) as err:
        QuietHours.parse(text, zone)
    assert err.value.key == key


def test_zone_autocomplete() -> None:
    assert find_zones("oslo")[0] == "Europe/Oslo"
    assert "America/New_York" in find_zones("new york")
    assert len(find_zones("a")) == 25 and find_zones("")[0] == "UTC"
    assert find_zones("nowhere-at-all") == []
    assert QuietHours.stored("23:00-07:00", "Atlantis/Nowhere") is None
