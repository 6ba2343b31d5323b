"""A started game for the bot tests that need one: a lobby in channel CH opened by ann, joined
by bob (and cid), then started."""

from __future__ import annotations

from typing import Any

from bot.game.results import Outcome
from bot.game.service import GameService

CH = 4242
ANN, BOB, CID = 1, 2, 3


async def started(service: GameService, n: int = 3, seed: int = 5):
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann", players=n,
                             seed=seed)
    for uid, name in ((BOB, "bob"), (CID, "cid"))[: n - 1]:
        await service.join(CH, uid, name)
    return await service.start(CH, ANN)


async def act_as_actor(service: GameService, action: dict[str, Any], channel: int = 1
                       ) -> Outcome:
    """`action` played in `channel` by whoever must act there now (their seat's member)."""
    loaded = await service.view(channel)
    user = loaded.game.seat_named(loaded.state.actor).user_id
    return await service.act(channel, user, {**action, "player": loaded.state.actor})
