"""Database tools behind `python -m bot migrate` and `python -m bot backup`, and the replay
check the soak suite shares: every game's action log, replayed through the engine from its
starting position, must reach each snapshot stored along the way."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from bot.seats import start_state
from bot.store import (
    TABLES,
    GameStatus,
    SqliteStore,
    Store,
    StoreError,
    _dumps,
    open_store,
)


@dataclass(slots=True)
class Replayed:
    game_id: int
    actions: int = 0
    snapshots: int = 0
    problems: list[str] = field(default_factory=list)
    state: Any = None


async def replay_game(store: Store, game_id: int) -> Replayed:
    """Replay a game's whole log from its start; compare against every stored snapshot."""
    out = Replayed(game_id)
    game = await store.get_game(game_id)
    if game is None:
        out.problems.append(f"game {game_id}: missing")
        return out
    if game.status is GameStatus.LOBBY or game.started_at is None:
        return out
    seqs = await store.snapshot_seqs(game_id)
    state = start_state(game, await store.snapshot(game_id, 0) if 0 in seqs else None)
    actions = await store.actions(game_id)
    expected_seq = 1
    for row in actions:
        if row.seq != expected_seq:
            out.problems.append(f"game {game_id}: action {expected_seq} missing (found {row.seq})")
            expected_seq = row.seq
        expected_seq += 1
        try:
            state = engine.apply(state, engine.parse_action(row.action)).state
        except engine.EngineError as exc:
            out.problems.append(f"game {game_id}: action {row.seq} no longer applies: {exc}")
            return out
        out.actions += 1
        if row.seq in seqs:
            stored = await store.snapshot(game_id, row.seq)
            if json.loads(_dumps(engine.dump_state(state))) != stored:
                out.problems.append(f"game {game_id}: replay differs from snapshot {row.seq}")
            out.snapshots += 1
    if game.version != len(actions):
        out.problems.append(
            f"game {game_id}: version {game.version} but {len(actions)} actions stored")
    if game.status is GameStatus.FINISHED and not state.finished:
        out.problems.append(f"game {game_id}: marked finished but the replay is not")
    out.state = state
    return out


@dataclass(slots=True)
class CopyReport:
    rows: dict[str, int]
    games: int
    actions: int
    problems: list[str]


async def copy_database(src_url: str, dst_url: str,
                        say: Callable[[str], None] = lambda _s: None) -> CopyReport:
    """Copy every table of one installation into an empty other one (any two dialects),
    then check the copy row by row and replay every game in it."""
    src = await open_store(src_url)
    try:
        dst = await open_store(dst_url)
        try:
            for table in TABLES:
                if await dst.count_rows(table):
                    raise StoreError(f"the target already holds data (table {table}); "
                                     "migrate into an empty database")
            data = await src.dump_tables()
            say("read " + ", ".join(f"{t} {len(rows)}" for t, (_c, rows) in data.items()))
            await dst.load_tables(data)
            problems = []
            copied = await dst.dump_tables()
            for table in TABLES:
                cols, rows = data[table]
                cols2, rows2 = copied[table]
                by_name = [cols2.index(c) for c in cols]
                if sorted(rows) != sorted(tuple(r[i] for i in by_name) for r in rows2):
                    problems.append(f"table {table}: the copy differs from the source")
            games = actions = 0
            for game_id in await dst.game_ids():
                rep = await replay_game(dst, game_id)
                problems.extend(rep.problems)
                games += 1
                actions += rep.actions
            say(f"replayed {games} games ({actions} actions): "
                + ("all match their snapshots" if not problems else f"{len(problems)} problems"))
            return CopyReport({t: len(r) for t, (_c, r) in data.items()}, games, actions,
                              problems)
        finally:
            await dst.close()
    finally:
        await src.close()


PG_DUMP_GUIDANCE = """\
DATABASE_URL points at PostgreSQL: back it up with the server's own tools, which copy a live
database consistently without stopping the bot:

    pg_dump --format=custom --file={path} "{url}"

and restore into an empty database with

    pg_restore --dbname="postgresql://.../newdb" {path}

For point-in-time recovery, configure WAL archiving on the server (archive_mode, see the
PostgreSQL manual, "Continuous Archiving")."""


async def backup(url: str, path: str) -> str:
    """Back up the database at `url` into the file `path`; -> a sentence for the operator."""
    store = await open_store(url)
    try:
        if isinstance(store, SqliteStore):
            if Path(path).exists():
                raise StoreError(f"{path} exists already; name a new file for the backup")
            await store.backup(path)
            games = len(await store.game_ids())
            return f"backed up {store.path} ({games} games) to {path}"
        return PG_DUMP_GUIDANCE.format(path=path, url=getattr(store, "path", url))
    finally:
        await store.close()
