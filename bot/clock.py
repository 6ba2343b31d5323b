"""The play-by-post clock: turn time limits, reminders, and the one scheduler that fires every
game's deadlines.

A limit is written like `off`, `90s`, `10m`, `12h`, `2d` or `1h30m` (`Duration`, a pydantic
type: bad input is refused at the edge with a sentence that shows the format). A game's clock
(`ClockConfig`) lives in its options, chosen in the lobby or taken from the server default.

Deadlines live in the database (bot/store/deadlines.py), one row per game and kind in the
`deadlines` table:

- `turn`: the current player's turn limit; on timeout the AI (normal) plays the turn;
- `half`, `near`: reminders at half time and when a tenth of the limit is left;
- `survivors`: a defender's short limit for placing survivors, then the AI places them;
- `ai`: an AI-controlled seat must act (AI turns are paced through the same scheduler);

and one row per league and kind in the `league_timers` table (`LeagueTimer`):

- `round`: a round's start window closes, so the round begins;
- `summary`: the league's weekly standings are due in its summary channel.

`Scheduler` is a single task for all of them: it sleeps until the earliest unfired row, is
woken when rows change, claims the due rows atomically (so each fires once, also with
several bot processes on one database) and hands each to `Dispatch`, which calls the
handler the row's owner registered for its kind (bot.game.autoplay, bot.league.clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, TypeAdapter, ValidationError

import i18n

log = logging.getLogger(__name__)

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
MAX_LIMIT = 14 * 86400
_PART = re.compile(r"(\d+)\s*([smhd])")
_WHOLE = re.compile(r"^(?:\d+\s*[smhd]\s*)+$")
NEAR_SHARE = 0.1  # the "near the end" reminder comes when this share of the limit is left
# player-facing lines: catalog domain clock/ (i18n/catalogs/clock/<lang>.json); public lines
# speak the game's language, a reminder by DM its reader's. The alarm clock is chat decoration
# (no picture font has it), so it stays out of the catalogs.
ALARM = "⏰ "

DURATION_HELP = i18n.t("clock.help", "en")


class DurationError(ValueError):
    """A time limit we cannot read: the English sentence, and its catalog key and params so
    the reply can be worded in the reader's language."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(i18n.t(key, "en", **params))
        self.key, self.params = key, params

    def text(self, lang: str) -> str:
        return i18n.t(self.key, lang, **self.params)


def parse_duration(value: Any) -> int | None:
    """Seconds from "off" / "10m" / "12h" / "2d" / "1h30m" (None = off); ValueError otherwise."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise DurationError("clock.help")
    if isinstance(value, int | float):
        seconds = int(value)
    else:
        text = str(value).strip().lower()
        if text in ("off", "none", "no", "0", ""):
            return None
        if not _WHOLE.match(text):
            raise DurationError("clock.not_a_limit", value=repr(str(value)[:40]))
        seconds = sum(int(n) * UNITS[u] for n, u in _PART.findall(text))
    if seconds <= 0:
        return None
    if seconds > MAX_LIMIT:
        raise DurationError("clock.too_long", days=MAX_LIMIT // 86400)
    return seconds


Duration = Annotated[int | None, BeforeValidator(parse_duration)]
_DURATION = TypeAdapter(Duration)


def duration(value: Any) -> int | None:
    """Validate a duration through the pydantic type; ValueError carries the player sentence."""
    try:
        return _DURATION.validate_python(value)
    except ValidationError as exc:
        err = exc.errors()[0].get("ctx", {}).get("error")
        if isinstance(err, DurationError):
            raise DurationError(err.key, **err.params) from None
        msg = err or exc.errors()[0].get("msg")
        raise ValueError(str(msg).removeprefix("Value error, ")) from None


def format_duration(seconds: float | None) -> str:
    """`2d 3h`, `10m`, `45s` — the two largest units; "off" for None."""
    if seconds is None:
        return "off"
    left = max(0, int(round(seconds)))
    parts: list[str] = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if left >= size or (unit == "s" and not parts):
            n, left = divmod(left, size)
            parts.append(f"{n}{unit}")
        if len(parts) == 2:
            break
    return " ".join(parts)


def level_name(level: str, lang: str) -> str:
    """An AI level ("easy", "normal", "hard") in `lang`."""
    key = f"svc.ai_level.{level}"
    return i18n.t(key, lang) if i18n.has(key, lang) else level


Remind = Literal["dm", "mention", "off"]


class ClockConfig(BaseModel):
    """A game's clock, kept in the game's options as JSON."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    limit: Duration = None  # seconds per turn; None = no clock
    remind: Remind = "dm"

    @property
    def on(self) -> bool:
        return self.limit is not None

    def describe(self, lang: str = i18n.DEFAULT) -> str:
        """"turn time limit 12h, reminders by DM" in `lang`."""
        if not self.on:
            return i18n.t("clock.no_limit", lang)
        return i18n.t("clock.describe", lang, limit=format_duration(self.limit),
                      how=i18n.t(f"clock.remind.{self.remind}", lang))

    def to_json(self) -> dict[str, Any]:
        return {"limit": self.limit, "remind": self.remind}


def clock_of(value: Any) -> ClockConfig:
    """The clock stored in options (malformed or missing: no clock)."""
    if isinstance(value, dict):
        try:
            return ClockConfig.model_validate(value)
        except ValidationError:
            log.warning("ignoring a malformed clock %r", value)
    return ClockConfig()


@dataclass(frozen=True, slots=True)
class ClockRules:
    """The bot-wide clock settings (bot/settings.py)."""

    survivor_limit: float = 300.0  # seconds a human defender has to place survivors
    away_after: int = 2  # consecutive timeouts after which the AI keeps the seat
    ai_delay: float = 3.0  # seconds between AI turns, so the channel can follow
    min_limit: int = 60  # the shortest turn limit a lobby may choose


# -- deadline rows --------------------------------------------------------------------------

KINDS = ("turn", "half", "near", "survivors", "ai")


@dataclass(frozen=True, slots=True)
class Deadline:
    """One deadline row: `key` names the stint it belongs to (a new stint replaces it)."""

    game_id: int
    kind: str
    seat: str
    key: str
    due_at: float  # unix time
    claimed_at: float | None = None

    @property
    def subject(self) -> str:
        """Whose deadline it is, for logs and task names."""
        return f"game {self.game_id}"


LEAGUE_KINDS = ("round", "summary")


@dataclass(frozen=True, slots=True)
class LeagueTimer:
    """One league timer row: `key` names what it was armed for (the round whose window
    closes, the summary it follows); a new key re-arms it."""

    league_id: int
    kind: str
    key: str
    due_at: float  # unix time
    claimed_at: float | None = None

    @property
    def subject(self) -> str:
        return f"league {self.league_id}"


Due = Deadline | LeagueTimer  # what the scheduler claims and the dispatch hands out


def turn_rows(game_id: int, seat: str, key: str, clock: ClockConfig, now: float) -> list[Deadline]:
    """The turn limit of a human seat and its reminders, from `now`."""
    assert clock.limit is not None
    rows = [Deadline(game_id, "turn", seat, key, now + clock.limit)]
    if clock.remind != "off":
        rows.append(Deadline(game_id, "half", seat, key, now + clock.limit / 2))
        rows.append(Deadline(game_id, "near", seat, key, now + clock.limit * (1 - NEAR_SHARE)))
    return rows


# -- the scheduler --------------------------------------------------------------------------

Handler = Callable[[Deadline], Awaitable[None]]
LeagueHandler = Callable[[LeagueTimer], Awaitable[None]]


class Dispatch:
    """Deadline kinds -> the handler their owner registered (the game's AI and turn limits,
    the league's round windows and summaries). A deadline whose handler returned is
    finished; one whose handler failed is tried again RETRY_AFTER seconds later, and one cut
    short by a stop is given back as it was (due at once on the next start)."""

    RETRY_AFTER = 30.0

    def __init__(self, store: Any) -> None:
        self.store = store
        self._handlers: dict[str, Handler] = {}
        self._league_handlers: dict[str, LeagueHandler] = {}

    def on(self, kind: str, handler: Handler) -> None:
        """A game deadline kind (KINDS) and its handler."""
        if kind in self._handlers:
            raise ValueError(f"deadline kind {kind!r} has a handler already")
        self._handlers[kind] = handler

    def on_league(self, kind: str, handler: LeagueHandler) -> None:
        """A league timer kind (LEAGUE_KINDS) and its handler."""
        if kind in self._league_handlers:
            raise ValueError(f"league timer kind {kind!r} has a handler already")
        self._league_handlers[kind] = handler

    def _handler(self, row: Due) -> Callable[[], Awaitable[None]] | None:
        if isinstance(row, LeagueTimer):
            league = self._league_handlers.get(row.kind)
            return None if league is None else partial(league, row)
        game = self._handlers.get(row.kind)
        return None if game is None else partial(game, row)

    async def __call__(self, row: Due) -> None:
        handler = self._handler(row)
        if handler is None:
            log.warning("no handler for deadline kind %r (%s): dropped", row.kind, row.subject)
            await self.store.finish_deadline(row)
            return
        try:
            await handler()
        except asyncio.CancelledError:  # the bot is stopping: the next start takes it again
            with contextlib.suppress(Exception):
                await self.store.retry_deadline(row, row.due_at)
            raise
        except Exception:
            await self.store.retry_deadline(row, time.time() + self.RETRY_AFTER)
            raise
        await self.store.finish_deadline(row)



class Scheduler:
    """One task for every deadline (games' and leagues'): sleep until the earliest, claim,
    fire, repeat."""

    STALE = 300.0  # a claim older than this (its handler died with its process) is retaken

    def __init__(self, store: Any, fire: Callable[[Due], Awaitable[None]], *,
                 clock: Callable[[], float] = time.time, shards: Any = None) -> None:
        self.store = store
        self.shards = shards  # bot.store.Shards: claim only what this process's guilds own
        self.fire = fire
        self.now = clock
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()
        self.fired = 0

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="sw-scheduler")

    def wake(self) -> None:
        """Deadlines changed: look again at the earliest one."""
        self._wake.set()

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._running) if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        self._task = None

    async def idle(self) -> None:
        """Wait for the handlers running now (tests, demo)."""
        while self._running:
            await asyncio.gather(*list(self._running), return_exceptions=True)

    async def _run(self) -> None:
        me = asyncio.current_task()
        while me is None or not me.cancelling():  # (a cancel swallowed below still stops it)
            try:
                await self._tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the scheduler must outlive a bad moment
                log.exception("the deadline scheduler failed; retrying in 5 s")
                await asyncio.sleep(5)

    async def _tick(self) -> None:
        self._wake.clear()
        earliest = await self.store.next_deadline(self.STALE, shards=self.shards)
        if earliest is None:
            await self._wake.wait()
            return
        delay = earliest - self.now()
        if delay > 0:
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a cancel that
            # comes as the wake-up does, and stop() then waited forever for this task (seen
            # as a test hanging in Scheduler.stop, about one run in five)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(delay, 3600)):
                    await self._wake.wait()
            return
        for row in await self.store.claim_due(self.now(), self.STALE, shards=self.shards):
            task = asyncio.create_task(self._fire(row), name=f"sw-deadline-{row.subject}")
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def _fire(self, row: Due) -> None:
        try:
            await self.fire(row)
            self.fired += 1
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - one game's failure must not stop the others
            log.exception("deadline %s of %s failed", row.kind, row.subject)
