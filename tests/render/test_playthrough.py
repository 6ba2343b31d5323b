"""Pictures of real engine positions over a whole seeded game, and its final reveal."""

from __future__ import annotations

import io
import random

from PIL import Image

import engine
import render


def test_a_whole_game_renders() -> None:
    state = engine.new_game("official-3p", ["ann", "bob", "cid"], seed=3)
    rng = random.Random(3)
    held: dict[str, list[int]] = {p: [] for p in state.players}
    n_maps = 0
    for step in range(5000):
        if state.finished:
            break
        actions = engine.legal_actions(state)
        conquests = [a for a in actions if a.model_dump()["do"] == "conquer"]
        action = rng.choice(conquests) if conquests and rng.random() < 0.8 else rng.choice(actions)
        before = state
        state = engine.apply(state, action).state
        if step % 25 == 0:
            png = render.map_png(state, highlight=[1, 2])
            assert Image.open(io.BytesIO(png)).width >= 1000
            n_maps += 1
        if state.round != before.round or state.finished:
            regions = engine.observe(state, None)["regions"].values()
            for p in state.players:
                held[p].append(sum(1 for r in regions if r.get("owner") == p))
    assert state.finished and n_maps >= 3
    final = Image.open(io.BytesIO(render.final_png(state, held)))
    assert final.width >= 1000
    assert Image.open(io.BytesIO(render.map_png(state))).width >= 1000
