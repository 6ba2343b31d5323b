"""pytest fixtures for the fake Discord (imported by tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from .server import FakeDiscord


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord with discord.py pointed at it.

    At teardown the fake is stopped; an internal error of the fake, or a REST call it
    does not implement (unless `fake.strict = False`), fails the test.
    """
    fake = FakeDiscord()
    await fake.start()
    try:
        with fake.patch_discord():
            yield fake
    finally:
        await fake.stop()
    assert not fake.errors, f"fake discord internal errors: {fake.errors!r}"
    assert not (fake.strict and fake.unhandled), (
        f"the bot called REST routes the fake does not implement: {fake.unhandled}")
