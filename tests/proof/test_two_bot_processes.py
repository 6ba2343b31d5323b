"""Two real bot processes (`python -m bot`, SHARD_COUNT=2, SHARD_IDS=0 and 1) over one real
PostgreSQL server and one fake Discord that routes each guild to its shard's session, as
bench/bot.py --db postgresql --processes 2 runs them (short): every command answered by the
process of its guild's shard, both processes busy, no error, and every game's log replays
to each snapshot its process stored."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import engine
from bot.seats import new_state
from bot.store import open_store

ROOT = Path(__file__).resolve().parents[2]


def _scale():
    for extra in (ROOT / "bench", ROOT / "tests" / "e2e"):
        if str(extra) not in sys.path:
            sys.path.insert(0, str(extra))
    spec = importlib.util.spec_from_file_location("bench_scale", ROOT / "bench" / "_scale.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


async def test_two_bot_processes_share_the_games_by_shard() -> None:
    checked: list[int] = []

    async def replays(url: str) -> None:
        store = await open_store(url)
        try:
            for (gid,) in await store.fetchall("SELECT id FROM games WHERE version > 0"):
                game = await store.get_game(gid)
                state = new_state(game)
                snaps = set(await store.snapshot_seqs(gid))
                rows = await store.actions(gid)
                assert [r.seq for r in rows] == list(range(1, game.version + 1))
                for row in rows:
                    state = engine.apply(state, engine.parse_action(row.action)).state
                    if row.seq in snaps:
                        assert engine.dump_state(state) == await store.snapshot(gid, row.seq)
                checked.append(gid)
        finally:
            await store.close()

    args = argparse.Namespace(processes=2, games=4, actions=8, think=0.3, ramp=1.0, settle=1.0,
                              no_fsync=True, bot_dir=ROOT)
    rep = await _scale().measure(args, persist_rounds=0, keep=replays)
    assert rep.errors == [] and rep.unanswered == 0
    assert set(rep.answered_by_shard) == {0, 1} and min(rep.answered_by_shard.values()) >= 4
    assert all(c > 0 for c in rep.cpu)  # both processes did work
    assert rep.persisted >= 16 and len(checked) == 4
