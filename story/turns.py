"""Turns in an action log: where a turn ends, what it conquered, and the replay that finds them.

The bot posts a map after every action that ends a turn (its events hold "turn_ended", or
"game_over" for the very last one), with the regions conquered during that turn outlined.
`conquered_in_turn` is that rule, once: the bot's turn maps and a replay's frames both take
their highlight from it, so a frame and the map posted for its turn are drawn from the same
inputs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import engine

Event = Mapping[str, Any]


class StoryError(ValueError):
    """A log that cannot be told: an action the rules refuse, or events that differ from the
    ones recorded with it. The message is one sentence naming the action."""


def ends_a_turn(events: Iterable[Event]) -> bool:
    """An action's events end a player's turn."""
    return any(e.get("type") == "turn_ended" for e in events)


def posts_a_map(events: Iterable[Event]) -> bool:
    """After this action the bot posts a new turn map: a turn ended, or the game did (the
    last turn's survivors can be placed in an action after its "turn_ended")."""
    return any(e.get("type") in ("turn_ended", "game_over") for e in events)


def _conquered(events: Iterable[Event]) -> list[int]:
    return [r for e in events if e.get("type") == "conquered"
            and isinstance(r := e.get("region"), int) and not isinstance(r, bool)]


def conquered_in_turn(events_by_action: Sequence[Sequence[Event]]) -> tuple[int, ...]:
    """The regions conquered in the turn of the newest action (events of the log's actions,
    oldest first): those of the newest action and of every action before it back to, not
    including, the latest earlier action that ended a turn. Each region once, in the order
    first conquered. An action that ended the turn counts for the turn it ended, so after an
    end of turn this is the highlight of the map posted for it."""
    regions: list[int] = []
    for i, events in enumerate(reversed(events_by_action)):
        if i > 0 and ends_a_turn(events):
            break
        regions[:0] = _conquered(events)
    return tuple(dict.fromkeys(regions))


def _plain(events: Iterable[Event]) -> str:
    """Events as the store keeps them (JSON text, keys sorted), for comparing with recorded
    ones: a tuple and a list, or an int key and its string, are the same once stored."""
    return json.dumps(json.loads(json.dumps(list(events), default=str)), sort_keys=True)


@dataclass(frozen=True, slots=True)
class Replayed:
    """One action of a log replayed: its place in the log (1-based, the store's seq), the
    state before and after it and its events."""

    seq: int
    before: engine.GameState
    state: engine.GameState
    events: tuple[dict[str, Any], ...]


def replay(start: engine.GameState, actions: Iterable[Mapping[str, Any] | engine.Action],
           recorded: Iterable[Sequence[Event]] | None = None) -> Iterator[Replayed]:
    """Apply a game's actions (protocol dicts or engine Actions) from its first state, one
    Replayed per action. With `recorded` (the events stored with each action), an action
    whose replayed events differ from its recorded ones stops the replay with a StoryError:
    the log was not played from this start (or by these rules), and a story told from it
    would not be the game that was played."""
    state = start
    stored = iter(recorded) if recorded is not None else None
    for seq, raw in enumerate(actions, start=1):
        try:
            action = (raw if isinstance(raw, engine.ACTION_TYPES)
                      else engine.parse_action(dict(raw)))
            step = engine.apply(state, action)
        except (engine.InvalidAction, engine.RulesViolation) as exc:
            raise StoryError(f"action {seq} of the log cannot be replayed: {exc}") from None
        except (TypeError, ValueError) as exc:
            raise StoryError(f"action {seq} of the log is not an action: {exc}") from None
        events = tuple(dict(e) for e in step.events)
        if stored is not None:
            want = next(stored, None)
            if want is None:
                raise StoryError(f"action {seq} of the log has no recorded events")
            if _plain(events) != _plain(want):
                raise StoryError(f"action {seq} of the log does not replay to the events "
                                 "recorded with it")
        yield Replayed(seq, state, step.state, events)
        state = step.state
