"""Finished games' key-moments reviews (ai.review_game): made in a worker process after a game
ends, kept with the game, and shown on its end card as a win-chance curve.

`Reviews.finished` is a finish listener: it queues the game's review and returns at once.
Reviews are made one game at a time in one worker process at the lowest priority
(`use_review_process`; one thread in tests), never on the event loop. Once stored, the
game's final message (the end post of the Announcer) gets its end card redrawn with the
win chances, in place of the one it had. At start, `backfill` reviews the last few finished
games that have none. Nothing here runs for a game that is not finished: a review reads
every player's coins.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ai.moments import GameReview, review_json
from bot.archive.stories import Stories
from bot.seats import start_state
from bot.store import GameRow, GameStatus, Store
from bot.workers import IdlePool, start_niced

log = logging.getLogger(__name__)

WORK = 32  # playouts per assessment (bench/review.py: a 4p game ~10-20 s CPU)
LEVEL = "hard"
BACKFILL = 20  # finished games without a review reviewed per process start, newest first
REVIEW_NICE = 19
REVIEW_IDLE = 10.0  # seconds without a review after which the review process stops (a
# review comes with a game's end: a new process for the next costs ~1 s of CPU at nice 19)

_POOL: Executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")


def _process_pool() -> ProcessPoolExecutor:
    """The review process: it dies with the bot and yields the CPU to everything (loading
    the AI after it lowers its priority: bot.workers.start_niced). It runs ai.moments'
    review_json, so it loads the AI and the engine, none of the bot's store or service."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=start_niced,
                               initargs=(REVIEW_NICE, os.getpid(), "ai.moments"))


def use_review_process() -> None:
    """Make reviews in one worker process (the bot) from now on: started with the first
    review (a game's end) and stopped after REVIEW_IDLE seconds without one."""
    global _POOL
    old, _POOL = _POOL, IdlePool(_process_pool, REVIEW_IDLE)
    old.shutdown(wait=False)


def use_review_thread() -> None:
    """Back to one review thread (the default: tests)."""
    global _POOL
    stop_reviews()
    _POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")


def stop_reviews(wait: bool = False) -> None:
    """Release the review process (queued reviews are dropped: the next start backfills
    them); with `wait`, return once it has exited. A thread is left as it is."""
    if isinstance(_POOL, IdlePool):
        _POOL.stop(wait=wait)


def chances_of(review: GameReview | None, turns: int) -> list[dict[str, float]] | None:
    """The win chances a review gives the end card: one per turn map of the story, or None
    (no review, or one of another length)."""
    if review is None or len(review.chances) != turns:
        return None
    return [dict(c) for c in review.chances]


Shown = Callable[[GameRow, GameReview], Awaitable[object]]  # -> whatever (the Announcer: edited)


class Reviews:
    """Reviews of finished games: made in the worker, kept in the store, read back."""

    def __init__(self, store: Store, stories: Stories, *, work: int = WORK,
                 level: str = LEVEL) -> None:
        self.store = store
        self.stories = stories
        self.work = work
        self.level = level
        self.shown: Shown | None = None  # the end card's edit once a review is stored
        self._one = asyncio.Lock()  # one game at a time
        self._making: dict[int, asyncio.Task[GameReview | None]] = {}

    def cancel(self) -> None:
        """Stop waiting for the reviews in hand (the bot closes; a worker's job is dropped
        with its pool)."""
        for task in list(self._making.values()):
            task.cancel()

    async def stored(self, game_id: int) -> GameReview | None:
        """The game's stored review, or None (none yet, or not readable)."""
        raw = await self.store.game_review(game_id)
        if raw is None:
            return None
        try:
            return GameReview.from_json(raw)
        except ValueError:
            log.warning("the stored review of game %s is not readable", game_id)
            return None

    async def finished(self, game: GameRow) -> None:
        """Finish listener: queue the review; the game's action returns at once."""
        if game.status is GameStatus.FINISHED:
            self.start(game)

    def start(self, game: GameRow) -> asyncio.Task[GameReview | None]:
        """The task making (or reading) the game's review, started once per game."""
        task = self._making.get(game.id)
        if task is None:
            task = asyncio.create_task(self._make(game), name=f"review-{game.id}")
            self._making[game.id] = task
            task.add_done_callback(lambda _: self._making.pop(game.id, None))
        return task

    async def _make(self, game: GameRow) -> GameReview | None:
        if game.status is not GameStatus.FINISHED:
            return None
        async with self._one:
            have = await self.stored(game.id)
            if have is not None:
                return have
            try:
                review = await self._compute(game)
            except Exception:  # noqa: BLE001 - one game's review must not stop the others
                log.exception("could not review finished game %s", game.id)
                return None
            await self.store.save_review(game.id, review.to_json())
        if self.shown is not None:
            try:
                await self.shown(game, review)
            except Exception:  # noqa: BLE001 - the review is kept; the card can wait
                log.exception("could not show the review of game %s", game.id)
        return review

    async def _compute(self, game: GameRow) -> GameReview:
        seqs = await self.store.snapshot_seqs(game.id)
        start = start_state(game, await self.store.snapshot(game.id, 0) if 0 in seqs
                            else None)
        actions = [dict(r.action) for r in await self.store.actions(game.id)]
        loop = asyncio.get_running_loop()
        args = (start, actions, game.seed, self.work, self.level)
        try:
            raw = await loop.run_in_executor(_POOL, review_json, *args)
        except BrokenProcessPool:  # the worker died (its pool dropped it): one more try
            raw = await loop.run_in_executor(_POOL, review_json, *args)
        return GameReview.from_json(raw)

    async def backfill(self, limit: int = BACKFILL) -> int:
        """Review the last `limit` finished games that have no review; -> how many."""
        done = 0
        for game in await self.store.unreviewed_games(limit):
            if await self.start(game) is not None:
                done += 1
        return done
