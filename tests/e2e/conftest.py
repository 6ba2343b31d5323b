"""e2e fixtures: pay the first-render cost (board layers) once per session."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def warm_render() -> None:
    import render

    render.warm()  # every board: the bot's own start-up warm-up then finds them cached
