"""After the game: how a position stood, and what the AI would have done with a turn.

`assess` / `evaluate` play a position out many times (every seat the fast heuristic, the
engine's random state and the undrawn stacks redrawn per playout) and report each player's
expected final coins and chance to win: a post-game review draws the win-chance curve from
the turn starts and finds the turns that swung it. `review_turn` plays the AI's own turn
from a turn-start position and compares it with the turn that was played.

These read the whole state they are given, every player's coins included: they are meant
for finished games, whose totals are public. To judge a live position, pass `viewer` and
everything that seat may not see is sampled from public facts first.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import engine
from engine import GameState

from . import plan
from .hidden import estimated_coins, seat_view
from .player import choose


@dataclass(frozen=True)
class Assessment:
    """Per player: the mean final coins and the share of playouts won (ties split)."""

    coins: dict[str, float]
    wins: dict[str, float]
    playouts: int


def _world(s: GameState, k: int, seed: int, viewer: str | None) -> GameState:
    if viewer is not None:
        return seat_view(s, s.players.index(viewer), seed, sample=k + 1)
    rng = random.Random(seed * 1_000_003 + k)
    keep = {i: s.seats[i].coins for i in range(len(s.players))}
    return engine.sample_hidden(s, s.players[0], rng,
                                lambda i: keep.get(i, estimated_coins(s, i)))


def assess(state: GameState, *, seed: int = 0, work: int = 32,
           viewer: str | None = None) -> Assessment:
    """`work` playouts of `state` to the end of the game (at least one)."""
    players = state.players
    coins = dict.fromkeys(players, 0.0)
    wins = dict.fromkeys(players, 0.0)
    n = max(1, int(work))
    for k in range(n):
        s = _world(state, k, seed, viewer)
        s = plan.play_rounds(s, 99, random.Random(seed * 7_919 + k))
        final = [x.coins for x in s.seats]
        top = max(final)
        leaders = [p for p, c in zip(players, final, strict=True) if c == top]
        for p, c in zip(players, final, strict=True):
            coins[p] += c / n
        for p in leaders:
            wins[p] += 1 / (n * len(leaders))
    return Assessment(coins, wins, n)


def evaluate(state: GameState, *, seed: int = 0, work: int = 32,
             viewer: str | None = None) -> dict[str, float]:
    """Expected final coins per player, from `work` playouts."""
    return assess(state, seed=seed, work=work, viewer=viewer).coins


@dataclass(frozen=True)
class TurnReview:
    """One turn of `player`: what the AI would have played and both turns' worth.

    `ai_margin` and `played_margin` are the player's expected final coins minus the best
    other player's, after the AI's turn and after the turn played (the same playouts;
    None when no played turn was given); `gain` = ai_margin - played_margin (positive:
    the AI's turn was worth more)."""

    player: str
    ai_actions: tuple[engine.Action, ...]
    ai_margin: float
    played_margin: float | None

    @property
    def gain(self) -> float | None:
        return None if self.played_margin is None else self.ai_margin - self.played_margin


def ends_turn(events: Iterable[engine.Event | Mapping[str, Any]]) -> bool:
    """An action's events close a turn: "turn_ended", or "game_over" for the very last
    (the rule story.turns.posts_a_map gives the bot's turn maps)."""
    return any(e.get("type") in ("turn_ended", "game_over") for e in events)


def _turn_of(s: GameState, actions: Iterable[engine.Action]) -> GameState | None:
    """The state after the actions of a turn up to the one that ends it (None: none did).
    A turn is cut where its events say it ended, not where the actor changes: the mover
    may act again right after (placing her own survivors) and another seat may act in it."""
    for a in actions:
        step = engine.apply(s, a)
        s = step.state
        if ends_turn(step.events):
            return s
    return None


def play_turn(start: GameState, level: str, seed: int
              ) -> tuple[tuple[engine.Action, ...], GameState, list[list[engine.Event]]]:
    """The AI's own turn from `start` at `level`, played until an action's events end the
    turn; whoever must act meanwhile (a defender placing survivors) is played by the AI
    too. -> (the actions, the state after the last, every action's events in order)."""
    s = start
    mine: list[engine.Action] = []
    events: list[list[engine.Event]] = []
    while not s.finished and len(mine) < 200:
        a = choose(s, level, seed * 131 + len(mine))
        mine.append(a)
        step = engine.apply(s, a)
        s = step.state
        events.append(step.events)
        if ends_turn(step.events):
            break
    return tuple(mine), s, events


def review_turn(start: GameState, played: list[engine.Action] | None = None, *,
                seed: int = 0, level: str = "hard", work: int = 32) -> TurnReview:
    """From `start` (the first decision of a turn), the AI's own turn at `level`, and
    against it `played` (the actions taken in that turn, in order, up to the one that
    ended it), if given. Both are judged where the turn ended."""
    if start.actor is None:
        raise ValueError("the game is over: there is no turn to review")
    name = start.actor
    me = start.players.index(name)
    actual = None
    if played is not None:
        actual = _turn_of(start, played)
        if actual is None:
            raise ValueError("the actions given do not finish the player's turn")
    mine, s, _ = play_turn(start, level, seed)

    def margin(x: Assessment) -> float:
        return plan.margin([x.coins[p] for p in start.players], me)
    ai = margin(assess(s, seed=seed, work=work))
    real = None if actual is None else margin(assess(actual, seed=seed, work=work))
    return TurnReview(name, mine, ai, real)
