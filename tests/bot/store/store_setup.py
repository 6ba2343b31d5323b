"""Helpers of the store tests (imported by name, as tests/e2e's driver is): two seats, an
active game on a store, and a plain action to append."""

from __future__ import annotations

from bot.store import Seat, Store

SEATS = (Seat(11, "ann"), Seat(22, "bob"))


async def active_game(store: Store, channel_id: int = 100) -> int:
    """A started 2-player game (snapshot 0 is {"v": 0}); -> its id."""
    game = await store.create_game(guild_id=1, channel_id=channel_id, seed=7, opener_id=11)
    game = await store.update_lobby(game.id, players=SEATS)
    await store.start_game(game.id, board="official-2p", players=SEATS, state={"v": 0})
    return game.id


def act(n: int) -> dict:
    return {"do": "conquer", "player": "ann", "region": n}
