"""The game service: lobbies, turns, undo and moderation on top of the engine and the store.

One writer per channel: every change runs under the channel's lock (load, apply, append,
commit): an asyncio.Lock in the process and, on PostgreSQL, an advisory lock in the database
that orders the processes sharing it. Methods return plain data (GameRow, Outcome, ...) and
never touch discord objects; refusals are the ServiceError subclasses of bot/errors.py,
raised by catalog key.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import random
import time
from collections import OrderedDict, defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import engine
import i18n
from bot import text
from bot.clock import ClockConfig, ClockRules, Deadline, clock_of, format_duration, turn_rows
from bot.errors import (
    LobbyError,
    NoGameHere,
    NotAllowed,
    NothingToUndo,
    NotSeated,
    NotYourTurn,
    RuleBroken,
    StaleVersion,
)
from bot.language import of_game
from bot.seats import (
    AI_LEVELS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TIMEOUT_LEVEL,
    ai_level,
    board_for,
    engine_name,
    start_state,
)
from bot.store import (
    ActionRow,
    ChannelBusy,
    GameRow,
    GameStatus,
    Seat,
    Shards,
    Store,
    StoreUnavailable,
    VersionConflict,
)
from engine import data as engine_data

log = logging.getLogger(__name__)

MAX_SKIP_STEPS = 80
STORY_ROWS = 120  # actions read back for the living message (a turn is far shorter)
RECENT_FIRST = 24  # actions read first when looking back over the current turn (see _recent)
TAIL_KEEP = 48  # parsed latest actions kept per game (see _Tail)
TAIL_GAMES = 200  # games whose latest actions are kept (the least recently used go first)
SAID_ROWS = 4096  # rows whose public lines are kept (all forgotten at once past that)


# -- results --------------------------------------------------------------------------------

_STAMPS = itertools.count(1)


@dataclass(frozen=True, slots=True)
class Loaded:
    game: GameRow
    state: Any  # engine.GameState
    notices: tuple[str, ...] = ()  # finish listeners' lines, posted after the final reveal

    @property
    def version(self) -> int:
        return self.game.version


@dataclass(slots=True)
class Outcome:
    """What one accepted command changed, ready for the cog to announce."""

    game: GameRow
    state: Any
    events: list[dict[str, Any]]
    public: list[str]  # summary lines for the channel: no coin totals, no income
    private: dict[int, list[str]]  # user id -> lines only that user may see (coins)
    turn_ended: bool
    finished: bool
    turn_started: bool
    actor: str | None  # engine name of who must act now (None when finished)
    actor_id: int | None
    previous_actor_id: int | None  # whose action this was
    scored: dict[int, dict[str, int]] = field(default_factory=dict)  # user -> income/coins
    highlight: tuple[int, ...] = ()  # regions conquered in the turn that just ended
    panel: Panel | None = None  # what the actor can do next, read under the same lock
    notices: list[str] = field(default_factory=list)  # posted after the reveal (league result)
    first_seq: int = 0  # the first action this outcome applied (0: none, e.g. a start or undo)
    headline: list[str] = field(default_factory=list)  # not from events: start, undo, mod lines
    stamp: int = field(default_factory=lambda: next(_STAMPS))  # order of the changes made

    @property
    def version(self) -> int:
        return self.game.version

    @property
    def game_id(self) -> int:
        return self.game.id


@dataclass(frozen=True, slots=True)
class ComboChoice:
    slot: int
    race: str
    power: str
    tokens: int
    cost: int
    coins: int
    can_pick: bool

    def label(self, lang: str = "en") -> str:
        return text.combo_label(self.race, self.power, self.tokens, self.cost, self.coins, lang)

    def pick_label(self, lang: str = "en") -> str:
        """The label, noting when the player cannot pay for it."""
        label = self.label(lang)
        return label if self.can_pick else i18n.t("label.cannot_pick", lang, label=label)


@dataclass(frozen=True, slots=True)
class Target:
    """A region the actor may attack now; `cost` is the tokens it takes (None: unknown)."""

    region: int
    verb: str  # conquer | reinforce | dragon | enchant
    cost: int | None
    terrain: str
    holder: str  # "empty", "lost tribe", or "<player>'s <Race>"
    action: dict[str, Any]
    where: dict[str, Any] | None = None  # the region's public entry (words it in any language)
    # the label by language: a game's targets are kept per log (GameService._targets), and
    # every menu and autocomplete of that position words all of them again
    _labels: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def label(self, lang: str = "en") -> str:
        found = self._labels.get(lang)
        if found is None:
            holder = self.holder if lang == "en" else text.holder(self.where, lang)
            found = self._labels[lang] = text.target_label(self.region, self.verb, self.cost,
                                                           self.terrain, holder, lang)
        return found


@dataclass(frozen=True, slots=True)
class Choice:
    """Any other legal action, labelled for a menu or button."""

    label: str
    action: dict[str, Any]

    def label_in(self, lang: str = "en") -> str:
        """The label in `lang`, worded from the action (the English one is `label`)."""
        return self.label if lang == "en" else text.action_label(self.action, lang)


@dataclass(frozen=True, slots=True)
class Panel:
    """The actor's options right now, for the turn panel view."""

    game_id: int
    version: int
    actor: str | None
    actor_id: int | None
    stage: str
    picks: tuple[ComboChoice, ...]
    targets: tuple[Target, ...]
    deploys: tuple[Choice, ...]
    powers: tuple[Choice, ...]
    abandons: tuple[Choice, ...]
    can_roll: bool
    can_decline: bool
    can_end: bool
    can_undo: bool
    is_defender: bool
    hand: int = 0  # tokens the actor holds (End asks first when some are left)
    round: int = 0
    next_id: int | None = None  # while survivors are placed: who plays next (pinged too)
    active: i18n.Msg | str = ""  # the actor's Active combo, for the Decline question
    auto: str | None = None  # the AI level playing the actor's seat now (no buttons then)


@dataclass(frozen=True, slots=True)
class ScoreLine:
    game: GameRow
    name: str
    coins: int | None
    round: int | None
    is_your_turn: bool


@dataclass(slots=True)
class _Tail:
    """The latest actions of one game, parsed, as the store holds them while the game row is
    at `mark` (version, revision): every write of the log (append, undo) moves the revision in
    the same transaction, so a log another process (or service) changed meanwhile never
    matches, even when an undo and new actions brought the version back. Read back several
    times per reply (undo count, turn story, conquests), they were a large part of the bot's
    CPU when each look re-read and re-parsed them."""

    mark: tuple[int, int]
    rows: list[ActionRow]
    whole: bool  # rows start at the game's first action


@dataclass(slots=True)
class _Said:
    """A row's public events and, per language, each one's line (None: no line), as
    text.describe_events words them: the living message re-tells the turn on every reply."""

    row: ActionRow  # held, so the id keying it is not reused while it is kept
    public: list[dict[str, Any]]
    _lines: dict[str, list[str | None]] = field(default_factory=dict)

    def lines(self, lang: str) -> list[str | None]:
        got = self._lines.get(lang)
        if got is None:
            got = self._lines[lang] = [
                None if e.get("private") else text.describe_event(e, lang)
                for e in self.public]
        return got


# -- helpers --------------------------------------------------------------------------------


def _dump(action: Any) -> dict[str, Any]:
    return action.model_dump(mode="json") if hasattr(action, "model_dump") else dict(action)


def _events_of(step: Any) -> list[dict[str, Any]]:
    return [dict(e) for e in getattr(step, "events", ())]


BOUNDARY_EVENTS = frozenset({"turn_ended", "turn_started", "game_over"})


def _is_boundary(events: Sequence[dict[str, Any]]) -> bool:
    """The step ended or started a turn (snapshot here; undo never crosses it)."""
    return any(e.get("type") in BOUNDARY_EVENTS for e in events)


def _mark(game: GameRow) -> tuple[int, int]:
    """Which action log the game row names: (version, revision)."""
    return game.version, game.revision


def _has(events: Sequence[dict[str, Any]], *types: str) -> bool:
    return any(e.get("type") in types for e in events)


# -- the service ----------------------------------------------------------------------------


def _private_events(game: GameRow, events: list[dict[str, Any]]
                    ) -> dict[int, list[dict[str, Any]]]:
    """user id -> the events only that player may see (their coins)."""
    names = {s.name: s.user_id for s in game.players}
    private: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for ev in events:
        if not ev.get("private"):
            continue
        uid = names.get(ev.get("player", ""))
        if uid:
            private[uid].append(ev)
    return dict(private)


def _private_lines(game: GameRow, events: list[dict[str, Any]], lang: str
                   ) -> dict[int, list[str]]:
    """user id -> the lines of the events only that player may see, worded in `lang`."""
    return {uid: [text.describe_private(e, lang) for e in evs]
            for uid, evs in _private_events(game, events).items()}


class GameService:
    """Lobbies and games, one per channel; the store is the source of truth."""

    def __init__(self, store: Store, *, rng: random.Random | None = None,
                 clock: ClockRules | None = None) -> None:
        self.store = store
        self.rules = clock or ClockRules()
        self._rng = rng or random.SystemRandom()
        # the clock: the stint each game's deadlines were last written for (skip rewrites),
        # and who to tell when deadlines changed (the scheduler's wake-up)
        self._stints: dict[int, str] = {}
        self.deadlines_changed: Callable[[], None] | None = None
        # the language of a player's coin DMs (the bot sets it: their own choice or locale);
        # without it, the game's language
        self.dm_language: Callable[[int, GameRow], Awaitable[str]] | None = None
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._cache: dict[int, Loaded] = {}  # channel id -> last loaded state
        # (game id, version, revision) -> the targets at that log (autocomplete asks often)
        self._costs: dict[tuple[int, int, int], tuple[Target, ...]] = {}
        self._tails: OrderedDict[int, _Tail] = OrderedDict()  # game id -> its latest actions
        self._saids: dict[int, _Said] = {}  # id of a kept row -> its public lines
        # hooks (leagues): a seat check raises ServiceError to refuse a member a seat; finish
        # listeners hear of every game that finished with a result, after it is committed; a
        # line a listener returns is posted in the channel after the final reveal
        self.seat_checks: list[Callable[[GameRow, int], Awaitable[None]]] = []
        self.finish_listeners: list[Callable[[GameRow], Awaitable[object]]] = []

    @contextlib.asynccontextmanager
    async def lock(self, channel_id: int) -> AsyncIterator[None]:
        """The channel's turn to change: this process's tasks queue on an asyncio.Lock, then
        the store's channel lock orders the processes sharing a PostgreSQL database (SQLite:
        one process, nothing more to take)."""
        async with self._locks[channel_id], self.store.channel_lock(channel_id):
            yield

    # -- loading --------------------------------------------------------------------------

    async def _open_game(self, channel_id: int) -> GameRow:
        game = await self.store.open_game(channel_id)
        if game is None:
            raise NoGameHere.said("svc.no_game")
        return game

    async def _active(self, channel_id: int) -> Loaded:
        game = await self._open_game(channel_id)
        if game.status is not GameStatus.ACTIVE:
            raise NoGameHere.said("svc.not_started")
        return await self._load(game)

    async def _load(self, game: GameRow) -> Loaded:
        cached = self._cache.get(game.channel_id)
        # (version, revision): the same log, also when another process undid and replayed
        if cached and cached.game.id == game.id and _mark(cached.game) == _mark(game):
            loaded = Loaded(game, cached.state)
        else:
            loaded = Loaded(game, await self.rebuild(game.id))
        self._cache[game.channel_id] = loaded
        return loaded

    async def rebuild(self, game_id: int, upto: int | None = None) -> Any:
        """The state after `upto` actions: last snapshot + later actions through engine.apply."""
        gl = await self.store.log(game_id, upto)
        state = start_state(gl.game, gl.snapshot)
        for row in gl.actions:
            state = engine.apply(state, engine.parse_action(row.action)).state
        return state

    async def view(self, channel_id: int) -> Loaded:
        """The active game of a channel and its current state (read-only)."""
        async with self.lock(channel_id):
            return await self._active(channel_id)

    async def last_view(self, channel_id: int) -> Loaded:
        """The active game, or else the channel's most recent started game."""
        async with self.lock(channel_id):
            game = await self.store.open_game(channel_id)
            if game is None or game.status is not GameStatus.ACTIVE:
                last = await self.store.last_game(channel_id, started=True)
                if last is None or last.status.is_open:
                    raise NoGameHere.said("svc.no_started_game")
                game = last
            return await self._load(game)

    async def lobby(self, channel_id: int) -> GameRow:
        return await self._open_game(channel_id)

    # -- lobby ----------------------------------------------------------------------------

    async def open_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str,
        players: int | None = None,
        board: str | None = None,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        seated: bool = True,
    ) -> GameRow:
        """Open a lobby in the channel; the opener takes the first seat (unless `seated` is
        False: a showcase of AI players)."""
        if players is not None and not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise LobbyError.said("svc.lobby_size", least=MIN_PLAYERS, most=MAX_PLAYERS,
                                  n=players)
        if board is not None:
            if board not in engine_data.BOARD_IDS:
                raise LobbyError.said("svc.no_board", board=text.echo(board),
                                      boards=", ".join(engine_data.BOARD_IDS))
            n_board = engine_data.board(board).players
            if players is not None and players != n_board:
                raise LobbyError.said("svc.board_size", board=board, n=n_board, asked=players)
            players = n_board
        if seed is None:
            seed = self._rng.randrange(1, 2**31)
        opts = dict(options or {})
        if players is not None:
            opts["max_players"] = players
        if "clock" not in opts:
            opts["clock"] = clock_of(await self.store.guild_clock(guild_id)).to_json()
        async with self.lock(channel_id):
            try:
                return await self.store.create_game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    seed=seed,
                    board=board,
                    players=[Seat(user_id, engine_name(name, ()))] if seated else [],
                    options=opts,
                    opener_id=user_id,
                )
            except ChannelBusy:
                raise LobbyError.said("svc.channel_busy") from None

    async def join(self, channel_id: int, user_id: int, name: str) -> GameRow:
        async with self.lock(channel_id):
            game = await self._open_game(channel_id)
            if game.status is not GameStatus.LOBBY:
                raise LobbyError.said("svc.started_wait")
            if game.seat_of(user_id):
                raise LobbyError.said("svc.already_in")
            for check in self.seat_checks:
                await check(game, user_id)
            limit = game.options.get("max_players", MAX_PLAYERS)
            if len(game.players) >= limit:
                raise LobbyError.said("svc.full", limit=limit)
            seat = Seat(user_id, engine_name(name, [s.name for s in game.players]))
            return await self.store.update_lobby(game.id, players=[*game.players, seat])

    async def leave(self, channel_id: int, user_id: int, *, is_mod: bool = False) -> GameRow:
        """Leave a lobby; the last member leaving closes it (status ended), unless a
        moderator leaves a lobby of AI players to start as a showcase."""
        async with self.lock(channel_id):
            game = await self._open_game(channel_id)
            if game.status is not GameStatus.LOBBY:
                raise LobbyError.said("svc.leave_started")
            if not game.seat_of(user_id):
                raise NotSeated.said("svc.not_in_lobby")
            seats = [s for s in game.players if s.user_id != user_id]
            humans = [s for s in seats if s.user_id]
            opener = None
            if user_id == game.opener_id and humans:
                opener = humans[0].user_id
            if not humans and not (is_mod and seats):
                seats = []
            game = await self.store.update_lobby(game.id, players=seats, opener_id=opener)
            if not seats:
                await self.store.set_status(game.id, GameStatus.ENDED)
                game = await self.store.get_game(game.id)
            return game

    async def start(self, channel_id: int, user_id: int, *, is_mod: bool = False) -> Outcome:
        """Start the lobby: the seat order (and so the start player) is shuffled by the seed."""
        async with self.lock(channel_id):
            game = await self._open_game(channel_id)
            if game.status is not GameStatus.LOBBY:
                raise LobbyError.said("svc.already_started")
            if user_id != game.opener_id and not is_mod:
                raise NotAllowed.said("svc.only_opener")
            if not any(s.user_id for s in game.players) and not is_mod:
                raise NotAllowed.said("svc.ai_showcase")
            n = len(game.players)
            if n < MIN_PLAYERS:
                raise LobbyError.said("svc.need_players", least=MIN_PLAYERS, n=n)
            if game.board and engine_data.board(game.board).players != n:
                raise LobbyError.said("svc.board_needs", board=game.board,
                                      wanted=engine_data.board(game.board).players, n=n)
            board = game.board or board_for(n)
            seats = list(game.players)
            random.Random(game.seed).shuffle(seats)
            state = engine.new_game(
                board, [s.name for s in seats], game.seed, game.options.get("engine") or None
            )
            clock = await self._lobby_clock(game)
            if clock.to_json() != game.options.get("clock"):  # fixed for the whole game now
                game = await self.store.update_lobby(
                    game.id, options={**game.options, "clock": clock.to_json()})
            try:
                game = await self.store.start_game(
                    game.id, board=board, players=seats, state=engine.dump_state(state)
                )
            except VersionConflict:
                raise StaleVersion.said("svc.started_now") from None
            self._cache[channel_id] = Loaded(game, state)
            await self._sync_clock(self._cache[channel_id])
            started = [text.started_line(board, [s.name for s in seats], of_game(game))]
            if clock.on:
                started.append(i18n.t("svc.started_clock", of_game(game),
                                      clock=clock.describe(of_game(game))))
            return Outcome(
                game=game,
                state=state,
                events=[],
                public=started,
                headline=list(started),
                private={},
                turn_ended=False,
                finished=False,
                turn_started=True,
                actor=state.actor,
                actor_id=self._user_of(game, state.actor),
                previous_actor_id=None,
            )

    # -- playing --------------------------------------------------------------------------

    @staticmethod
    def _user_of(game: GameRow, name: str | None) -> int | None:
        if name is None:
            return None
        seat = game.seat_named(name)
        return seat.user_id if seat and seat.user_id else None

    @staticmethod
    def _seat(game: GameRow, user_id: int) -> Seat:
        seat = game.seat_of(user_id)
        if seat is None:
            raise NotSeated.said("svc.not_playing")
        return seat

    def _check_actor(self, loaded: Loaded, seat: Seat) -> None:
        state = loaded.state
        if state.finished:
            raise NotYourTurn.said("svc.game_over")
        if state.actor != seat.name:
            actor_id = self._user_of(loaded.game, state.actor)
            who = f"<@{actor_id}>" if actor_id else f"**{state.actor}**"
            raise NotYourTurn.said("svc.not_your_turn", who=who)

    def _parse(self, seat: Seat, action: Any) -> Any:
        if not (hasattr(action, "model_dump") or isinstance(action, dict)):
            raise RuleBroken.said("svc.unknown_action")
        obj = _dump(action)
        obj["player"] = seat.name
        try:
            return engine.parse_action(obj)
        except engine.InvalidAction as exc:
            raise _malformed(obj, exc) from None

    def _apply(self, state: Any, action: Any) -> Any:
        try:
            return engine.apply(state, action)
        except engine.RulesViolation as exc:
            raise RuleBroken(text.violation(exc.message), exc.code, exc.key, exc.params) from None
        except engine.InvalidAction as exc:
            raise RuleBroken(text.violation(exc.message), exc.code, exc.key, exc.params) from None

    async def _commit(
        self, loaded: Loaded, action: Any, step: Any, actor_id: int | None
    ) -> Loaded:
        """Append one applied action (and, at turn boundaries, a snapshot) in one transaction."""
        events = _events_of(step)
        new_state = step.state
        ends = _is_boundary(events)
        finished = bool(new_state.finished)
        seq = loaded.version + 1
        try:
            row, revision = await self.store.append(
                loaded.game.id,
                seq,
                _dump(action),
                actor_id=actor_id,
                player=getattr(action, "player", None),
                events=events,
                reveals=bool(getattr(step, "reveals", False)),
                ends_turn=ends,
                snapshot=engine.dump_state(new_state) if ends or finished else None,
                status=GameStatus.FINISHED if finished else None,
                # the coins DMs this action owes go out only once it is committed (and after
                # a restart if the bot died first); at the end the totals are public anyway
                dms=() if finished else await self._owed_dms(loaded.game, events),
            )
        except VersionConflict:
            self._cache.pop(loaded.game.channel_id, None)
            raise StaleVersion.said("svc.stale") from None
        except StoreUnavailable:
            # nothing was written, or (a connection lost during COMMIT) it may have been:
            # forget the cached state so the next command reads what the database holds
            self._cache.pop(loaded.game.channel_id, None)
            raise
        self._extend_tail(_mark(loaded.game), row, revision)
        if finished:  # status and finished_at as the store wrote them
            game = await self.store.get_game(loaded.game.id)
            assert game is not None
        else:  # nothing else in the row changed: no need to read it back
            game = dataclasses.replace(loaded.game, version=seq, revision=revision)
        notices: list[str] = []
        if finished:
            for listener in self.finish_listeners:
                try:
                    said = await listener(game)
                except Exception:
                    log.exception("finish listener failed for game %s", game.id)
                else:
                    if isinstance(said, str) and said:
                        notices.append(said)
        new = Loaded(game, new_state, tuple(notices))
        self._cache[game.channel_id] = Loaded(game, new_state)
        return new

    def _outcome(self, after: Loaded, events: list[dict[str, Any]], by: int | None) -> Outcome:
        game, state = after.game, after.state
        names = {s.name: s.user_id for s in game.players}
        lang = of_game(game)
        public = text.describe_events(engine.public_events(events), lang)
        private = _private_lines(game, events, lang)
        scored: dict[int, dict[str, int]] = {}
        for ev in events:
            uid = names.get(ev.get("player", ""))
            if ev.get("private") and uid and ev.get("type") == "scored":
                scored[uid] = {"income": int(ev.get("income", 0)), "coins": int(ev.get("coins", 0))}
        return Outcome(
            game=game,
            state=state,
            events=events,
            public=public,
            private=private,
            turn_ended=_has(events, "turn_ended", "game_over"),
            turn_started=_has(events, "turn_started"),
            finished=bool(state.finished),
            actor=state.actor,
            actor_id=self._user_of(game, state.actor),
            previous_actor_id=by,
            scored=scored,
            notices=list(after.notices),
        )

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: Any,
        *,
        game_id: int | None = None,
        version: int | None = None,
    ) -> Outcome:
        """Apply one action of the seated user who must act now; commit before returning.

        `action` is an engine Action or its protocol dict (the "player" field is filled in from
        the seat). With `game_id`/`version` (from a button) a newer game state is refused as
        stale instead of applying the click to a board the user did not see.
        """
        async with self.lock(channel_id):
            loaded = await self._active(channel_id)
            if (game_id is not None and game_id != loaded.game.id) or (
                version is not None and version != loaded.version
            ):
                raise StaleVersion.said("svc.stale")
            seat = self._seat(loaded.game, user_id)
            if self.auto_level(loaded.game, seat.name):
                raise NotYourTurn.said("svc.ai_plays_you")
            self._check_actor(loaded, seat)
            parsed = self._parse(seat, action)
            step = self._apply(loaded.state, parsed)
            after = await self._commit(loaded, parsed, step, user_id)
            if loaded.game.options.get("timeouts", {}).get(seat.name):
                after = await self._reset_timeouts(after, seat.name)
            events = _events_of(step)
            after, more = await self._autoplay_vacant(after)
            out = self._outcome(after, events + more, user_id)
            out.first_seq = loaded.version + 1
            if out.turn_ended:
                out.highlight = await self._turn_conquests(after.game.id, _mark(after.game))
            out.panel = await self._panel(after)
            await self._sync_clock(after)
            return out

    async def turn_conquests(self, game_id: int) -> tuple[int, ...]:
        """Regions conquered so far in the turn of the latest action (read-only)."""
        return await self._turn_conquests(game_id, await self.store.log_mark(game_id),
                                          locked=False)

    async def _turn_conquests(self, game_id: int, mark: tuple[int, int] | None, *,
                              locked: bool = True) -> tuple[int, ...]:
        """Regions conquered during the turn that ended with the latest action."""
        def turn_begins(i: int, row: ActionRow) -> bool:
            return i > 0 and row.ends_turn and any(e.get("type") == "turn_ended"
                                                   for e in row.events)

        rows = await self._recent(game_id, 200, lambda rows: any(
            turn_begins(i, row) for i, row in enumerate(reversed(rows))), mark, locked=locked)
        regions: list[int] = []
        for i, row in enumerate(reversed(rows)):
            if turn_begins(i, row):
                break
            regions += [e["region"] for e in row.events
                        if e.get("type") == "conquered" and isinstance(e.get("region"), int)]
        return tuple(dict.fromkeys(reversed(regions)))

    # -- undo -----------------------------------------------------------------------------

    async def undoable(self, channel_id: int, user_id: int) -> int:
        """How many of the user's latest actions can be taken back now."""
        async with self.lock(channel_id):
            loaded = await self._active(channel_id)
            seat = self._seat(loaded.game, user_id)
            return await self._n_undoable(loaded, seat)

    async def _n_undoable(self, loaded: Loaded, seat: Seat) -> int:
        if loaded.state.finished or loaded.state.actor != seat.name:
            return 0
        def stops(row: ActionRow) -> bool:
            return row.player != seat.name or row.reveals or row.ends_turn

        n = 0
        for row in reversed(await self._recent(loaded.game.id, 100,
                                               lambda rows: any(map(stops, rows)),
                                               _mark(loaded.game))):
            if stops(row):
                break
            n += 1
        return n

    async def _recent(self, game_id: int, limit: int,
                      enough: Callable[[list[ActionRow]], bool],
                      mark: tuple[int, int] | None = None, *,
                      locked: bool = True) -> list[ActionRow]:
        """The latest `limit` actions, or fewer when the latest RECENT_FIRST of them already
        answer the question (`enough`): the current turn is nearly always within them, and
        decoding up to `limit` rows for every reply was a large part of the bot's CPU.

        `mark` is the game's (version, revision) as just read from the store, or as this
        process left it under the channel lock: the kept tail (_Tail) answers when it is at
        that mark. Rows read from the store are kept only when `locked` (the channel's lock
        is held, so the log cannot move between reading the mark and the rows)."""
        tail = self._tails.get(game_id) if mark is not None else None
        if tail is not None and tail.mark == mark:
            self._tails.move_to_end(game_id)
            rows = tail.rows[-limit:]
            first = rows[-RECENT_FIRST:]  # as from the store: the fewest rows that answer
            if len(first) < len(rows) and enough(first):
                return first
            if tail.whole or len(tail.rows) >= limit or enough(rows):
                return rows
        first = min(limit, RECENT_FIRST)
        rows = await self.store.recent_actions(game_id, first)
        whole = len(rows) < first
        if not (whole or first == limit or enough(rows)):
            rows = await self.store.recent_actions(game_id, limit)
            whole = len(rows) < limit
        if mark is not None and locked and (rows[-1].seq if rows else 0) == mark[0]:
            self._keep_tail(game_id, _Tail(mark, rows[-TAIL_KEEP:],
                                           whole and len(rows) <= TAIL_KEEP))
        return rows

    def _keep_tail(self, game_id: int, tail: _Tail) -> None:
        self._tails[game_id] = tail
        self._tails.move_to_end(game_id)
        while len(self._tails) > TAIL_GAMES:
            self._tails.popitem(last=False)

    def _extend_tail(self, before: tuple[int, int], row: ActionRow, revision: int) -> None:
        """This service appended `row` to a log that was at `before`, which is now at
        `revision`: the kept tail follows (or is dropped when it was not at `before`)."""
        tail = self._tails.get(row.game_id)
        if tail is None:
            return
        if tail.mark != before or row.seq != before[0] + 1:
            del self._tails[row.game_id]
            return
        tail.rows.append(row)
        if len(tail.rows) > TAIL_KEEP:
            del tail.rows[:-TAIL_KEEP]
            tail.whole = False
        tail.mark = (row.seq, revision)

    async def undo(
        self, channel_id: int, user_id: int, *, steps: int = 1, version: int | None = None
    ) -> Outcome:
        """Take back the user's own last action(s) since the last die roll, draw or turn start."""
        if steps < 1:
            raise NothingToUndo.said("svc.undo_one")
        async with self.lock(channel_id):
            loaded = await self._active(channel_id)
            if version is not None and version != loaded.version:
                raise StaleVersion.said("svc.stale")
            seat = self._seat(loaded.game, user_id)
            self._check_actor(loaded, seat)
            n = await self._n_undoable(loaded, seat)
            if n == 0:
                raise NothingToUndo.said("svc.nothing_to_undo")
            steps = min(steps, n)
            return await self._truncate(loaded, steps, by=user_id, who=seat.name)

    async def _truncate(self, loaded: Loaded, steps: int, *, by: int | None,
                        who: str | None) -> Outcome:
        keep = loaded.version - steps
        removed = await self.store.actions(loaded.game.id, after=keep)
        try:
            await self.store.truncate(loaded.game.id, keep, expected=loaded.version)
        except VersionConflict:
            raise StaleVersion.said("svc.stale") from None
        self._cache.pop(loaded.game.channel_id, None)
        self._tails.pop(loaded.game.id, None)
        self._costs = {k: v for k, v in self._costs.items() if k[0] != loaded.game.id}
        game = await self.store.get_game(loaded.game.id)
        assert game is not None
        after = Loaded(game, await self.rebuild(game.id))
        self._cache[game.channel_id] = after
        out = self._outcome(after, [], by)
        out.public = [text.undo_line(who, [r.action for r in removed], of_game(game))]
        out.headline = list(out.public)
        await self._sync_clock(after)
        return out

    # -- moderation -----------------------------------------------------------------------

    async def mod_undo(self, channel_id: int, mod_id: int, steps: int = 1) -> Outcome:
        """Moderator: take back the last `steps` actions of the game, whoever made them."""
        async with self.lock(channel_id):
            loaded = await self._active(channel_id)
            if loaded.version == 0:
                raise NothingToUndo.said("svc.no_actions")
            steps = max(1, min(steps, loaded.version))
            return await self._truncate(loaded, steps, by=mod_id, who=None)

    async def skip(self, channel_id: int, mod_id: int) -> Outcome:
        """Moderator: finish the current actor's turn (or survivor placement) for them."""
        async with self.lock(channel_id):
            loaded = await self._active(channel_id)
            if loaded.state.finished:
                raise NothingToUndo.said("svc.game_over")
            who = loaded.state.actor
            after, events = await self._play_out(loaded, mod_id)
            after, more = await self._autoplay_vacant(after)
            out = self._outcome(after, events + more, mod_id)
            out.first_seq = loaded.version + 1
            skipped = text.skipped_line(who, of_game(loaded.game))
            out.public.insert(0, skipped)
            out.headline = [skipped]
            await self._sync_clock(after)
            return out

    async def _play_out(self, loaded: Loaded, actor_id: int | None) -> tuple[Loaded, list[dict]]:
        """Apply the plainest legal actions until someone else must act."""
        who = loaded.state.actor
        events: list[dict[str, Any]] = []
        for _ in range(MAX_SKIP_STEPS):
            if loaded.state.finished or loaded.state.actor != who:
                break
            action = _skip_action(engine.legal_actions(loaded.state))
            if action is None:
                log.warning("game %s: no legal action to skip %s", loaded.game.id, who)
                break
            step = engine.apply(loaded.state, action)
            loaded = await self._commit(loaded, action, step, actor_id)
            events.extend(_events_of(step))
        return loaded, events

    async def _autoplay_vacant(self, loaded: Loaded) -> tuple[Loaded, list[dict]]:
        """Play the turns of removed players, and place survivors that can go only one way."""
        vacant = set(loaded.game.options.get("vacant", []))
        events: list[dict[str, Any]] = []
        for _ in range(50):
            if loaded.state.finished:
                break
            if loaded.state.actor in vacant:
                loaded, more = await self._play_out(loaded, None)
            else:
                action = _only_placement(loaded.state)
                if action is None:
                    break
                step = engine.apply(loaded.state, action)
                loaded = await self._commit(loaded, action, step, None)
                more = _events_of(step)
            events.extend(more)
        return loaded, events

    async def kick(
        self,
        channel_id: int,
        mod_id: int,
        user_id: int,
        *,
        replacement: tuple[int, str] | None = None,
        ai: str | None = None,
    ) -> Outcome | GameRow:
        """Moderator: remove a player. In a lobby the seat goes; in a game a replacement takes
        the seat, or without one the seat is vacant and its turns are skipped."""
        async with self.lock(channel_id):
            game = await self._open_game(channel_id)
            seat = game.seat_of(user_id)
            if seat is None:
                raise NotSeated.said("svc.no_seat_member")
            if game.status is GameStatus.LOBBY:
                seats = [s for s in game.players if s.user_id != user_id]
                return await self.store.update_lobby(game.id, players=seats)
            loaded = await self._load(game)
            if replacement is not None:
                new_id, _ = replacement
                if game.seat_of(new_id):
                    raise LobbyError.said("svc.replacement_seated")
                for check in self.seat_checks:
                    await check(game, new_id)
                seats = [Seat(new_id, s.name) if s.user_id == user_id else s
                         for s in game.players]
                await self.store.set_players(game.id, seats)
                await self._set_options(game.id, _left_seat(game.options, seat))
                line = text.replaced_line(seat.name, new_id, of_game(game))
            elif ai is not None:
                if ai not in AI_LEVELS:
                    raise LobbyError.said("svc.no_ai_level", level=text.echo(ai))
                seats = [Seat(0, s.name, ai=ai) if s.user_id == user_id else s
                         for s in game.players]
                await self.store.set_players(game.id, seats)
                await self._set_options(game.id, _left_seat(game.options, seat))
                line = i18n.t("svc.ai_seat", of_game(game), level=ai_level(ai),
                              seat=seat.name)
            else:
                seats = [Seat(0, s.name) if s.user_id == user_id else s for s in game.players]
                opts = _left_seat(game.options, seat)
                opts["vacant"] = sorted({*opts.get("vacant", []), seat.name})
                await self.store.set_players(game.id, seats)
                await self._set_options(game.id, opts)
                line = text.vacated_line(seat.name, of_game(game))
            game = await self.store.get_game(game.id)
            assert game is not None
            loaded = Loaded(game, loaded.state)
            self._cache[channel_id] = loaded
            after, events = await self._autoplay_vacant(loaded)
            out = self._outcome(after, events, mod_id)
            out.public.insert(0, line)
            out.headline = [line]
            out.first_seq = loaded.version + 1 if after.version > loaded.version else 0
            out.panel = await self._panel(after)
            await self._sync_clock(after)
            return out

    async def _set_options(self, game_id: int, options: dict[str, Any]) -> None:
        await self.store.set_options(game_id, options)

    async def end(self, channel_id: int, mod_id: int) -> GameRow:
        """Moderator: stop the channel's game or lobby without a result."""
        async with self.lock(channel_id):
            game = await self._open_game(channel_id)
            await self.store.set_status(game.id, GameStatus.ENDED)
            self._cache.pop(channel_id, None)
            ended = await self.store.get_game(game.id)
            assert ended is not None
            await self._sync_clock(Loaded(ended, None))
            return ended

    # -- AI seats -------------------------------------------------------------------------

    @staticmethod
    def auto_level(game: GameRow, name: str | None) -> str | None:
        """The AI level that plays this seat now: an AI seat's own, `normal` for a member's
        seat left to the AI after repeated timeouts, else None (a person plays it)."""
        seat = game.seat_named(name) if name else None
        if seat is None:
            return None
        if seat.ai:
            return seat.ai
        if name in game.options.get("away", ()):
            return TIMEOUT_LEVEL
        return None

    def _can_manage_lobby(self, game: GameRow, user_id: int, is_mod: bool) -> None:
        if user_id != game.opener_id and not is_mod:
            raise NotAllowed.said("svc.only_opener_do")

    async def _lobby_for_change(self, channel_id: int) -> GameRow:
        game = await self._open_game(channel_id)
        if game.status is not GameStatus.LOBBY:
            raise LobbyError.said("svc.lobby_setting")
        return game

    async def add_ai(self, channel_id: int, user_id: int, level: str, *,
                     is_mod: bool = False) -> GameRow:
        """Lobby: seat an AI player of `level` (named like "AI (hard) 2")."""
        if level not in AI_LEVELS:
            raise LobbyError.said("svc.no_ai_level", level=text.echo(level))
        async with self.lock(channel_id):
            game = await self._lobby_for_change(channel_id)
            self._can_manage_lobby(game, user_id, is_mod)
            if game.options.get("league"):
                raise LobbyError.said("svc.league_no_ai")
            limit = game.options.get("max_players", MAX_PLAYERS)
            if len(game.players) >= limit:
                raise LobbyError.said("svc.full_ai", limit=limit)
            n = 1 + sum(1 for s in game.players if s.ai)
            name = engine_name(f"AI ({level}) {n}", [s.name for s in game.players])
            return await self.store.update_lobby(
                game.id, players=[*game.players, Seat(0, name, ai=level)])

    async def remove_ai(self, channel_id: int, user_id: int, *, is_mod: bool = False) -> GameRow:
        """Lobby: remove the last AI seat."""
        async with self.lock(channel_id):
            game = await self._lobby_for_change(channel_id)
            self._can_manage_lobby(game, user_id, is_mod)
            ais = [s for s in game.players if s.ai]
            if not ais:
                raise LobbyError.said("svc.no_ai_seat")
            seats = [s for s in game.players if s is not ais[-1]]
            return await self.store.update_lobby(game.id, players=seats)

    async def set_clock(self, channel_id: int, user_id: int, clock: ClockConfig, *,
                        is_mod: bool = False) -> GameRow:
        """Lobby: choose the game's turn limit and reminders."""
        async with self.lock(channel_id):
            game = await self._lobby_for_change(channel_id)
            self._can_manage_lobby(game, user_id, is_mod)
            self.check_limit(clock)
            required = await self._required_limit(game)
            if required and not clock.on:
                raise LobbyError.said("svc.league_needs_clock",
                                      limit=format_duration(required))
            return await self.store.update_lobby(
                game.id, options={**game.options, "clock": clock.to_json()})

    def check_limit(self, clock: ClockConfig) -> None:
        if clock.limit is not None and clock.limit < self.rules.min_limit:
            raise LobbyError.said("svc.min_limit", least=format_duration(self.rules.min_limit),
                                  asked=format_duration(clock.limit))

    async def set_server_clock(self, guild_id: int, clock: ClockConfig) -> None:
        """Moderator: the clock new lobbies of this server start with."""
        self.check_limit(clock)
        await self.store.set_guild_clock(guild_id, clock.to_json())

    async def require_league_clock(self, guild_id: int, league_name: str,
                                   clock: ClockConfig, lang: str = "en") -> str:
        """Moderator: the league's open season requires this turn limit of its games (off:
        no longer required). Returns the sentence to confirm it."""
        from bot.league import LeagueService

        self.check_limit(clock)
        leagues = LeagueService(self.store)
        league = await leagues.league(guild_id, league_name)
        season = await leagues.current_season(league)
        await self.store.set_season_turn_limit(season.id, clock.limit)
        return i18n.t("svc.league_clock", lang, league=league.name, season=season.name,
                      on=clock.limit is not None,
                      limit=format_duration(clock.limit) if clock.limit is not None else "")

    async def _required_limit(self, game: GameRow) -> int | None:
        tag = game.options.get("league")
        if isinstance(tag, dict) and tag.get("season_id"):
            return await self.store.season_turn_limit(int(tag["season_id"]))
        return None

    async def _lobby_clock(self, game: GameRow) -> ClockConfig:
        """The clock a lobby will start with: its own, else the server's default; a league
        season that requires a clock fills in its limit."""
        raw = game.options.get("clock")
        clock = clock_of(raw if raw is not None else await self.store.guild_clock(game.guild_id))
        required = await self._required_limit(game)
        if required and not clock.on:
            clock = ClockConfig(limit=required, remind=clock.remind)
        return clock

    async def lobby_clock(self, channel_id: int) -> ClockConfig:
        game = await self._open_game(channel_id)
        return await self._lobby_clock(game) if game.status is GameStatus.LOBBY else \
            clock_of(game.options.get("clock"))

    async def auto_act(self, channel_id: int, seat_name: str, action: Any, *,
                       version: int, level: str, timed_out: bool = False) -> Outcome:
        """Apply an action chosen by the AI for `seat_name`, through the same path as a
        member's: one transaction before anything is posted, refused (StaleVersion) when the
        game moved on since the AI looked at it, when that seat no longer acts, or when its
        member took it back meanwhile (unless the AI plays a turn whose limit ran out)."""
        async with self.lock(channel_id):
            loaded = await self._active(channel_id)
            if (loaded.version != version or loaded.state.actor != seat_name
                    or not (timed_out or self.auto_level(loaded.game, seat_name))):
                raise StaleVersion.said("svc.stale")
            seat = loaded.game.seat_named(seat_name)
            if seat is None:
                raise NotSeated.said("svc.seat_gone", seat=seat_name)
            parsed = self._parse(seat, action)
            step = self._apply(loaded.state, parsed)
            after = await self._commit(loaded, parsed, step, None)
            after, more = await self._autoplay_vacant(after)
            log.info("game %s: AI (%s) for %s: %s", after.game.id, level, seat_name,
                     text.action_phrase(_dump(parsed)))
            return self._outcome(after, _events_of(step) + more, None)

    async def report(self, channel_id: int, events: list[dict[str, Any]], *,
                     first_seq: int = 0, headline: Sequence[str] = ()) -> Outcome:
        """An outcome for events already committed (an AI stint from action `first_seq` on),
        with the current panel; `headline` lines come first (e.g. a timeout)."""
        async with self.lock(channel_id):
            game = (await self.store.open_game(channel_id)
                    or await self.store.last_game(channel_id, started=True))
            if game is None:
                raise NoGameHere.said("svc.no_game")
            loaded = await self._load(game)
            out = self._outcome(loaded, events, None)
            out.first_seq = first_seq
            out.headline = list(headline)
            out.public = [*headline, *out.public]
            out.highlight = tuple(dict.fromkeys(
                e["region"] for e in events
                if e.get("type") == "conquered" and isinstance(e.get("region"), int)))
            if not loaded.state.finished:
                out.panel = await self._panel(loaded)
            await self._sync_clock(loaded)
            return out

    # -- the clock ------------------------------------------------------------------------

    def _stint(self, loaded: Loaded) -> tuple[str, list[Deadline]]:
        """Who must act now, as the key of their stint and the deadlines it should have."""
        game, state = loaded.game, loaded.state
        if game.status is not GameStatus.ACTIVE or state is None or state.finished:
            return "over", []
        now = time.time()
        actor = state.actor
        current = state.players[state.current]
        placing = actor != current
        if self.auto_level(game, actor):
            key = f"ai:{actor}:{loaded.version}"
            due = now if placing else now + self.rules.ai_delay
            return key, [Deadline(game.id, "ai", actor, key, due)]
        clock = clock_of(game.options.get("clock"))
        if not clock.on:
            return "off", []
        if placing:
            key = f"surv:{actor}:{state.round}:{current}"
            return key, [Deadline(game.id, "survivors", actor, key,
                                  now + self.rules.survivor_limit)]
        key = f"turn:{actor}:{state.round}"
        return key, turn_rows(game.id, actor, key, clock, now)

    async def _sync_clock(self, loaded: Loaded) -> None:
        """Make the game's deadlines fit who must act now (a no-op within one stint)."""
        key, rows = self._stint(loaded)
        if self._stints.get(loaded.game.id) == key:
            return
        await self.store.sync_deadlines(loaded.game.id, rows)
        self._stints[loaded.game.id] = key
        if self.deadlines_changed is not None:
            self.deadlines_changed()

    def forget_stint(self, game_id: int) -> None:
        """A deadline of the game fired: the next sync writes its deadlines again."""
        self._stints.pop(game_id, None)

    async def sync_all(self, *, shards: Shards | None = None) -> int:
        """At start: every active game's deadlines (of the guilds on `shards`: this process's)
        fit its state (deadlines that passed while the bot was down stay due and fire at
        once); returns how many games were checked."""
        games = [g for g in await self.store.active_games()
                 if shards is None or shards.serves(g.guild_id)]
        for game in games:
            async with self.lock(game.channel_id):
                try:
                    await self._sync_clock(await self._load(game))
                except Exception:  # noqa: BLE001 - one broken game must not stop the others
                    log.exception("could not arm the clock of game %s", game.id)
        return len(games)

    async def game_for(self, game_id: int) -> Loaded | None:
        """The active game with this id and its state (None: it is over or gone)."""
        game = await self.store.get_game(game_id)
        if game is None or game.status is not GameStatus.ACTIVE:
            return None
        async with self.lock(game.channel_id):
            return await self._load(game)

    async def timed_out(self, channel_id: int, seat_name: str) -> tuple[int, bool]:
        """The seat missed its turn limit: count it; after `away_after` in a row the AI keeps
        the seat. Returns (consecutive timeouts, now away)."""
        async with self.lock(channel_id):
            game = await self._open_game(channel_id)
            opts = dict(game.options)
            counts = dict(opts.get("timeouts", {}))
            counts[seat_name] = int(counts.get(seat_name, 0)) + 1
            opts["timeouts"] = counts
            away = counts[seat_name] >= self.rules.away_after
            if away:
                opts["away"] = sorted({*opts.get("away", []), seat_name})
            await self.store.set_options(game.id, opts)
            self._cache.pop(channel_id, None)
            return counts[seat_name], away

    async def _reset_timeouts(self, loaded: Loaded, seat_name: str) -> Loaded:
        opts = dict(loaded.game.options)
        opts["timeouts"] = {k: v for k, v in opts.get("timeouts", {}).items() if k != seat_name}
        await self.store.set_options(loaded.game.id, opts)
        game = dataclasses.replace(loaded.game, options=opts)
        after = Loaded(game, loaded.state, loaded.notices)
        self._cache[game.channel_id] = Loaded(game, loaded.state)
        return after

    async def back(self, channel_id: int, user_id: int) -> tuple[Outcome, str]:
        """A member takes back the seat the AI kept after their timeouts."""
        async with self.lock(channel_id):
            loaded = await self._active(channel_id)
            seat = self._seat(loaded.game, user_id)
            if seat.name not in loaded.game.options.get("away", ()):
                raise NotAllowed.said("svc.seat_yours", n=self.rules.away_after)
            opts = dict(loaded.game.options)
            opts["away"] = [n for n in opts.get("away", []) if n != seat.name]
            opts["timeouts"] = {k: v for k, v in opts.get("timeouts", {}).items()
                                if k != seat.name}
            await self.store.set_options(loaded.game.id, opts)
            game = dataclasses.replace(loaded.game, options=opts)
            after = Loaded(game, loaded.state)
            self._cache[channel_id] = after
            out = self._outcome(after, [], user_id)
            out.panel = await self._panel(after)
            await self._sync_clock(after)
            return out, seat.name

    async def time_left(self, game_id: int) -> list[tuple[str, str, float]]:
        """(seat, kind, seconds left) of the game's running limits (turn, survivors)."""
        now = time.time()
        return [(d.seat, d.kind, d.due_at - now) for d in await self.store.deadlines(game_id)
                if d.kind in ("turn", "survivors")]

    # -- what can be done now -------------------------------------------------------------

    async def legal(self, channel_id: int, user_id: int) -> list[Any]:
        """The user's legal actions now (empty when someone else must act)."""
        async with self.lock(channel_id):
            loaded = await self._active(channel_id)
            seat = loaded.game.seat_of(user_id)
            if seat is None or loaded.state.finished or loaded.state.actor != seat.name:
                return []
            return list(engine.legal_actions(loaded.state))

    async def panel(self, channel_id: int) -> Panel:
        """Everything the actor can do now, labelled for menus and buttons."""
        async with self.lock(channel_id):
            loaded = await self._active(channel_id)
            return await self._panel(loaded)

    async def _panel(self, loaded: Loaded) -> Panel:
        state = loaded.state
        game = loaded.game
        if state.finished:
            return Panel(game.id, loaded.version, None, None, "finished", (), (), (), (), (),
                         False, False, False, False, False, round=int(state.round))
        legal = [_dump(a) for a in engine.legal_actions(state)]
        obs = engine.observe(state, None)
        verbs = {a["do"] for a in legal}
        # every slot is offered: which ones the actor can afford would hint at their coins
        everyone = [{"do": "pick", "slot": i} for i in range(len(obs.get("row", [])))]
        picks = tuple(self._combos(obs, everyone)) if "pick" in verbs else ()
        targets = self._targets(loaded, legal, obs)
        deploys = tuple(_deploy_choices(legal))
        powers = tuple(_power_choices(legal))
        abandons = tuple(
            Choice(text.action_label(a), a) for a in legal if a["do"] == "abandon"
        )
        seat = game.seat_named(state.actor) if state.actor else None
        n_undo = await self._n_undoable(loaded, seat) if seat else 0
        current = obs.get("current")
        return Panel(
            game_id=game.id,
            version=loaded.version,
            actor=state.actor,
            actor_id=self._user_of(game, state.actor),
            stage=str(obs.get("stage", "")),
            picks=picks,
            targets=targets,
            deploys=deploys,
            powers=powers,
            abandons=abandons,
            can_roll="roll" in verbs,
            can_decline="decline" in verbs,
            can_end="end" in verbs,
            can_undo=n_undo > 0,
            is_defender=current is not None and current != state.actor,
            hand=int((obs.get("players", {}).get(state.actor) or {}).get("hand") or 0),
            round=int(obs.get("round") or 0),
            next_id=self._next_after(game, obs) if current != state.actor else None,
            active=_active_name(obs, state.actor),
            auto=self.auto_level(game, state.actor) if state.actor else None,
        )

    def _next_after(self, game: GameRow, obs: dict[str, Any]) -> int | None:
        """Who plays after the current player (survivors are placed in between)."""
        names = list(obs.get("players") or {})
        current = obs.get("current")
        if current not in names or obs.get("round", 0) >= obs.get("rounds", 0) and \
                names.index(current) == len(names) - 1:
            return None
        return self._user_of(game, names[(names.index(current) + 1) % len(names)])

    @staticmethod
    def _combos(obs: dict[str, Any], legal: list[dict[str, Any]]) -> list[ComboChoice]:
        pickable = {a["slot"] for a in legal if a["do"] == "pick"}
        races, powers = engine_data.races(), engine_data.powers()
        out = []
        for slot, combo in enumerate(obs.get("row", [])):
            race, power = combo.get("race", "?"), combo.get("power", "?")
            tokens = combo.get("tokens")
            if tokens is None:
                tokens = (races[race].tokens if race in races else 0) + (
                    powers[power].tokens if power in powers else 0
                )
            coins = combo.get("coins_on_combo", combo.get("coins", 0))
            out.append(ComboChoice(slot, race, power, int(tokens), int(combo.get("cost", slot)),
                                   int(coins), slot in pickable))
        return out

    def _targets(
        self, loaded: Loaded, legal: list[dict[str, Any]], obs: dict[str, Any]
    ) -> tuple[Target, ...]:
        key = (loaded.game.id, *_mark(loaded.game))
        if key in self._costs:
            return self._costs[key]
        regions = obs.get("regions", {})
        board = loaded.state.board
        costs = {(c.action.do, c.region, c.in_decline): c.cost
                 for c in engine.legal_conquests(loaded.state)}
        out = []
        for a in legal:
            if a["do"] not in ("conquer", "reinforce", "dragon", "enchant"):
                continue
            rid = a["region"]
            cost = None
            if a["do"] == "conquer":
                cost = costs.get(("conquer", rid, a.get("race") == "decline"))
            out.append(Target(
                region=rid,
                verb=a["do"] if a.get("race") != "decline" else f"{a['do']} (in decline)",
                cost=cost,
                terrain=board.regions[rid].terrain if rid < len(board.regions) else "?",
                holder=text.holder(regions.get(str(rid))),
                action={k: v for k, v in a.items() if k != "player"},
                where=regions.get(str(rid)),
            ))
        out.sort(key=lambda t: (t.verb != "conquer", t.cost if t.cost is not None else 99,
                                t.region))
        result = tuple(out)
        if len(self._costs) > 256:
            self._costs.clear()
        self._costs[key] = result
        return result

    async def targets(self, channel_id: int, user_id: int) -> tuple[Target, ...]:
        """Regions the user may attack now, with their cost (autocomplete for /sw conquer)."""
        async with self.lock(channel_id):
            loaded = await self._active(channel_id)
            seat = loaded.game.seat_of(user_id)
            if seat is None or loaded.state.actor != seat.name:
                return ()
            known = self._costs.get((loaded.game.id, *_mark(loaded.game)))
            if known is not None:  # asked again while typing: no need to list actions again
                return known
            legal = [_dump(a) for a in engine.legal_actions(loaded.state)]
            return self._targets(loaded, legal, engine.observe(loaded.state, None))

    async def combos(self, channel_id: int, user_id: int | None = None) -> list[ComboChoice]:
        """The visible combo row (autocomplete for /sw pick). `can_pick` reflects the user's
        own coins only when the user is the one to pick; otherwise every slot shows True."""
        async with self.lock(channel_id):
            loaded = await self._active(channel_id)
            state = loaded.state
            seat = loaded.game.seat_of(user_id) if user_id is not None else None
            if seat is not None and not state.finished and state.actor == seat.name:
                legal = [_dump(a) for a in engine.legal_actions(state)]
            else:
                legal = [{"do": "pick", "slot": i} for i in range(len(state.row))]
            return self._combos(engine.observe(state, None), legal)

    # -- reading --------------------------------------------------------------------------

    async def score(self, user_id: int, channel_id: int | None = None) -> list[ScoreLine]:
        """The user's coins in every active game they sit in (or only this channel's)."""
        games = await self.store.games_with(user_id)
        if channel_id is not None:
            games = [g for g in games if g.channel_id == channel_id]
        out = []
        for game in games:
            async with self.lock(game.channel_id):
                loaded = await self._load(game)
            seat = game.seat_of(user_id)
            assert seat is not None
            obs = engine.observe(loaded.state, seat.name)
            me = obs.get("players", {}).get(seat.name, {})
            out.append(ScoreLine(game, seat.name, me.get("coins"), obs.get("round"),
                                 loaded.state.actor == seat.name))
        return out

    async def status(self, channel_id: int,
                     lang: str | None = None) -> tuple[Loaded, list[str]]:
        """Public status lines: round, whose turn, what they can do, in `lang` (default: the
        game's language)."""
        async with self.lock(channel_id):
            game = await self.store.open_game(channel_id)
            if game is None:  # the last game here, if it was played to the end
                game = await self.store.last_game(channel_id, started=True)
                if game is None or game.status is not GameStatus.FINISHED:
                    raise NoGameHere.said("svc.no_game")
            lang = lang or of_game(game)
            if game.status is GameStatus.LOBBY:
                return Loaded(game, None), text.lobby_lines(game, lang)
            loaded = await self._load(game)
            if loaded.state.finished:
                obs = engine.observe(loaded.state, None, reveal_all=True)
                return loaded, [text.over_line(game.id, game.finished_at, lang),
                                *text.ranking_lines(obs.get("ranking"), obs.get("players", {}),
                                                    lang)]
            obs = engine.observe(loaded.state, None)
            legal = ([] if loaded.state.finished else
                     [_dump(a) for a in engine.legal_actions(loaded.state)])
            lines = text.status_lines(game, obs, legal, lang)
            level = self.auto_level(game, loaded.state.actor)
            if level:
                lines.insert(1, i18n.t("svc.status.ai", lang, level=ai_level(level),
                                       player=loaded.state.actor))
            for seat, kind, left in await self.time_left(game.id):
                lines.insert(1, i18n.t("svc.status.clock", lang, seat=seat,
                                       survivors=kind == "survivors",
                                       left=format_duration(max(0, left)),
                                       clock=clock_of(game.options.get("clock")).describe(lang)))
            return loaded, lines

    async def history(self, channel_id: int, limit: int = 15,
                      lang: str | None = None) -> list[str]:
        """The last actions of the channel's game, public lines only, in `lang` (default:
        the game's language)."""
        async with self.lock(channel_id):
            game = await self.store.open_game(channel_id) or await self.store.last_game(
                channel_id)
            if game is None:
                raise NoGameHere.said("svc.no_game")
            rows = await self.store.recent_actions(game.id, limit)
        lang = lang or of_game(game)
        lines = []
        for row in rows:
            summary = text.describe_events(engine.public_events(row.events), lang)
            lines.append(text.log_line(row.seq, row.action, summary, lang))
        return lines or [i18n.t("svc.log_empty", lang)]

    async def turn_story(self, game_id: int, since: int = 0,
                         lang: str = "en") -> tuple[list[str], list[str]]:
        """Public lines for the channel's living message: (finished, live).

        `finished` tells the turns that ended in actions `since`.. (empty when none did), up
        to and including the last end of a turn; `live` is what happened after that."""
        Events = list[tuple[int, dict[str, Any], _Said, int]]  # seq, event, its row's, index

        def story(rows: list[ActionRow]) -> tuple[Events, list[int]]:
            events: Events = []
            for row in rows:
                said = self._said(row)
                events += [(row.seq, e, said, i) for i, e in enumerate(said.public)]
            return events, [i for i, (_, e, _, _) in enumerate(events)
                            if e.get("type") in ("turn_ended", "game_over")]

        def words(part: Events) -> list[str]:
            # text.describe_events of the part's events, each row's lines worded once
            return [line for _, _, said, i in part if (line := said.lines(lang)[i])]

        def enough(rows: list[ActionRow]) -> bool:
            # the same answer as from STORY_ROWS rows: an end of a turn is in the window,
            # and, when the finished part is asked for, one before `since` too
            events, ends = story(rows)
            return bool(ends) and (since <= 0 or any(events[i][0] < since for i in ends)
                                   or events[ends[-1]][0] < since)

        mark = await self.store.log_mark(game_id)
        events, ends = story(await self._recent(game_id, STORY_ROWS, enough, mark,
                                                locked=False))
        if not ends:
            return [], words(events)
        last = ends[-1]
        live = words(events[last + 1:])
        if since <= 0 or events[last][0] < since:
            return [], live
        # the finished part starts after the last end of a turn before `since`
        start = max((i + 1 for i in ends if events[i][0] < since), default=0)
        return words(events[start:last + 1]), live

    def _said(self, row: ActionRow) -> _Said:
        """The public events of a kept row and their lines, worked out once per row object
        (a kept tail hands out the same objects; a row read again is a new object)."""
        said = self._saids.get(id(row))
        if said is None or said.row is not row:
            if len(self._saids) >= SAID_ROWS:
                self._saids.clear()
            said = self._saids[id(row)] = _Said(row, engine.public_events(row.events))
        return said

    async def _owed_dms(self, game: GameRow, events: list[dict[str, Any]]
                        ) -> list[tuple[int, list[str]]]:
        """The coin DMs an action owes, each worded in its reader's language (written to the
        outbox with the action, sent after the commit)."""
        out = []
        for uid, evs in _private_events(game, events).items():
            lang = of_game(game)
            if self.dm_language is not None:
                lang = await self.dm_language(uid, game)
            out.append((uid, [text.describe_private(e, lang) for e in evs]))
        return out

    async def export_log(self, channel_id: int) -> dict[str, Any]:
        """The public action log of the channel's game (running, or the last one played) as
        the JSON document `python -m engine run` replays (bot.export)."""
        from bot.export import NotExportable, export_game

        async with self.lock(channel_id):
            game = await self.store.open_game(channel_id)
            if game is None or game.status is GameStatus.LOBBY:
                game = await self.store.last_game(channel_id, started=True)
            if game is None:
                raise NoGameHere.said("svc.no_game")
            try:
                return await export_game(self.store, game.id)
            except NotExportable as exc:
                raise NotAllowed.said(f"svc.export.{exc.key}") from None

    async def final(self, channel_id: int) -> tuple[Loaded, dict[str, Any]]:
        """The channel's last started game with every coin total (for the end-of-game reveal)."""
        loaded = await self.last_view(channel_id)
        if not loaded.state.finished:
            raise NotAllowed.said("svc.secret")
        return loaded, engine.observe(loaded.state, None, reveal_all=True)


_ACTION_ADAPTER: Any = None


def _malformed(obj: dict[str, Any], exc: Any) -> RuleBroken:
    """A malformed action refused in player words ("region must be 0 or more (you gave
    `-3`)"), not the validator's."""
    global _ACTION_ADAPTER
    import pydantic

    from engine.actions import Action

    if _ACTION_ADAPTER is None:
        _ACTION_ADAPTER = pydantic.TypeAdapter(Action)
    try:
        _ACTION_ADAPTER.validate_python(obj)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        loc = [str(p) for p in first.get("loc", ()) if str(p) not in text.VERBS]
        field_name = loc[-1] if loc else "action"
        value = first.get("input")
        ctx = dict(first.get("ctx") or {})
        if field_name == "slot":  # players number the combos 1-6
            field_name = "combo"
            ctx = {k: v + 1 if isinstance(v, int) else v for k, v in ctx.items()}
            value = value + 1 if isinstance(value, int) else value
        return RuleBroken.said("svc.bad_action",
                               said=text.invalid_field(field_name, str(first.get("type", "")),
                                                       ctx, value))
    return RuleBroken(text.violation(exc.message), exc.code, exc.key, exc.params)


def _deploy_choices(legal: list[dict[str, Any]]) -> list[Choice]:
    """One "put N on region R" per region: the largest count offered there."""
    best: dict[int, dict[str, Any]] = {}
    for a in legal:
        if a["do"] == "deploy" and a["count"] > best.get(a["region"], {"count": 0})["count"]:
            best[a["region"]] = a
    out = []
    for _, a in sorted(best.items()):
        clean = {k: v for k, v in a.items() if k != "player"}
        out.append(Choice(text.action_label(clean), clean))
    return out


def _power_choices(legal: list[dict[str, Any]]) -> list[Choice]:
    out = []
    for a in legal:
        clean = {k: v for k, v in a.items() if k != "player"}
        match a["do"]:
            case "place" | "ally":
                out.append(Choice(text.action_label(clean), clean))
            case _:
                pass
    return out


def _active_name(obs: dict[str, Any], name: str | None) -> i18n.Msg | str:
    """The actor's Active combo, named in whichever language a message words it."""
    act = ((obs.get("players") or {}).get(name) or {}).get("active") or {}
    if not act.get("race"):
        return ""
    return i18n.Msg("combo", race=act.get("race"), power=act.get("power"))


def _only_placement(state: Any) -> Any | None:
    """Survivors' placement with one possible outcome (all on the one region left, or
    nothing but "done"), as the action that does it; None when the defender has a choice."""
    if state.finished or str(getattr(state.stage, "value", state.stage)) != "survivors":
        return None
    legal = [_dump(a) for a in engine.legal_actions(state)]
    if len(legal) == 1 and legal[0]["do"] == "end":
        return engine.parse_action(legal[0])
    deploys = [a for a in legal if a["do"] == "deploy"]
    if deploys and len(deploys) == len(legal) and len({a["region"] for a in deploys}) == 1:
        return engine.parse_action(max(deploys, key=lambda a: a["count"]))
    return None


_SKIP_ORDER = ("end", "deploy", "pick", "decline")


def _left_seat(options: dict[str, Any], seat: Seat) -> dict[str, Any]:
    """Options with `left[seat name]` listing the members who left that seat mid-game (kicked
    or quit), so results can rank them last (bot.league)."""
    opts = dict(options)
    left = {k: list(v) for k, v in (opts.get("left") or {}).items()}
    if seat.user_id > 0 and seat.user_id not in left.get(seat.name, []):
        left.setdefault(seat.name, []).append(seat.user_id)
    opts["left"] = left
    return opts


def _skip_action(legal: Sequence[Any]) -> Any | None:
    """The plainest action that moves a turn towards its end (moderator skip, vacant seat)."""
    by_verb: dict[str, list[Any]] = defaultdict(list)
    for a in legal:
        by_verb[_dump(a)["do"]].append(a)
    for verb in _SKIP_ORDER:
        options = by_verb.get(verb)
        if not options:
            continue
        if verb == "deploy":
            return max(options, key=lambda a: _dump(a)["count"])
        if verb == "pick":
            return min(options, key=lambda a: _dump(a)["slot"])
        return options[0]
    for verb in ("place", "ally", "move"):
        if by_verb.get(verb):
            return None if verb == "move" else by_verb[verb][0]
    return None
