"""Open boards, and the one way a new game version reaches them.

Every writer of a game goes through the game service's unit of work (bot.game.core); when a
session that changed a game ends, the service tells the hub (`changed`), whatever made the
change: a slash command, a button, a tap on a board, an AI stint, the clock, a moderator, a
vote. The hub then builds the channel's view once — the public part of the snapshot shared by
every board, the actor's moves, the running turn's lines per language — and sends each open
board its own snapshot. A channel's refreshes run one at a time, newest state each time, so a
board receives its snapshots in order; changes that arrive during a refresh are folded into
the next one.

A slow poll (`POLL_S`) also compares each watched channel's game row with the last one shown:
it catches what another bot process sharing a PostgreSQL database changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import engine
from bot.game.moves import dump
from bot.game.results import Loaded
from bot.game.service import GameService
from bot.language import Languages
from bot.store import GameRow, GameStatus
from bot.web import snapshot
from bot.web.metrics import Metrics
from bot.web.tokens import Session

log = logging.getLogger(__name__)

POLL_S = 2.0
SEND_TIMEOUT_S = 5.0
Mark = tuple[int, str, int, int, tuple[Any, ...]]  # what a shown view was built from


class Sink(Protocol):
    """Where a board's messages go (its WebSocket)."""

    async def send_json_text(self, text: str) -> None: ...


@dataclass(eq=False)
class Board:
    """One open page: who looks, at which channel, in which language."""

    viewer: Session
    channel_id: int
    lang: str
    sink: Sink

    async def send(self, text: str) -> bool:
        try:
            await asyncio.wait_for(self.sink.send_json_text(text), SEND_TIMEOUT_S)
        except (ConnectionError, RuntimeError, TimeoutError) as exc:
            log.info("board of %r in %s: send failed (%s)", self.viewer, self.channel_id,
                     type(exc).__name__)
            return False
        return True


@dataclass
class View:
    """A channel's game as last built: shared by every board of the channel."""

    mark: Mark
    game: GameRow | None
    state: Any
    public: snapshot.Public | None
    actor_id: int | None = None
    moves: dict[str, Any] | None = None
    lines: dict[str, list[str]] = field(default_factory=dict)


def mark_of(game: GameRow | None) -> Mark:
    if game is None:
        return (0, "", 0, 0, ())
    seats = tuple((s.user_id, s.name, s.ai, s.away, s.vacant) for s in game.players)
    return (game.id, game.status.value, game.version, game.revision, seats)


def wire_version(game: GameRow | None) -> int:
    """The `v` of a snapshot: the game's log revision (every append and undo raises it)."""
    return 0 if game is None else game.revision


class Hub:
    """The open boards of every channel, kept up to date."""

    def __init__(self, service: GameService, languages: Languages, metrics: Metrics, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.service = service
        self.store = service.store
        self.languages = languages
        self.metrics = metrics
        self.now = clock
        self.boards: dict[int, set[Board]] = {}
        self._views: dict[int, View] = {}
        self._dirty: set[int] = set()
        self._known: dict[int, Loaded] = {}  # what the newest session left, not yet shown
        self._running: dict[int, asyncio.Task[None]] = {}
        self._poller: asyncio.Task[None] | None = None
        self._joins: set[asyncio.Task[None]] = set()
        self.story_url: Callable[[GameRow], dict[str, str] | None] = lambda game: None

    # -- boards coming and going --------------------------------------------------------

    def open(self, board: Board) -> None:
        self.boards.setdefault(board.channel_id, set()).add(board)
        self.metrics.boards = self.count()

    def close(self, board: Board) -> None:
        boards = self.boards.get(board.channel_id)
        if boards is not None:
            boards.discard(board)
            if not boards:
                del self.boards[board.channel_id]
                self._views.pop(board.channel_id, None)
                self._known.pop(board.channel_id, None)
        self.metrics.boards = self.count()

    def count(self) -> int:
        return sum(len(b) for b in self.boards.values())

    def start(self) -> None:
        if self._poller is None:
            self._poller = asyncio.create_task(self._poll(), name="web-boards-poll")

    async def stop(self) -> None:
        tasks = [t for t in (self._poller, *self._running.values(), *self._joins)
                 if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._poller = None

    # -- a new version --------------------------------------------------------------------

    def changed(self, channel_id: int, now: Loaded | None = None) -> None:
        """The service's hook: the channel's game changed (committed), and `now` is what the
        session left (None: read the store). Cheap when nobody watches the channel."""
        if channel_id not in self.boards:
            return
        if now is None:
            self._known.pop(channel_id, None)
        else:
            self._known[channel_id] = now
        self._dirty.add(channel_id)
        if channel_id not in self._running:
            task = asyncio.create_task(self._refresh(channel_id), name=f"web-refresh-{channel_id}")
            self._running[channel_id] = task

    async def _refresh(self, channel_id: int) -> None:
        try:
            while channel_id in self._dirty:
                self._dirty.discard(channel_id)
                boards = list(self.boards.get(channel_id, ()))
                if not boards:
                    return
                started = self.now()
                view = await self.view(channel_id, fresh=True)
                if view.public is not None:
                    await self._send_all(view, boards)
                self.metrics.refreshed(self.now() - started)
        except Exception:  # noqa: BLE001 - one channel's trouble must not stop the others
            log.exception("refreshing the boards of channel %s failed", channel_id)
        finally:
            self._running.pop(channel_id, None)
            if channel_id in self._dirty and channel_id in self.boards:
                self.changed(channel_id)

    async def _send_all(self, view: View, boards: Iterable[Board]) -> None:
        boards = list(boards)
        texts = [await self.snapshot_text(view, b) for b in boards]
        results = await asyncio.gather(*(b.send(t) for b, t in zip(boards, texts, strict=True)))
        for ok, text_ in zip(results, texts, strict=True):
            if ok:
                self.metrics.sent(len(text_))

    async def _poll(self) -> None:
        """What other processes changed (PostgreSQL): a watched channel whose game row no
        longer matches the view shown is refreshed."""
        while True:
            await asyncio.sleep(POLL_S)
            for channel_id in list(self.boards):
                shown = self._views.get(channel_id)
                try:
                    game = await self._game(channel_id)
                except Exception:  # noqa: BLE001 - the store may be busy; try next time
                    log.debug("poll of channel %s failed", channel_id, exc_info=True)
                    continue
                if shown is None or mark_of(game) != shown.mark:
                    self.changed(channel_id)

    # -- building views -------------------------------------------------------------------

    async def game_of(self, channel_id: int) -> GameRow | None:
        """The game a channel's board shows (the view's, when the channel is watched)."""
        view = self._views.get(channel_id)
        return view.game if view is not None else await self._game(channel_id)

    async def _game(self, channel_id: int) -> GameRow | None:
        """The channel's open game, else its last started one (a finished game's board stays
        open for its reveal and story)."""
        game = await self.store.open_game(channel_id)
        if game is None:
            game = await self.store.last_game(channel_id, started=True)
        return game

    async def view(self, channel_id: int, *, fresh: bool = False) -> View:
        """The channel's view (rebuilt when its game row moved on). A session's own word on
        what it left saves reading the store."""
        known = self._known.pop(channel_id, None) if fresh else None
        game = known.game if known is not None else await self._game(channel_id)
        mark = mark_of(game)
        old = self._views.get(channel_id)
        if old is not None and old.mark == mark and not fresh:
            return old
        # fresh: a session ended, which may have changed what no game row shows (a turn's
        # deadline moved by a vote), so the view is built again
        view = await self._build(game, old, known.state if known is not None else None)
        if channel_id in self.boards:
            self._views[channel_id] = view
        return view

    async def _build(self, game: GameRow | None, old: View | None, state: Any = None) -> View:
        mark = mark_of(game)
        if game is None:
            return View(mark, None, None, None)
        if state is None and game.status is not GameStatus.LOBBY:
            state = (await self.service.loaded(game)).state
        deadline = None
        if game.status is GameStatus.ACTIVE:
            due = [d.due_at for d in await self.store.deadlines(game.id)
                   if d.kind in ("turn", "survivors")]
            deadline = min(due) if due else None
        pub = snapshot.public(game, state, deadline=deadline, hints=bool(game.opts.hints))
        if old is not None and old.public is not None and old.game is not None and \
                old.game.id == game.id:
            before, now = old.public.body["regions"], pub.body["regions"]
            pub.body["changed"] = sorted(int(r) for r in set(before) | set(now)
                                         if before.get(r) != now.get(r))
        if state is not None and game.status is GameStatus.FINISHED:
            story = self.story_url(game)
            if story is not None:
                pub.body["story"] = story
        view = View(mark, game, state, pub)
        if state is not None and not state.finished and game.status is GameStatus.ACTIVE:
            seat = game.seat_named(state.actor) if state.actor else None
            if seat is not None and seat.user_id and \
                    snapshot.viewer_acts(game, state, seat.user_id):
                view.actor_id = seat.user_id
                view.moves = await self._moves(game, state)
        return view

    async def _moves(self, game: GameRow, state: Any) -> dict[str, Any]:
        legal = [dump(a) for a in engine.legal_actions(state)]
        panel = await self.service.panel_of(game, state, engine.observe(state, None), legal)
        return snapshot.moves(state, legal, panel.targets, end_asks=panel.end_asks,
                              undo=panel.can_undo)

    async def _lines(self, view: View, lang: str) -> list[str]:
        found = view.lines.get(lang)
        if found is None:
            found = []
            if view.game is not None and view.state is not None:
                finished, live = await self.service.turn_story(view.game.id, lang=lang)
                names = {s.user_id: s.name for s in view.game.players if s.user_id}
                raw = live if not view.state.finished else finished[-8:]
                found = [snapshot.plain(line, names) for line in raw[-12:]]
            view.lines[lang] = found
        return found

    async def snapshot(self, view: View, board: Board) -> dict[str, Any]:
        """One board's snapshot of `view` (docs/web.md)."""
        assert view.public is not None, "no snapshot of a channel without a game"
        user = board.viewer.user_id
        moves = view.moves if view.actor_id == user else None
        body = snapshot.for_viewer(view.public, view.state, user_id=user,
                                   name=board.viewer.name, lang=board.lang,
                                   lines=await self._lines(view, board.lang), my_moves=moves)
        return {"t": "snap", "v": wire_version(view.game), "d": body}

    async def snapshot_text(self, view: View, board: Board) -> str:
        return snapshot.dumps(await self.snapshot(view, board))

    def names(self, channel_id: int) -> dict[int, str]:
        """The seated members' names of the channel's game as last shown, by user id."""
        view = self._views.get(channel_id)
        if view is None or view.game is None:
            return {}
        return {s.user_id: s.name for s in view.game.players if s.user_id}

    async def hello(self, board: Board) -> tuple[str, View] | None:
        """The first snapshot of a board that (re)joined, and the game row it was built from
        (None: the channel has no game). The board is not open yet: `join` opens it once this
        snapshot went out, so no newer snapshot can overtake it on the way."""
        view = await self.view(board.channel_id)
        if view.public is None:
            return None
        text_ = await self.snapshot_text(view, board)
        self.metrics.sent(len(text_))
        return text_, view

    def join(self, board: Board, shown: View) -> None:
        """Open a board whose first snapshot (built from `shown`) went out. A version committed
        since then reached no refresh of this board, so it is sent now."""
        self.open(board)
        channel_id = board.channel_id
        self._views.setdefault(channel_id, shown)
        if channel_id in self._running:
            self._dirty.add(channel_id)  # the running refresh may have listed its boards before
            return
        task = asyncio.create_task(self._caught_up(channel_id, shown.mark),
                                   name=f"web-join-{channel_id}")
        self._joins.add(task)
        task.add_done_callback(self._joins.discard)

    async def _caught_up(self, channel_id: int, shown: Mark) -> None:
        try:
            game = await self._game(channel_id)
        except Exception:  # noqa: BLE001 - the store may be busy; the poll looks again
            log.debug("join check of channel %s failed", channel_id, exc_info=True)
            return
        if mark_of(game) != shown:
            self.changed(channel_id)
