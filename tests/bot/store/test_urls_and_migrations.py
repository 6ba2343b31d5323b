"""The store's setup on a real SQLite file and a real PostgreSQL server: which database a URL
names, the numbered migrations (the same in both dialects, applied once), WAL mode, and
in-memory databases."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from store_setup import act, active_game

from bot.store import TABLES, Store, _migrations, database_path, dialect_of, open_store


@pytest.fixture
async def sqlite_store(tmp_path: Path):
    s = await open_store(f"sqlite:///{tmp_path / 'sw.db'}")
    yield s
    await s.close()


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
    await active_game(sqlite_store)
    assert (tmp_path / "sw.db-wal").exists()


async def test_memory_database_works() -> None:
    s = await open_store(":memory:")
    gid = await active_game(s)
    await s.append(gid, 1, act(1), actor_id=11, player="ann")
    assert (await s.get_game(gid)).version == 1
    await s.close()
