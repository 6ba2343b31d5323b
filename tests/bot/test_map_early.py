"""A turn post's map is begun as soon as the turn's end is committed (the service's outcome
listeners), while the session still writes the game's deadlines; the post then gets that
drawing rather than drawing the map again (bench/bot.py: end turns whose commit took 60-80 ms
drew their map only after it)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from game_setup import act_as_actor

import engine
import render
from bot import pictures
from bot.chat.announce import Announcer
from bot.game.results import Outcome
from bot.game.service import GameService
from bot.language import of_game


@pytest.fixture
def service(started: GameService) -> GameService:
    return started


@pytest.fixture
def maps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per map the drawing thread drew; fresh caches."""
    pictures.use_render_thread()
    calls: list[int] = []
    real = render.observation_png

    def counting(*args: Any, **kwargs: Any) -> bytes:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "observation_png", counting)
    return calls


async def test_a_turns_end_is_told_before_the_session_lets_go_and_drawn_once(
        service: GameService, maps: list[int]) -> None:
    heard: list[tuple[Outcome, bool]] = []
    service.hooks.outcome_listeners.append(
        lambda out: heard.append((out, service._locks[1].locked())))
    announcer = Announcer(None, service, None, None)  # type: ignore[arg-type]
    service.hooks.outcome_listeners.append(announcer.map_early)

    picked = await act_as_actor(service, {"do": "pick", "slot": 0})
    assert heard == [] and not picked.turn_ended  # a pick ends nothing: nothing told
    ended = await act_as_actor(service, {"do": "end"})
    assert ended.turn_ended
    assert len(heard) == 1
    told, locked = heard[0]
    assert told is ended and locked  # told while the channel was still the session's
    await asyncio.gather(*announcer._early)
    assert maps == [1]
    # the turn post asks for its map as it always did: the drawing begun early is the one
    (task,) = await announcer._turn_pictures(ended, ended.panel, of_game(ended.game), row=False)
    posted = await task
    assert posted is not None and maps == [1]
    shown = engine.observe(ended.state, None)
    assert posted.fp.getvalue() == await pictures.map_png(ended.state, ended.highlight,
                                                          observation=shown)
