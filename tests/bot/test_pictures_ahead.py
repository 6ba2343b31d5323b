"""bot/pictures.py's policy for drawing ahead: a guess is drawn only once its position has
stood a moment, a quick run of positions costs one drawing, a guess of a game that moved on
is never drawn, and what the guesses bought is counted (bench/bot.py prints it)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from game_setup import act_as_actor

import engine
import render
from bot import pictures
from bot.game.results import Outcome
from bot.game.service import GameService

REAL_MAP_PNG = render.map_png


@pytest.fixture
def service(started: GameService) -> GameService:
    return started


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Which pictures the drawing thread drew; fresh caches and counters."""
    pictures.use_render_thread()
    monkeypatch.setattr(pictures, "stats", pictures.Drawings())
    monkeypatch.setattr(pictures, "GUESS_SETTLE", 0.3)
    calls: list[str] = []
    # a map reaches the drawer as its public observation: render.observation_png draws it
    for name, what in (("observation_png", "map_png"), ("row_png", "row_png")):
        real = getattr(render, name)

        def counting(*args: Any, _real: Any = real, _name: str = what, **kwargs: Any) -> bytes:
            calls.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(render, name, counting)
    return calls


async def _until_end_is_legal(svc: GameService) -> Outcome:
    """Play (conquests first) until the player to act could end the turn and may still move
    tokens about: the moment the bot guesses the end-of-turn map."""
    rng = random.Random(3)
    out = None
    for _ in range(200):
        loaded = await svc.view(1)
        legal = [a.model_dump(mode="json") for a in engine.legal_actions(loaded.state)]
        verbs = {a["do"] for a in legal}
        if out is not None and "end" in verbs and verbs & {"deploy", "move", "abandon"} \
                and "pick" not in verbs:
            return out
        busy = [a for a in legal if a["do"] in ("pick", "conquer", "deploy")]
        action = rng.choice(busy or legal)
        out = await act_as_actor(svc, {k: v for k, v in action.items() if k != "player"})
    raise AssertionError("no position where the turn could end came up")


async def _idle() -> None:
    for _ in range(200):
        if pictures.ahead_idle() and pictures.render_idle():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the guesses never finished")


async def test_a_settled_guess_is_drawn_once_and_the_end_reply_posts_it(
        service: GameService, drawn: list[str]) -> None:
    out = await _until_end_is_legal(service)
    pictures.draw_ahead(service, out)
    await asyncio.sleep(0.1)
    assert drawn == []  # not before the position has stood GUESS_SETTLE
    await _idle()
    assert drawn.count("map_png") == 1
    assert pictures.stats.ahead["end"] >= 1 and pictures.stats.used["end"] == 0

    ended = await act_as_actor(service, {"do": "end"})
    png = await pictures.map_png(ended.state, ended.highlight)
    assert drawn.count("map_png") == 1  # the reply drew nothing: it posted the guess
    assert png == REAL_MAP_PNG(ended.state, highlight=ended.highlight)  # and the right one
    assert pictures.stats.used["end"] == 1
    assert pictures.stats.hit_rate("end") == pytest.approx(1 / pictures.stats.ahead["end"])
    assert "1 of them posted" in str(pictures.stats)


async def test_a_guess_waits_until_no_drawer_is_busy(service: GameService,
                                                    drawn: list[str]) -> None:
    """A guess never takes a drawer a reply might want: while any drawer has a picture
    queued or in hand, guesses wait (they are drawn the moment all are idle)."""
    out = await _until_end_is_legal(service)
    pictures._busy[0] += 1  # a picture in hand (as while a reply's map is being drawn)
    try:
        pictures.draw_ahead(service, out)
        await asyncio.sleep(pictures.GUESS_SETTLE + 0.4)
        assert drawn == [] and not pictures.ahead_idle()
    finally:
        pictures._busy[0] -= 1
    await _idle()
    assert drawn.count("map_png") == 1


async def test_quick_positions_cost_one_drawing(service: GameService,
                                                drawn: list[str]) -> None:
    out = await _until_end_is_legal(service)
    for _ in range(5):  # the same channel asked again and again within the settle time
        pictures.draw_ahead(service, out)
        await asyncio.sleep(0.02)
    await _idle()
    assert drawn.count("map_png") == 1


async def test_a_guess_of_a_game_that_moved_on_is_not_drawn(service: GameService,
                                                           drawn: list[str]) -> None:
    out = await _until_end_is_legal(service)
    pictures.draw_ahead(service, out)
    await act_as_actor(service, {"do": "end"})  # before the guess settled: it is stale now
    await _idle()
    assert drawn == []
    assert pictures.stats.stale["end"] == 1
    assert pictures.stats.ahead["end"] == 0


async def test_only_likely_guesses_are_taken(service: GameService, drawn: list[str]) -> None:
    out = await _until_end_is_legal(service)
    with pytest.raises(ValueError, match="maybe"):
        pictures.draw_ahead(service, out, "maybe")
    assert pictures.ahead_idle()


def test_a_kind_pays_while_most_of_its_recent_guesses_are_posted() -> None:
    d = pictures.Drawings()
    assert d.pays("end")  # nothing known yet: guess
    for _ in range(10):
        d.drew_ahead("end")
    assert d.recent_hit_rate("end") == 0 and not d.pays("end")
    for _ in range(40):  # lately nearly every guess was posted
        d.drew_ahead("end")
        d.posted("end")
    assert d.recent_hit_rate("end") > pictures.AHEAD_MIN_HIT and d.pays("end")
    for i in range(60):  # then one in four
        d.drew_ahead("end")
        if i % 4 == 0:
            d.posted("end")
    assert not d.pays("end") and d.pays("row")
    assert d.hit_rate("end") == pytest.approx(55 / 110)


async def test_a_kind_that_does_not_pay_is_held_back_but_probed(
        service: GameService, drawn: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for _ in range(20):
        pictures.stats.drew_ahead("end")  # 20 guesses lately, none posted
    pictures.stats.ahead.clear()
    out = await _until_end_is_legal(service)
    pictures.draw_ahead(service, out)
    await _idle()
    assert drawn == [] and pictures.stats.held["end"] == 1

    monkeypatch.setattr(pictures, "AHEAD_PROBE", 1)  # every held guess is a probe
    pictures.draw_ahead(service, out)
    await _idle()
    assert drawn.count("map_png") == 1 and pictures.stats.ahead["end"] == len(drawn)


async def test_a_position_reached_again_at_another_version_is_not_drawn_again(
        service: GameService, drawn: list[str]) -> None:
    """The picture cache is keyed by what a map shows (render.mapview.MAP_FIELDS): the same
    position at a later version (an action no map shows: the guess was right after all)
    posts the picture already drawn."""
    import dataclasses

    state = (await service.view(1)).state
    later = dataclasses.replace(state, version=state.version + 3)
    assert engine.observe(later, None) != engine.observe(state, None)  # the version differs
    first = await pictures.map_png(state, (2,))
    assert await pictures.map_png(later, (2,)) == first
    assert drawn == ["map_png"]
    moved = dataclasses.replace(state, round=state.round + 1)  # shown: the title's round
    assert await pictures.map_png(moved, (2,)) != first
    assert drawn == ["map_png", "map_png"]
