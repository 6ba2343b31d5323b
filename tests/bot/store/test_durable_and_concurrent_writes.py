"""What a write promises: committed before the caller goes on (it survives the process dying
at once, and another connection sees it), and of two stores racing to append the same
version, exactly one wins."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

from store_setup import act, active_game

from bot.store import ActionRow, VersionConflict, open_store


async def test_committed_action_survives_a_crash(db_url: str) -> None:
    """A process that appends and dies without closing loses nothing it committed."""
    db = db_url
    s = await open_store(str(db))
    gid = await active_game(s)
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
    gid = await active_game(s)
    await s.append(gid, 1, act(1), actor_id=11, player="ann")
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
        gid = await active_game(a)
        for seq in range(1, 21):
            results = await asyncio.gather(
                a.append(gid, seq, act(seq), actor_id=11, player="ann", snapshot={"a": seq}),
                b.append(gid, seq, act(-seq), actor_id=22, player="bob", snapshot={"b": seq}),
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
