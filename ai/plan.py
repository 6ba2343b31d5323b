"""Looking ahead: finishing a turn with given knobs, short and full playouts.

Everything here plays on sampled worlds (`hidden.seat_view`), never on the real state.
"""

from __future__ import annotations

import random

import engine
from engine import GameState, Stage

from .hidden import seat_view
from .policy import Ctx, Knobs, choose_action, income_rates, make_ctx

PICK_CANDS = 3
PICK_SAMPLES = 2
PICK_WORK = 16  # samples x rounds x players per candidate
MAX_STEPS = 4000


def step(s: GameState, a: engine.Action) -> GameState:
    """Apply `a`, or the first legal action if the rules refuse it (never stuck)."""
    try:
        return engine.apply(s, a).state
    except engine.RulesViolation:
        return engine.apply(s, engine.legal_actions(s)[0]).state


def finish_turn(s: GameState, me: int, k: Knobs, rng: random.Random,
                level: str = "fast") -> GameState:
    """Play seat `me`'s own decisions with knobs `k` until someone else must act."""
    n = 0
    name = s.players[me]
    while not s.finished and s.actor == name and n < 200:
        s = step(s, choose_action(make_ctx(s, level, rng, k)))
        n += 1
    return s


def to_turn_start(s: GameState, rng: random.Random) -> GameState:
    """Let defenders place their survivors (fast heuristic) until the next turn begins."""
    n = 0
    while s.stage is Stage.SURVIVORS and n < 100:
        s = step(s, choose_action(make_ctx(s, "fast", rng)))
        n += 1
    return s


def play_rounds(s: GameState, rounds: int, rng: random.Random,
                knobs: dict[int, Knobs] | None = None) -> GameState:
    """Fast-heuristic play for `rounds` more rounds (or to the end); `knobs` per seat."""
    stop = s.round + rounds
    n = 0
    while not s.finished and s.round < stop and n < MAX_STEPS:
        i = s.players.index(s.actor)
        k = knobs.get(i) if knobs else None
        s = step(s, choose_action(make_ctx(s, "fast", rng, k or Knobs())))
        n += 1
    return s


def play_turns(s: GameState, turns: int, rng: random.Random,
               knobs: dict[int, Knobs] | None = None) -> GameState:
    """Fast-heuristic play from a turn start through `turns` whole turns, stopping at the
    start of the next one (or at the end of the game); `knobs` per seat."""
    key = (s.round, s.current)
    n = 0
    while not s.finished and turns > 0 and n < MAX_STEPS:
        k = knobs.get(s.players.index(s.actor)) if knobs else None
        s = step(s, choose_action(make_ctx(s, "fast", rng, k or Knobs())))
        n += 1
        if s.stage is not Stage.SURVIVORS and (s.round, s.current) != key:
            key = (s.round, s.current)
            turns -= 1
    return s


def margin(coins: list[float], me: int) -> float:
    return coins[me] - max(x for i, x in enumerate(coins) if i != me)


def look_ahead_pick(c: Ctx, slots: list[int]) -> int:
    """Play each candidate combo a few rounds ahead (every seat playing the fast heuristic)
    and keep the one that leaves the best coin and income margin."""
    s = c.s
    best, best_v = slots[0], float("-inf")
    rounds = max(2, PICK_WORK // (PICK_SAMPLES * len(s.players)))
    worlds = [seat_view(s, c.me, c.rng.getrandbits(32), k) for k in range(PICK_SAMPLES)]
    for slot in slots:
        v = 0.0
        for k, w in enumerate(worlds):
            v += short_playout(w, engine.Pick(player=c.name, slot=slot), c.me, k, rounds)
        if v > best_v:
            best, best_v = slot, v
    return best


def short_playout(world: GameState, first: engine.Action, me: int, seed: int,
                  rounds: int) -> float:
    """Coin margin after `rounds` more rounds of fast-heuristic play, plus the income
    margin those positions would bring over the turns left."""
    s = engine.apply(world, first).state
    stop = min(s.board.rounds + 1, s.round + rounds)
    rng = random.Random(seed)
    n = 0
    while not s.finished and s.round < stop and n < 2000:
        s = engine.apply(s, choose_action(make_ctx(s, "fast", rng))).state
        n += 1
    coins = [float(x.coins) for x in s.seats]
    if not s.finished:
        left = s.board.rounds - s.round + 1
        rate = income_rates(s)
        coins = [coins[i] + left * 0.8 * rate[i] for i in range(len(coins))]
    return margin(coins, me)


def playout(world: GameState, first: engine.Action, me: int, seed: int) -> float:
    """Coin margin of seat `me` at the end of a game where every seat plays normal."""
    s = engine.apply(world, first).state
    rng = random.Random(seed)
    s = play_rounds(s, 99, rng)
    return margin([float(seat.coins) for seat in s.seats], me)
