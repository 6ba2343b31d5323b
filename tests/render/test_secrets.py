"""The public picture gets no coin information."""

from __future__ import annotations

import re

import pytest

import ai
import engine
import render
import story
from render import mapview, replay, sprites, static

# caches that keep drawn text: cleared around a test so that everything is drawn again
TEXT_CACHES = (sprites.region_label, sprites.piece, static.map_layer)


@pytest.fixture
def drawn_text(drawn_strings):
    """Every string any ImageDraw draws during the test (caches cleared so all is redrawn)."""
    seen = drawn_strings
    for cached in TEXT_CACHES:
        cached.cache_clear()
    mapview.clear_strips()
    sprites.clear_markers()
    yield seen
    for cached in TEXT_CACHES:
        cached.cache_clear()
    mapview.clear_strips()
    sprites.clear_markers()


def test_public_map_sees_only_the_public_observation(busy_state, monkeypatch) -> None:
    calls = []
    real_observe = engine.observe

    def observe(state, viewer=None, **kw):
        calls.append(viewer)
        obs = real_observe(state, viewer, **kw)
        calls.append(obs)
        return obs

    drawn = []
    real_draw = render.map_image

    def map_image(board, observation, **kw):
        drawn.append(observation)
        return real_draw(board, observation, **kw)

    monkeypatch.setattr(engine, "observe", observe)
    monkeypatch.setattr(render, "map_image", map_image)
    render.map_png(busy_state)
    assert calls[0::2] == [None]
    assert drawn == [calls[1]]
    assert all("coins" not in p for p in drawn[0]["players"].values())


@pytest.mark.parametrize("board_id", engine.data.BOARD_IDS)
def test_no_coin_text_in_the_public_map(board_id, scenario_of, drawn_text) -> None:
    spec = scenario_of(board_id)
    for i, seat in enumerate(spec["seats"].values()):
        seat["coins"] = 4321 + 111 * i  # numbers nothing else on the map could show
    state = engine.load_scenario(spec)
    render.map_png(state)
    assert drawn_text, "the spy saw no text"
    assert not [s for s in drawn_text if "coin" in s.lower()]
    assert not [s for s in drawn_text if any(str(4321 + 111 * i) in s for i in range(5))]
    # the same spy does see them in a player's own view
    drawn_text.clear()
    render.map_png(state, viewer=state.players[0])
    assert [s for s in drawn_text if "4321" in s]


def test_a_viewer_sees_their_own_coins_only(busy_state, drawn_text) -> None:
    me, other = busy_state.players[0], busy_state.players[1]
    render.map_png(busy_state, viewer=me)
    coins = [s for s in drawn_text if "coin" in s.lower()]
    mine = engine.observe(busy_state, me)["players"][me]["coins"]
    assert coins and all(f"your coins: {mine}" in s for s in coins)
    assert len(coins) == 1
    assert other not in " ".join(coins)


def test_the_replay_shows_no_coins(scenario_of, drawn_text) -> None:
    """A game's replay (its turn maps and captions) tells no coin figure: players start with
    coins no map could show, play to the end, and nothing the replay draws holds one."""
    spec = scenario_of("official-3p")
    for i, seat in enumerate(spec["seats"].values()):
        seat["coins"] = 4321 + 111 * i
    start = state = engine.load_scenario(spec)
    actions = []
    while not state.finished:
        action = ai.choose(state, "easy", len(actions))
        state = engine.apply(state, action).state
        actions.append(action)
    tale = story.tell(start, actions)
    assert min(p.coins for p in tale.ranking) >= 4321  # the end card has them; not the replay
    drawn_text.clear()
    replay.replay_png(tale)
    assert drawn_text, "the spy saw no text"
    numbers = [int(n) for s in drawn_text for n in re.findall(r"\d+", s)]
    assert numbers and max(numbers) < 4321
    assert not [s for s in drawn_text if "coin" in s.lower()]
    captions = [replay.caption(f, lang) for f in tale.frames for lang in ("en", "hu", "th")]
    assert not [c for c in captions if re.search(r"\d{4}", c)]
    assert not [c for c in (replay.replay_alt(tale, lang) for lang in ("en", "is"))
                if re.search(r"\d{4}", c)]
