"""What a picture worker runs (bot.pictures sends it the jobs): draw a picture, load the
boards. It imports only the engine, render and bot.workers, so a drawing process loads
nothing else of the bot: no discord.py, aiohttp, store or service (about 30 MB less in
every worker than when the jobs came from bot.pictures itself)."""

from __future__ import annotations

import logging
import signal
from collections.abc import Callable
from typing import Any

import engine
import render
from bot import heap
from bot.workers import bind_to_parent

log = logging.getLogger(__name__)

TRIM_EVERY = 8  # pictures between two returns of the allocator's free pages (bot.heap.trim)
_drawn = 0


def start_worker(parent: int = 0) -> None:
    """Initializer of each drawing process: die with the bot, then load every official
    board's layers and highlight masks (from the render disk cache; made there once), so
    that no reply pays for a cold board in a new worker."""
    # Ctrl-C reaches every process of the terminal's group: the bot shuts the workers down,
    # they must not each die with a KeyboardInterrupt traceback (see bot.workers.QuietSpawnProcess)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent:
        bind_to_parent(parent)
    try:
        warm(list(engine.data.BOARD_IDS))
        render.warm(highlights=True)
        heap.settle("drawing worker")
    except Exception:  # noqa: BLE001 - a failing initializer would break the pool for good
        log.exception("loading the boards in a drawing worker failed")


def draw(name: str, subject: Any, kwargs: dict[str, Any]) -> bytes:
    """One picture, PNG bytes. A map comes as (board, public observation): the bot took the
    observation anyway (the picture's cache key), and it travels to a worker for a fraction
    of the whole state; an official board travels as its id."""
    global _drawn
    try:
        if name == "map_png":
            board, observation = subject
            if isinstance(board, str):
                board = engine.data.board(board)
            return render.observation_png(board, observation, **kwargs)
        drawn: Callable[..., bytes] = getattr(render, name)  # one of render's PNG entry points
        return drawn(subject, **kwargs)
    finally:
        _drawn += 1
        if _drawn % TRIM_EVERY == 0:
            heap.trim()


def warm(board_ids: list[str]) -> bool:
    """Draw one map per board so the board's layers are in memory."""
    for board_id in board_ids:
        n = engine.data.board(board_id).players
        render.map_png(engine.new_game(board_id, [f"p{i}" for i in range(n)], 1))
    return True


def ready() -> bool:
    """A job that does nothing: the worker has started (and loaded the boards)."""
    return True
