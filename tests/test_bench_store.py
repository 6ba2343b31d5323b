"""bench/store.py still runs against the current schema (a migration that added a column once
broke its bulk fill, and no test ran it): a small run, SQLite only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_store_bench_runs_and_reports_its_targets() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "store.py"), "--actions", "30", "--games", "40",
         "--db", "sqlite"],
        cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "persist one action, sqlite" in done.stdout
    assert "start-up to gateway ready" in done.stdout and "40 games" in done.stdout
