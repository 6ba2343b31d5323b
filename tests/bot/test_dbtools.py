"""`python -m bot migrate` and `python -m bot backup` on real databases: a SQLite installation
with played games and a league is copied into a real PostgreSQL server and verified by
replaying every game; a tampered log is caught; backups are consistent copies."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from bot.dbtools import replay_game
from bot.game.service import GameService
from bot.league import LeagueService
from bot.store import TABLES, GameStatus, open_store

ROOT = Path(__file__).resolve().parents[2]


async def _play(service: GameService, channel: int, seed: int, steps: int) -> int:
    await service.open_lobby(guild_id=1, channel_id=channel, user_id=1, name="ann", seed=seed)
    await service.join(channel, 2, "bob")
    await service.join(channel, 3, "cid")
    out = await service.start(channel, 1)
    rng = random.Random(seed)
    for _ in range(steps):
        loaded = await service.view(channel)
        legal = [a.model_dump(mode="json") for a in engine.legal_actions(loaded.state)]
        busy = [a for a in legal if a["do"] in ("conquer", "pick", "deploy")]
        action = rng.choice(busy if busy and rng.random() < 0.7 else legal)
        step = await service.act(channel, loaded.game.seat_named(loaded.state.actor).user_id,
                                 action)
        if step.finished:
            break
    return out.game.id


async def _installation(url: str) -> dict[int, dict]:
    """A small live installation: a league with a season, its settings, a table channel, a
    round whose table waits in its lobby, its audit log and timers, three games part-played,
    a lobby; -> game id -> its current engine state."""
    store = await open_store(url)
    try:
        service = GameService(store, rng=random.Random(0))
        leagues = LeagueService(store, service)
        lg = await leagues.create_league(1, "Friday", 9)
        await leagues.start_season(lg, "Spring", 9)
        for uid in (1, 2):
            await leagues.register(lg, uid, f"user{uid}")
        await leagues.configure(lg, 9, {"allow_ai": True, "table_size": 3,
                                        "summary_channel": 77})
        await leagues.set_channel(lg, 9, 400, True)
        await leagues.start_round(lg, 9, guild_id=1, seed=lambda: 3)
        states = {}
        for i, steps in enumerate((60, 25, 140)):
            gid = await _play(service, 100 + i, seed=i + 1, steps=steps)
            states[gid] = engine.dump_state(await GameService(store).rebuild(gid))
        await service.open_lobby(guild_id=1, channel_id=200, user_id=5, name="eve")
        return states
    finally:
        await store.close()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env=env)


async def test_migrate_sqlite_to_postgresql_verified_by_replay(tmp_path: Path,
                                                               pg_url: str) -> None:
    src = f"sqlite:///{tmp_path / 'old.db'}"
    states = await _installation(src)
    proc = _cli("migrate", "--from", src, "--to", pg_url)
    assert proc.returncode == 0, proc.stderr
    assert "verified" in proc.stdout and "all match their snapshots" in proc.stdout
    lite, pg = await open_store(src), await open_store(pg_url)
    try:
        every = await lite.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'"
                                    " AND name NOT IN ('schema_version', 'sqlite_sequence')")
        assert {name for (name,) in every} == set(TABLES)  # the copy leaves no table out
        for table in TABLES:
            assert await pg.count_rows(table) == await lite.count_rows(table), table
        for table in ("league_settings", "league_channels", "league_rounds", "league_games",
                      "league_audit", "league_timers"):
            assert await pg.count_rows(table) > 0, table
        for gid, state in states.items():
            assert engine.dump_state(await GameService(pg).rebuild(gid)) == state
            assert await pg.get_game(gid) == await lite.get_game(gid)
            assert await pg.actions(gid) == await lite.actions(gid)
        # the copy goes on: new games get fresh ids, games continue from where they were
        service = GameService(pg, rng=random.Random(5))
        lobby = await pg.open_game(200)
        assert lobby is not None and lobby.status is GameStatus.LOBBY
        fresh = await service.open_lobby(guild_id=1, channel_id=300, user_id=1, name="ann")
        assert fresh.id > max(states)
        (lg,) = await pg.leagues(1)  # the league goes on too: its audit gets fresh ids
        assert await LeagueService(pg, service).set_channel(lg, 9, 401, True)
        assert len(await pg.league_audit(lg.id, 50)) == await lite.count_rows("league_audit") + 1
    finally:
        await lite.close()
        await pg.close()
    again = _cli("migrate", "--from", src, "--to", pg_url)  # the target is not empty now
    assert again.returncode == 1 and "empty database" in again.stderr


async def test_migrate_reports_a_log_that_does_not_replay(tmp_path: Path, pg_url: str) -> None:
    src = tmp_path / "old.db"
    states = await _installation(str(src))
    gid = max(states)
    con = sqlite3.connect(src)
    seq = con.execute("SELECT MAX(seq) FROM snapshots WHERE game_id = ? AND seq > 0",
                      (gid,)).fetchone()[0]
    con.execute("UPDATE snapshots SET state = json_set(state, '$.round', 99)"
                " WHERE game_id = ? AND seq = ?", (gid, seq))
    con.commit()
    con.close()
    proc = _cli("migrate", "--from", str(src), "--to", pg_url)
    assert proc.returncode == 1
    assert f"game {gid}: replay differs from snapshot {seq}" in proc.stderr


async def test_replay_of_every_game_matches(db_url: str) -> None:
    states = await _installation(db_url)
    store = await open_store(db_url)
    try:
        for gid, state in states.items():
            rep = await replay_game(store, gid)
            assert rep.problems == [] and rep.actions > 0 and rep.snapshots > 0
            assert engine.dump_state(rep.state) == state
    finally:
        await store.close()


async def test_backup_sqlite_is_a_consistent_copy(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    states = await _installation(str(db))
    target = tmp_path / "backups" / "b.db"
    proc = _cli("backup", str(target), "--database", f"sqlite:///{db}")
    assert proc.returncode == 0, proc.stderr
    assert f"to {target}" in proc.stdout
    copy = await open_store(str(target))
    try:
        for gid, state in states.items():
            assert engine.dump_state(await GameService(copy).rebuild(gid)) == state
    finally:
        await copy.close()
    again = _cli("backup", str(target), "--database", str(db))
    assert again.returncode == 1 and "exists already" in again.stderr


async def test_backup_postgresql_explains_pg_dump(tmp_path: Path, pg_url: str) -> None:
    proc = _cli("backup", str(tmp_path / "x.dump"), "--database", pg_url)
    assert proc.returncode == 0, proc.stderr
    assert "pg_dump --format=custom" in proc.stdout and "pg_restore" in proc.stdout
    assert not (tmp_path / "x.dump").exists()


@pytest.mark.parametrize("args", [["migrate", "--from", "x.db"], ["backup"]])
def test_cli_usage_errors(args: list[str]) -> None:
    proc = _cli(*args)
    assert proc.returncode == 2 and "usage" in proc.stderr and "Traceback" not in proc.stderr
