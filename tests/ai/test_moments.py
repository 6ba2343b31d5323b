"""ai.review_game: a finished game's win chances per turn map, its swings and each player's
better turn, on real games played by the AI."""

from __future__ import annotations

import functools
import json

import pytest

import engine
import story
from ai import choose, review_game
from ai.moments import GAIN, SWINGS, GameReview, public_events
from ai.review import ends_turn, play_turn

NAMES = ["ann", "bob", "cid", "dee", "eve"]


@functools.lru_cache(maxsize=8)
def _game(seed: int, players: int, level: str = "easy"):
    """A finished game played by the AI at `level`: (first state, actions)."""
    s = start = engine.new_game(f"official-{players}p", NAMES[:players], seed)
    actions = []
    while not s.finished:
        a = choose(s, level, seed * 1000 + len(actions))
        actions.append(a)
        s = engine.apply(s, a).state
    return start, tuple(actions)


@functools.lru_cache(maxsize=4)
def _own_game(seed: int, players: int, level: str):
    """A game whose every turn is the AI's own at `level` and `seed`, played as the review
    plays it (ai.review.play_turn from the mover's first decision); the survivors placed
    after a turn by the AI with other seeds."""
    s = start = engine.new_game(f"official-{players}p", NAMES[:players], seed)
    actions: list[engine.Action] = []
    while not s.finished:
        if s.stage is engine.Stage.SURVIVORS:
            a = choose(s, "easy", 7 + len(actions))
            actions.append(a)
            s = engine.apply(s, a).state
            continue
        mine, s, _ = play_turn(s, level, seed)
        actions += mine
    return start, tuple(actions)


@functools.lru_cache(maxsize=8)
def _review(seed: int, players: int, work: int = 2, level: str = "normal"):
    start, actions = _game(seed, players)
    return review_game(start, actions, seed=seed, work=work, level=level)


@pytest.mark.parametrize("seed,players", [(3, 2), (5, 3)])
def test_a_chance_per_posted_turn_map_summing_to_one(seed, players):
    start, actions = _game(seed, players)
    r = _review(seed, players)
    told = story.tell(start, [a.model_dump(mode="json") for a in actions])
    assert len(r.chances) == len(told.frames) == len(r.margins)
    for row in r.chances:
        assert set(row) == set(start.players)
        assert sum(row.values()) == pytest.approx(1)
        assert all(0 <= v <= 1 for v in row.values())
    # the last turn map is the end of the game: the winners share it all
    assert {p for p, v in r.chances[-1].items() if v > 0} == set(told.winners)
    for swing in r.swings:  # a swing is a turn of the story, by its player in its round
        frame = told.frames[swing.turn]
        assert (frame.player, frame.round) == (swing.player, swing.round)


def test_swings_are_the_biggest_moves_of_the_movers_margin():
    start, actions = _game(5, 3)
    r = _review(5, 3)
    told = story.tell(start, [a.model_dump(mode="json") for a in actions])
    assert len(r.swings) == SWINGS
    sizes = [abs(s.delta) for s in r.swings]
    assert sizes == sorted(sizes, reverse=True)
    # each delta is the mover's margin after the turn minus after the turn before
    every = []
    for i, frame in enumerate(told.frames):
        if frame.player is None:
            continue
        prev = r.margins[i - 1][frame.player] if i else None
        if prev is not None:
            every.append(abs(r.margins[i][frame.player] - prev))
    assert min(sizes) >= sorted(every, reverse=True)[SWINGS] - 1e-9
    for s in r.swings:
        if s.turn:
            assert s.delta == pytest.approx(r.margins[s.turn][s.player]
                                            - r.margins[s.turn - 1][s.player])
        # words only, no coins: picks, declines and conquests of the mover
        assert all(e["type"] in ("picked", "declined", "conquered") and e["player"] == s.player
                   for e in s.events)
        assert not any(k in e for e in s.events for k in ("paid", "coins", "income"))


def test_a_better_turn_is_legal_clearly_better_and_different():
    start, actions = _game(5, 3)
    r = _review(5, 3)
    assert set(r.better) == set(start.players)
    found = [b for b in r.better.values() if b is not None]
    assert found, "an easy player's game has a turn the normal AI plays better"
    told = story.tell(start, [a.model_dump(mode="json") for a in actions])
    for name, b in r.better.items():
        if b is None:
            continue
        assert b.gain >= GAIN
        assert told.frames[b.turn].player == name and told.frames[b.turn].round == b.round
        # from the mover's first decision of that turn the AI's actions are legal and end
        # it, and they are not the actions played
        s, rest = start, list(actions)
        while not (s.round == b.round and s.actor == name and
                   s.stage is not engine.Stage.SURVIVORS):
            s = engine.apply(s, rest.pop(0)).state
        first, played = s, []
        while True:
            played.append(rest[0].model_dump(mode="json"))
            step = engine.apply(s, rest.pop(0))
            s = step.state
            if ends_turn(step.events):
                break
        s = first
        for k, raw in enumerate(b.actions):
            step = engine.apply(s, engine.parse_action(dict(raw)))
            s = step.state
            assert ends_turn(step.events) == (k == len(b.actions) - 1)
        assert list(b.actions) != played


def test_no_better_turn_when_every_turn_was_the_ais_own():
    start, actions = _own_game(4, 2, "normal")
    r = review_game(start, actions, seed=4, work=2, level="normal")
    assert r.better == {"ann": None, "bob": None}
    # another seed's AI plays other turns: the same log is then judged against them
    other = review_game(start, actions, seed=5, work=2, level="normal")
    assert other.chances != r.chances or other.swings != r.swings


def test_same_inputs_same_review_and_json_round_trip():
    start, actions = _game(3, 2)
    r = _review(3, 2)
    again = review_game(start, [a.model_dump(mode="json") for a in actions], seed=3, work=2,
                        level="normal")
    assert again == r
    assert GameReview.from_json(r.to_json()) == r
    assert GameReview.from_dict(json.loads(json.dumps(r.to_dict()))) == r


@pytest.mark.parametrize("bad", [
    None, [], {}, "x",
    {"players": ["a"], "seed": 1, "work": 2, "level": "hard", "chances": [{"b": 1}],
     "margins": [{"b": 1}], "swings": [], "better": {"a": None}},
    {"players": ["a"], "seed": 1, "work": 2, "level": "hard", "chances": [{"a": "x"}],
     "margins": [{"a": 1}], "swings": [], "better": {"a": None}},
    {"players": ["a"], "seed": 1, "work": 2, "level": "godlike", "chances": [{"a": 1}],
     "margins": [{"a": 1}], "swings": [], "better": {"a": None}},
    {"players": ["a"], "seed": 1, "work": 2, "level": "hard", "chances": [{"a": 1}],
     "margins": [{"a": 1}], "swings": [], "better": {}},
])
def test_malformed_reviews_are_refused(bad):
    with pytest.raises(ValueError, match="not a game review"):
        GameReview.from_dict(bad)
    with pytest.raises(ValueError, match="not a game review"):
        GameReview.from_json("{not json")


def test_an_unfinished_game_is_not_reviewed():
    start, actions = _game(3, 2)
    with pytest.raises(ValueError, match="does not end the game"):
        review_game(start, actions[:-5], seed=1, work=1)
    with pytest.raises(ValueError, match="unknown AI level"):
        review_game(start, actions, seed=1, work=1, level="godlike")


def test_public_events_keep_no_coins():
    events = [{"type": "picked", "player": "ann", "slot": 2, "race": "Ratmen",
               "power": "Flying", "paid": 2},
              {"type": "scored", "player": "ann", "income": 5, "coins": 12},
              {"type": "conquered", "player": "bob", "region": 3, "race": "Orcs",
               "tokens": 3, "defender": None}]
    assert public_events(events, "ann") == (
        {"type": "picked", "player": "ann", "race": "Ratmen", "power": "Flying"},)
