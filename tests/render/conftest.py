"""Shared fixtures for the render tests: the sample scenarios of docs/scenarios."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

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
