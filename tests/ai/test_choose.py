"""The AI contract: `choose(state, level, seed)` is legal, deterministic and blind to secrets."""

from __future__ import annotations

import random

import pytest
from aihelp import alter_secrets as _alter_secrets

import engine
from ai import LEVELS, choose

NAMES = ["ann", "bob", "cid", "dee"]


def _play(levels: list[str], seed: int, board: str = "official-2p"):
    """Play a whole game; yield (state, level, action) for every AI decision."""
    s = engine.new_game(board, NAMES[: len(levels)], seed)
    n = 0
    while not s.finished:
        level = levels[s.players.index(s.actor)]
        a = choose(s, level, seed * 1000 + n)
        yield s, level, a
        s = engine.apply(s, a).state
        n += 1
        assert n < 3000, "the game does not end"


@pytest.mark.parametrize("levels", [["easy", "normal"], ["hard", "easy"], ["normal", "hard"]])
def test_every_choice_is_legal_and_games_end(levels):
    kinds = set()
    for s, _level, a in _play(levels, seed=3):
        legal = [x.model_dump(mode="json") for x in engine.legal_actions(s)]
        assert a.model_dump(mode="json") in legal
        kinds.add((s.stage.value, a.do))
    assert ("pick", "pick") in kinds and ("conquest", "conquer") in kinds


def test_defenders_place_survivors():
    seen = 0
    for seed in range(4):
        for s, _level, a in _play(["normal", "normal", "easy"], seed, "official-3p"):
            if s.stage is engine.Stage.SURVIVORS:
                assert a.player == s.actor == s.players[s.pending[0].seat]
                seen += 1
        if seen:
            break
    assert seen


def test_unknown_level_is_refused():
    s = engine.new_game("official-2p", NAMES[:2], 1)
    with pytest.raises(ValueError, match="unknown AI level"):
        choose(s, "godlike", 1)


def _states(seed: int, n: int = 60):
    out = []
    for i, (s, _level, _a) in enumerate(_play(["normal", "normal", "normal"], seed,
                                                "official-3p")):
        if i % 3 == 0:
            out.append(s)
        if len(out) >= n:
            break
    return out


SEARCHED = {"easy": 60, "normal": 60, "hard": 25, "expert": 10}


@pytest.mark.parametrize("level", LEVELS)
def test_choice_ignores_hidden_information_and_is_deterministic(level, monkeypatch):
    """Other players' coins, the stacks' order, the random state and forced dice changed:
    the same action, at every level (for the search levels, on positions where they did
    weigh several moves in sampled worlds)."""
    from ai import search

    judged = []
    real = search.judge

    def counting(*args, **kwargs):
        judged.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(search, "judge", counting)
    rnd = random.Random(9)
    states = _states(5, SEARCHED[level])
    changed_secret = 0
    for s in states:
        a = choose(s, level, 77)
        assert choose(s, level, 77) == a
        t = _alter_secrets(s, rnd)
        me = s.players.index(s.actor)
        if any(t.seats[i].coins != s.seats[i].coins for i in range(len(s.seats)) if i != me):
            changed_secret += 1
        assert choose(t, level, 77) == a, (s.version, level)
    assert changed_secret > len(states) // 2
    if level != "easy":
        assert len(judged) >= len(states) // 3, (level, len(judged))


def _scenario_files():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    return sorted((root / "tests" / "rules" / "scenarios").glob("*.json")) + sorted(
        (root / "docs" / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", _scenario_files(), ids=lambda p: p.stem)
def test_any_position_gets_a_legal_answer_at_every_level(path):
    """Hand-built positions (every race and power prompt in the rule scenarios): the AI
    answers each with a legal action and can play on from there for a while."""
    import json

    s = engine.load_scenario(json.loads(path.read_text(encoding="utf-8")))
    for level in LEVELS:
        t = s
        for n in range({"hard": 3, "expert": 1}.get(level, 12)):
            if t.finished:
                break
            a = choose(t, level, n)
            legal = [x.model_dump(mode="json") for x in engine.legal_actions(t)]
            assert a.model_dump(mode="json") in legal, (path.stem, level, a)
            t = engine.apply(t, a).state


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_time_budget_stops_the_look_ahead_early_and_stays_legal(level, monkeypatch):
    from ai import search

    calls = []
    real = search.outcome

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(search, "outcome", counting)
    s = engine.new_game("official-5p", ["a", "b", "c", "d", "e"], 2)
    a = choose(s, level, 1, budget_s=0.0)  # one sample per candidate, then stop
    quick = len(calls)
    legal = [x.model_dump(mode="json") for x in engine.legal_actions(s)]
    assert a.model_dump(mode="json") in legal
    calls.clear()
    choose(s, level, 1)
    assert 0 < quick < len(calls)
