"""`/sw status` (bot/game/reading.py) after the game tells the result."""

from __future__ import annotations

from pathlib import Path

import pytest
from game_setup import CH, started

from bot.game.service import GameService
from bot.store import open_store


@pytest.fixture
async def store(tmp_path: Path):
    """A SQLite file only (the shared `service` fixture runs on it)."""
    s = await open_store(str(tmp_path / "ux.db"))
    yield s
    await s.close()


async def test_status_after_the_game_tells_the_result(service: GameService) -> None:
    out = await started(service, n=2)
    for _ in range(200):
        outcome = await service.skip(CH, 500)
        if outcome.finished:
            break
    assert outcome.finished
    _, lines = await service.status(CH)
    assert lines[0].startswith(f"Game #{out.game.id} is over")
    assert lines[1] == "**Final scores**" and lines[2].startswith("1. **")
