"""Game rows on both databases: one open game per channel, a lobby's seats then its start,
the games a member sits in, and a league game tagged with its season in one transaction."""

from __future__ import annotations

import pytest
from store_setup import SEATS, active_game

from bot.store import ChannelBusy, GameStatus, Seat, Store, VersionConflict


async def test_one_open_game_per_channel(store: Store) -> None:
    g = await store.create_game(guild_id=1, channel_id=5, seed=1)
    with pytest.raises(ChannelBusy):
        await store.create_game(guild_id=1, channel_id=5, seed=2)
    other = await store.create_game(guild_id=1, channel_id=6, seed=3)
    assert other.channel_id == 6
    await store.set_status(g.id, GameStatus.ENDED)
    again = await store.create_game(guild_id=1, channel_id=5, seed=4)
    assert again.id != g.id
    assert (await store.open_game(5)).id == again.id
    assert (await store.get_game(g.id)).finished_at is not None


async def test_lobby_then_start(store: Store) -> None:
    g = await store.create_game(guild_id=1, channel_id=5, seed=9, options={"max_players": 3})
    assert g.status is GameStatus.LOBBY and g.players == ()
    g = await store.update_lobby(g.id, players=SEATS)
    assert g.seat_of(22) == Seat(22, "bob")
    g = await store.start_game(g.id, board="official-2p", players=SEATS[::-1], state={"x": 1})
    assert g.status is GameStatus.ACTIVE
    assert [s.name for s in g.players] == ["bob", "ann"]
    assert g.options == {"max_players": 3}
    with pytest.raises(VersionConflict):
        await store.update_lobby(g.id, players=SEATS)  # no longer a lobby
    with pytest.raises(VersionConflict):
        await store.start_game(g.id, board="official-2p", players=SEATS, state={})


async def test_games_with_user(store: Store) -> None:
    g1 = await active_game(store, channel_id=1)
    g2 = await active_game(store, channel_id=2)
    lobby = await store.create_game(guild_id=1, channel_id=3, seed=1, players=[Seat(33, "cid")])
    assert [g.id for g in await store.games_with(11)] == [g2, g1]
    assert await store.games_with(33) == []
    assert [g.id for g in await store.games_with(33, ("lobby",))] == [lobby.id]
    assert await store.games_with(99) == []


async def test_league_game_and_its_season_tag_are_one_transaction(store: Store) -> None:
    lg = await store.create_league(1, "Friday", 9)
    season = await store.start_season(lg.id, "S1", 9)
    g = await store.create_game(guild_id=1, channel_id=50, seed=1, season_id=season.id)
    assert await store.season_of_game(g.id) == (lg, season)
    with pytest.raises(ChannelBusy):  # refused: neither the game nor a tag is written
        await store.create_game(guild_id=1, channel_id=50, seed=2, season_id=season.id)
    assert await store.count_rows("games") == 1
    assert await store.count_rows("league_games") == 1
