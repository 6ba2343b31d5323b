"""The interaction fuzz of bench/fuzz.py, short: 400 interactions against the real bot in
this process: 0 crashes, every one answered, 0 state changes from refused ones, duplicates
applied once."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench(name: str):
    """A bench script as a module (bench/ is no package, and its engine.py would shadow the
    engine package if bench/ were put on sys.path)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


_fuzz = _bench("fuzz")
KINDS, fuzz = _fuzz.KINDS, _fuzz.fuzz


async def test_fuzz_400(tmp_path: Path) -> None:
    report = await fuzz(400, games=4, seed=7, workdir=tmp_path, quiet=True)
    assert report.crashes == []
    assert report.unanswered == 0
    assert report.changed_by_refusal == []
    assert report.duplicates_applied_twice == 0
    assert report.refused > 100 and report.accepted > 50
    assert set(KINDS) <= set(report.by_kind)  # every kind of junk was tried
