"""python -m ai match: seat rotation, the Wilson interval, the printed table."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from ai.match import play, run_match, wilson


def test_wilson_interval_matches_known_values():
    lo, hi = wilson(7, 10)  # textbook: 0.397-0.892
    assert round(lo, 3) == 0.397 and round(hi, 3) == 0.892
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_game_reports_every_seat_and_shares_add_up():
    res = play(["normal", "random", "easy"], "official-3p", 4)
    assert [r.spec for r in res] == ["normal", "random", "easy"]
    assert abs(sum(r.share for r in res) - 1) < 1e-9
    assert sorted(r.rank for r in res)[0] == 1
    assert all(r.times for r in res)


def test_match_rotates_seats_and_prints_each_spec():
    out = io.StringIO()
    table = run_match(["easy", "random"], 2, "official-2p", 1, out=out, progress=False)
    assert set(table) == {"easy", "random"}
    assert table["easy"]["seat_games"] == 2 and table["random"]["seat_games"] == 2
    text = out.getvalue()
    assert "easy" in text and "random" in text and "95% CI" in text


def test_bad_seat_specs_are_refused_in_one_line():
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-m", "ai", "match", "--seats", "godlike,easy"],
                          capture_output=True, text=True, cwd=root, timeout=60)
    assert proc.returncode == 2 and "--seats needs 2-5 of" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("seats", ["normal", "a,b,c,d,e,f"])
def test_seat_count_is_checked(seats):
    from ai.match import main
    with pytest.raises(SystemExit):
        main(["match", "--seats", seats])
