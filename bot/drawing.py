"""What a picture worker runs (bot.pictures sends it the jobs): draw a picture, load the
boards. It imports only the engine, render and bot.workers, so a drawing process loads
nothing else of the bot: no discord.py, aiohttp, store or service (about 30 MB less in
every worker than when the jobs came from bot.pictures itself)."""

from __future__ import annotations

import logging
import signal
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

import engine
import render
from bot import heap
from bot.workers import bind_to_parent
from render.replay import replay_steps

log = logging.getLogger(__name__)

TRIM_EVERY = 8  # pictures between two returns of the allocator's free pages (bot.heap.trim)
_drawn = 0
# pictures drawn a step at a time (a replay: one frame a step), so that a reply's picture
# asked for meanwhile waits for one step, not for the whole (bot.pictures._render)
STEPPED: dict[str, Callable[..., Iterator[bytes | None]]] = {
    "replay_png": replay_steps}
KEEP_STEPPING = 4  # pictures under way kept at most (one abandoned by the bot is dropped)
_under_way: OrderedDict[str, Iterator[bytes | None]] = OrderedDict()


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
    try:
        if name == "map_png":
            board, observation = subject
            if isinstance(board, str):
                board = engine.data.board(board)
            return render.observation_png(board, observation, **kwargs)
        drawn: Callable[..., bytes] = getattr(render, name)  # one of render's PNG entry points
        return drawn(subject, **kwargs)
    finally:
        _finished_one()


def draw_step(token: str, name: str, subject: Any, kwargs: dict[str, Any] | None,
              budget: float) -> tuple[bool, bytes | None]:
    """Draw more of a picture made in steps (STEPPED): its first call (`subject` and
    `kwargs` given) starts it; each call draws steps until `budget` seconds have passed.
    -> (done, PNG bytes once done). A token this process does not know (dropped, with more
    than KEEP_STEPPING pictures under way, or started in a worker since replaced) ->
    (True, None): the caller starts again."""
    steps = _under_way.pop(token, None)
    if steps is None:
        if kwargs is None:
            return True, None
        steps = STEPPED[name](subject, **kwargs)
    until = time.perf_counter() + budget
    for done in steps:
        if done is not None:
            _finished_one()
            return True, done
        if time.perf_counter() >= until:
            _under_way[token] = steps
            while len(_under_way) > KEEP_STEPPING:
                _under_way.popitem(last=False)
            return False, None
    raise ValueError(f"{name} ended without a picture")


def _finished_one() -> None:
    global _drawn
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
