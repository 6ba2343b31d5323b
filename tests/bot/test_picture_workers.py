"""bot/pictures.py with real worker processes: a dead worker is replaced without losing the
picture asked for, a guess is reused, and a game's pictures meet in one drawer."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator

import pytest

import engine
from bot import pictures


def _state(board: str = "official-3p") -> engine.GameState:
    n = engine.data.board(board).players
    return engine.new_game(board, [f"p{i}" for i in range(n)], 7)


@pytest.fixture
async def processes() -> AsyncIterator[None]:
    pictures.use_render_process(1)
    await asyncio.wait_for(pictures.warm(), 120)
    try:
        yield
    finally:
        pictures.use_render_thread()


async def test_the_drawers_are_processes_of_their_own(processes: None) -> None:
    (pid,) = pictures.drawer_pids()
    assert pid != os.getpid()
    assert os.getpriority(os.PRIO_PROCESS, pid) == os.getpriority(os.PRIO_PROCESS, os.getpid())


async def test_a_killed_worker_is_replaced_and_the_picture_still_comes(processes: None) -> None:
    png = await pictures.map_png(_state())
    assert png is not None and png.startswith(b"\x89PNG")
    (pid,) = pictures.drawer_pids()
    os.kill(pid, signal.SIGKILL)
    await asyncio.sleep(0.5)  # the pool notices the death and marks itself broken
    other = _state("official-2p")  # not in the cache: must be drawn
    png2 = await asyncio.wait_for(pictures.map_png(other), 120)
    assert png2 is not None and png2.startswith(b"\x89PNG")
    (new,) = pictures.drawer_pids()
    assert new != pid


async def test_a_picture_drawn_ahead_is_reused(processes: None,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state()
    first = await pictures.map_png(state, (), ahead=True)
    calls: list[str] = []
    real = pictures._render

    async def counting(name: str, *args: object, **kwargs: object) -> bytes | None:
        calls.append(name)
        return await real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pictures, "_render", counting)
    again = await pictures.map_png(state, ())
    assert again == first and calls == []


def test_a_games_pictures_go_to_its_own_drawer_unless_another_is_free(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's next map reuses what its last one left in a worker (panel strips, PNG bands)
    only in the same worker; but a reply never waits behind another game's picture while a
    worker is free."""
    monkeypatch.setattr(pictures, "_NOW", [object(), object(), object()])
    monkeypatch.setattr(pictures, "_busy", [0, 0, 0])
    route = pictures.route_of(_state("official-4p"))
    assert route == pictures.route_of(_state("official-4p"))  # every state of the game
    home = pictures._drawer(route)
    assert home == route % 3
    pictures._busy[home] = 1
    other = pictures._drawer(route)
    assert other != home and pictures._busy[other] == 0
    pictures._busy[:] = [1, 1, 1]
    assert pictures._drawer(route) == home  # all busy: wait at home


async def test_a_reply_picture_is_drawn_by_the_games_drawer(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    pictures.use_render_process(2)
    chosen: list[int] = []
    real = pictures._drawer

    def spy(route: int | None) -> int:
        chosen.append(real(route))
        return chosen[-1]

    monkeypatch.setattr(pictures, "_drawer", spy)
    try:
        state = _state("official-2p")
        first = await asyncio.wait_for(pictures.map_png(state, (1,)), 120)
        second = await asyncio.wait_for(pictures.map_png(state, (2,)), 120)
        assert first and second and first != second
        assert chosen == [pictures.route_of(state) % 2] * 2
        assert pictures.render_idle()
    finally:
        pictures.use_render_thread()


async def test_a_drawing_process_loads_none_of_the_bot(processes: None) -> None:
    """A drawer runs bot.drawing: the engine and render, no discord.py, store or service
    (tens of MB each worker would otherwise hold)."""
    loop = asyncio.get_running_loop()
    names = await loop.run_in_executor(pictures._NOW[0], eval,
                                       "sorted(__import__('sys').modules)")
    assert "bot.drawing" in names and "render" in names
    assert not {"discord", "aiohttp", "aiosqlite", "bot.pictures", "bot.game"} & set(names)


async def test_a_drawing_process_sets_its_start_up_aside_from_the_collector(
        processes: None) -> None:
    """bot.heap.settle ran after the boards were loaded: the collector's full passes skip
    the ~10^5 objects start-up made (one such pass was a 100 ms pause under load)."""
    loop = asyncio.get_running_loop()
    frozen = await loop.run_in_executor(pictures._NOW[0], eval,
                                        "__import__('gc').get_freeze_count()")
    assert frozen > 10_000
