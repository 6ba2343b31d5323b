"""Hard level: the normal player's best few plans, each judged by playouts.

At the decisions that shape a game (which combo to pick, whether to decline this turn, the
first conquest of a turn, a Stout decline) the hard player takes the normal player's
candidates and plays each one out against sampled worlds: hidden information is drawn
again per sample (stacks, other players' coins, the die), every seat then plays the
normal policy to the end of the game, and the candidate with the best average coin margin
wins. The same samples serve every candidate (common random numbers), so differences come
from the choice, not the luck. The number of playouts is fixed per position (never read
from a clock) so the choice stays deterministic; it is sized to the 1 s budget.
"""

from __future__ import annotations

import random
import time

import engine
from engine import GameState, Stage

from . import plan, traits
from .hidden import seat_view
from .policy import (
    Ctx,
    choose_action,
    conquest_step,
    conquest_value,
    make_ctx,
    pick_value,
    redeploy_step,
)

# Playouts per candidate scale down with the work left in the game (players x rounds).
WORK_BUDGET = 450  # candidate-samples x players x rounds left (p95 well under 1 s)
MIN_SAMPLES, MAX_SAMPLES = 3, 24


def choose_normal(view: GameState, rng: random.Random) -> engine.Action:
    """The normal level: the heuristic, with a short look-ahead between the best picks."""
    c = make_ctx(view, "normal", rng)
    a = choose_action(c)
    if a.do == "pick":
        slots = sorted((i for i in range(len(view.row)) if i <= view.seats[c.me].coins),
                       key=lambda i: (-pick_value(c, i), i))
        if len(slots) > 1:
            return engine.Pick(player=c.name, slot=plan.look_ahead_pick(c, slots[:plan.PICK_CANDS]))
    return a


def choose_hard(view: GameState, me: int, seed: int, rng: random.Random,
                deadline: float | None = None) -> engine.Action:
    ctx = make_ctx(view, "normal", rng)
    base = choose_normal(view, rng)
    cands = candidates(ctx, base)
    if len(cands) < 2:
        return base
    rounds_left = view.board.rounds - view.round + 1
    work = len(view.players) * rounds_left * len(cands)
    n = max(MIN_SAMPLES, min(MAX_SAMPLES, WORK_BUDGET // max(1, work)))
    totals = [0.0] * len(cands)
    for k in range(n):
        world = seat_view(view, me, seed, sample=k + 1)
        for i, a in enumerate(cands):
            totals[i] += plan.playout(world, a, me, seed * 1009 + k)
        if deadline is not None and time.perf_counter() > deadline:
            break
    best = max(range(len(cands)), key=lambda i: (totals[i], -i))
    return cands[best]


def candidates(c: Ctx, base: engine.Action) -> list[engine.Action]:
    """The normal player's choice first, then the alternatives worth a playout."""
    s = c.s
    out = [base]
    if s.stage is Stage.PICK:
        coins = s.seats[c.me].coins
        slots = sorted((i for i in range(len(s.row)) if i <= coins),
                       key=lambda i: (-pick_value(c, i), i))
        out += [engine.Pick(player=c.name, slot=i) for i in slots[:3]]
    elif s.stage is Stage.CONQUEST:
        t = s.turn
        h = s.seats[c.me].active
        if h is None:
            return out
        if not t.expanded and not t.picked and not c.last_turn:
            out += [engine.Decline(player=c.name), _continue(c)]
        elif t.n_conquests == 0 and not t.ended and base.do == "conquer":
            sure = [o for o in engine.legal_conquests(s)
                    if o.action.do == "conquer" and not o.in_decline]
            sure.sort(key=lambda o: (-conquest_value(c, o.region, True, h.race, h.power)
                                     / o.cost, o.region))
            out += [o.action for o in sure[:3]]
    elif s.stage is Stage.REDEPLOY and base.do in ("end", "decline"):
        h = s.seats[c.me].active
        if h is not None and traits.stout(h.power) and not c.last_turn:
            out += [engine.End(player=c.name), engine.Decline(player=c.name)]
    uniq: list[engine.Action] = []
    for a in out:
        if a is not None and a not in uniq and _legal(s, a):
            uniq.append(a)
    return uniq


def _continue(c: Ctx) -> engine.Action | None:
    """The normal player's move if it had decided not to decline."""
    a = conquest_step(c)
    return a if a is not None else redeploy_step(c)


def _legal(s: GameState, a: engine.Action) -> bool:
    try:
        engine.apply(s, a)
        return True
    except engine.RulesViolation:
        return False
