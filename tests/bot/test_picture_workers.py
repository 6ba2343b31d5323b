"""bot/pictures.py with real worker processes: the guessing worker runs at low priority, a
dead worker is replaced without losing the picture asked for, and a guess is reused."""

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


def _pids(pool: object) -> list[int]:
    return list(getattr(pool, "_processes", {}) or {})


@pytest.fixture
async def processes() -> AsyncIterator[None]:
    pictures.use_render_process(1)
    await asyncio.wait_for(pictures.warm(), 120)
    try:
        yield
    finally:
        pictures.use_render_thread()


async def test_the_guessing_worker_runs_at_a_lower_priority(processes: None) -> None:
    (now_pid,) = _pids(pictures._NOW)
    (ahead_pid,) = _pids(pictures._AHEAD)
    assert now_pid != ahead_pid != os.getpid()
    assert os.getpriority(os.PRIO_PROCESS, ahead_pid) > os.getpriority(os.PRIO_PROCESS, now_pid)


async def test_a_killed_worker_is_replaced_and_the_picture_still_comes(processes: None) -> None:
    png = await pictures.map_png(_state())
    assert png is not None and png.startswith(b"\x89PNG")
    (pid,) = _pids(pictures._NOW)
    old_pool = pictures._NOW
    os.kill(pid, signal.SIGKILL)
    await asyncio.sleep(0.5)  # the pool notices the death and marks itself broken
    other = _state("official-2p")  # not in the cache: must be drawn
    png2 = await asyncio.wait_for(pictures.map_png(other), 120)
    assert png2 is not None and png2.startswith(b"\x89PNG")
    assert pictures._NOW is not old_pool
    assert pid not in _pids(pictures._NOW)


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
