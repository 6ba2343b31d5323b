"""`python -m bot demo`: a whole AI game through the bot's service, store and pictures, written
as one self-contained HTML page."""

from __future__ import annotations

import base64
import re
import subprocess
import sys
from pathlib import Path

COIN_NUMBER = re.compile(r"\d+\s*(?:</b>\s*)?coins?\b", re.IGNORECASE)


def test_demo_writes_a_self_contained_page(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "bot", "demo", "--players", "3", "--level",
                           "mixed", "--out", str(out), "--seed", "5"],
                          # a bound for a hung demo, not a speed limit: three AI seats (one
                          # hard) play a whole game, ~1 min of CPU, several on a loaded host
                          cwd=tmp_path, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "failed" not in proc.stderr, proc.stderr[-2000:]
    page = (out / "smallworld-demo.html").read_text(encoding="utf-8")
    assert str((out / "smallworld-demo.html").resolve()) in proc.stdout
    assert "AI (easy) 1" in page and "AI (normal) 2" in page and "AI (hard) 3" in page
    sections = re.findall(r"<section><h2>(.*?)</h2>", page)
    assert sections[0] == "The start" and sections[-1] == "Final reveal"
    turns = [s for s in sections if s.startswith("Round ")]
    assert len(turns) >= 3 * 9  # every turn of the 3-player board's rounds, one each
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(images) == len(sections)  # a map per turn (and the start), the final picture
    assert all(base64.b64decode(i)[:8] == b"\x89PNG\r\n\x1a\n" for i in images)
    assert "http" not in re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", page)
    reveal = page.index("Final reveal")
    assert not COIN_NUMBER.search(page[:reveal])  # no coin total before the reveal
    assert len(COIN_NUMBER.findall(page[reveal:])) >= 3  # every total at the reveal


def test_demo_refuses_bad_options_in_one_line(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "bot", "demo", "--players", "9"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2 and "--players" in proc.stderr
    assert "Traceback" not in proc.stderr
