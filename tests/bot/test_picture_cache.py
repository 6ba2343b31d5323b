"""bot/pictures.py's cache of drawn pictures: bounded in bytes, the least recently asked
for forgotten first, and a picture being drawn shared by everyone who asks for it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot import pictures


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every drawing started, by its key; each picture is 100 bytes."""
    started: list[str] = []

    async def draw(name: str, subject: Any, *, ahead: bool = False, **_: Any) -> bytes:
        started.append(subject)
        await asyncio.sleep(0)
        return b"x" * 100

    monkeypatch.setattr(pictures, "_render", draw)
    return started


async def test_the_cache_keeps_at_most_its_budget_in_bytes_newest_first(
        drawn: list[str]) -> None:
    cache = pictures._Cache(250)
    for key in "abcde":
        assert await cache.get(key, "map_png", key, ahead=False) == b"x" * 100
    assert cache.bytes <= 250
    assert list(cache.items) == ["d", "e"]
    await cache.get("e", "map_png", "e", ahead=False)  # kept: not drawn again
    await cache.get("a", "map_png", "a", ahead=False)  # forgotten: drawn again
    assert drawn == ["a", "b", "c", "d", "e", "a"]
    assert list(cache.items) == ["e", "a"] and cache.bytes == 200


async def test_a_picture_being_drawn_is_drawn_once_for_all_who_ask(drawn: list[str]) -> None:
    cache = pictures._Cache(1000)
    got = await asyncio.gather(*(cache.get("k", "map_png", "k", ahead=False) for _ in range(3)))
    assert got == [b"x" * 100] * 3 and drawn == ["k"]
