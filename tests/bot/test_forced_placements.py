"""Placements without a choice (bot/game/moves.py only_placement): survivors with one way to
go are placed by the bot, logged as its own actions."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from game_setup import ANN, BOB, CH, CID

import engine
from bot.game.moves import only_placement as _only_placement
from bot.game.service import GameService
from bot.store import Store, open_store


@pytest.fixture
async def store(tmp_path: Path):
    """A SQLite file only (the shared `service` fixture runs on it)."""
    s = await open_store(str(tmp_path / "ux.db"))
    yield s
    await s.close()


async def test_survivors_with_one_way_to_go_are_placed_by_the_bot(service: GameService,
                                                                  store: Store) -> None:
    """After every accepted action, the game never waits on a placement without a choice;
    such placements are logged as the bot's own (no member id)."""
    autos = 0
    for seed in (1, 2, 3, 4):
        channel = CH + seed
        await service.open_lobby(guild_id=1, channel_id=channel, user_id=ANN, name="ann",
                                 players=3, seed=seed)
        await service.join(channel, BOB, "bob")
        await service.join(channel, CID, "cid")
        out = await service.start(channel, ANN)
        rng = random.Random(seed)
        for _ in range(400):
            loaded = await service.last_view(channel)
            state = loaded.state
            if state.finished:
                break
            assert _only_placement(state) is None
            legal = [a.model_dump(mode="json") for a in engine.legal_actions(state)]
            obs = engine.observe(state, None)
            hostile = [a for a in legal if a["do"] == "conquer" and
                       obs["regions"].get(str(a["region"]), {}).get("owner")
                       not in (None, state.actor)]
            pool = hostile or [a for a in legal if a["do"] in ("conquer", "pick")] or legal
            await service.act(channel, loaded.game.seat_named(state.actor).user_id,
                              rng.choice(pool))
        rows = await store.actions(out.game.id)
        for row in rows:
            if row.actor_id is None:
                autos += 1
                assert row.action["do"] in ("deploy", "end")
                assert any(e.get("survivors") or e["type"] == "survivors_done"
                           for e in row.events)
    assert autos > 0
