"""data/ against the reference transcriptions and the rulebook's component counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import data

REFERENCE = Path(__file__).resolve().parent / "data" / "reference" / "maps"
# Figures from tests/data/reference/README.md: regions, borders, rounds, mountains, lost tribes,
# caverns / magic sources / mines.
EXPECTED = {
    "official-2p": (23, 51, 10, 4, 9, 4),
    "official-3p": (30, 71, 10, 7, 10, 5),
    "official-4p": (39, 95, 9, 8, 14, 7),
    "official-5p": (48, 119, 8, 9, 18, 9),
}


@pytest.mark.parametrize("board_id", data.BOARD_IDS)
def test_board_counts(board_id: str) -> None:
    board = data.board(board_id)
    n_regions, n_borders, rounds, mountains, lost, per_symbol = EXPECTED[board_id]
    assert len(board.regions) == n_regions
    assert sum(len(r.neighbours) for r in board.regions) // 2 == n_borders
    assert board.rounds == rounds
    assert sum(r.terrain == "mountain" for r in board.regions) == mountains
    assert sum("lost_tribe" in r.symbols for r in board.regions) == lost
    for symbol in ("cavern", "magic_source", "mine"):
        assert sum(symbol in r.symbols for r in board.regions) == per_symbol
    assert sum(r.terrain == "sea" for r in board.regions) == 2
    assert sum(r.terrain == "lake" for r in board.regions) == 1


@pytest.mark.parametrize("board_id", data.BOARD_IDS)
def test_board_matches_reference(board_id: str) -> None:
    path = REFERENCE / f"{board_id}.json"
    ref = json.loads(path.read_text(encoding="utf-8"))
    board = data.board(board_id)
    assert board.rounds == ref["turns"]
    assert len(board.regions) == len(ref["regions"])
    for r in ref["regions"]:
        mine = board.regions[r["id"]]
        assert mine.terrain == r["terrain"], r["id"]
        assert set(mine.symbols) == set(r["features"]), r["id"]
        assert mine.edge == r["border"], r["id"]
        assert mine.entry == r["entry"], r["id"]
        assert set(mine.neighbours) == set(r["neighbours"]), r["id"]


def test_inline_reference_map_loads_like_the_shipped_board() -> None:
    ref = json.loads((REFERENCE / "official-3p.json").read_text(encoding="utf-8"))
    assert data.board_from_reference(ref).regions == data.board("official-3p").regions


def test_races_and_powers() -> None:
    races, powers = data.races(), data.powers()
    assert len(races) == 14 and len(powers) == 20
    assert sum(r.box for r in races.values()) == 168  # RULES.md §1.2
    # Seed-stated values (RULES.md §1.3): Skeletons 6 + Merchant 2 = 8; Amazons 10 incl. +4.
    assert races["Skeletons"].tokens + powers["Merchant"].tokens == 8
    assert races["Amazons"].tokens == 10
    # §1.3 inference: physical - 5 = banner value for the 12 races without extra-token powers.
    for name, race in races.items():
        if name not in ("Skeletons", "Sorcerers", "Amazons"):
            assert race.box - 5 == race.tokens, name
    assert max(p.tokens for p in powers.values()) <= 5


def test_components() -> None:
    c = data.components()
    assert c.pieces == {"troll_lair": 10, "fortress": 6, "encampment": 5, "hero": 2,
                        "dragon": 1, "hole": 2}
    assert sorted(c.die) == [0, 0, 0, 1, 2, 3]
    assert c.start_coins == 5 and c.visible_combos == 6


def test_invalid_data_is_rejected_at_load() -> None:
    ref = json.loads((REFERENCE / "official-2p.json").read_text(encoding="utf-8"))
    ref["regions"][0]["neighbours"] = [*ref["regions"][0]["neighbours"], 22]
    with pytest.raises(ValueError, match="not symmetric"):
        data.board_from_reference(ref)
    with pytest.raises(KeyError, match="unknown board"):
        data.board("official-6p")
