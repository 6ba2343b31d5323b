"""Finished games' reviews in the store, on SQLite and PostgreSQL: kept once per finished
game, read back as written, refused for a game not finished, gone with the game, and the
recent finished games without one listed newest first for the backfill."""

from __future__ import annotations

import json

from store_setup import active_game

from bot.store import GameStatus, Store


async def _finished(store: Store, channel_id: int) -> int:
    gid = await active_game(store, channel_id)
    await store.set_status(gid, GameStatus.FINISHED)
    return gid


async def test_a_review_round_trips_once_per_finished_game(store: Store) -> None:
    running = await active_game(store, 100)
    first = await _finished(store, 101)
    second = await _finished(store, 102)
    doc = json.dumps({"chances": [{"ann": 0.25, "bob": 0.75}], "note": "ß ✓"})
    assert not await store.save_review(running, doc)  # not over: nothing kept
    assert await store.game_review(running) is None
    assert await store.save_review(first, doc)
    assert await store.game_review(first) == doc
    assert not await store.save_review(first, "{}")  # the first review stays
    assert await store.game_review(first) == doc
    assert not await store.save_review(99999, doc)  # no such game
    left = await store.unreviewed_games(10)
    assert [g.id for g in left] == [second]
    assert await store.save_review(second, doc)
    assert await store.unreviewed_games(10) == []


async def test_unreviewed_games_are_the_newest_first_and_bounded(store: Store) -> None:
    ids = [await _finished(store, 200 + k) for k in range(5)]
    got = [g.id for g in await store.unreviewed_games(3)]
    assert len(got) == 3 and set(got) <= set(ids)
    stamps = {g.id: g.finished_at for g in await store.unreviewed_games(5)}
    assert [stamps[i] for i in got] == sorted((stamps[i] for i in got), reverse=True)


async def test_a_review_goes_with_its_game(store: Store) -> None:
    gid = await _finished(store, 300)
    assert await store.save_review(gid, "{}")
    await store.execute("DELETE FROM games WHERE id = ?", gid)
    assert await store.game_review(gid) is None
