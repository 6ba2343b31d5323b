"""bench/replay.py still runs and prints its table (one timed run per board): the replay and
end card bench breaks unseen otherwise when render or story change."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[1]


def test_the_replay_bench_runs_and_prints_each_board() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "replay.py"), "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    for board_id in engine.data.BOARD_IDS:
        rows = [line.split() for line in done.stdout.splitlines()
                if line.startswith(board_id + " ")]
        assert len(rows) == 2, board_id  # the replay's row and the end card's
        replay, card = rows
        assert float(replay[5]) > 0 and float(replay[7]) < 8  # a ratio; the size in MB
        assert float(card[1]) > 0 and re.fullmatch(r"\d+x\d+", card[4])  # width x height
    assert re.search(r"targets (NOT )?met", done.stdout)  # timing is reported, not asserted


def test_the_replay_bench_refuses_a_bad_count() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "replay.py"), "0"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "N must be at least 1" in done.stderr
