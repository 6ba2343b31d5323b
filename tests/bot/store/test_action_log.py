"""A game's action log on both databases: appends under the version compare-and-swap,
snapshots at turn boundaries, loading from the latest snapshot, undo truncating the tail,
the final ranking, and the (version, revision) mark a cache of the log relies on."""

from __future__ import annotations

import pytest
from store_setup import act, active_game

from bot.store import GameStatus, Store, VersionConflict, open_store


async def test_append_and_log_from_last_snapshot(store: Store) -> None:
    gid = await active_game(store)
    await store.append(gid, 1, act(1), actor_id=11, player="ann", events=[{"type": "a"}])
    await store.append(
        gid, 2, act(2), actor_id=11, player="ann", ends_turn=True, snapshot={"v": 2}
    )
    await store.append(gid, 3, act(3), actor_id=22, player="bob", reveals=True)
    log = await store.log(gid)
    assert log.game.version == 3
    assert log.snapshot_seq == 2 and log.snapshot == {"v": 2}
    assert [a.seq for a in log.actions] == [3]
    assert log.actions[0].action == act(3) and log.actions[0].reveals
    # an earlier cut uses the earlier snapshot
    log1 = await store.log(gid, upto=1)
    assert log1.snapshot_seq == 0 and log1.snapshot == {"v": 0}
    assert [a.action for a in log1.actions] == [act(1)]
    assert log1.actions[0].events == [{"type": "a"}]
    assert [a.seq for a in await store.recent_actions(gid, 2)] == [2, 3]


async def test_append_refuses_wrong_version_and_writes_nothing(store: Store) -> None:
    gid = await active_game(store)
    await store.append(gid, 1, act(1), actor_id=11, player="ann")
    with pytest.raises(VersionConflict):
        await store.append(gid, 1, act(9), actor_id=11, player="ann", snapshot={"bad": 1})
    with pytest.raises(VersionConflict):
        await store.append(gid, 3, act(9), actor_id=11, player="ann")
    assert [a.action for a in await store.actions(gid)] == [act(1)]
    assert await store.snapshot_seqs(gid) == [0]
    assert (await store.get_game(gid)).version == 1


async def test_append_refused_when_game_not_active(store: Store) -> None:
    gid = await active_game(store)
    await store.set_status(gid, GameStatus.ENDED)
    with pytest.raises(VersionConflict):
        await store.append(gid, 1, act(1), actor_id=11, player="ann")
    assert await store.actions(gid) == []


async def test_append_can_finish_the_game(store: Store) -> None:
    gid = await active_game(store)
    await store.append(gid, 1, act(1), actor_id=11, player="ann", status=GameStatus.FINISHED)
    g = await store.get_game(gid)
    assert g.status is GameStatus.FINISHED and g.finished_at is not None
    assert await store.open_game(100) is None


async def test_undo_truncates_tail_and_later_snapshots(store: Store) -> None:
    gid = await active_game(store)
    for seq in range(1, 6):
        await store.append(
            gid, seq, act(seq), actor_id=11, player="ann",
            snapshot={"v": seq} if seq in (2, 4) else None,
        )
    assert await store.snapshot_seqs(gid) == [0, 2, 4]
    removed = await store.truncate(gid, 3)
    assert removed == 2
    assert [a.seq for a in await store.actions(gid)] == [1, 2, 3]
    assert await store.snapshot_seqs(gid) == [0, 2]
    log = await store.log(gid)
    assert log.game.version == 3 and log.snapshot_seq == 2
    assert [a.seq for a in log.actions] == [3]
    # the log continues from the cut
    await store.append(gid, 4, act(40), actor_id=11, player="ann")
    assert (await store.actions(gid, after=3))[0].action == act(40)


async def test_truncate_checks_expected_version(store: Store) -> None:
    gid = await active_game(store)
    await store.append(gid, 1, act(1), actor_id=11, player="ann")
    with pytest.raises(VersionConflict):
        await store.truncate(gid, 0, expected=5)
    assert (await store.get_game(gid)).version == 1


async def test_final_ranking_from_the_last_event_or_snapshot(store: Store) -> None:
    gid = await active_game(store)
    assert await store.final_ranking(gid) is None
    ranking = [{"player": "ann", "rank": 1, "total": 30}]
    await store.append(gid, 1, act(1), actor_id=11, player="ann",
                       events=[{"type": "game_over", "ranking": ranking}],
                       status=GameStatus.FINISHED)
    assert await store.final_ranking(gid) == ranking


async def test_append_returns_the_row_a_read_returns_and_the_log_revision(db_url: str) -> None:
    """What a cache of the latest actions relies on: append hands back the row exactly as a
    read parses it, and every write of the log (append, undo) moves the revision, so an undo
    followed by new actions never looks like the log it replaced."""
    s = await open_store(db_url)
    try:
        gid = await active_game(s)
        assert await s.log_mark(gid) == (0, 0)
        events = [{"type": "conquered", "player": "ann", "region": 1, "z": [1, 2]}]
        row, revision = await s.append(gid, 1, {"region": 1, "do": "conquer", "player": "ann"},
                                       actor_id=11, player="ann", events=events, reveals=True)
        assert [row] == await s.recent_actions(gid, 5) and revision == 1
        assert await s.log_mark(gid) == (1, 1) == (
            (g := await s.get_game(gid)).version, g.revision)
        await s.append(gid, 2, act(2), actor_id=11, player="ann")
        await s.truncate(gid, 1, expected=2)
        assert await s.log_mark(gid) == (1, 3)
        row2, revision = await s.append(gid, 2, act(3), actor_id=11, player="ann")
        assert (row2.action["region"], revision) == (3, 4)
        assert await s.log_mark(gid) == (2, 4)  # version 2 again, another log: another mark
        await s.set_options(gid, {"x": 1})  # not a write of the log
        assert await s.log_mark(gid) == (2, 4) and await s.log_mark(gid + 99) is None
    finally:
        await s.close()
