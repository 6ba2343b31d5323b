"""RULES.md §3 setup, §4 rounds, §15.3 rounds per board, §5.2 costs by position."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine

from .helpers import (
    ALL_POWERS,
    ALL_RACES,
    BADGE,
    BANNER,
    act,
    active,
    active_of,
    build,
    coins,
    hand,
    load,
    obs,
    pick,
    r,
    scenario,
    seat,
    two,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "boards"


def board_json(board_id: str) -> dict:
    return json.loads((DATA / f"{board_id}.json").read_text(encoding="utf-8"))


PLAYERS = {
    "official-2p": ["ann", "bob"],
    "official-3p": ["ann", "bob", "cid"],
    "official-4p": ["ann", "bob", "cid", "dee"],
    "official-5p": ["ann", "bob", "cid", "dee", "eve"],
}


@pytest.mark.parametrize("board_id", sorted(PLAYERS))
def test_row_has_six_distinct_combos_costing_0_to_5(board_id):
    # §3.4: 5 banners in the column + the stack tops = 6 visible combos; §5.2 cost = position
    state = engine.new_game(board_id, PLAYERS[board_id], seed=1)
    row = obs(state)["row"]
    assert len(row) == 6
    assert [c["cost"] for c in row] == [0, 1, 2, 3, 4, 5]
    assert len({c["race"] for c in row}) == 6
    assert len({c["power"] for c in row}) == 6
    assert all(c["race"] in ALL_RACES and c["power"] in ALL_POWERS for c in row)
    assert all(c.get("coins", 0) == 0 for c in row)  # nobody has passed over a combo yet


@pytest.mark.parametrize("board_id", sorted(PLAYERS))
def test_each_player_starts_with_5_coins_and_no_race(board_id):
    # §3.7: 5 coins of value 1 each
    players = PLAYERS[board_id]
    state = engine.new_game(board_id, players, seed=2)
    for p in players:
        seat = obs(state, p)["players"][p]
        assert seat["coins"] == 5
        assert seat["hand"] == 0
        assert not seat.get("active")
        assert not seat.get("decline")


@pytest.mark.parametrize("board_id", sorted(PLAYERS))
def test_lost_tribes_stand_exactly_on_lost_tribe_symbols(board_id):
    # §3.5: one Lost Tribe token on every region with the symbol, nowhere else
    state = engine.new_game(board_id, PLAYERS[board_id], seed=3)
    expected = {
        str(r["id"]) for r in board_json(board_id)["regions"] if "lost_tribe" in r["symbols"]
    }
    regions = obs(state)["regions"]
    got = {rid for rid, reg in regions.items() if reg.get("lost_tribe")}
    assert got == expected
    for rid in expected:
        assert regions[rid].get("owner") in (None, "")
    # nobody owns anything at the start
    assert not [rid for rid, reg in regions.items() if reg.get("owner")]


@pytest.mark.parametrize(
    ("board_id", "rounds"),
    [("official-2p", 10), ("official-3p", 10), ("official-4p", 9), ("official-5p", 8)],
)
def test_rounds_per_board(board_id, rounds):
    # §15.3 adopted values: 2p 10, 3p 10, 4p 9, 5p 8 rounds; §16 #2 round 1 on space 1
    state = engine.new_game(board_id, PLAYERS[board_id], seed=4)
    o = obs(state)
    assert o["rounds"] == rounds
    assert o["round"] == 1
    assert o["current"] == PLAYERS[board_id][0]  # first seat starts every round
    assert o["finished"] is False
    assert o["winners"] is None and o["ranking"] is None


def test_public_view_hides_coins_but_player_view_shows_own():
    # §7 coins are hidden; DESIGN observation: public view has no coins
    state = engine.new_game("official-2p", ["ann", "bob"], seed=5)
    public = obs(state)
    assert all("coins" not in seat for seat in public["players"].values())
    assert obs(state, "ann")["players"]["ann"]["coins"] == 5


def test_same_seed_same_setup():
    # DESIGN: randomness only from the seed
    a = engine.new_game("official-3p", PLAYERS["official-3p"], seed=42)
    b = engine.new_game("official-3p", PLAYERS["official-3p"], seed=42)
    assert obs(a)["row"] == obs(b)["row"]


def test_scenario_without_regions_has_lost_tribes_and_defaults_to_game_start():
    # DESIGN scenario: without "regions" the board is as at game start; no round -> round 1
    state = load(scenario("pick_start"))
    o = obs(state)
    assert o["round"] == 1 and o["current"] == "ann"
    got = {int(rid) for rid, reg in o["regions"].items() if reg.get("lost_tribe")}
    assert got == {2, 3, 5, 7, 10, 12, 13, 15, 22}  # the 9 lost-tribe symbols of official-2p
    assert hand(state, "ann") == 0


def test_scenario_row_is_shown_with_costs_and_coins():
    state = load(scenario("pick_start"))
    row = obs(state, "ann")["row"]
    assert [(c["race"], c["power"]) for c in row][:3] == [
        ("Ratmen", "Spirit"), ("Elves", "Heroic"), ("Skeletons", "Merchant"),
    ]
    assert [c["cost"] for c in row] == [0, 1, 2, 3, 4, 5]
    assert [c["coins_on_combo"] for c in row] == [0, 0, 0, 1, 0, 2]


def test_dump_and_load_state_round_trip():
    state = load(scenario("conquest_costs"))
    again = engine.load_state(json.loads(json.dumps(engine.dump_state(state))))
    assert again == state
    assert obs(again, "ann") == obs(state, "ann")


def test_loading_readies_all_but_one_token_per_region():
    # DESIGN: loading readies: hand = active tokens minus one per region, plus seat hand
    state = load(scenario("decline_tritons"))
    # Tritons: 3 in region 5 + 2 in region 8 -> 2 + 1 readied, + 2 seat hand = 5
    assert hand(state, "ann") == 5
    assert obs(state)["regions"]["5"]["tokens"] == 1
    assert obs(state)["regions"]["8"]["tokens"] == 1


@pytest.mark.parametrize("i", range(len(ALL_POWERS)))
def test_a_picked_combo_brings_banner_plus_badge_tokens(i: int) -> None:
    """§1.3 / §15.3: the tokens a combo brings are its race banner's number plus its power
    badge's (every race and every power is picked once across the cases)."""
    race, power = ALL_RACES[i % len(ALL_RACES)], ALL_POWERS[i]
    others_r = [x for x in ALL_RACES if x != race]
    others_p = [x for x in ALL_POWERS if x != power]
    row = [{"race": race, "power": power, "coins": 0}] + [
        {"race": others_r[k], "power": others_p[k], "coins": 0} for k in range(5)]
    state = act(load(build(seats={"ann": seat(), "bob": seat()}, round=1, row=row)),
                pick("ann", 0))
    assert active_of(state, "ann")["race"] == race
    assert hand(state, "ann") == BANNER[race] + BADGE[power]


def test_scenario_coins_and_tokens_on_board():
    spec = two(active("Ratmen", "Spirit"), active("Orcs", "Alchemist"), {18: r("ann", "Ratmen")},
               ann_coins=9)
    assert coins(load(spec), "ann") == 9
    assert active_of(load(spec), "ann")["tokens_on_board"] == 1


def test_new_game_needs_two_to_five_players():
    for names in (["a"], ["a", "b", "c", "d", "e", "f"]):
        with pytest.raises(ValueError, match="2-5"):
            engine.new_game("official-2p", names, 1)


def test_new_game_setup_from_seed() -> None:
    s = engine.new_game("official-5p", ["a", "b", "c", "d", "e"], 42)
    o = obs(s, None)
    assert len(o["row"]) == 6 and [c["cost"] for c in o["row"]] == list(range(6))
    lost = [int(k) for k, v in o["regions"].items() if v.get("lost_tribe")]
    b = engine.data.board("official-5p")
    assert sorted(lost) == [rid.id for rid in b.regions if "lost_tribe" in rid.symbols]
    assert all(coins(s, p) == 5 for p in "abcde")
    assert o["rounds"] == 8 and o["round"] == 1 and s.actor == "a"
    assert engine.new_game("official-5p", list("abcde"), 43).row != s.row
