"""bot.store against a real SQLite file and a real PostgreSQL server (the `store` fixture runs
each test on both): migrations, the log, snapshots, undo, durability, the version check."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.store import (
    TABLES,
    ActionRow,
    ChannelBusy,
    GameStatus,
    Seat,
    Store,
    VersionConflict,
    _migrations,
    database_path,
    dialect_of,
    open_store,
)

SEATS = (Seat(11, "ann"), Seat(22, "bob"))


@pytest.fixture
async def store(db_url: str):
    s = await open_store(db_url)
    yield s
    await s.close()


@pytest.fixture
async def sqlite_store(tmp_path: Path):
    s = await open_store(f"sqlite:///{tmp_path / 'sw.db'}")
    yield s
    await s.close()


async def _active_game(store: Store, channel_id: int = 100) -> int:
    game = await store.create_game(guild_id=1, channel_id=channel_id, seed=7, opener_id=11)
    game = await store.update_lobby(game.id, players=SEATS)
    await store.start_game(game.id, board="official-2p", players=SEATS, state={"v": 0})
    return game.id


def _act(n: int) -> dict:
    return {"do": "conquer", "player": "ann", "region": n}


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("sqlite:///smallworld.db", "smallworld.db"),
        ("sqlite:////var/lib/sw.db", "/var/lib/sw.db"),
        ("sqlite+aiosqlite:///data/x.db", "data/x.db"),
        ("sqlite:///:memory:", ":memory:"),
        (":memory:", ":memory:"),
        ("games.sqlite", "games.sqlite"),
    ],
)
def test_database_path(url: str, path: str) -> None:
    assert database_path(url) == path


def test_database_path_rejects_other_schemes() -> None:
    with pytest.raises(ValueError, match="sqlite"):
        database_path("mysql://localhost/sw")


@pytest.mark.parametrize(
    ("url", "dialect"),
    [("postgresql://u@h/db", "postgresql"), ("postgres://h/db", "postgresql"),
     ("postgresql+asyncpg://h/db", "postgresql"), ("sqlite:///x.db", "sqlite"),
     ("x.db", "sqlite"), (":memory:", "sqlite")],
)
def test_dialect_of(url: str, dialect: str) -> None:
    assert dialect_of(url) == dialect


def test_both_dialects_have_the_same_numbered_migrations() -> None:
    lite = [(n, name) for n, name, _ in _migrations("sqlite")]
    pg = [(n, name) for n, name, _ in _migrations("postgresql")]
    assert lite == pg, "every migration needs a bot/migrations/postgresql/ twin of that name"


async def test_both_dialects_have_the_same_columns(tmp_path: Path, pg_url: str) -> None:
    lite = await open_store(str(tmp_path / "c.db"))
    pg = await open_store(pg_url)
    try:
        for table in TABLES:
            assert await lite.columns(table) == await pg.columns(table), table
    finally:
        await lite.close()
        await pg.close()


async def test_migrations_applied_once_everywhere(db_url: str) -> None:
    n_migrations = len(_migrations())
    s = await open_store(db_url)
    assert await s.schema_version() == n_migrations
    assert await s.migrate() == []
    await s.close()
    s = await open_store(db_url)
    rows = await s.fetchall("SELECT version FROM schema_version ORDER BY version")
    await s.close()
    assert [r[0] for r in rows] == list(range(1, n_migrations + 1))


async def test_migrations_applied_once_and_tracked(tmp_path: Path) -> None:
    url = str(tmp_path / "m.db")
    n_migrations = len(_migrations())
    assert n_migrations >= 1
    s = await open_store(url)
    assert await s.schema_version() == n_migrations
    assert await s.migrate() == []  # nothing left to apply
    await s.close()
    s = await open_store(url)  # reopening applies nothing twice
    assert await s.schema_version() == n_migrations
    await s.close()
    con = sqlite3.connect(url)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    rows = con.execute("SELECT version FROM schema_version").fetchall()
    con.close()
    assert {"games", "actions", "snapshots", "schema_version"} <= tables
    assert [r[0] for r in rows] == list(range(1, n_migrations + 1))


async def test_wal_mode(sqlite_store: Store, tmp_path: Path) -> None:
    assert await sqlite_store.journal_mode() == "wal"
    await _active_game(sqlite_store)
    assert (tmp_path / "sw.db-wal").exists()


async def test_memory_database_works() -> None:
    s = await open_store(":memory:")
    gid = await _active_game(s)
    await s.append(gid, 1, _act(1), actor_id=11, player="ann")
    assert (await s.get_game(gid)).version == 1
    await s.close()


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


async def test_append_and_log_from_last_snapshot(store: Store) -> None:
    gid = await _active_game(store)
    await store.append(gid, 1, _act(1), actor_id=11, player="ann", events=[{"type": "a"}])
    await store.append(
        gid, 2, _act(2), actor_id=11, player="ann", ends_turn=True, snapshot={"v": 2}
    )
    await store.append(gid, 3, _act(3), actor_id=22, player="bob", reveals=True)
    log = await store.log(gid)
    assert log.game.version == 3
    assert log.snapshot_seq == 2 and log.snapshot == {"v": 2}
    assert [a.seq for a in log.actions] == [3]
    assert log.actions[0].action == _act(3) and log.actions[0].reveals
    # an earlier cut uses the earlier snapshot
    log1 = await store.log(gid, upto=1)
    assert log1.snapshot_seq == 0 and log1.snapshot == {"v": 0}
    assert [a.action for a in log1.actions] == [_act(1)]
    assert log1.actions[0].events == [{"type": "a"}]
    assert [a.seq for a in await store.recent_actions(gid, 2)] == [2, 3]


async def test_append_refuses_wrong_version_and_writes_nothing(store: Store) -> None:
    gid = await _active_game(store)
    await store.append(gid, 1, _act(1), actor_id=11, player="ann")
    with pytest.raises(VersionConflict):
        await store.append(gid, 1, _act(9), actor_id=11, player="ann", snapshot={"bad": 1})
    with pytest.raises(VersionConflict):
        await store.append(gid, 3, _act(9), actor_id=11, player="ann")
    assert [a.action for a in await store.actions(gid)] == [_act(1)]
    assert await store.snapshot_seqs(gid) == [0]
    assert (await store.get_game(gid)).version == 1


async def test_append_refused_when_game_not_active(store: Store) -> None:
    gid = await _active_game(store)
    await store.set_status(gid, GameStatus.ENDED)
    with pytest.raises(VersionConflict):
        await store.append(gid, 1, _act(1), actor_id=11, player="ann")
    assert await store.actions(gid) == []


async def test_append_can_finish_the_game(store: Store) -> None:
    gid = await _active_game(store)
    await store.append(gid, 1, _act(1), actor_id=11, player="ann", status=GameStatus.FINISHED)
    g = await store.get_game(gid)
    assert g.status is GameStatus.FINISHED and g.finished_at is not None
    assert await store.open_game(100) is None


async def test_undo_truncates_tail_and_later_snapshots(store: Store) -> None:
    gid = await _active_game(store)
    for seq in range(1, 6):
        await store.append(
            gid, seq, _act(seq), actor_id=11, player="ann",
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
    await store.append(gid, 4, _act(40), actor_id=11, player="ann")
    assert (await store.actions(gid, after=3))[0].action == _act(40)


async def test_truncate_checks_expected_version(store: Store) -> None:
    gid = await _active_game(store)
    await store.append(gid, 1, _act(1), actor_id=11, player="ann")
    with pytest.raises(VersionConflict):
        await store.truncate(gid, 0, expected=5)
    assert (await store.get_game(gid)).version == 1


async def test_games_with_user(store: Store) -> None:
    g1 = await _active_game(store, channel_id=1)
    g2 = await _active_game(store, channel_id=2)
    lobby = await store.create_game(guild_id=1, channel_id=3, seed=1, players=[Seat(33, "cid")])
    assert [g.id for g in await store.games_with(11)] == [g2, g1]
    assert await store.games_with(33) == []
    assert [g.id for g in await store.games_with(33, ("lobby",))] == [lobby.id]
    assert await store.games_with(99) == []


async def test_committed_action_survives_a_crash(db_url: str) -> None:
    """A process that appends and dies without closing loses nothing it committed."""
    db = db_url
    s = await open_store(str(db))
    gid = await _active_game(s)
    await s.close()
    script = textwrap.dedent(
        f"""
        import asyncio, os
        from bot.store import open_store
        async def main():
            s = await open_store({str(db)!r})
            await s.append({gid}, 1, {{"do": "end", "player": "ann"}}, actor_id=11,
                           player="ann", snapshot={{"v": 1}})
            os._exit(3)  # no close, no checkpoint
        asyncio.run(main())
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert proc.returncode == 3, proc.stderr.decode()
    s = await open_store(str(db))
    log = await s.log(gid)
    actions = await s.actions(gid)
    await s.close()
    assert log.game.version == 1
    assert log.snapshot == {"v": 1}
    assert [a.action for a in actions] == [{"do": "end", "player": "ann"}]


async def test_visible_to_a_second_connection_before_close(tmp_path: Path) -> None:
    db = tmp_path / "two.db"
    s = await open_store(str(db))
    gid = await _active_game(s)
    await s.append(gid, 1, _act(1), actor_id=11, player="ann")
    con = sqlite3.connect(db)
    rows = con.execute("SELECT seq, action FROM actions WHERE game_id = ?", (gid,)).fetchall()
    con.close()
    await s.close()
    assert [r[0] for r in rows] == [1]


async def test_concurrent_appends_from_two_connections_apply_once(db_url: str) -> None:
    """Two stores (two processes' worth of connections) race to append the same version:
    exactly one wins, the other is refused and writes nothing."""
    import asyncio

    a = await open_store(db_url)
    b = await open_store(db_url)
    try:
        gid = await _active_game(a)
        for seq in range(1, 21):
            results = await asyncio.gather(
                a.append(gid, seq, _act(seq), actor_id=11, player="ann", snapshot={"a": seq}),
                b.append(gid, seq, _act(-seq), actor_id=22, player="bob", snapshot={"b": seq}),
                return_exceptions=True,
            )
            refused = [r for r in results if isinstance(r, VersionConflict)]
            stored = [r for r in results if not isinstance(r, BaseException)]
            assert len(refused) == 1 and len(stored) == 1, results
            winner = 0 if not isinstance(results[0], BaseException) else 1
            row, revision = stored[0]
            assert isinstance(row, ActionRow) and row.seq == seq
            assert row.actor_id == (11, 22)[winner] and revision == seq
            snap = await a.snapshot(gid, seq)
            assert snap == ({"a": seq} if winner == 0 else {"b": seq})
        actions = await a.actions(gid)
        assert [x.seq for x in actions] == list(range(1, 21))
        assert (await b.get_game(gid)).version == 20
    finally:
        await a.close()
        await b.close()


async def test_league_game_and_its_season_tag_are_one_transaction(store: Store) -> None:
    lg = await store.create_league(1, "Friday", 9)
    season = await store.start_season(lg.id, "S1", 9)
    g = await store.create_game(guild_id=1, channel_id=50, seed=1, season_id=season.id)
    assert await store.season_of_game(g.id) == (lg, season)
    with pytest.raises(ChannelBusy):  # refused: neither the game nor a tag is written
        await store.create_game(guild_id=1, channel_id=50, seed=2, season_id=season.id)
    assert await store.count_rows("games") == 1
    assert await store.count_rows("league_games") == 1


async def test_final_ranking_from_the_last_event_or_snapshot(store: Store) -> None:
    gid = await _active_game(store)
    assert await store.final_ranking(gid) is None
    ranking = [{"player": "ann", "rank": 1, "total": 30}]
    await store.append(gid, 1, _act(1), actor_id=11, player="ann",
                       events=[{"type": "game_over", "ranking": ranking}],
                       status=GameStatus.FINISHED)
    assert await store.final_ranking(gid) == ranking


async def test_append_returns_the_row_a_read_returns_and_the_log_revision(db_url: str) -> None:
    """What a cache of the latest actions relies on: append hands back the row exactly as a
    read parses it, and every write of the log (append, undo) moves the revision, so an undo
    followed by new actions never looks like the log it replaced."""
    s = await open_store(db_url)
    try:
        gid = await _active_game(s)
        assert await s.log_mark(gid) == (0, 0)
        events = [{"type": "conquered", "player": "ann", "region": 1, "z": [1, 2]}]
        row, revision = await s.append(gid, 1, {"region": 1, "do": "conquer", "player": "ann"},
                                       actor_id=11, player="ann", events=events, reveals=True)
        assert [row] == await s.recent_actions(gid, 5) and revision == 1
        assert await s.log_mark(gid) == (1, 1) == (
            (g := await s.get_game(gid)).version, g.revision)
        await s.append(gid, 2, _act(2), actor_id=11, player="ann")
        await s.truncate(gid, 1, expected=2)
        assert await s.log_mark(gid) == (1, 3)
        row2, revision = await s.append(gid, 2, _act(3), actor_id=11, player="ann")
        assert (row2.action["region"], revision) == (3, 4)
        assert await s.log_mark(gid) == (2, 4)  # version 2 again, another log: another mark
        await s.set_options(gid, {"x": 1})  # not a write of the log
        assert await s.log_mark(gid) == (2, 4) and await s.log_mark(gid + 99) is None
    finally:
        await s.close()
