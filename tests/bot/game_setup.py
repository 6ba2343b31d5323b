"""A started game for the bot tests that need one: a lobby in channel CH opened by ann, joined
by bob (and cid), then started."""

from __future__ import annotations

from bot.game.service import GameService

CH = 4242
ANN, BOB, CID = 1, 2, 3


async def started(service: GameService, n: int = 3, seed: int = 5):
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann", players=n,
                             seed=seed)
    for uid, name in ((BOB, "bob"), (CID, "cid"))[: n - 1]:
        await service.join(CH, uid, name)
    return await service.start(CH, ANN)
