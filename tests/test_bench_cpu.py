"""bench/_cpu.py tells the bot's processes apart by niceness above the bot's own; under
`nice -n 10` (how benches run on a shared machine) the AI workers reach the ceiling of 19,
only 9 above the bot, and were counted as "other"."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

# loaded from its file, not by putting bench/ on sys.path: bench/bot.py would then shadow the
# bot package in every worker process the rest of the suite spawns (they inherit sys.path)
_SPEC = importlib.util.spec_from_file_location(
    "bench_cpu", Path(__file__).resolve().parents[1] / "bench" / "_cpu.py")
assert _SPEC is not None and _SPEC.loader is not None
_cpu = importlib.util.module_from_spec(_SPEC)
sys.modules["bench_cpu"] = _cpu  # its dataclasses look their module up there
_SPEC.loader.exec_module(_cpu)


def test_ai_workers_are_told_apart_under_nice() -> None:
    tree = _cpu.TreeCPU(root=1)
    worker = 2**22 + 7  # not the root, no command line to read
    assert tree._classify(worker, 10, 0) == "ai"
    assert tree._classify(worker, 9, 10) == "ai"  # 19 under a bot at 10
    assert tree._classify(worker, 0, 10) == "pictures"
    assert tree._classify(worker, 0, 0) == "pictures"
    assert tree._classify(worker, 5, 0) == "other"
    assert tree._classify(1, 0, 0) == "bot"
