"""The unit of work: one change to one channel's game, under the channel's lock.

`GameService.session(channel_id)` takes the lock, loads the game once and yields a
`Session`. Everything that writes a game goes through one — a member's action, an AI stint,
a moderator's step, a lobby change, a league round beginning — so no two writers of a
channel ever interleave. Each applied action is committed on its own (commit before reply:
nothing a player was told can be lost); an action that begins a member's new stint
carries that stint's deadlines in its transaction (`StintClock`: one commit, not two); when
the session ends the service updates its caches and the game's other deadlines (an AI's
stint) once, whatever the session did.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import pydantic

import engine
import i18n
from bot import text
from bot.clock import Deadline
from bot.errors import NotSeated, NotYourTurn, RuleBroken, StaleVersion
from bot.game.moves import dump, forced_step, is_placing, skip_action
from bot.game.recent import RecentLog
from bot.game.results import (
    Event,
    Loaded,
    Outcome,
    TurnMap,
    has,
    is_boundary,
    make_outcome,
    mark,
    private_events,
)
from bot.language import of_game
from bot.seats import new_state, user_of, vacant_seats
from bot.store import GameRow, GameStatus, MemberTurn, Seat, Store, VersionConflict
from engine.actions import Action

log = logging.getLogger(__name__)

MAX_SKIP_STEPS = 80
ACTION_ADAPTER: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(Action)

FinishListener = Callable[[GameRow], Awaitable[object]]
DmLanguage = Callable[[int, GameRow], Awaitable[str]]
ChangeListener = Callable[[int, Loaded | None], None]
OutcomeListener = Callable[[Outcome], None]


@dataclass(frozen=True, slots=True)
class StintPlan:
    """The deadlines of the stint an action begins (bot.game.stints), written in the same
    transaction as the action: `rows`, and the game's own kinds `keep` left as they are."""

    key: str
    rows: list[Deadline]
    keep: tuple[str, ...]


class StintClock(Protocol):
    """What keeps a game's deadlines (the service's core): the plan for a game row and
    state (None: the deadlines written last still fit), and word that a plan was written."""

    async def plan_stint(self, game: GameRow, state: Any) -> StintPlan | None: ...

    def stint_written(self, game_id: int, plan: StintPlan) -> None: ...


@dataclass(slots=True)
class Hooks:
    """What others hang on the service: finish listeners hear of every game that finished
    with a result, after it is committed (a line one returns is posted after the final
    reveal); `dm_language` words a member's coin DMs in their language; change listeners
    hear the channel id of every session that wrote its game, once the session is over
    (whatever wrote it: the open boards follow every path), with the game and state it left
    (None when it ended half done: the store has the truth); outcome listeners hear of
    every outcome that ends a turn or the game once it is ready for its post (its map's
    highlight known; inside a session, before the session lets go of the channel), so the
    turn post's map can be drawn meanwhile."""

    finish_listeners: list[FinishListener] = field(default_factory=list)
    dm_language: DmLanguage | None = None
    change_listeners: list[ChangeListener] = field(default_factory=list)
    outcome_listeners: list[OutcomeListener] = field(default_factory=list)

    def ready(self, out: Outcome) -> None:
        for listener in self.outcome_listeners:
            try:
                listener(out)
            except Exception:  # noqa: BLE001 - a listener must not undo a committed change
                log.exception("outcome listener failed for game %s", out.game.id)

    def changed(self, channel_id: int, now: Loaded | None = None) -> None:
        for listener in self.change_listeners:
            try:
                listener(channel_id, now)
            except Exception:  # noqa: BLE001 - a listener must not undo a committed change
                log.exception("change listener failed for channel %s", channel_id)


class Session:
    """One channel's game while its lock is held: read once, changed through these methods."""

    def __init__(self, store: Store, recent: RecentLog, hooks: Hooks, game: GameRow,
                 state: engine.GameState | None, clock: StintClock | None = None) -> None:
        self.store = store
        self.clock = clock  # an action that begins a stint writes its deadlines with it
        self.recent = recent
        self.hooks = hooks
        self.game = game
        self.state = state
        self.events: list[Event] = []  # every event this session applied, in order
        self.first_seq = 0  # the first action this session applied (0: none)
        self.notices: list[str] = []  # finish listeners' lines
        self.headline: list[str] = []  # lines the outcome leads with (a start, a timeout...)
        self.turn_started = False  # the game started in this session
        self.turn_end: tuple[int, engine.GameState] | None = None  # the last turn's end here
        self.changed = False  # the game row or its log was written
        self._placed: dict[str, list[tuple[int, int]]] = {}  # seat -> placed by its orders

    @property
    def version(self) -> int:
        return self.game.version

    @property
    def active(self) -> engine.GameState:
        """The state of a started game (the service only opens an active session on one)."""
        assert self.state is not None, "not a started game"
        return self.state

    # -- who may act --------------------------------------------------------------------

    def seat(self, user_id: int) -> Seat:
        seat = self.game.seat_of(user_id)
        if seat is None:
            raise NotSeated.said("svc.not_playing")
        return seat

    def check_actor(self, seat: Seat) -> None:
        state = self.active
        if state.finished:
            raise NotYourTurn.said("svc.game_over")
        if state.actor != seat.name:
            actor_id = user_of(self.game, state.actor)
            who = f"<@{actor_id}>" if actor_id else f"**{state.actor}**"
            raise NotYourTurn.said("svc.not_your_turn", who=who)

    def check_version(self, version: int | None, game_id: int | None = None,
                      revision: int | None = None) -> None:
        """A click names the game and version it was drawn for (a board names the log's
        revision, which an undo also moves on): a newer one is stale."""
        if (game_id is not None and game_id != self.game.id) or (
                version is not None and version != self.version) or (
                revision is not None and revision != self.game.revision):
            raise StaleVersion.said("svc.stale")

    # -- applying actions ---------------------------------------------------------------

    def parse(self, seat: Seat, action: Any) -> Any:
        """A member's (or the AI's) action for `seat`, read as an engine action."""
        if not (hasattr(action, "model_dump") or isinstance(action, dict)):
            raise RuleBroken.said("svc.unknown_action")
        obj = dump(action)
        obj["player"] = seat.name
        try:
            return engine.parse_action(obj)
        except engine.InvalidAction as exc:
            raise malformed(obj, exc) from None

    async def act(self, seat: Seat, action: Any, actor_id: int | None) -> list[Event]:
        """Parse, apply and commit one action of `seat` (a refusal changes nothing)."""
        return await self.play(self.parse(seat, action), actor_id)

    async def play(self, action: Any, actor_id: int | None, *,
                   order: str | None = None) -> list[Event]:
        """Apply and commit one engine action; its events. `order`: the action places a
        defender's survivors by her standing order (she is told once they are all placed)."""
        try:
            step = engine.apply(self.active, action)
        except (engine.RulesViolation, engine.InvalidAction) as exc:
            raise RuleBroken(text.violation(exc.message), exc.code, exc.key,
                             exc.params) from None
        events = [dict(e) for e in step.events]
        told = await self._by_order(action, step, order) if order else []
        await self._commit(action, step, events, actor_id, told)
        return events

    async def _by_order(self, action: Any, step: Any, order: str) -> list[tuple[int, list[str]]]:
        """Her standing order placed some survivors: once her placement is over, the DM
        that tells her what was done (written to the outbox with the action)."""
        seat_name = getattr(action, "player", "")
        placed = self._placed.setdefault(seat_name, [])
        placed.append((int(getattr(action, "region", 0)), int(getattr(action, "count", 0))))
        if step.state.actor == seat_name and is_placing(step.state):
            return []  # more of hers to place
        del self._placed[seat_name]
        seat = self.game.seat_named(seat_name)
        if seat is None or not seat.user_id:
            return []
        lang = of_game(self.game)
        if self.hooks.dm_language is not None:
            lang = await self.hooks.dm_language(seat.user_id, self.game)
        where = i18n.t("list.sep", lang).join(
            i18n.t("orders.placed_on", lang, n=n, region=r) for r, n in placed)
        line = i18n.t("orders.done", lang, order=i18n.Msg(f"orders.{order}"),
                      n=sum(n for _, n in placed), where=where)
        return [(seat.user_id, [line])]

    async def _commit(self, action: Any, step: Any, events: list[Event],
                      actor_id: int | None, told: Sequence[tuple[int, list[str]]] = ()) -> None:
        """Append one applied action (and, at turn boundaries, a snapshot) in one
        transaction, with the coin DMs it owes (and `told`: other private lines it owes);
        a member's turn it ends is recorded for her reliability."""
        new_state = step.state
        ends = is_boundary(events)
        finished = bool(new_state.finished)
        seq = self.version + 1
        after = dataclasses.replace(
            self.game, version=seq,
            status=GameStatus.FINISHED if finished else self.game.status)
        plan = await self.clock.plan_stint(after, new_state) if self.clock else None
        try:
            row, revision = await self.store.append(
                self.game.id,
                seq,
                dump(action),
                actor_id=actor_id,
                player=getattr(action, "player", None),
                events=events,
                reveals=bool(getattr(step, "reveals", False)),
                ends_turn=ends,
                snapshot=engine.dump_state(new_state) if ends or finished else None,
                status=GameStatus.FINISHED if finished else None,
                # the coin DMs this action owes go out only once it is committed (and after
                # a restart if the bot died first); at the end the totals are public anyway
                dms=[*(() if finished else await self._owed_dms(events)), *told],
                turn=self._turn_record(events, actor_id),
                deadlines=None if plan is None else plan.rows,
                keep_deadlines=() if plan is None else plan.keep,
            )
        except VersionConflict:
            raise StaleVersion.said("svc.stale") from None
        if plan is not None and self.clock is not None:
            self.clock.stint_written(self.game.id, plan)
        self.recent.extend(mark(self.game), row, revision)
        self.changed = True
        if finished:  # status and finished_at as the store wrote them
            game = await self.store.get_game(self.game.id)
            assert game is not None
        else:  # nothing else in the row changed: no need to read it back
            game = dataclasses.replace(self.game, version=seq, revision=revision)
        self.game, self.state = game, new_state
        self.first_seq = self.first_seq or seq
        self.events.extend(events)
        if has(events, "turn_ended"):
            self.turn_end = (seq, new_state)
        if finished:
            await self._finished()

    def _turn_record(self, events: Sequence[Event], actor_id: int | None) -> MemberTurn | None:
        """The member's turn these events end, as her reliability counts it: played by her,
        played for her while on vacation, or missed."""
        ended = next((e for e in events if e.get("type") == "turn_ended"), None)
        seat = self.game.seat_named(str(ended.get("player"))) if ended else None
        if ended is None or seat is None or not seat.user_id or seat.ai:
            return None
        if actor_id == seat.user_id:
            kind = "played"
        elif seat.until is not None and seat.away_at(time.time()):
            kind = "away"
        else:
            kind = "missed"
        return MemberTurn(seat.name, int(ended.get("round") or 0), seat.user_id, kind)

    async def _finished(self) -> None:
        for listener in self.hooks.finish_listeners:
            try:
                said = await listener(self.game)
            except Exception:
                log.exception("finish listener failed for game %s", self.game.id)
            else:
                if isinstance(said, str) and said:
                    self.notices.append(said)

    async def _owed_dms(self, events: Sequence[Event]) -> list[tuple[int, list[str]]]:
        """The coin DMs an action owes, each worded in its reader's language (written to the
        outbox with the action, sent after the commit)."""
        out = []
        for uid, evs in private_events(self.game, events).items():
            lang = of_game(self.game)
            if self.hooks.dm_language is not None:
                lang = await self.hooks.dm_language(uid, self.game)
            out.append((uid, [text.describe_private(e, lang) for e in evs]))
        return out

    async def play_out(self, actor_id: int | None) -> None:
        """Apply the plainest legal actions until someone else must act (a skip)."""
        who = self.active.actor
        for _ in range(MAX_SKIP_STEPS):
            if self.active.finished or self.active.actor != who:
                break
            action = skip_action(engine.legal_actions(self.active))
            if action is None:
                log.warning("game %s: no legal action to skip %s", self.game.id, who)
                break
            await self.play(action, actor_id)

    async def autoplay_vacant(self) -> None:
        """Play the turns of removed players, place survivors that can go only one way, and
        those of members whose standing orders say how."""
        vacant = vacant_seats(self.game)
        orders: dict[str, str] | None = None
        for _ in range(4 * MAX_SKIP_STEPS):
            if orders is None and is_placing(self.active):
                orders = await self.standing_orders()
            action, order = forced_step(self.active, vacant, orders)
            if action is None:
                break
            await self.play(action, None, order=order)

    async def standing_orders(self) -> dict[str, str]:
        """Seat -> the standing orders of its member, for the members who gave any."""
        members = {s.user_id: s.name for s in self.game.players if s.user_id and not s.ai}
        found = await self.store.standing_orders(members)
        return {members[uid]: order for uid, order in found.items()}

    async def departed(self, user_id: int) -> None:
        """The member left this running game (her reliability counts it)."""
        await self.store.left_game(self.game.id, self.game.guild_id, user_id)

    async def truncate(self, steps: int) -> list[dict[str, Any]]:
        """Take back the last `steps` actions; the actions taken back."""
        keep = self.version - steps
        removed = await self.store.actions(self.game.id, after=keep)
        try:
            await self.store.truncate(self.game.id, keep, expected=self.version)
        except VersionConflict:
            raise StaleVersion.said("svc.stale") from None
        self.changed = True
        self.recent.forget(self.game.id)
        game = await self.store.get_game(self.game.id)
        assert game is not None
        self.game = game
        self.state = await rebuild(self.store, game)
        return [r.action for r in removed]

    # -- the game row -------------------------------------------------------------------

    async def update_lobby(self, *, players: Sequence[Seat] | None = None,
                           opener_id: int | None = None,
                           options: dict[str, Any] | None = None) -> GameRow:
        self.game = await self.store.update_lobby(
            self.game.id, players=list(players) if players is not None else None,
            opener_id=opener_id, options=options)
        self.changed = True
        return self.game

    async def set_players(self, seats: Sequence[Seat]) -> None:
        """The game's seats (and their standing) are now `seats`."""
        await self.set_seating(seats, self.game.options)

    async def set_options(self, options: dict[str, Any]) -> None:
        await self.set_seating(self.game.players, options)

    async def set_seating(self, seats: Sequence[Seat], options: dict[str, Any]) -> None:
        """Seats and options written together: a game stored before the seats' standing
        moved onto them has it in its options until this write (bot.store.rows.seats_of)."""
        await self.store.set_seating(self.game.id, list(seats), options)
        self.game = dataclasses.replace(self.game, players=tuple(seats), options=dict(options))
        self.changed = True

    async def set_status(self, status: GameStatus) -> GameRow:
        await self.store.set_status(self.game.id, status)
        game = await self.store.get_game(self.game.id)
        assert game is not None
        self.game = game
        self.changed = True
        return game

    async def started(self, game: GameRow, state: engine.GameState) -> None:
        """The lobby became a game (the store wrote it): this is its state now."""
        self.game, self.state, self.changed = game, state, True
        self.turn_started = True

    # -- what it did --------------------------------------------------------------------

    def outcome(self, by: int | None, *, events: list[Event] | None = None) -> Outcome:
        """The outcome of this session's actions (or of `events`) for the Announcer; the
        service adds the panel and the turn's highlight (bot.game.core.GameCore.finish)."""
        out = make_outcome(self.game, self.state, self.events if events is None else events,
                           by, notices=self.notices)
        out.first_seq = self.first_seq
        out.turn_started = out.turn_started or self.turn_started
        if self.turn_end is not None and self.turn_end[0] < self.version and not out.finished:
            seq, state = self.turn_end  # went on past the turn's end: its map is the turn's
            out.turn_map = TurnMap(seq, state, engine.observe(state, None))
        if self.headline:
            out.lead(*self.headline)
        return out


async def rebuild(store: Store, game: GameRow, upto: int | None = None) -> engine.GameState:
    """The state after `upto` actions: last snapshot + later actions through engine.apply."""
    gl = await store.log(game.id, upto)
    state = engine.load_state(gl.snapshot) if gl.snapshot is not None else new_state(gl.game)
    for row in gl.actions:
        state = engine.apply(state, engine.parse_action(row.action)).state
    return state


def malformed(obj: dict[str, Any], exc: Any) -> RuleBroken:
    """A malformed action refused in player words ("region must be 0 or more (you gave
    `-3`)"), not the validator's."""
    try:
        ACTION_ADAPTER.validate_python(obj)
    except pydantic.ValidationError as err:
        first = err.errors()[0]
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
