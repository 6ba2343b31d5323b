"""The bot's pictures: drawn off the event loop, cached by what they show, and drawn ahead of
time while a player thinks.

Pictures go to the drawers (RENDER_PROCESSES worker processes), each game's to the same
drawer while it is free: a game's next map reuses the panel strips and PNG bands its last one
left there (about half the work of a map), so a game's drawings stay together. Two kinds:

- pictures for a reply (`map_file`, `row_file`, `final_file`): drawn at once, on the game's
  drawer, or on a free one if the game's is busy;
- guesses (`draw_ahead`: the map and combo row the player's `end` would post): drawn only
  while every drawer is idle (a guess never delays a picture somebody waits for), newest
  first, one per channel and kind, once the position has stood for a moment. A right guess
  lands in the caches below and the `end` reply posts it at once; a wrong one still leaves
  the game's drawer most of the strips and bands of the map the turn will end with. Guesses
  cost CPU (capacity per machine), so only likely ones are made and `stats` counts what they
  bought.

`python -m bot` draws in worker processes (`use_render_process`), so the event loop keeps the
GIL and a core to itself; a worker runs bot.drawing (the engine and render, nothing else of
the bot), starts with the first picture and stops when no picture was asked for RENDER_IDLE
seconds. Tests and the in-process bench use one drawing thread (several threads would hold
the GIL in turns and starve the loop).
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import itertools
import json
import logging
import os
import time
from collections import Counter, OrderedDict
from collections.abc import Mapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import discord

import engine
import render
from bot import drawing
from bot.game.results import Outcome
from bot.game.service import GameService
from bot.language import of_game
from bot.workers import IdlePool, QuietSpawnContext
from render.mapview import shown_on_map

log = logging.getLogger(__name__)

# the drawers of pictures for replies: one worker process each (one thread for tests); a
# game's pictures go to the same one while it is free (`_drawer`)
_NOW: list[Executor] = [ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")]
_busy: list[int] = [0]  # per drawer: pictures queued or being drawn (guesses included)
_asked = 0  # pictures somebody waits for, queued or being drawn
AHEAD_QUEUE = 16  # guesses kept waiting at most (the oldest are dropped)
# a kind of guess is drawn while at least this share of its recent drawings were posted: at
# most one drawing wasted for every one that saves a reply its drawing (a guess is CPU taken
# from capacity; only a posted one gives it back, and makes that end of turn fast). Measured
# in bench/bot.py: at 3/4, guessing stopped (about 60% were posted) and the CPU per action
# fell by ~3 ms, but the end-of-turn replies waited for their maps: p50 14 -> 80 ms.
AHEAD_MIN_HIT = 0.5
AHEAD_PROBE = 4  # below that, one guess in this many is still drawn, to see if it pays again
RENDER_IDLE = 600.0  # seconds without a picture after which a drawing process stops
# a long picture (a replay) is drawn in steps of this many seconds of the drawer's time: the
# longest a reply's picture waits behind it (a whole replay took 0.3-0.6 s on a 2-core host,
# and every picture asked for meanwhile waited for it; bench/bot.py)
STEP_S = 0.03
_tokens = itertools.count(1)


class Drawings:
    """What the drawing cost and what the guesses bought: pictures drawn for replies, and per
    kind of guess ("end", "row") how many were drawn ahead and how many of those a reply then
    posted. Logged at shutdown (bench/bot.py prints it).

    `pays(kind)` is the guessing policy's evidence: the share of that kind's recent guesses
    that were posted (counts that fade by RECENT_DECAY per guess drawn), at least
    AHEAD_MIN_HIT, or too few guesses yet to tell."""

    RECENT_DECAY = 0.97  # about the last 30 guesses of a kind count
    LEARNING = 8.0  # guesses (faded) before their hit rate is trusted

    def __init__(self) -> None:
        self.replies = 0
        self.ahead: Counter[str] = Counter()
        self.used: Counter[str] = Counter()
        self.stale: Counter[str] = Counter()  # dropped undrawn: the game had moved on
        self.held: Counter[str] = Counter()  # not drawn: that kind did not pay lately
        self.recent_ahead: dict[str, float] = {}
        self.recent_used: dict[str, float] = {}

    def drew_ahead(self, kind: str) -> None:
        self.ahead[kind] += 1
        self.recent_ahead[kind] = self.recent_ahead.get(kind, 0.0) * self.RECENT_DECAY + 1
        self.recent_used[kind] = self.recent_used.get(kind, 0.0) * self.RECENT_DECAY

    def posted(self, kind: str) -> None:
        self.used[kind] += 1
        self.recent_used[kind] = self.recent_used.get(kind, 0.0) + 1

    def recent_hit_rate(self, kind: str) -> float | None:
        drawn = self.recent_ahead.get(kind, 0.0)
        if drawn < self.LEARNING:
            return None
        return min(1.0, self.recent_used.get(kind, 0.0) / drawn)

    def pays(self, kind: str) -> bool:
        rate = self.recent_hit_rate(kind)
        return rate is None or rate >= AHEAD_MIN_HIT

    def hit_rate(self, kind: str | None = None) -> float | None:
        drawn = self.ahead[kind] if kind else sum(self.ahead.values())
        used = self.used[kind] if kind else sum(self.used.values())
        return used / drawn if drawn else None

    def __str__(self) -> str:
        def rate(kind: str | None = None) -> str:
            r = self.hit_rate(kind)
            return "-" if r is None else f"{r:.0%}"

        kinds = ", ".join(f"{k} {self.used[k]}/{self.ahead[k]}" for k in sorted(self.ahead))
        return (f"{self.replies} for replies; {sum(self.ahead.values())} ahead, "
                f"{sum(self.used.values())} of them posted, hit rate {rate()}"
                + (f" (posted/drawn: {kinds})" if kinds else "")
                + f"; {sum(self.stale.values())} dropped undrawn (the game moved on), "
                f"{sum(self.held.values())} held back (guessing did not pay lately)")


stats = Drawings()
# the kind of guess being drawn (set by the guessing task only)
_guess_kind: contextvars.ContextVar[str | None] = contextvars.ContextVar("_guess_kind",
                                                                          default=None)


def use_render_process(workers: int = 1) -> None:
    """Draw in `workers` worker processes from now on. The processes start with the first
    pictures asked for, or with `warm()`, and stop after RENDER_IDLE seconds without one."""
    global _NOW, _busy
    old = _NOW
    _NOW = [IdlePool(_process_pool, RENDER_IDLE) for _ in range(max(1, workers))]
    _busy = [0] * len(_NOW)
    for pool in old:
        pool.shutdown(wait=False)


def use_render_thread() -> None:
    """Back to one drawing thread (the default; tests)."""
    global _NOW, _busy
    stop_rendering()
    _NOW = [ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")]
    _busy = [0]
    _MAPS.clear()
    _ROWS.clear()


def _process_pool() -> ProcessPoolExecutor:
    """One drawer: a pool of one worker process (a game's drawings must meet in one)."""
    return ProcessPoolExecutor(max_workers=1, mp_context=QuietSpawnContext(),
                               initializer=drawing.start_worker, initargs=(os.getpid(),))


def stop_rendering(wait: bool = False) -> None:
    """Release the worker processes at shutdown (threads need nothing): queued pictures are
    dropped; with `wait`, return once every worker process has exited (one still drawing
    after STOP_GRACE seconds, e.g. loading every board just after start, is stopped)."""
    _WANTED.clear()
    if stats.replies or stats.ahead:
        log.info("drawings: %s", stats)
    for pool in _NOW:
        if isinstance(pool, IdlePool):
            pool.stop(wait=wait)


def drawer_pids() -> list[int]:
    """The drawing processes running now (none with a drawing thread)."""
    return [pid for pool in _NOW if isinstance(pool, IdlePool) for pid in pool.pids()]


async def warm() -> None:
    """Start the drawing workers now (each loads the boards as it starts) rather than with
    the first picture; with a drawing thread, load the boards in it."""
    loop = asyncio.get_running_loop()
    if any(isinstance(pool, IdlePool) for pool in _NOW):
        jobs = [loop.run_in_executor(pool, drawing.ready) for pool in _NOW]
    else:
        jobs = [loop.run_in_executor(_NOW[0], drawing.warm, list(engine.data.BOARD_IDS))]
    for result in await asyncio.gather(*jobs, return_exceptions=True):
        if isinstance(result, BaseException):  # pictures are drawn later anyway
            log.error("starting a drawing worker failed", exc_info=result)


def render_idle() -> bool:
    """No picture that somebody waits for is queued or being drawn."""
    return _asked == 0


def drawers_idle() -> bool:
    """No picture at all (guesses included) is queued or being drawn."""
    return not any(_busy)


def _drawer(route: int | None) -> int:
    """Which reply drawer gets a picture: the game's own (`route`), so that its next map
    reuses the panel strips and PNG bands its last one left in that process (about half
    the work of a map); another one if the game's is busy and another is free, so that no
    reply waits behind a game it has nothing to do with."""
    home = (route if route is not None else 0) % len(_NOW)
    if _busy[home] and 0 in _busy:
        return _busy.index(0)
    return home


def route_of(state: Any) -> int | None:
    """The same number for every state of one game (its board, players and seed)."""
    try:
        return hash((state.board.id, tuple(state.players), state.seed))
    except AttributeError:
        return None


async def _render(name: str, subject: Any, *, ahead: bool = False, route: int | None = None,
                  **kwargs: Any) -> bytes | None:
    """PNG bytes from render.<name> (for "map_png", `subject` is (board, observation)),
    drawn off the event loop; None if unavailable."""
    if getattr(render, name, None) is None:
        return None
    if ahead:
        stats.drew_ahead(_guess_kind.get() or "?")
    else:
        stats.replies += 1
    global _asked
    loop = asyncio.get_running_loop()
    drawer = _drawer(route)
    _busy[drawer] += 1
    _asked += 0 if ahead else 1
    try:
        for attempt in (1, 2):
            try:
                if name in drawing.STEPPED:
                    return await _in_steps(drawer, name, subject, kwargs)
                return await loop.run_in_executor(_NOW[drawer], drawing.draw, name, subject,
                                                  kwargs)
            except BrokenProcessPool:  # (its pool dropped the dead worker: the next starts)
                if attempt == 2:
                    raise
                log.error("a drawing worker died (killed for memory?); starting a new one")
        return None
    except Exception:
        log.exception("render.%s failed", name)
        return None
    finally:
        _busy[drawer] -= 1
        _asked -= 0 if ahead else 1


async def _in_steps(drawer: int, name: str, subject: Any, kwargs: dict[str, Any]
                    ) -> bytes | None:
    """A long picture (a replay) drawn STEP_S seconds at a time on its drawer: a reply's
    picture asked for meanwhile is drawn between two steps instead of after the whole.
    (Guesses still wait: the drawer counts as busy until the last step.)"""
    loop = asyncio.get_running_loop()
    for _ in range(2):  # dropped by its drawer (more than KEEP_STEPPING under way): again
        token = f"{name}-{next(_tokens)}"
        given: tuple[Any, dict[str, Any] | None] = (subject, kwargs)
        while True:
            done, png = await loop.run_in_executor(_NOW[drawer], drawing.draw_step, token,
                                                   name, *given, STEP_S)
            given = (None, None)  # the worker keeps what it was given first
            if done:
                break
        if png is not None:
            return png
    return None


def _file(png: bytes | None, filename: str, description: str | None = None
          ) -> discord.File | None:
    """An attachment; `description` is its alt text (read out by screen readers)."""
    if png is None:
        return None
    return discord.File(io.BytesIO(png), filename=filename, description=description)


class _Cache:
    """Pictures by what they show. Values are futures, so a reply that wants a picture being
    drawn (for another reply, or guessed) waits for that drawing instead of starting
    another. At most `budget` bytes of drawn pictures are kept, the least recently asked
    for forgotten first (a map is 100-250 KB)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.bytes = 0  # of the drawn pictures kept
        # key -> (picture, the kind of guess that drew it; None once a reply used it)
        self.items: OrderedDict[str, tuple[asyncio.Future[bytes | None], str | None]] = \
            OrderedDict()

    def _start(self, key: str, name: str, state: Any, ahead: bool,
               kwargs: dict[str, Any]) -> asyncio.Future[bytes | None]:
        fut = asyncio.ensure_future(_render(name, state, ahead=ahead, **kwargs))
        self.items[key] = (fut, (_guess_kind.get() or "?") if ahead else None)
        self.items.move_to_end(key)
        fut.add_done_callback(lambda done: self._drawn(key, done))
        return fut

    @staticmethod
    def _size(fut: asyncio.Future[bytes | None]) -> int:
        if not fut.done() or fut.cancelled() or fut.exception() is not None:
            return 0
        return len(fut.result() or b"")

    def _drawn(self, key: str, fut: asyncio.Future[bytes | None]) -> None:
        """A picture is drawn: count it if it is still kept, then forget the oldest past
        the budget."""
        if self.items.get(key, (None, None))[0] is not fut:
            return
        self.bytes += self._size(fut)
        while self.bytes > self.budget and len(self.items) > 1:
            old, _ = self.items.popitem(last=False)[1]
            self.bytes -= self._size(old)

    async def get(self, key: str | None, name: str, state: Any, *, ahead: bool,
                  **kwargs: Any) -> bytes | None:
        if key is None:
            return await _render(name, state, ahead=ahead, **kwargs)
        fut, guessed = self.items.get(key, (None, None))
        if fut is None:
            fut = self._start(key, name, state, ahead, kwargs)
        else:
            self.items.move_to_end(key)
            if guessed and not ahead:
                stats.posted(guessed)  # counted once: the entry is a reply's from now on
                self.items[key] = (fut, None)
        png = await asyncio.shield(fut)
        if png is None and self.items.get(key, (None, None))[0] is fut:
            self.items.pop(key, None)  # failed: the next ask tries again
        return png

    def clear(self) -> None:
        self.items.clear()
        self.bytes = 0


# the bot process keeps the pictures drawn lately: guesses until the reply that posts them
# (seconds), the maps a Map button or a catch-up asks for again
MAPS_BYTES = 8 * 1024 * 1024  # ~50 maps
ROWS_BYTES = 2 * 1024 * 1024  # ~50 rows: each live game has its current row until a pick
_MAPS = _Cache(MAPS_BYTES)
_ROWS = _Cache(ROWS_BYTES)


def _map_key(board_id: str, obs: Mapping[str, object], highlight: tuple[int, ...]) -> str | None:
    """A map shows the public observation of one board, with some regions highlighted."""
    try:
        return json.dumps([board_id, obs, list(highlight)], sort_keys=True, default=str)
    except (TypeError, ValueError):  # no key: just render
        return None


def _row_key(state: Any) -> str | None:
    """The combo row picture depends only on the visible row (combos and coins on them)."""
    try:
        return json.dumps(engine.observe(state, None).get("row"), sort_keys=True)
    except Exception:  # noqa: BLE001 - no key: just render
        return None


def _in(key: str | None, lang: str) -> str | None:
    """A picture cache key for one language (the same position differs in words)."""
    return None if key is None else f"{lang}:{key}"


async def map_png(state: Any, highlight: tuple[int, ...] = (), *,
                  ahead: bool = False, lang: str = "en",
                  observation: Mapping[str, Any] | None = None) -> bytes | None:
    """The public map of `state` (no coins), `highlight`ed regions outlined; `observation`:
    its public observation, when the caller has it already."""
    highlight = tuple(highlight)
    board = state.board
    if observation is None:
        observation = engine.observe(state, None)
    obs = shown_on_map(observation)  # also the cache key: what the map shows
    # an official board travels to the drawing worker as its id
    ref = board.id if board.id in engine.data.BOARD_IDS and board == engine.data.board(
        board.id) else board
    return await _MAPS.get(_in(_map_key(board.id, obs, highlight), lang), "map_png",
                           (ref, obs), ahead=ahead, highlight=highlight, lang=lang,
                           route=route_of(state))


async def map_file(state: Any, highlight: tuple[int, ...] = (), *,
                   description: str | None = None, lang: str = "en",
                   observation: Mapping[str, Any] | None = None) -> discord.File | None:
    return _file(await map_png(state, tuple(highlight), lang=lang, observation=observation),
                 "map.png", description)


async def row_file(state: Any, *, ahead: bool = False, description: str | None = None,
                   lang: str = "en") -> discord.File | None:
    """The combo row picture; the row changes only when someone picks, so it is cached."""
    return _file(await _ROWS.get(_in(_row_key(state), lang), "row_png", state, ahead=ahead,
                                 lang=lang, route=route_of(state)), "combos.png", description)


async def end_card_png(told: Any, *, lang: str = "en", route: int | None = None,
                       chances: list[dict[str, float]] | None = None) -> bytes | None:
    """A finished game's end card (render.storycard) from its story (story.Story), with the
    review's win chances per turn when given."""
    return await _render("end_card_png", told, lang=lang, route=route, chances=chances)


async def end_card_file(told: Any, *, lang: str = "en", route: int | None = None,
                        description: str | None = None,
                        chances: list[dict[str, float]] | None = None) -> discord.File | None:
    """The end card as the final reveal's picture (it took the place of the ranking)."""
    return _file(await end_card_png(told, lang=lang, route=route, chances=chances),
                 "final.png", description)


async def replay_png(told: Any, *, lang: str = "en", route: int | None = None) -> bytes | None:
    """A finished game's animated replay as APNG bytes (render.replay)."""
    return await _render("replay_png", told, lang=lang, route=route)


PAGE_ASSETS = ("board_drawing", "layer_webp", "piece_png")


async def page_asset(name: str, key: str) -> bytes | None:
    """What the board page draws with (render.page: a board's drawing data, its static
    layer, a piece's picture), made by a drawer; None if it could not be made."""
    if name not in PAGE_ASSETS:
        raise ValueError(f"no page asset {name!r}")
    return await _render(name, key)


async def replay_file(told: Any, *, lang: str = "en", route: int | None = None,
                      description: str | None = None) -> discord.File | None:
    """A finished game's animated replay (render.replay, APNG): one frame per turn map."""
    return _file(await replay_png(told, lang=lang, route=route), "replay.png", description)


# -- guesses --------------------------------------------------------------------------------

# Guesses pay only when a reply then posts them: a wrong one is a whole drawing of CPU for
# nothing (bench/bot.py prints what was drawn ahead and posted). Measured there (50 games):
# guessing after a conquest while the player could still conquer ("maybe") was posted 17
# times of 678; guesses of a position the player left again within a moment, or drawn after
# the game had moved on, were a good part of the other misses.
GUESS_SETTLE = 0.5  # seconds a position must stand before it is guessed from
# newest last; by (channel, what): "end" guesses the end-of-turn pictures, "row" the new
# combo row; with the time the guess was asked for
_WANTED: OrderedDict[tuple[int, str], tuple[GameService, Outcome, float]] = OrderedDict()
_guessing: asyncio.Task[None] | None = None


def draw_ahead(service: GameService, outcome: Outcome, what: str = "end") -> None:
    """Draw ahead, on the game's drawer once every drawer is idle, a picture a coming reply
    will likely post:

    - "end": the current player has little left to do but end their turn; draw the map
      (and, if the next player must pick, the combo row) their `end` would post. The engine
      is deterministic, so a right guess is the very picture.
    - "row": a combo was just picked; draw the new row, shown when someone next must pick.

    A guess waits GUESS_SETTLE seconds first, and a newer guess for a channel replaces an
    older one of the same kind: a player who redeploys in several quick steps costs one
    drawing, not one per step. An "end" guess whose game moved on before it was drawn is
    dropped."""
    global _guessing
    if what not in ("end", "row"):
        raise ValueError(f"no such guess: {what!r}")
    key = (outcome.game.channel_id, what)
    _WANTED.pop(key, None)
    _WANTED[key] = (service, outcome, time.monotonic())
    while len(_WANTED) > AHEAD_QUEUE:
        _WANTED.popitem(last=False)
    if _guessing is None or _guessing.done():
        _guessing = asyncio.ensure_future(_guess_loop())


def ahead_idle() -> bool:
    """No guess waits or is being drawn."""
    return not _WANTED and (_guessing is None or _guessing.done())


async def _guess_loop() -> None:
    while _WANTED:
        if not drawers_idle():
            await asyncio.sleep(0.05)  # replies first: a guess waits for idle drawers
            continue
        now = time.monotonic()
        settled = [k for k, (_, _, asked) in _WANTED.items() if now - asked >= GUESS_SETTLE]
        if not settled:
            first = min(asked for _, _, asked in _WANTED.values())
            await asyncio.sleep(max(0.01, first + GUESS_SETTLE - now))
            continue
        ends = [k for k in settled if k[1] == "end"]
        key = (ends or settled)[-1]  # the newest end of turn first: it is posted soonest
        service, outcome, _ = _WANTED.pop(key)
        await _guess(service, outcome, key[1])


def _worth_it(what: str) -> bool:
    """Draw this guess? Yes while its kind pays (`Drawings.pays`); else one in AHEAD_PROBE."""
    if stats.pays(what):
        return True
    stats.held[what] += 1
    return stats.held[what] % AHEAD_PROBE == 0


async def _moved_on(service: GameService, outcome: Outcome) -> bool:
    """The game is no longer at the version the guess was made from."""
    game = await service.store.open_game(outcome.game.channel_id)
    return game is None or game.id != outcome.game.id or game.version != outcome.version


async def _guess(service: GameService, outcome: Outcome, what: str) -> None:
    _guess_kind.set(what)
    state = outcome.state
    lang = of_game(outcome.game)
    try:
        if what == "row":
            if _worth_it(what):
                await row_file(state, ahead=True, lang=lang)
            return
        if await _moved_on(service, outcome):
            stats.stale[what] += 1
            return
        if not _worth_it(what):
            return
        trial = engine.apply(state, engine.parse_action({"do": "end", "player": state.actor}))
        highlight = tuple(await service.turn_conquests(outcome.game.id))
        await map_png(trial.state, highlight, ahead=True, lang=lang)  # cached: not redrawn
        if any(a.model_dump(mode="json")["do"] == "pick"
               for a in engine.legal_actions(trial.state)):
            await row_file(trial.state, ahead=True, lang=lang)
    except Exception:  # noqa: BLE001 - a guess that failed costs nothing
        log.debug("drawing the end of turn ahead failed", exc_info=True)
