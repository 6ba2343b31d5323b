"""Normal, hard and expert: ways to play the turn, each judged by looking ahead.

At every decision of its own the player asks several versions of the heuristic (`VARIANTS`:
the normal way, cheap land first, only good land, hold tokens back, hit the leader, pile the
front, spread even) what they would do next. When they agree, that is the move. When they
differ, each distinct move is tried in sampled worlds (hidden information redrawn per
sample: the stacks, other players' coins, the die): the seat finishes its turn the way that
variant would, the game goes on for a few rounds of fast-heuristic play, and the learned
evaluation (`value.predict`) scores the position; the move with the best mean margin (own
expected final coins minus the best other seat's) wins. In 4p that margin makes the
player hit whoever is ahead and not feed him. Picks and declines are weighed the same way,
the candidates being the best combos of the row and "decline now" against "go on". Hard
and expert also weigh the best few first conquests of a turn by the heuristic's region
value, since the variants mostly agree on where to start. The
same samples serve every candidate (common random numbers) and the amount of work is fixed
per position, never read from a clock, so the choice is deterministic.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import engine
from engine import GameState, Stage

from . import plan, traits, value
from .hidden import seat_view
from .policy import Ctx, Knobs, choose_action, conquest_value, make_ctx, ranked_slots

VARIANTS: tuple[Knobs, ...] = (
    Knobs(),  # the normal way
    Knobs(lam=0.2),  # cheap land first: more regions
    Knobs(lam=1.0),  # only land worth its price
    Knobs(keep=0.25, spread=1.6),  # hold some back and guard the front
    Knobs(harm=2.0, leader=1.5),  # hit the Active opponents, the leader most
    Knobs(spread=0.4),  # stand evenly
    Knobs(die=False, lam=0.35),  # no gamble at the end of the chain
)
FIRST_COST = 0.35  # weight of a region's cost when ranking first conquests
# How the other seats may play in the look-ahead: one of these per seat and sample, so
# that a plan is judged against hard hitters and land grabbers too, not one fixed policy.
OPPONENTS: tuple[Knobs, ...] = (
    Knobs(),
    Knobs(harm=2.2, leader=2.0),
    Knobs(lam=0.2, spread=0.5),
    Knobs(keep=0.2, spread=1.6, decline=-1.0),
)


@dataclass(frozen=True)
class Depth:
    """How hard a level looks: samples per candidate and rounds played after the turn, at
    a turn's first decision (and picks) and at later decisions of the turn."""

    variants: int
    first_samples: int
    first_rounds: int
    later_samples: int
    later_rounds: int
    picks: int  # row combos weighed at a pick
    leader: int = 1  # 1: margin against the best other seat; 0: against their mean
    declines: int = 1  # weigh "decline now" against going on (else: the heuristic's rule)
    first_conquests: int = 0  # at a turn's first conquest, also weigh this many best ones
    later_conquests: int = 0  # at the turn's later conquests, also weigh this many best ones


DEPTH: dict[str, Depth] = {
    "normal": Depth(variants=7, first_samples=2, first_rounds=1, later_samples=0,
                    later_rounds=0, picks=4, leader=0, declines=0),
    "hard": Depth(variants=7, first_samples=6, first_rounds=1, later_samples=2,
                  later_rounds=0, picks=4, first_conquests=4),
    "expert": Depth(variants=7, first_samples=24, first_rounds=2, later_samples=8,
                    later_rounds=1, picks=6, first_conquests=4),
}


# Hard and expert at tables of three or more: expert's depth (which, like hard's, weighs
# the four best first conquests by region value besides the variants' at a turn's first
# conquest). Expert weighing the three best later conquests there as well
# (`later_conquests=3`) won no more against three hard (docs/ai.md, "Expert at tables of
# three or more"), so at these tables expert and hard still play alike.
CROWDED = DEPTH["expert"]


def depth_of(level: str, players: int) -> Depth:
    """How deep `level` looks at a table of `players`. With three or more players, hard
    and expert look as `CROWDED`. Against three `normal` players in 4p (200 games, seed 11)
    hard at its own depth won 21.0% (par 25%), at expert's 45.0%, and with the first
    conquests widened as well 54.0% (docs/ai.md, "Measured", has more seeds), with p95
    about 0.5 s per decision, inside hard's 1 s. In 2p hard keeps its own depth, the first
    conquests widened too: against normal 76.0% (seed 101) and 77.8% (seed 2001) over 200
    games each, against 49.0% without. Expert in 2p is widened the same way; against the
    widened hard it won 52.0% (200 games, seed 2001; 35.5% unwidened), short of the 60%
    wanted (docs/ai.md)."""
    if level in ("hard", "expert") and players > 2:
        return CROWDED
    return DEPTH[level]


def decide(view: GameState, me: int, level: str, seed: int, rng: random.Random,
           deadline: float | None = None) -> engine.Action:
    """The action of `level` ("normal", "hard" or "expert") for seat `me` on its view."""
    depth = depth_of(level, len(view.players))
    cands = candidates(view, me, depth, rng)
    if len(cands) == 1:
        return cands[0][0]
    first = _turn_start(view)
    samples = depth.first_samples if first else depth.later_samples
    rounds = depth.first_rounds if first else depth.later_rounds
    if samples == 0:  # this level does not weigh such decisions: the normal way
        return cands[0][0]
    totals = judge(view, me, cands, samples, rounds, seed, deadline, depth.leader)
    best = max(range(len(cands)), key=lambda i: (totals[i], -i))
    return cands[best][0]


def _turn_start(s: GameState) -> bool:
    t = s.turn
    return s.stage is Stage.PICK or (s.stage is Stage.CONQUEST and not t.expanded
                                     and t.n_conquests == 0 and traits.rolled(t) is None)


def candidates(s: GameState, me: int, depth: Depth,
               rng: random.Random) -> list[tuple[engine.Action, Knobs]]:
    """Distinct next moves worth weighing, each with the knobs that finish the turn."""
    name = s.players[me]
    out: list[tuple[engine.Action, Knobs]] = []

    def add(a: engine.Action | None, k: Knobs) -> None:
        if a is not None and all(a != b for b, _ in out) and _legal(s, a):
            out.append((a, k))

    if s.stage is Stage.SURVIVORS:
        add(choose_action(make_ctx(s, "normal", rng)), Knobs())
        return out
    if s.stage is Stage.PICK:
        c = make_ctx(s, "normal", rng)
        for slot in ranked_slots(c)[:depth.picks]:
            add(engine.Pick(player=name, slot=slot), Knobs())
        if not out:
            add(engine.End(player=name), Knobs())
        return out
    for k in VARIANTS[:depth.variants]:
        add(choose_action(make_ctx(s, "fast", rng, k)), k)
    h = s.seats[me].active
    t = s.turn
    c = make_ctx(s, "normal", rng)
    if h is not None and not c.last_turn and depth.first_rounds > 0 and depth.declines:
        if s.stage is Stage.CONQUEST and not t.expanded and not t.picked:
            add(engine.Decline(player=name), Knobs())
        if traits.stout(h.power) and any(a.do == "end" for a, _ in out):
            add(engine.Decline(player=name), Knobs())
    if h is not None and s.stage is Stage.CONQUEST:
        n = depth.first_conquests if _turn_start(s) else depth.later_conquests
        if n:
            for a in best_first_conquests(c, h.race, h.power, n):
                add(a, Knobs())
    return out


def best_first_conquests(c: Ctx, race: str, power: str | None, n: int) -> list[engine.Action]:
    """The `n` sure conquests of the Active race worth most by the heuristic's region value
    less `FIRST_COST` x their cost: where a turn might start, whichever way it goes on. The
    variants each start where their own knobs point, which is often the same region."""
    sure = [o for o in engine.legal_conquests(c.s)
            if not o.in_decline and o.action.do == "conquer"]
    sure.sort(key=lambda o: (-(conquest_value(c, o.region, True, race, power)
                               - FIRST_COST * o.cost), o.region))
    return [o.action for o in sure[:n]]


def judge(view: GameState, me: int, cands: list[tuple[engine.Action, Knobs]], samples: int,
          rounds: int, seed: int, deadline: float | None = None,
          leader: int = 1) -> list[float]:
    """Summed margins of each candidate over `samples` sampled worlds."""
    totals = [0.0] * len(cands)
    for k in range(samples):
        world = seat_view(view, me, seed, sample=k + 1)
        pick = random.Random(seed * 104_729 + k)
        others = {i: OPPONENTS[pick.randrange(len(OPPONENTS))]
                  for i in range(len(view.players)) if i != me}
        for i, (a, knobs) in enumerate(cands):
            rng = random.Random(seed * 7_919 + k)
            totals[i] += outcome(world, me, a, knobs, rounds, rng, others, leader)
        if deadline is not None and time.perf_counter() > deadline:
            break
    return totals


def outcome(world: GameState, me: int, first: engine.Action, knobs: Knobs, rounds: int,
            rng: random.Random, others: dict[int, Knobs] | None = None,
            leader: int = 1) -> float:
    """Play `first`, finish the turn with `knobs`, look `rounds` rounds further; the
    expected margin of seat `me` there."""
    s = plan.step(world, first)
    s = plan.finish_turn(s, me, knobs, rng)
    s = plan.to_turn_start(s, rng)
    if rounds and not s.finished:  # whole rounds: the look ends right after an own turn
        s = plan.play_turns(s, rounds * len(s.players), rng, others)
    v = value.predict(s)
    if leader:
        return plan.margin(v, me)
    return v[me] - (sum(v) - v[me]) / (len(v) - 1)


def _legal(s: GameState, a: engine.Action) -> bool:
    try:
        engine.apply(s, a)
        return True
    except engine.RulesViolation:
        return False
