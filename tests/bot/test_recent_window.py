"""GameService reads the latest few actions first when it looks back over the current turn
(bot/game/recent.py `RecentLog.rows`): its answers must be exactly those of reading far back."""

from __future__ import annotations

import random

import pytest

import engine
from bot.game import recent as service_mod
from bot.game.service import GameService
from bot.store import open_store


async def _answers(svc: GameService, game_id: int, user_of: dict[str, int],
                   since: int) -> tuple:
    loaded = await svc.view(1)
    actor = loaded.state.actor
    undo = await svc.undoable(1, user_of[actor]) if actor else 0
    return (undo, await svc.turn_conquests(game_id),
            await svc.turn_story(game_id, since), await svc.turn_story(game_id))


async def test_a_short_window_answers_like_the_long_one(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    store = await open_store(":memory:")
    svc = GameService(store, rng=random.Random(1))
    try:
        await svc.open_lobby(guild_id=1, channel_id=1, user_id=1, name="ann", seed=11)
        await svc.join(1, 2, "bob")
        await svc.join(1, 3, "cid")
        await svc.start(1, 1)
        user_of = {"ann": 1, "bob": 2, "cid": 3}
        rng = random.Random(4)
        longer, checked = 0, 0
        for _ in range(160):
            loaded = await svc.view(1)
            if loaded.state.finished:
                break
            legal = [a.model_dump(mode="json") for a in engine.legal_actions(loaded.state)]
            busy = [a for a in legal if a["do"] in ("conquer", "pick", "deploy", "move")]
            action = rng.choice(busy if busy and rng.random() < 0.85 else legal)
            out = await svc.act(1, user_of[loaded.state.actor], action)
            game_id = out.game.id
            since = max(1, out.version - rng.randrange(8))
            monkeypatch.setattr(service_mod, "RECENT_FIRST", 3)  # most questions need more
            short = await _answers(svc, game_id, user_of, since)
            monkeypatch.setattr(service_mod, "RECENT_FIRST", 10_000)
            full = await _answers(svc, game_id, user_of, since)
            assert short == full, f"after action {out.version}"
            checked += 1
            longer += out.version > 3
        assert checked > 100 and longer > 90
    finally:
        await store.close()
