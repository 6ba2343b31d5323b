"""bench/review.py still runs and prints its table (one light run on the 2-player board):
the review bench breaks unseen otherwise when ai.moments or the replay change."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_review_bench_runs_and_prints_a_board() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "review.py"), "1", "--work",
                           "1", "--boards", "2"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split() for line in done.stdout.splitlines()
            if line.startswith("official-2p ")]
    assert len(rows) == 1
    turns, log_s, replay_s, review_s, ratio = rows[0][1:]
    assert int(turns) >= 20 and float(replay_s) > 0 and float(review_s) > 0
    assert float(ratio) > 0
    assert re.search(r"targets? .*(NOT )?met", done.stdout)


def test_the_review_bench_refuses_bad_arguments() -> None:
    for args in (["0"], ["1", "--boards", "7"]):
        done = subprocess.run([sys.executable, str(ROOT / "bench" / "review.py"), *args],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and done.stderr.strip(), args
