"""AI seats and timeouts: the AI plays through the game service, off the event loop.

`decide` runs `ai.choose` in a worker (a process under `python -m bot`, a thread in tests and
the demo): the state goes over as its engine dump, the action comes back as its protocol
line, so the event loop only waits. `AutoPlayer.play` plays one stint — an AI seat's turn, a
timed-out member's turn, survivors to place — one action at a time through
`GameService.auto_act` (the same commit-before-reply path and version checks as a member's
command), then posts one summary with the map (`post`). `AutoPlayer.fire` is the scheduler's
handler for every deadline kind (bot/clock.py).

Nothing here touches discord: the bot passes `post` and `remind` callbacks (bot/flow.py), the
demo (bot/demo.py) passes its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import engine
import i18n
from bot.clock import Deadline, clock_of, format_duration, level_name
from bot.errors import NoGameHere, RuleBroken, StaleVersion
from bot.language import of_game
from bot.service import TIMEOUT_LEVEL, GameService, Outcome, _skip_action

log = logging.getLogger(__name__)

MAX_STINT_STEPS = 200  # a turn has far fewer actions; a guard against a loop
RETRY_AFTER = 30.0  # seconds before a deadline whose handler failed is tried again

# player-facing lines: catalog domain clock/ (i18n/catalogs/clock/<lang>.json); public lines
# speak the game's language, a reminder by DM its reader's. The alarm clock is chat decoration
# (no picture font has it), so it stays out of the catalogs.
ALARM = "⏰ "


_POOL: Executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai")
_workers = 1


def use_ai_process(workers: int = 1) -> None:
    """Run the AI in worker processes (the bot): the event loop keeps its GIL and core."""
    global _POOL, _workers
    old = _POOL
    _POOL, _workers = _process_pool(workers), workers
    old.shutdown(wait=False)


AI_NICE = 10  # the AI workers' niceness: replies to members come first on a busy machine


def _start_worker(nice: int, parent: int = 0) -> None:
    """Initializer of each AI process: die with the bot (however it ends), yield the CPU to
    the bot's event loop, load the AI."""
    import os

    if parent:
        from bot.pictures import bind_to_parent

        bind_to_parent(parent)
    with contextlib.suppress(OSError):
        os.nice(nice)
    import ai  # noqa: F401 - the first decision should not pay for the import


def _process_pool(workers: int) -> ProcessPoolExecutor:
    import multiprocessing

    return ProcessPoolExecutor(max_workers=workers,
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(AI_NICE, os.getpid()))


def use_ai_thread() -> None:
    """Back to one AI thread (the default: tests, the demo)."""
    global _POOL, _workers
    stop_ai()
    _POOL, _workers = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai"), 1


def stop_ai(wait: bool = False) -> None:
    """Release the AI processes; with `wait`, return once every one has exited."""
    if isinstance(_POOL, ProcessPoolExecutor):
        _POOL.shutdown(wait=wait, cancel_futures=True)


def _choose(dump: dict[str, Any], level: str, seed: int) -> dict[str, Any]:
    """Runs in the worker: the AI's action for the state's actor, as a protocol line."""
    from ai import choose

    state = engine.load_state(dump)
    return choose(state, level=level, seed=seed).model_dump(mode="json")


async def decide(state: Any, level: str, seed: int) -> dict[str, Any]:
    """The AI's action for `state.actor`, computed off the event loop."""
    global _POOL
    dump = engine.dump_state(state)
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(_POOL, _choose, dump, level, seed)
    except BrokenProcessPool:
        log.error("an AI worker died; starting a new one")
        _POOL = _process_pool(_workers)
        return await loop.run_in_executor(_POOL, _choose, dump, level, seed)


def ai_seed(game_seed: int, version: int) -> int:
    """The AI's seed for one decision: the same game position gives the same choice."""
    return (game_seed * 1_000_003 + version) % 2**31


Post = Callable[[Outcome], Awaitable[None]]
Remind = Callable[[int, int, int, str], Awaitable[None]]  # channel, game, user, text


class AutoPlayer:
    """Plays AI stints through the service and handles the scheduler's deadlines."""

    def __init__(self, service: GameService, post: Post, remind: Remind | None = None) -> None:
        self.service = service
        self.post = post
        self.remind = remind
        self.stints = 0

    async def play(self, channel_id: int, seat: str, *, forced: str | None = None,
                   header: list[str] | None = None) -> Outcome | None:
        """Play `seat`'s part of the current turn with the AI, then post one summary.

        `forced` is the level for a member's seat whose limit ran out (otherwise the seat's
        own AI level). AI defenders who must place survivors within the same turn are played
        too; the stint stops when a member must act, the next turn starts, or the game ends.
        """
        service = self.service
        events: list[dict[str, Any]] = []
        first_seq = 0
        start: tuple[int, int] | None = None
        for _ in range(MAX_STINT_STEPS):
            try:
                loaded = await service.view(channel_id)
            except NoGameHere:
                break  # finished, or ended by a moderator
            state = loaded.state
            if state.finished:
                break
            turn = (state.round, state.current)
            if start is None:
                start = turn
            elif turn != start:
                break
            actor = state.actor
            timed_out = bool(forced) and actor == seat
            level = forced if timed_out else service.auto_level(loaded.game, actor)
            if level is None:
                break
            try:
                action = await decide(state, level, ai_seed(loaded.game.seed, loaded.version))
            except Exception:  # noqa: BLE001 - the plainest legal action keeps the game going
                log.exception("game %s: the AI failed to choose for %s", loaded.game.id, actor)
                action = _plain(state)
            try:
                out = await service.auto_act(channel_id, actor, action, version=loaded.version,
                                             level=level, timed_out=timed_out)
            except StaleVersion:
                continue  # somebody acted meanwhile: look again
            except RuleBroken as exc:
                log.error("game %s: the AI chose a refused action %s (%s)", loaded.game.id,
                          action, exc.rule_code)
                out = await service.auto_act(channel_id, actor, _plain(state),
                                             version=loaded.version, level=level,
                                             timed_out=timed_out)
            first_seq = first_seq or loaded.version + 1
            events.extend(out.events)
            if out.finished:
                break
        if not events and not header:
            return None
        report = await service.report(channel_id, events, first_seq=first_seq,
                                      headline=header or ())
        self.stints += 1
        await self.post(report)
        return report

    async def fire(self, row: Deadline) -> None:
        """The scheduler's handler: a due deadline of any kind."""
        service = self.service
        try:
            await self._fire(row)
        except asyncio.CancelledError:  # the bot is stopping: the next start takes it again
            with contextlib.suppress(Exception):
                await service.store.retry_deadline(row, row.due_at)
            raise
        except Exception:
            await service.store.retry_deadline(row, time.time() + RETRY_AFTER)
            raise
        else:
            await service.store.finish_deadline(row)
        finally:
            service.forget_stint(row.game_id)

    async def _fire(self, row: Deadline) -> None:
        service = self.service
        loaded = await service.game_for(row.game_id)
        if loaded is None or loaded.state.finished:
            return
        game, state = loaded.game, loaded.state
        channel_id = game.channel_id
        actor = state.actor
        current = state.players[state.current]
        if row.kind == "ai":
            if service.auto_level(game, actor) and await self.play(channel_id, actor) is None:
                now = await service.game_for(row.game_id)
                if (now is not None and now.version == loaded.version
                        and service.auto_level(now.game, now.state.actor)):
                    raise RuntimeError(f"the AI made no move for {actor}")  # retried later
            return
        if actor != row.seat or service.auto_level(game, actor):
            return  # the stint is over (or the AI has the seat): nothing to do
        stint = (f"turn:{actor}:{state.round}" if actor == current
                 else f"surv:{actor}:{state.round}:{current}")
        if stint != row.key:
            return
        if row.kind in ("half", "near"):
            seat = game.seat_named(row.seat)
            deadline = next((d for d in await service.store.deadlines(game.id)
                             if d.kind == "turn"), None)
            if seat is None or not seat.user_id or deadline is None or self.remind is None:
                return
            left = format_duration(max(0.0, deadline.due_at - time.time()))
            lang = of_game(game)  # a mention in the channel: the game's language
            if clock_of(game.options.get("clock")).remind == "dm" and service.dm_language:
                lang = await service.dm_language(seat.user_id, game)  # a DM: the reader's
            line = ALARM + i18n.t("clock.reminder", lang, user=seat.user_id, channel=channel_id,
                          game=game.id, left=left)
            await self.remind(channel_id, game.id, seat.user_id, line)
        elif row.kind == "turn":
            count, away = await service.timed_out(channel_id, actor)
            limit = format_duration(clock_of(game.options.get("clock")).limit)
            lang = of_game(game)
            header = [ALARM + i18n.t("clock.timed_out", lang, seat=actor, limit=limit,
                             level=level_name(TIMEOUT_LEVEL, lang))]
            seat = game.seat_named(actor)
            if away and seat is not None:
                header.append(i18n.t("clock.away", lang, n=count, seat=actor,
                                     user=seat.user_id))
            await self.play(channel_id, actor, forced=TIMEOUT_LEVEL, header=header)
        elif row.kind == "survivors":
            limit = format_duration(service.rules.survivor_limit)
            header = [ALARM + i18n.t("clock.survivors_timed_out", of_game(game), seat=actor,
                             limit=limit)]
            await self.play(channel_id, actor, forced=TIMEOUT_LEVEL, header=header)


def _plain(state: Any) -> Any:
    action = _skip_action(engine.legal_actions(state))
    return action if action is not None else engine.legal_actions(state)[0]
