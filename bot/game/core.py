"""The game service's core: one writer per channel, and what every feature reads through.

`session(channel_id)` is the only way to change a game: the channel's lock (an asyncio.Lock
in the process and, on PostgreSQL, an advisory lock that orders the processes sharing the
database), one load, then a `Session` whose changes are committed as they are made. When the
session ends the core updates its caches and the game's deadlines, once (a member's new
stint had its deadlines written with the action that began it: `plan_stint`).

Reads (`peek`, the panel, targets) take no lock: the store's row names the log it belongs
to (version, revision), and a state is cached per row mark, so a read never sees a half
change and never waits for a writer (an AI thinking, a picture being drawn).

The features (lobby, play, moderation, seat clock, reading) are the classes that build
`GameService` on this core (bot/game/service.py); each has one job and goes through
`session`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any, Literal

import engine
from bot.clock import ClockRules
from bot.errors import NoGameHere, ServiceError
from bot.game.moves import dump
from bot.game.panel import Panel, build_panel, targets
from bot.game.quiet import QuietHours
from bot.game.recent import RecentLog
from bot.game.results import Loaded, Outcome, mark
from bot.game.session import DmLanguage, FinishListener, Hooks, Session, StintPlan, rebuild
from bot.game.stints import AI_STINT, Actor, stint, stint_key
from bot.seats import auto_level
from bot.store import GameRow, GameStatus, Store, StoreUnavailable

log = logging.getLogger(__name__)

Want = Literal["open", "active"]
SeatCheck = Callable[[GameRow, int], Any]  # async (game, user id) -> None; raises to refuse
TARGETS_KEPT = 256
GAME_DEADLINES = ("vote",)  # deadline kinds of the game, not of its stint (a vote's expiry)


class GameCore:
    """Lobbies and games, one per channel; the store is the source of truth."""

    def __init__(self, store: Store, *, rng: random.Random | None = None,
                 clock: ClockRules | None = None) -> None:
        self.store = store
        self.rules = clock or ClockRules()
        self._rng = rng or random.SystemRandom()
        self.hooks = Hooks()
        self.recent = RecentLog(store)
        # seat checks (leagues) raise a ServiceError to refuse a member a seat
        self.seat_checks: list[SeatCheck] = []
        # who to tell when deadlines changed (the scheduler's wake-up)
        self.deadlines_changed: Callable[[], None] | None = None
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._cache: dict[int, Loaded] = {}  # channel id -> last loaded state
        # (game id, version, revision) -> the targets at that log (autocomplete asks often)
        self._targets: dict[tuple[int, int, int], tuple[Any, ...]] = {}
        self._stints: dict[int, str] = {}  # game id -> the stint its deadlines were written for
        self.now: Callable[[], float] = time.time  # the clock deadlines are armed from

    auto_level = staticmethod(auto_level)  # the AI level playing a seat now (bot.seats)

    @property
    def finish_listeners(self) -> list[FinishListener]:
        return self.hooks.finish_listeners

    @property
    def dm_language(self) -> DmLanguage | None:
        return self.hooks.dm_language

    @dm_language.setter
    def dm_language(self, value: DmLanguage | None) -> None:
        self.hooks.dm_language = value

    # -- writing: the unit of work ------------------------------------------------------

    @contextlib.asynccontextmanager
    async def lock(self, channel_id: int) -> AsyncIterator[None]:
        """The channel's turn to change: this process's tasks queue on an asyncio.Lock, then
        the store's channel lock orders the processes sharing a PostgreSQL database (SQLite:
        one process, nothing more to take)."""
        async with self._locks[channel_id], self.store.channel_lock(channel_id):
            yield

    @contextlib.asynccontextmanager
    async def session(self, channel_id: int, *, want: Want = "active",
                      game_id: int | None = None) -> AsyncIterator[Session]:
        """Lock the channel, load its open game once (`want` "active": it must have started;
        `game_id`: it must be that game) and yield the session that changes it. On the way
        out the cache and the game's deadlines follow what the session did, once."""
        async with self.lock(channel_id):
            game = await self._open_game(channel_id)
            if game_id is not None and game.id != game_id:
                raise NoGameHere.said("svc.no_game")
            if want == "active" and game.status is not GameStatus.ACTIVE:
                raise NoGameHere.said("svc.not_started")
            state = await self._state_of(game) if game.status is GameStatus.ACTIVE else None
            s = Session(self.store, self.recent, self.hooks, game, state, clock=self)
            try:
                yield s
            except BaseException as exc:
                if s.changed or isinstance(exc, StoreUnavailable):
                    # partly done, or a connection lost during COMMIT: the next session
                    # reads what the database holds
                    self._cache.pop(channel_id, None)
                    if s.changed and not isinstance(exc, StoreUnavailable | asyncio.CancelledError):
                        with contextlib.suppress(Exception):
                            await self._sync_clock(s.game, s.state)
                if s.changed:
                    self.hooks.changed(channel_id)
                raise
            if s.changed:
                self._cache[channel_id] = Loaded(s.game, s.state)
                if s.game.status is not GameStatus.ACTIVE:
                    self._cache.pop(channel_id, None)
                await self._sync_clock(s.game, s.state)
                self.hooks.changed(channel_id, Loaded(s.game, s.state))

    async def _open_game(self, channel_id: int) -> GameRow:
        game = await self.store.open_game(channel_id)
        if game is None:
            raise NoGameHere.said("svc.no_game")
        return game

    async def _state_of(self, game: GameRow) -> Any:
        """The engine state of a started game: cached by the log it was built from."""
        cached = self._cache.get(game.channel_id)
        # (version, revision): the same log, also when another process undid and replayed
        if cached and cached.game.id == game.id and mark(cached.game) == mark(game):
            return cached.state
        state = await rebuild(self.store, game)
        self._cache[game.channel_id] = Loaded(game, state)
        return state

    async def rebuild(self, game_id: int, upto: int | None = None) -> Any:
        """The state after `upto` actions of a game (last snapshot + later actions)."""
        game = await self.store.get_game(game_id)
        if game is None:
            raise NoGameHere.said("svc.no_game")
        return await rebuild(self.store, game, upto)

    # -- reading, without the lock ------------------------------------------------------

    async def peek(self, channel_id: int) -> Loaded:
        """The channel's active game and its state, read without waiting for a writer."""
        game = await self._open_game(channel_id)
        if game.status is not GameStatus.ACTIVE:
            raise NoGameHere.said("svc.not_started")
        return Loaded(game, await self._state_of(game))

    async def loaded(self, game: GameRow) -> Loaded:
        """A game row with its state (None for a lobby)."""
        if game.status is GameStatus.LOBBY:
            return Loaded(game, None)
        return Loaded(game, await self._state_of(game))

    def targets_at(self, game: GameRow, state: Any, legal: Sequence[dict[str, Any]],
                   obs: Mapping[str, Any]) -> tuple[Any, ...]:
        """The conquest targets of the position the game row names (kept per log: the
        autocomplete of /sw conquer asks on every keystroke)."""
        key = (game.id, *mark(game))
        found = self._targets.get(key)
        if found is None:
            if len(self._targets) > TARGETS_KEPT:
                self._targets.clear()
            found = self._targets[key] = targets(state, legal, obs)
        return found

    def known_targets(self, game: GameRow) -> tuple[Any, ...] | None:
        return self._targets.get((game.id, *mark(game)))

    async def panel_of(self, game: GameRow, state: Any,
                       obs: Mapping[str, Any] | None = None,
                       legal: Sequence[dict[str, Any]] | None = None) -> Panel:
        """What the actor can do in `state`, labelled for menus and buttons (`obs`, `legal`:
        its public observation and dumped legal actions, when the caller has them)."""
        obs = engine.observe(state, None) if obs is None else obs
        if legal is None:
            legal = [] if state.finished else [dump(a) for a in engine.legal_actions(state)]
        seat = game.seat_named(state.actor) if state.actor else None
        n_undo = await self.recent.undoable(game.id, seat.name, mark(game)) if seat else 0
        return build_panel(game, game.version, state, obs, legal,
                           self.targets_at(game, state, legal, obs), n_undo)

    async def finish(self, out: Outcome, *, panel: bool = True) -> Outcome:
        """An outcome made ready for the Announcer: the regions the ended turn conquered
        (its map's highlight) and the next actor's panel."""
        if out.turn_map is not None:
            done = await self.recent.turn_conquests(out.game.id, mark(out.game),
                                                    upto=out.turn_map.version)
            out.turn_map = dataclasses.replace(out.turn_map, highlight=done)
        elif out.turn_ended and not out.highlight:
            out.highlight = await self.recent.turn_conquests(out.game.id, mark(out.game))
        if out.turn_ended or out.finished:
            self.hooks.ready(out)  # its turn post's map can be drawn from now on
        if panel and out.state is not None:
            out.panel = await self.panel_of(out.game, out.state, out.observation)
        return out

    # -- the game's deadlines -----------------------------------------------------------

    async def _sync_clock(self, game: GameRow, state: Any) -> None:
        """Make the game's deadlines fit who must act now (a no-op within one stint, or when
        the action that began it wrote them: Session._commit). A vote's expiry is the
        game's, not the stint's: it stays."""
        plan = await self._plan(game, state)
        if plan is not None:
            await self.store.sync_deadlines(game.id, plan.rows, keep=plan.keep)
            self.stint_written(game.id, plan)

    async def plan_stint(self, game: GameRow, state: Any) -> StintPlan | None:
        """The deadlines an action leading to `game` and `state` writes with itself: those
        of a member's new stint (her turn, her survivors, the game's end). None within a
        stint, and for an AI's stint: it is due at once and its key changes with each of the
        AI's actions, so it is written when the session ends (`_sync_clock`), and the
        scheduler never fires an AI stint that the session is still playing."""
        return await self._plan(game, state, ai=False)

    async def _plan(self, game: GameRow, state: Any, *, ai: bool = True) -> StintPlan | None:
        """The deadlines of the stint `game` and `state` are in; None if the game's deadlines
        were written for that stint already (or, without `ai`, if it is an AI's)."""
        now = self.now()
        key = stint_key(game, state, now)
        if self._stints.get(game.id) == key or (not ai and key.startswith(AI_STINT)):
            return None
        key, rows = stint(game, state, self.rules, now, await self._actor(game, state))
        return StintPlan(key, rows, GAME_DEADLINES)

    def stint_written(self, game_id: int, plan: StintPlan) -> None:
        """The store holds `plan`'s deadlines now: later syncs in that stint write nothing,
        and the scheduler looks again."""
        self._stints[game_id] = plan.key
        if self.deadlines_changed is not None:
            self.deadlines_changed()

    async def _actor(self, game: GameRow, state: Any) -> Actor | None:
        """What the member who must act set for all her games (None: nobody, or the AI)."""
        name = state.actor if state is not None and not state.finished else None
        seat = game.seat_named(name) if name else None
        if seat is None or not seat.user_id or seat.ai:
            return None
        return await self._actor_of(seat.user_id)

    async def _actor_of(self, user_id: int) -> Actor:
        settings = await self.store.member_settings(user_id)
        return Actor(QuietHours.stored(settings.quiet, settings.zone), settings.turn_dm)

    def forget_stint(self, game_id: int) -> None:
        """A deadline of the game fired: the next sync writes its deadlines again."""
        self._stints.pop(game_id, None)


__all__ = ["GameCore", "ServiceError", "Session"]
