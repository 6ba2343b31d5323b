"""What the game service hands back: a loaded game, and the outcome of one unit of work.

An `Outcome` is plain data for the Announcer (bot/chat): the public lines (never a coin total
or an income), the private lines per member (their coins), whose turn it is now, the panel
of what they can do, and the one public observation every picture and caption of the reply
is drawn from. It is built once, under the channel's lock, by `make_outcome`.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import engine
from bot import text
from bot.game.panel import Panel
from bot.language import of_game
from bot.seats import user_of
from bot.store import GameRow

Event = dict[str, Any]
_STAMPS = itertools.count(1)

BOUNDARY_EVENTS = frozenset({"turn_ended", "turn_started", "game_over"})


def is_boundary(events: Sequence[Event]) -> bool:
    """The step ended or started a turn (snapshot here; undo never crosses it)."""
    return any(e.get("type") in BOUNDARY_EVENTS for e in events)


def has(events: Sequence[Event], *types: str) -> bool:
    return any(e.get("type") in types for e in events)


def mark(game: GameRow) -> tuple[int, int]:
    """Which action log the game row names: (version, revision)."""
    return game.version, game.revision


def conquered(events: Sequence[Event]) -> tuple[int, ...]:
    """The regions conquered in these events, in order, each once (a turn map's highlight)."""
    return tuple(dict.fromkeys(e["region"] for e in events if e.get("type") == "conquered"
                               and isinstance(e.get("region"), int)))


@dataclass(frozen=True, slots=True)
class Loaded:
    """A game row and the engine state its action log leads to (None: a lobby)."""

    game: GameRow
    state: Any  # engine.GameState, or None for a lobby

    @property
    def version(self) -> int:
        return self.game.version


@dataclass(frozen=True, slots=True)
class TurnMap:
    """A turn's end, when the unit of work went on past it (the bot then placed survivors
    that could go one way only, and the next turn began): the turn's post shows this map,
    the replay's frame of that turn, then the position now, as when a member places them."""

    version: int  # the action that ended the turn
    state: Any  # engine.GameState right after it
    observation: Mapping[str, Any]  # its public observation
    highlight: tuple[int, ...] = ()  # the regions conquered in that turn


@dataclass(slots=True)
class Outcome:
    """What one unit of work changed, ready for the Announcer."""

    game: GameRow
    state: Any  # engine.GameState
    events: list[Event]
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
    nudge: bool = True  # the actor may get her turn DM for it (not for a notice to the table)
    # the public observation of `state`, worked out once for every picture and caption
    observation: Mapping[str, Any] = field(default_factory=dict)
    turn_map: TurnMap | None = None  # the turn's end, when this went on past it

    @property
    def version(self) -> int:
        return self.game.version

    @property
    def game_id(self) -> int:
        return self.game.id

    def revealed(self) -> Mapping[str, Any]:
        """The observation with every coin total (only once the game is over)."""
        if not self.finished:
            raise ValueError("coins are secret until the game is over")
        return engine.observe(self.state, None, reveal_all=True)

    def lead(self, *lines: str) -> None:
        """Put `lines` first, as the headline (a timeout, a moderator's step, a start)."""
        self.headline = [*lines, *self.headline]
        self.public = [*lines, *self.public]


@dataclass(frozen=True, slots=True)
class ScoreLine:
    game: GameRow
    name: str
    coins: int | None
    round: int | None
    is_your_turn: bool


def private_events(game: GameRow, events: Sequence[Event]) -> dict[int, list[Event]]:
    """user id -> the events only that player may see (their coins)."""
    names = {s.name: s.user_id for s in game.players}
    private: dict[int, list[Event]] = defaultdict(list)
    for ev in events:
        if not ev.get("private"):
            continue
        uid = names.get(ev.get("player", ""))
        if uid:
            private[uid].append(ev)
    return dict(private)


def private_lines(game: GameRow, events: Sequence[Event], lang: str) -> dict[int, list[str]]:
    """user id -> the lines of the events only that player may see, worded in `lang`."""
    return {uid: [text.describe_private(e, lang) for e in evs]
            for uid, evs in private_events(game, events).items()}


def make_outcome(game: GameRow, state: Any, events: list[Event], by: int | None, *,
                 notices: Sequence[str] = ()) -> Outcome:
    """The outcome of `events` that led to `state`, worded in the game's language."""
    names = {s.name: s.user_id for s in game.players}
    lang = of_game(game)
    scored: dict[int, dict[str, int]] = {}
    for ev in events:
        uid = names.get(ev.get("player", ""))
        if ev.get("private") and uid and ev.get("type") == "scored":
            scored[uid] = {"income": int(ev.get("income", 0)), "coins": int(ev.get("coins", 0))}
    return Outcome(
        game=game,
        state=state,
        events=events,
        public=text.describe_events(text.public_events(events), lang),
        private=private_lines(game, events, lang),
        turn_ended=has(events, "turn_ended", "game_over"),
        turn_started=has(events, "turn_started"),
        finished=bool(state is not None and state.finished),
        actor=state.actor if state is not None else None,
        actor_id=user_of(game, state.actor) if state is not None else None,
        previous_actor_id=by,
        scored=scored,
        notices=list(notices),
        observation=engine.observe(state, None) if state is not None else {},
    )
