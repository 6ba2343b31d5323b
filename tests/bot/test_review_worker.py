"""The review worker: one process at the lowest priority makes the same review as in this
process, and the bot's thread stays usable after the process is released."""

from __future__ import annotations

import os

import engine
from ai import choose
from ai.moments import GameReview, review_game, review_json
from bot.archive import reviews


def _game():
    s = start = engine.new_game("official-2p", ["ann", "bob"], 2)
    actions = []
    while not s.finished:
        a = choose(s, "easy", len(actions))
        actions.append(a.model_dump(mode="json"))
        s = engine.apply(s, a).state
    return start, actions


def test_the_review_process_runs_at_nice_19_and_reviews_as_here() -> None:
    start, actions = _game()
    reviews.use_review_process()
    try:
        pool = reviews._POOL
        assert pool.submit(os.nice, 0).result(timeout=120) >= reviews.REVIEW_NICE
        raw = pool.submit(review_json, start, actions, 2, 1, "easy").result(timeout=300)
        names = pool.submit(eval, "sorted(__import__('sys').modules)").result(timeout=60)
    finally:
        reviews.use_review_thread()
    assert GameReview.from_json(raw) == review_game(start, actions, seed=2, work=1,
                                                    level="easy")
    assert reviews._POOL.submit(lambda: 1).result() == 1
    assert "ai.moments" in names  # loaded by its initializer, at nice 19
    assert not {"bot.archive.reviews", "bot.store", "aiosqlite", "asyncpg"} & set(names)
