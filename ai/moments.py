"""Key moments of a finished game: the win chances turn by turn, the turns that swung it, and
per player the one turn the AI would have played clearly better.

`review_game(start, actions, seed=...)` replays the log from the game's first state and
cuts it into turns where the bot posts its turn maps (an action whose events hold
"turn_ended", or "game_over" for the last: story.turns.posts_a_map), so a review has one
entry per map posted and per frame of the replay. After each turn the position is assessed
(ai.review.assess, every turn with the same seed: the playouts of two positions differ only
by the positions); a turn's swing is the change of its mover's expected margin (expected
final coins minus the best other player's, plan.margin) from the turn before to its end.
A better turn is the AI's own turn (level hard by default) from the mover's first decision,
played until that turn ended, worth at least GAIN more coins of expected margin than the turn
played and made of other actions.

The review reads every player's coins: it is for finished games only, whose totals are
public (review_game refuses a log that does not end the game).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import engine
from engine import GameState

from . import plan
from .player import LEVELS
from .review import assess, ends_turn, play_turn

SWINGS = 3  # the swings a review keeps
GAIN = 2.0  # coins of expected margin the AI's turn must win by to be "clearly better"
PUBLIC = {"picked": ("race", "power"), "declined": ("race", "power"),
          "conquered": ("region", "race")}  # what a review keeps of a turn's events


@dataclass(frozen=True, slots=True)
class Swing:
    """Turn `turn` (0-based, as the review's chances and the story's frames count them) of
    round `round`, played by `player`: their expected margin moved by `delta` coins over it.
    `events`: the turn's public picks, declines and conquests, in order."""

    turn: int
    round: int
    player: str
    delta: float
    events: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Better:
    """The turn where the AI would have done clearly better: from the mover's first decision
    of turn `turn` (round `round`), the AI's actions (protocol dicts) and the public events
    of its turn and of the turn played, and what it would have gained in expected margin."""

    turn: int
    round: int
    gain: float
    actions: tuple[Mapping[str, Any], ...]
    ai_events: tuple[Mapping[str, Any], ...]
    played_events: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True, slots=True)
class GameReview:
    """A finished game's review (see the module's docstring). `chances` and `margins` have
    one {player: value} per turn map; `better` has every player, None for "no clearly
    better turn"."""

    players: tuple[str, ...]
    seed: int
    work: int
    level: str
    chances: tuple[Mapping[str, float], ...]
    margins: tuple[Mapping[str, float], ...]
    swings: tuple[Swing, ...]
    better: Mapping[str, Better | None] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        def ev(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
            return [dict(e) for e in events]
        return {
            "players": list(self.players), "seed": self.seed, "work": self.work,
            "level": self.level,
            "chances": [dict(c) for c in self.chances],
            "margins": [dict(m) for m in self.margins],
            "swings": [{"turn": s.turn, "round": s.round, "player": s.player,
                        "delta": s.delta, "events": ev(s.events)} for s in self.swings],
            "better": {p: None if b is None else {
                "turn": b.turn, "round": b.round, "gain": b.gain,
                "actions": ev(b.actions), "ai_events": ev(b.ai_events),
                "played_events": ev(b.played_events)} for p, b in self.better.items()},
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, doc: Any) -> GameReview:
        """A review from to_dict's output; anything else raises ValueError."""
        try:
            return _read(doc)
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a game review: {exc}") from None

    @classmethod
    def from_json(cls, text: str) -> GameReview:
        try:
            doc = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"not a game review: {exc}") from None
        return cls.from_dict(doc)


def _number(x: Any) -> float:
    if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
        raise ValueError(f"not a game review: {x!r} is not a number")
    return float(x)


def _int(x: Any) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise ValueError(f"not a game review: {x!r} is not a whole number")
    return x


def _events(raw: Any) -> tuple[dict[str, Any], ...]:
    if not isinstance(raw, list) or not all(isinstance(e, dict) for e in raw):
        raise ValueError("not a game review: events must be a list of objects")
    return tuple(dict(e) for e in raw)


def _read(doc: Any) -> GameReview:
    if not isinstance(doc, dict):
        raise ValueError("not a game review: expected an object")
    players = tuple(str(p) for p in doc["players"])
    who = set(players)

    def per_player(rows: Any) -> tuple[dict[str, float], ...]:
        if not isinstance(rows, list):
            raise ValueError("not a game review: a series must be a list")
        out = []
        for row in rows:
            if not isinstance(row, dict) or set(row) != who:
                raise ValueError("not a game review: each turn needs every player")
            out.append({str(k): _number(v) for k, v in row.items()})
        return tuple(out)

    chances = per_player(doc["chances"])
    margins = per_player(doc["margins"])
    if len(margins) != len(chances):
        raise ValueError("not a game review: chances and margins differ in length")
    swings = []
    for s in doc["swings"]:
        if s["player"] not in who:
            raise ValueError("not a game review: a swing of nobody in the game")
        swings.append(Swing(_int(s["turn"]), _int(s["round"]), str(s["player"]),
                            _number(s["delta"]), _events(s["events"])))
    better: dict[str, Better | None] = {}
    if not isinstance(doc["better"], dict) or set(doc["better"]) != who:
        raise ValueError("not a game review: a better turn (or none) for every player")
    for p, b in doc["better"].items():
        better[str(p)] = None if b is None else Better(
            _int(b["turn"]), _int(b["round"]), _number(b["gain"]), _events(b["actions"]),
            _events(b["ai_events"]), _events(b["played_events"]))
    level = str(doc["level"])
    if level not in LEVELS:
        raise ValueError(f"not a game review: unknown level {level!r}")
    return GameReview(players, _int(doc["seed"]), _int(doc["work"]), level, chances,
                      margins, tuple(swings), better)


def public_events(events: Iterable[engine.Event | Mapping[str, Any]],
                  player: str | None) -> tuple[dict[str, Any], ...]:
    """The picks, declines and conquests of `player` among `events`, with only what a
    reader may see of them (no coins paid or won)."""
    out = []
    for e in events:
        kind = e.get("type")
        if kind in PUBLIC and e.get("player") == player:
            out.append({"type": kind, "player": player,
                        **{k: e.get(k) for k in PUBLIC[kind]}})
    return tuple(out)


@dataclass(slots=True)
class _Turn:
    """One turn map's worth of the log: the state it left, its mover (None: the game ended
    as the last turn's survivors were placed), its round, the mover's first decision (state
    and index in the log) and the actions from it to the turn's end."""

    after: GameState
    mover: str | None
    round: int
    first: GameState | None
    played: list[engine.Action]
    events: list[engine.Event]


def _turns(start: GameState, actions: Sequence[engine.Action]) -> list[_Turn]:
    turns: list[_Turn] = []
    s = start
    window: list[tuple[GameState, engine.Action, Sequence[engine.Event]]] = []
    for a in actions:
        step = engine.apply(s, a)
        window.append((s, a, step.events))
        s = step.state
        if not ends_turn(step.events):
            continue
        ended = next((e for e in step.events if e.get("type") == "turn_ended"), None)
        mover = None if ended is None else str(ended.get("player"))
        rnd = window[-1][0].round if ended is None else int(ended.get("round"))
        k = next((i for i, (b, _, _) in enumerate(window) if mover is not None and
                  b.actor == mover and b.stage is not engine.Stage.SURVIVORS), None)
        first = None if k is None else window[k][0]
        played = [] if k is None else [x for _, x, _ in window[k:]]
        events = [e for _, _, evs in window for e in evs]
        turns.append(_Turn(s, mover, rnd, first, played, events))
        window = []
    if not s.finished:
        raise ValueError("the log does not end the game: only a finished game is reviewed")
    return turns


def _parsed(actions: Iterable[Mapping[str, Any] | engine.Action]) -> list[engine.Action]:
    return [a if isinstance(a, engine.ACTION_TYPES) else engine.parse_action(dict(a))
            for a in actions]


def _dump(actions: Iterable[engine.Action]) -> tuple[dict[str, Any], ...]:
    return tuple(a.model_dump(mode="json") for a in actions)


def review_game(start: GameState, actions: Iterable[Mapping[str, Any] | engine.Action], *,
                seed: int, work: int = 32, level: str = "hard") -> GameReview:
    """The review of the game played from `start` by `actions` (protocol dicts or engine
    Actions), which must finish it. Same inputs, same review."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; choose one of {', '.join(LEVELS)}")
    players = tuple(start.players)
    turns = _turns(start, _parsed(actions))

    def margins(s: GameState) -> tuple[dict[str, float], dict[str, float]]:
        got = assess(s, seed=seed, work=work)
        coins = [got.coins[p] for p in players]
        return ({p: plan.margin(coins, i) for i, p in enumerate(players)},
                {p: float(got.wins[p]) for p in players})

    before, _ = margins(start)
    chances: list[dict[str, float]] = []
    margin_rows: list[dict[str, float]] = []
    swings: list[Swing] = []
    better: dict[str, Better | None] = dict.fromkeys(players)
    for i, turn in enumerate(turns):
        after, wins = margins(turn.after)
        chances.append(wins)
        margin_rows.append(after)
        if turn.mover is not None:
            shown = public_events(turn.events, turn.mover)
            swings.append(Swing(i, turn.round, turn.mover,
                                after[turn.mover] - before[turn.mover], shown))
            if turn.first is not None:
                found = _better(turn, i, after[turn.mover], seed, work, level, shown)
                best = better[turn.mover]
                if found is not None and (best is None or found.gain > best.gain):
                    better[turn.mover] = found
        before = after
    swings.sort(key=lambda s: (-abs(s.delta), s.turn))
    return GameReview(players, seed, work, level, tuple(chances), tuple(margin_rows),
                      tuple(swings[:SWINGS]), better)


def _better(turn: _Turn, index: int, played_margin: float, seed: int, work: int,
            level: str, shown: tuple[dict[str, Any], ...]) -> Better | None:
    """The AI's own turn from the mover's first decision, if clearly better than the one
    played (judged on the same playouts as the review's chances)."""
    assert turn.first is not None and turn.mover is not None
    mine, s, events = play_turn(turn.first, level, seed)
    if _dump(mine) == _dump(turn.played):
        return None  # the AI would have played just this: no gain by construction
    got = assess(s, seed=seed, work=work)
    players = list(turn.first.players)
    me = players.index(turn.mover)
    gain = plan.margin([got.coins[p] for p in players], me) - played_margin
    if gain < GAIN:
        return None
    ai_events = public_events((e for evs in events for e in evs), turn.mover)
    return Better(index, turn.round, gain, _dump(mine), ai_events, shown)


def review_json(start: GameState, actions: Iterable[Mapping[str, Any]], seed: int, work: int,
                level: str) -> str:
    """review_game as JSON: what a review worker process sends back (bot.archive.reviews),
    so that the process loads the AI and the engine only."""
    return review_game(start, actions, seed=seed, work=work, level=level).to_json()
