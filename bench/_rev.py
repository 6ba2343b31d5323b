"""Another revision of this checkout, side by side: a detached git worktree in a temp folder,
and a way to run one of this folder's bench scripts against it in a child process.

The child runs *this* checkout's script with the other tree first on `sys.path` (and that
tree's data/), so both engines are driven by the same code; only `import engine` differs.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from _cli import fail

ROOT = Path(__file__).resolve().parents[1]


def engine_root() -> Path:
    """The tree whose engine this process imports: `--root DIR` when given, else this one.
    Read from argv before argparse, because the import must come first."""
    argv = sys.argv
    if "--root" in argv:
        i = argv.index("--root")
        if i + 1 < len(argv):
            return Path(argv[i + 1]).resolve()
    return ROOT


@contextlib.contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """A detached worktree of `rev` in a temp folder, removed (with its git entry) after."""
    got = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                         capture_output=True, text=True)
    if got.returncode != 0:
        fail(f"{rev!r} is not a revision of {ROOT}")
    commit = got.stdout.strip()
    tmp = Path(tempfile.mkdtemp(prefix="sw-bench-rev-"))
    where = tmp / commit[:12]
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet",
                    str(where), commit], check=True)
    try:
        yield where
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)],
                       check=False)
        with contextlib.suppress(OSError):
            tmp.rmdir()


def run_worker(script: str, root: Path, args: list[str]) -> Any:
    """Run `bench/<script> --worker --root ROOT ARGS` and return the JSON it prints last."""
    env = dict(os.environ)
    env["SMALLWORLD_DATA_DIR"] = str(root / "data")
    env["PYTHONHASHSEED"] = "0"
    cmd = [sys.executable, str(ROOT / "bench" / script), "--worker", "--root", str(root), *args]
    got = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if got.returncode != 0:
        fail(f"the worker for {root} failed:\n{got.stderr.strip()}")
    out = json.loads(got.stdout.strip().splitlines()[-1])
    if not Path(out["engine"]).resolve().is_relative_to(root):
        fail(f"the worker for {root} imported the engine at {out['engine']}")
    return out
