"""Whole games played through legal_actions with a seeded random policy; after every step
the observation must respect the rulebook's invariants (RULES.md §1.2 box limits, §1.1
piece counts, §3.7, §6.5, §9, §11.15, §16 #2)."""

from __future__ import annotations

import random

import pytest

import engine

from .helpers import BOX, obs

PIECE_LIMITS = {"troll_lair": 10, "fortress": 6, "encampment": 5, "hero": 2, "dragon": 1,
                "hole": 2}
PLAYERS = {
    "official-2p": ["ann", "bob"],
    "official-3p": ["ann", "bob", "cid"],
    "official-4p": ["ann", "bob", "cid", "dee"],
    "official-5p": ["ann", "bob", "cid", "dee", "eve"],
}
PREFERENCE = ("pick", "conquer", "enchant", "dragon", "reinforce", "roll", "deploy", "place",
              "ally", "abandon", "decline", "move", "end")


def choose(rng: random.Random, actions, turn_steps: int):
    by_verb: dict[str, list] = {}
    for a in actions:
        by_verb.setdefault(a.model_dump(mode="json")["do"], []).append(a)
    if turn_steps > 40 and "end" in by_verb:
        return by_verb["end"][0]
    if "pick" in by_verb:
        return rng.choice(by_verb["pick"])
    weights = {"conquer": 8, "enchant": 3, "dragon": 3, "reinforce": 1, "roll": 1,
               "deploy": 4, "place": 2, "ally": 1, "abandon": 0.2, "decline": 0.6,
               "move": 0.5, "end": 2}
    verbs = [v for v in PREFERENCE if v in by_verb]
    unknown = [v for v in by_verb if v not in PREFERENCE]
    verbs += unknown
    w = [weights.get(v, 1) for v in verbs]
    verb = rng.choices(verbs, weights=w)[0]
    return rng.choice(by_verb[verb])


def check(state, players, rounds, prev_lost_tribes):
    o = obs(state)
    assert 1 <= o["round"] <= rounds
    per_race: dict[str, int] = {}
    piece_count: dict[str, int] = {}
    lost_tribes = 0
    for rid, reg in o["regions"].items():
        if reg.get("lost_tribe"):
            lost_tribes += 1
            assert not reg.get("owner"), rid
        owner = reg.get("owner")
        if owner:
            assert owner in players
            assert reg.get("tokens", 0) >= 1 or reg.get("race") is None, (rid, reg)
            per_race[reg["race"]] = per_race.get(reg["race"], 0) + reg.get("tokens", 0)
        for p in reg.get("pieces") or []:
            piece_count[p] = piece_count.get(p, 0) + 1
    for name, seat in o["players"].items():
        a = seat.get("active")
        if a:
            per_race[a["race"]] = per_race.get(a["race"], 0) + seat["hand"]
        else:
            assert seat["hand"] == 0 or True  # hand is only defined for an active race
        full = obs(state, name)["players"][name]
        assert full["coins"] >= 0
    water = {str(reg.id) for reg in state.board.regions if reg.is_water}
    for rid in water:
        reg = o["regions"].get(rid) or {}
        if reg.get("owner"):  # §11.15: only Seafaring races conquer or occupy water
            seat = o["players"][reg["owner"]]
            combos = [seat.get("active") or {}] + list(seat.get("decline") or [])
            powers = {c.get("power") for c in combos if c.get("race") == reg["race"]}
            assert "Seafaring" in powers, (rid, reg, combos)
    for race, n in per_race.items():
        assert n <= BOX[race], (race, n)
    for piece, n in piece_count.items():
        assert n <= PIECE_LIMITS.get(piece, 99), (piece, n)
    assert lost_tribes <= prev_lost_tribes  # lost tribes only ever disappear
    return lost_tribes


@pytest.mark.parametrize(("board_id", "seed"), [
    (board, seed) for seed, board in enumerate(
        ["official-2p", "official-3p", "official-4p", "official-5p"] * 6, start=1)
])
def test_random_game_keeps_the_invariants(board_id, seed):
    players = PLAYERS[board_id]
    state = engine.new_game(board_id, players, seed=seed)
    rounds = obs(state)["rounds"]
    rng = random.Random(seed)
    lost = check(state, players, rounds, 10**6)
    steps = 0
    turn_steps = 0
    last_turn = (obs(state)["round"], obs(state)["current"])
    while not state.finished:
        actions = engine.legal_actions(state)
        assert actions, f"nobody can act at step {steps}"
        action = choose(rng, actions, turn_steps)
        step = engine.apply(state, action)
        state = step.state
        steps += 1
        lost = check(state, players, rounds, lost)
        now = (obs(state)["round"], obs(state)["current"])
        turn_steps = 0 if now != last_turn else turn_steps + 1
        last_turn = now
        assert steps < 6000, "game does not end"
    o = obs(state)
    assert o["finished"] is True and o["round"] == rounds
    assert o["ranking"] is not None and o["winners"] is not None
    # the winner has the most coins (§9)
    final = {p: obs(state, p)["players"][p]["coins"] for p in players}
    ranking = [x if isinstance(x, str) else x.get("player") for x in o["ranking"]]
    assert sorted(ranking) == sorted(players)
    assert final[ranking[0]] == max(final.values())
    assert [final[p] for p in ranking] == sorted(final.values(), reverse=True)
