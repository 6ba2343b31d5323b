"""Shared fixtures for the render tests: the sample scenarios of docs/scenarios."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

import pytest

import ai
import engine

SCENARIOS = Path(__file__).resolve().parents[2] / "docs" / "scenarios"


@pytest.fixture(scope="session", autouse=True)
def render_cache_dir(tmp_path_factory):
    """A fresh disk cache for the session (so the tests draw everything at least once)."""
    from render.geometry import CACHE_ENV

    path = tmp_path_factory.mktemp("render-cache")
    old = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(path)
    yield path
    if old is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = old


def scenario(board_id: str) -> dict:
    return json.loads((SCENARIOS / f"map-{board_id[-2:]}.json").read_text(encoding="utf-8"))


@pytest.fixture(params=engine.data.BOARD_IDS)
def busy_state(request):
    """A busy mid-game position on each board."""
    return engine.load_scenario(scenario(request.param))


@pytest.fixture
def scenario_of():
    """The sample scenario spec of a board."""
    return scenario


@pytest.fixture
def drawn_strings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string drawn during the test: through ImageDraw.text, or as a run that render.text
    draws from its glyph cache (which passes ImageDraw.text by)."""
    from PIL import ImageDraw

    from render import text

    seen: list[str] = []
    original, original_run = ImageDraw.ImageDraw.text, text._text

    def spy(self, xy, s, *args, **kwargs):
        seen.append(str(s))
        return original(self, xy, s, *args, **kwargs)

    def spy_run(d, xy, s, *args):
        seen.append(s)
        return original_run(d, xy, s, *args)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    monkeypatch.setattr(text, "_text", spy_run)
    return seen


GameLog = tuple[engine.GameState, list[dict], list[list[dict]]]


@lru_cache(maxsize=16)
def _played(board_id: str, seed: int, stop: int | None) -> GameLog:
    n = engine.data.board(board_id).players
    names = ["Anna", "Bence", "Csilla", "Dóra", "Endre"][:n]
    start = state = engine.new_game(board_id, names, seed)
    actions: list[dict] = []
    events: list[list[dict]] = []
    while not state.finished and (stop is None or len(actions) < stop):
        action = ai.choose(state, "easy", len(actions))
        step = engine.apply(state, action)
        actions.append(action.model_dump(mode="json"))
        events.append([dict(e) for e in step.events])  # as the bot stores them
        state = step.state
    return start, actions, events


@pytest.fixture
def game_log():
    """game_log(board_id, seed, stop=None): a game played by the easy AI (to its end, or for
    `stop` actions) as the bot stores it: the first state, the actions (protocol dicts) and
    each action's events. The same arguments give the same game (and the same objects:
    do not change them)."""
    return lambda board_id, seed=11, stop=None: _played(board_id, seed, stop)
