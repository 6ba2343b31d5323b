"""Fixtures shared by the bot tests: a store on each database (a SQLite file, then a fresh
database on a real PostgreSQL server; tests/conftest.py `db_url`) and a game service on it."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.game.service import GameService
from bot.store import Store, open_store


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    """The store under test, on SQLite and on PostgreSQL (each test runs on both)."""
    s = await open_store(db_url)
    yield s
    await s.close()


@pytest.fixture
async def service(store: Store) -> GameService:
    """A game service on the store, with a seeded random source (same games every run)."""
    return GameService(store, rng=random.Random(0))


@pytest.fixture
async def started() -> AsyncIterator[GameService]:
    """ann (user 1) and bob (user 2) in a started game in channel 1 (seed 5), on an
    in-memory SQLite store (the same game every run)."""
    store = await open_store(":memory:")
    svc = GameService(store, rng=random.Random(1))
    await svc.open_lobby(guild_id=1, channel_id=1, user_id=1, name="ann", seed=5)
    await svc.join(1, 2, "bob")
    await svc.start(1, 1)
    try:
        yield svc
    finally:
        await store.close()
