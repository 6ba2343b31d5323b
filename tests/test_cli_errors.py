"""Command-line tools answer a missing file, bad JSON or a bad argument with one line and a
non-zero exit, like `python -m engine run` (tests/engine/test_cli.py): python -m render and
the scripts in bench/."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "docs" / "scenarios" / "map-3p.json"


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def _one_line(done: subprocess.CompletedProcess[str], prefix: str, *words: str) -> None:
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(prefix), lines[0]
    for w in words:
        assert w in lines[0], lines[0]


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "bad.json").write_text('{"board": "official-3p",\n  "players": [}')
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "board.json").write_text('{"board": "official-9p", "players": ["a", "b"]}')
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00garbage")
    return tmp_path


@pytest.mark.parametrize(("name", "words"), [
    ("missing.json", ["missing.json: no such file"]),
    ("bad.json", ["bad.json: not valid JSON", "line 2"]),
    ("list.json", ["not a valid scenario", "JSON object"]),
    ("board.json", ["not a valid scenario", "unknown board 'official-9p'"]),
    ("binary.json", ["binary.json: not"]),
])
def test_render_bad_scenario_file(files: Path, name: str, words: list[str]) -> None:
    done = _run(["-m", "render", name, "-o", "out.png"], files)
    _one_line(done, "python -m render: ", *words)
    assert not (files / "out.png").exists()


def test_render_unwritable_output_and_unknown_viewer(tmp_path: Path) -> None:
    done = _run(["-m", "render", str(SCENARIO), "-o", str(tmp_path / "no" / "out.png")],
                tmp_path)
    _one_line(done, "python -m render: ", "cannot write it")
    done = _run(["-m", "render", str(SCENARIO), "-o", "out.png", "--viewer", "zed"], tmp_path)
    _one_line(done, "python -m render: ", "'zed' is not a player")


def test_render_bad_highlight_is_a_usage_error(tmp_path: Path) -> None:
    done = _run(["-m", "render", str(SCENARIO), "-o", "out.png", "--highlight", "3,x"],
                tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "region ids are whole numbers" in done.stderr.splitlines()[-1]


def test_render_good_file_still_draws(tmp_path: Path) -> None:
    done = _run(["-m", "render", str(SCENARIO), "-o", "out.png", "--highlight", "3,4"],
                tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.png").read_bytes().startswith(b"\x89PNG")


def test_bench_render_bad_scenarios(files: Path) -> None:
    bench = str(ROOT / "bench" / "render.py")
    _one_line(_run([bench, "--scenarios", str(files / "nope")], files),
              "bench/render.py: ", "no such folder")
    for name in ("map-2p.json", "map-3p.json", "map-5p.json"):
        shutil.copy(ROOT / "docs" / "scenarios" / name, files / name)
    _one_line(_run([bench, "1", "--scenarios", str(files)], files),
              "bench/render.py: ", "map-4p.json: no such file")
    (files / "map-4p.json").write_text("{oops")
    _one_line(_run([bench, "1", "--scenarios", str(files)], files),
              "bench/render.py: ", "map-4p.json: not valid JSON")


def test_bench_bad_arguments(tmp_path: Path) -> None:
    done = _run([str(ROOT / "bench" / "engine.py"), "many"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "invalid int value: 'many'" in done.stderr
    bot = str(ROOT / "bench" / "bot.py")
    _one_line(_run([bot, "--bot-dir", str(tmp_path)], tmp_path), "bench/bot.py: ",
              "holds no bot package")
    _one_line(_run([bot, "--bot-log", str(tmp_path / "no" / "x.log")], tmp_path),
              "bench/bot.py: ", "its folder does not exist")
