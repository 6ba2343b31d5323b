"""The crash soak of bench/soak.py, short: two games played to the end through the fake
Discord while the real bot process is SIGKILLed every few dozen actions and restarted. Every
acknowledged action is in the log exactly once, the log replays to every stored snapshot,
the game finishes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


async def test_soak_one_game_with_kills(tmp_path: Path) -> None:
    # killed once every 15-40 acknowledged actions: two games at the bot's speed could end
    # before a first kill measured in seconds (CI once saw 0 kills)
    report = await _bench("soak").soak(2, seed=3, kill_after=(15, 40), workdir=tmp_path,
                                       quiet=True)
    assert report.kills >= 2, "the bot was not killed often enough to prove anything"
    assert report.acknowledged > 30
    assert report.lost == [] and report.duplicated == []
    assert report.replay_problems == [] and report.errors == []
    assert report.finished == 2
    assert report.actions_stored >= report.acknowledged
