"""The line protocol: `python -m engine run SCENARIO.json < ACTIONS.jsonl`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCENARIO = {
    "board": "official-2p", "players": ["ann", "bob"], "seed": 4, "round": 2, "current": "ann",
    "dice": [3],
    "seats": {"ann": {"coins": 7, "active": {"race": "Orcs", "power": "Hill", "hand": 1}},
              "bob": {"coins": 2, "active": {"race": "Ratmen", "power": "Swamp"}}},
    "row": [{"race": r, "power": p, "coins": c} for r, p, c in [
        ("Elves", "Forest", 1), ("Dwarves", "Merchant", 0), ("Giants", "Alchemist", 0),
        ("Trolls", "Wealthy", 0), ("Wizards", "Flying", 0), ("Humans", "Stout", 0)]],
    "regions": {"4": {"owner": "ann", "race": "Orcs", "tokens": 3},
                "8": {"owner": "bob", "race": "Ratmen", "tokens": 2},
                "5": {"lost_tribe": True}},
}

LINES = [
    '{"do": "conquer", "player": "ann", "region": 5}',
    "this is not json",
    '{"do": "conquer", "player": "ann", "region": 8}',
    '{"do": "teleport", "player": "ann"}',
    '{"do": "deploy", "player": "ann", "region": 5, "count": "two"}',
    '[1, 2]',
    '{"do": "end", "player": "ann"}',
    '{"do": "deploy", "player": "bob", "region": 8, "count": 1}',
]


def run(tmp_path: Path, lines: list[str]) -> list[dict]:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(SCENARIO), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "run", str(path)],
        input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_protocol_lines_errors_and_final_observation(tmp_path: Path) -> None:
    out = run(tmp_path, LINES)
    assert len(out) == len(LINES) + 1
    assert out[0]["ok"] is True
    conquered = [e for e in out[0]["events"] if e["type"] == "conquered"]
    assert conquered == [{"type": "conquered", "player": "ann", "region": 5, "race": "Orcs",
                          "tokens": 3, "defender": None, "defender_race": "Lost Tribe",
                          "lost": 1}]
    for i in (1, 3, 4, 5):
        assert out[i] == {"ok": False, "error": {"code": "invalid_action",
                                                 "message": out[i]["error"]["message"]}}
    # hand 1 + readied 2 = 3; the tribe cost 3; region 8 now needs 4 with an empty hand
    assert out[2]["ok"] is False and out[2]["error"]["code"] == "no_tokens_in_hand"
    assert out[6]["ok"] is True
    assert any(e["type"] == "scored" and e["private"] for e in out[6]["events"])
    assert out[7]["ok"] is True
    final = out[-1]["observation"]
    # 2 regions + Hill bonus (5 is a hill) + Orcs: 1 non-empty region conquered
    assert final["players"]["ann"]["coins"] == 7 + 2 + 1 + 1
    assert final["players"]["bob"]["coins"] == 2
    assert final["regions"]["5"]["owner"] == "ann" and final["version"] == 3
    assert final["current"] == "bob" and final["stage"] == "redeploy"  # bob deployed: conquests over


def test_refused_action_leaves_state_unchanged(tmp_path: Path) -> None:
    a = run(tmp_path, [LINES[0], LINES[2], LINES[6]])
    b = run(tmp_path, [LINES[0], LINES[6]])
    assert a[-1] == b[-1]


def test_bad_scenario_is_reported_not_crashed(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**SCENARIO, "seats": {"ann": {"active": {"race": "Gnomes",
                                                                      "power": "Hill"}}}}))
    proc = subprocess.run([sys.executable, "-m", "engine", "run", str(path)], input="",
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["code"] == "invalid_scenario"
    assert "Gnomes" in json.loads(proc.stdout)["error"]["message"]


def test_region_ids_as_the_observation_writes_them(tmp_path: Path) -> None:
    """A client that echoes an observed region key ("5", a string) back is understood."""
    import engine

    state = engine.load_scenario(SCENARIO)
    observed = next(k for k, v in engine.observe(state, "ann")["regions"].items()
                    if v.get("lost_tribe"))
    assert observed == "5"
    text_ids = [
        json.dumps({"do": "conquer", "player": "ann", "region": observed}),
        json.dumps({"do": "move", "player": "ann", "from": observed, "to": "4", "count": 1}),
        json.dumps({"do": "end", "player": "ann"}),
    ]
    numbers = [json.dumps({k: int(v) if k in ("region", "from", "to") else v
                           for k, v in json.loads(line).items()}) for line in text_ids]
    a, b = run(tmp_path, text_ids), run(tmp_path, numbers)
    assert [o.get("ok") for o in a[:-1]] == [True, True, True]
    assert a == b  # same events and the same final observation


def test_region_ids_that_are_not_plain_numbers_are_refused() -> None:
    import pytest

    import engine

    assert engine.parse_action({"do": "deploy", "player": "ann", "region": "12",
                                "count": 2}).region == 12
    for bad in ("x", "1.5", " 1", "-1", "", "１２", True, 1.5, None, "99999999999"):
        with pytest.raises(engine.InvalidAction, match="region"):
            engine.parse_action({"do": "conquer", "player": "ann", "region": bad})
    with pytest.raises(engine.InvalidAction, match="count"):  # counts stay numbers only
        engine.parse_action({"do": "deploy", "player": "ann", "region": "12", "count": "2"})
