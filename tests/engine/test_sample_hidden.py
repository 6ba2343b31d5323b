"""engine.sample_hidden: a cheap look-ahead copy with what a seat cannot see redrawn."""

from __future__ import annotations

import random

import engine


def _midgame(seed: int = 3) -> engine.GameState:
    rnd = random.Random(seed)
    s = engine.new_game("official-3p", ["ann", "bob", "cid"], seed)
    for _ in range(60):
        s = engine.apply(s, rnd.choice(engine.legal_actions(s))).state
    return s


def test_hidden_parts_are_redrawn_and_the_rest_is_kept() -> None:
    s = _midgame()
    before = engine.dump_state(s)
    v = engine.sample_hidden(s, "bob", random.Random(1), coins=lambda i: 40 + i)
    assert engine.dump_state(s) == before  # the original is untouched
    assert [x.coins for x in v.seats] == [40, s.seats[1].coins, 42]
    assert sorted(v.banners) == sorted(s.banners) and sorted(v.badges) == sorted(s.badges)
    assert (v.banners, v.badges) != (s.banners, s.badges)
    assert v.rng.getstate() != s.rng.getstate() and v.dice == ()
    pub = engine.observe(s, "bob")
    assert engine.observe(v, "bob") == pub  # bob sees no difference
    # the same rng gives the same sample; another gives another
    w = engine.sample_hidden(s, "bob", random.Random(1), coins=lambda i: 40 + i)
    assert engine.dump_state(w) == engine.dump_state(v)
    u = engine.sample_hidden(s, "bob", random.Random(2))
    assert (u.banners, u.badges) != (v.banners, v.badges)


def test_playing_on_a_sample_never_touches_the_original() -> None:
    s = _midgame(5)
    before = engine.dump_state(s)
    v = engine.sample_hidden(s, s.actor, random.Random(9))
    rnd = random.Random(0)
    while not v.finished:
        v = engine.apply(v, rnd.choice(engine.legal_actions(v))).state
    assert engine.dump_state(s) == before
