"""The AI off the event loop: `ai.choose` runs in a worker (a process under `python -m bot`,
a thread in tests and the demo). The state goes over as its engine dump and the moves come
back as protocol lines, so the event loop only waits.

`plan_stint` plays a whole stint in the worker — an AI seat's turn, a timed-out member's turn,
AI defenders placing survivors — with exactly the moves the game service would make between
the AI's choices (a vacant seat's skip, a placement that can go only one way), and returns
them with the version and seat each was made at. The service then applies them in ONE
session, checking each against the game as it stands (bot.game.play.Play.play_stint): one
lock and one load per stint instead of two per action.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

import ai
import engine
from bot.game.moves import dump, forced_step, plain_action
from bot.workers import IdlePool, start_niced

log = logging.getLogger(__name__)

AI_NICE = 10  # the AI workers' niceness: replies to members come first on a busy machine
AI_IDLE = 300.0  # seconds without an AI move (or hint) after which the AI processes stop
MAX_STINT_STEPS = 200  # a turn has far fewer actions; a guard against a loop

_POOL: Executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai")


@dataclass(frozen=True, slots=True)
class Move:
    """One planned move: made at `version` by `seat`; `chosen` by the AI (else forced)."""

    version: int
    seat: str
    action: dict[str, Any]
    chosen: bool
    order: str | None = None  # a forced move that follows a defender's standing order


def ai_seed(game_seed: int, version: int) -> int:
    """The AI's seed for one decision: the same game position gives the same choice."""
    return (game_seed * 1_000_003 + version) % 2**31


def use_ai_process(workers: int = 1) -> None:
    """Run the AI in worker processes (the bot): the event loop keeps its GIL and core. They
    start with the first AI move and stop after AI_IDLE seconds without one."""
    global _POOL
    old = _POOL
    _POOL = IdlePool(lambda: _process_pool(workers), AI_IDLE)
    old.shutdown(wait=False)


def _process_pool(workers: int) -> ProcessPoolExecutor:
    """AI processes: they die with the bot and yield the CPU to the bot's event loop (the
    AI is loaded after they lower their priority: bot.workers.start_niced)."""
    return ProcessPoolExecutor(max_workers=workers,
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=start_niced, initargs=(AI_NICE, os.getpid(), __name__))


def use_ai_thread() -> None:
    """Back to one AI thread (the default: tests, the demo)."""
    global _POOL
    stop_ai()
    _POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai")


def stop_ai(wait: bool = False) -> None:
    """Release the AI processes; with `wait`, return once every one has exited."""
    if isinstance(_POOL, IdlePool):
        _POOL.stop(wait=wait)


def pool() -> Executor:
    return _POOL


def _choose(dump_: dict[str, Any], level: str, seed: int) -> dict[str, Any]:
    """Runs in the worker: the AI's action for the state's actor, as a protocol line."""
    state = engine.load_state(dump_)
    return ai.choose(state, level=level, seed=seed).model_dump(mode="json")


def _plan(dump_: dict[str, Any], game_seed: int, version: int, levels: dict[str, str],
          vacant: list[str], orders: dict[str, str] | None = None) -> list[Move]:
    """Runs in the worker: the moves of the stint that starts at `version` (see module)."""
    state = engine.load_state(dump_)
    start = (state.round, state.current)
    moves: list[Move] = []
    for _ in range(MAX_STINT_STEPS):
        if state.finished or (state.round, state.current) != start:
            break
        actor = state.actor
        if actor is None:
            break
        forced, order = forced_step(state, frozenset(vacant), orders)
        if forced is not None:
            action, chosen = forced, False
        elif actor in levels:
            try:
                action = ai.choose(state, level=levels[actor], seed=ai_seed(game_seed, version))
            except Exception:  # noqa: BLE001 - the plainest legal action keeps the game going
                log.exception("the AI failed to choose for %s", actor)
                action = plain_action(state)
            chosen = True
        else:
            break  # a member must act now
        moves.append(Move(version, actor, dump(action), chosen,
                          None if chosen else order))
        state = engine.apply(state, action).state
        version += 1
    return moves


def _hint(dump_: dict[str, Any], seed: int) -> dict[str, Any]:
    """Runs in the worker: the AI's suggestion for the state's actor (ai.hint), as data."""
    state = engine.load_state(dump_)
    told = ai.hint(state, seed=seed)
    return {"action": dump(told.action), "reason": told.reason, "params": dict(told.params)}


async def _run(fn: Any, *args: Any) -> Any:
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(_POOL, fn, *args)
    except BrokenProcessPool:
        log.error("an AI worker died; starting a new one")  # (the pool dropped the dead one)
        return await loop.run_in_executor(_POOL, fn, *args)


async def decide(state: Any, level: str, seed: int) -> dict[str, Any]:
    """The AI's action for `state.actor`, computed off the event loop."""
    return dict(await _run(_choose, engine.dump_state(state), level, seed))


async def hint(state: Any, seed: int) -> dict[str, Any]:
    """The AI's suggestion for `state.actor` ({"action", "reason", "params"}), computed off
    the event loop from the actor's view only."""
    return dict(await _run(_hint, engine.dump_state(state), seed))


async def plan_stint(state: Any, game_seed: int, version: int, levels: dict[str, str],
                     vacant: list[str], orders: dict[str, str] | None = None) -> list[Move]:
    """The moves of the stint that starts at `version` (`levels`: seat -> AI level of every
    seat the AI plays in it; `orders`: seat -> the standing orders of its member), planned
    off the event loop."""
    return list(await _run(_plan, engine.dump_state(state), game_seed, version, levels,
                           sorted(vacant), dict(orders or {})))
