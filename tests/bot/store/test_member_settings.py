"""The living message (its id and summary per game) and a member's turn-DM setting survive
reopening the SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import Store, open_store

ANN = 1


@pytest.fixture
async def store(tmp_path: Path):
    """A SQLite file only: the test reopens it."""
    s = await open_store(str(tmp_path / "ux.db"))
    yield s
    await s.close()


async def test_living_message_and_turn_dm_settings_persist(store: Store, tmp_path: Path
                                                           ) -> None:
    game = await store.create_game(guild_id=1, channel_id=9, seed=1)
    assert await store.game_message(game.id) is None
    await store.set_game_message(game.id, 111, "summary one")
    await store.set_game_message(game.id, 222, "summary two")
    assert await store.game_message(game.id) == (222, "summary two")
    assert await store.turn_dm(ANN) is False
    await store.set_turn_dm(ANN, True)
    await store.close()
    again = await open_store(str(tmp_path / "ux.db"))
    try:
        assert await again.turn_dm(ANN) is True
        assert await again.game_message(game.id) == (222, "summary two")
        await again.set_turn_dm(ANN, False)
        assert await again.turn_dm(ANN) is False
    finally:
        await again.close()
