"""The heuristic player: one decision at a time, from the seat's own view of the state.

Every function here reads a determinized copy (see `hidden.seat_view`), never the real
state. The plan of a turn is rebuilt from scratch at each decision; because it depends only
on the position, following it action after action gives the same plan as computing it once.
`Knobs` bend the plan (how dear a conquest may be, tokens held back, whom to hit, how the
tokens stand): the search levels try several and keep the best. What races and powers do
is asked of `traits` only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TypedDict

import engine
from engine import GameState, Stage
from engine.state import Hold

from . import traits

TOKEN_VALUE = 0.5  # coins per token per Active turn, early in a race's life (tuned by self-play)
LIFE = 3.5  # Active turns a race usually gets


class Easy(TypedDict):
    """How the easy level strays from the normal plan."""

    pick_top: int  # picks among this many best-looking slots
    decline: float  # chance of declining when the chain would take two regions or fewer
    random_conquest: float  # chance of a random sure conquest instead of the best


EASY: Easy = {"pick_top": 4, "decline": 0.35, "random_conquest": 0.5}


@dataclass(frozen=True)
class Knobs:
    """How a turn is played. The defaults are the normal player's."""

    lam: float = 0.5  # conquest score = value - lam x cost
    keep: float = 0.0  # share of the hand kept back from conquests (not on the last turn)
    harm: float = 0.9  # worth of taking a region from an Active opponent
    leader: float = 0.0  # extra worth of hitting the leader's Active regions
    spread: float = 1.0  # exponent on threat when standing tokens (higher: pile the front)
    decline: float = 0.0  # readiness to decline (added to the gain thresholds)
    die: bool = True  # end the chain with the reinforcement die


NORMAL = Knobs()


@dataclass
class Ctx:
    """What the deciding seat looks at, computed once per decision."""

    s: GameState
    me: int
    name: str
    turns_left: int  # own turns left, this one included
    rng: random.Random
    level: str
    k: Knobs = NORMAL
    _leader: int | None = field(default=None, repr=False)

    @property
    def last_turn(self) -> bool:
        return self.turns_left <= 1

    @property
    def leader(self) -> int:
        """The opponent who looks strongest from public facts (regions held, race size)."""
        if self._leader is None:
            s = self.s
            score = [0.0] * len(s.players)
            for a in s.areas:
                if a.owner >= 0:
                    score[a.owner] += 1.0 + (0.15 * a.tokens if not a.decline else 0)
            others = [i for i in range(len(s.players)) if i != self.me]
            self._leader = max(others, key=lambda i: (score[i], -i))
        return self._leader


def make_ctx(s: GameState, level: str, rng: random.Random, k: Knobs = NORMAL) -> Ctx:
    name = s.actor
    if name is None:
        raise ValueError("the game is over: nobody has to act")
    me = s.players.index(name)
    turns_left = s.board.rounds - s.round + 1
    if me < s.current:  # a defender whose own turn this round is over
        turns_left -= 1
    return Ctx(s, me, name, max(1, turns_left), rng, level, k)


# ---------------------------------------------------------------- region values


def threat(s: GameState, me: int, rid: int, race: str) -> float:
    """How exposed region `rid` is: enemy Active stacks next to it weigh most."""
    geo = s.geo
    t = 0.0
    for n in geo.nbrs[rid]:
        if geo.water[n]:
            continue
        a = s.areas[n]
        if a.race == race:
            continue
        if a.owner >= 0 and a.owner != me and not a.decline:
            t += 2.0 + 0.3 * a.tokens
        elif a.owner >= 0 and a.owner != me:
            t += 0.6
        elif a.owner == me:
            t += 0.2
        else:
            t += 0.5
    if geo.entry[rid]:
        t += 0.7  # new races enter at the edge
    if geo.mountain[rid]:
        t *= 0.7  # the mountain defends by itself
    return t


def conquest_value(c: Ctx, rid: int, active: bool, race: str, power: str | None) -> float:
    """What taking region `rid` is worth this turn and after, before paying for it."""
    s = c.s
    a = s.areas[rid]
    inc = traits.region_income(s.geo, rid, race, power, active)
    keep = 1.0 if c.last_turn else 1.0 + 0.55 * min(c.turns_left - 1, 2)
    v = inc * keep
    nonempty = a.lost_tribe or a.tokens > 0
    if a.owner >= 0 and a.owner != c.me:
        v += c.k.harm if not a.decline else 0.5  # they lose the region's income (and tokens)
        if not a.decline and a.owner == c.leader:
            v += c.k.leader
    if nonempty and active and traits.plunders(race, power):
        v += 1
    if nonempty and active and traits.raises_bones(race):
        v += 0.4
    if a.owner == c.me:
        v -= 1.4  # one's own In Decline region: the decline race loses what this one gains
    if active and traits.mines_in_decline(race) and s.geo.mine[rid]:
        v += 0.3 * min(c.turns_left - 1, 4)  # mines keep paying in decline
    if not c.last_turn:
        v -= 0.04 * threat(s, c.me, rid, race)  # a compact realm is easier to hold
    return v


# ---------------------------------------------------------------- one decision


def choose_action(c: Ctx) -> engine.Action:
    s = c.s
    if s.stage is Stage.SURVIVORS:
        return survivors_step(c)
    if s.stage is Stage.PICK:
        return pick_step(c)
    t = s.turn
    if (s.stage is Stage.CONQUEST and not t.expanded and not t.picked
            and s.seats[c.me].active is not None and should_decline(c)):
        return engine.Decline(player=c.name)
    if s.stage is Stage.CONQUEST:
        a = conquest_step(c)
        if a is not None:
            return a
    return redeploy_step(c)


def ranked_slots(c: Ctx) -> list[int]:
    """Affordable row slots, best value first."""
    s = c.s
    coins = s.seats[c.me].coins
    slots = [i for i in range(len(s.row)) if i <= coins]
    return sorted(slots, key=lambda i: (-pick_value(c, i), i))


def pick_step(c: Ctx) -> engine.Action:
    scored = ranked_slots(c)
    if not scored:
        return engine.End(player=c.name)
    if c.level == "easy":  # a newcomer's eye: any of the first few that look good
        return engine.Pick(player=c.name, slot=c.rng.choice(scored[:EASY["pick_top"]]))
    return engine.Pick(player=c.name, slot=scored[0])


def income_rates(s: GameState) -> list[float]:
    """Coins each seat would score per turn from what it holds now (an estimate)."""
    out = [0.0] * len(s.seats)
    geo = s.geo
    for i, seat in enumerate(s.seats):
        h = seat.active
        for r, a in enumerate(s.areas):
            if a.owner == i:
                if h is not None and a.race == h.race:
                    out[i] += traits.region_income(geo, r, h.race, h.power, True)
                else:
                    assert a.race is not None  # an owned region always holds a race
                    out[i] += traits.region_income(geo, r, a.race, None, False)
        if h is not None:
            out[i] += traits.flat_income(h.power)
    return out


def pick_value(c: Ctx, slot: int) -> float:
    combo = c.s.row[slot]
    return combo_value(combo.race, combo.power, c.turns_left) + combo.coins - slot


def combo_value(race: str, power: str, turns_left: int) -> float:
    """A combo's worth in coins over the turns it will likely be Active."""
    life = min(turns_left, LIFE)
    rp, ro, pp, po = traits.combo_value_parts(race, power)
    v = traits.tokens(race, power) * TOKEN_VALUE * life + (rp + pp) * life
    if traits.pays_at_once(power):
        v += po
    elif turns_left > 2:
        v += ro + po  # decline value needs turns after the decline
    return v


def held_regions(s: GameState, race: str) -> list[int]:
    return [i for i, a in enumerate(s.areas) if a.race == race]


def should_decline(c: Ctx) -> bool:
    """Decline when the chain would take at most one region (two, if a fresh combo would
    clearly earn more and three turns remain); never on the last turn."""
    s = c.s
    if c.last_turn:
        return False
    h = s.seats[c.me].active
    assert h is not None  # asked only of a seat with an Active race (choose_action)
    held = held_regions(s, h.race)
    gain: float = plan_chain(c)
    if c.level == "easy":
        return gain == 0 or (gain <= 2 and c.rng.random() < EASY["decline"])
    gain -= c.k.decline
    if not held:
        return gain <= 1
    coins = s.seats[c.me].coins
    best_row = max((combo_value(x.race, x.power, c.turns_left - 1) + x.coins - i
                    for i, x in enumerate(s.row) if i <= coins), default=0.0)
    stay = sum(traits.region_income(s.geo, r, h.race, h.power, True) for r in held) + gain * 1.1
    fresh_per_turn = best_row / max(1.0, min(c.turns_left - 1, LIFE))
    if gain <= 1:
        return c.turns_left >= 3 or fresh_per_turn > 0.6 * stay
    if gain <= 2:
        return c.turns_left >= 3 and fresh_per_turn > 1.1 * stay
    return False


# ---------------------------------------------------------------- conquests


def conquest_step(c: Ctx) -> engine.Action | None:
    """The next conquest of the turn's chain (None: conquests are over)."""
    s = c.s
    options = engine.legal_conquests(s)
    if not options:
        return None
    h = s.seats[c.me].active
    t = s.turn
    ghoul = [o for o in options if o.in_decline]
    if ghoul:  # In Decline Ghouls first: the Active race acting ends them
        g = next(x for x in s.seats[c.me].declines if traits.conquers_in_decline(x.race))
        best = _best_conquest(c, ghoul, False, g.race, g.power)
        if best is not None:
            return best
    act = [o for o in options if not o.in_decline]
    if not act or h is None:
        return None
    enchants = [o for o in act if o.action.do == "enchant"]
    if enchants:  # free: the token comes from the tray
        return max(enchants, key=lambda o: (conquest_value(c, o.region, True, h.race, h.power),
                                            -o.region)).action
    if not c.last_turn and c.k.keep > 0 and t.n_conquests > 0:
        total = h.hand + sum(s.areas[r].tokens for r in held_regions(s, h.race))
        if h.hand <= c.k.keep * total:
            return None  # the rest stands guard
    if traits.berserk(h.power) and traits.rolled(t) is None:
        if any(o.action.do == "conquer" for o in act):
            return engine.Roll(player=c.name)
        return None
    dragons = [o for o in act if o.action.do == "dragon"]
    plain = [o for o in act if o.action.do in ("conquer", "reinforce")]
    if dragons:
        # the Dragon saves the most on the dearest worthwhile region
        costs = {o.region: o.cost for o in plain}
        best_d = max(dragons, key=lambda o: (
            costs.get(o.region, h.hand + 3) - 1 + 0.5 * conquest_value(
                c, o.region, True, h.race, h.power), -o.region))
        saved = costs.get(best_d.region, h.hand + 3) - 1
        if saved >= 2 or not any(o.action.do == "conquer" for o in plain):
            return best_d.action
    return _best_conquest(c, plain, True, h.race, h.power)


def _best_conquest(c: Ctx, options: list[engine.Conquest], active: bool, race: str,
                   power: str | None) -> engine.Action | None:
    sure = [o for o in options if o.action.do == "conquer"]
    lam = c.k.lam
    if sure:
        def score(o: engine.Conquest) -> tuple[float, int]:
            v = conquest_value(c, o.region, active, race, power)
            return (v - lam * o.cost, -o.region)
        if c.level == "easy" and c.rng.random() < EASY["random_conquest"]:
            return c.rng.choice(sure).action
        best = max(sure, key=score)
        if conquest_value(c, best.region, active, race, power) <= 0:
            return None
        return best.action
    tries = [o for o in options if o.action.do == "reinforce"]
    if not tries or not c.k.die:
        return None
    if c.level == "easy" and c.rng.random() < 0.5:
        return None
    best = max(tries, key=lambda o: (traits.die_chance(o.short) * conquest_value(
        c, o.region, active, race, power), -o.region))
    if conquest_value(c, best.region, active, race, power) <= 0:
        return None
    return best.action


def plan_chain(c: Ctx, limit: int = 12) -> int:
    """How many regions this turn's conquest chain would take (sure conquests only)."""
    s = c.s
    n = 0
    sub = Ctx(s, c.me, c.name, c.turns_left, random.Random(0), "normal", c.k)
    for _ in range(limit):
        options = [o for o in engine.legal_conquests(sub.s)
                   if not o.in_decline and o.action.do in ("conquer", "dragon", "enchant")]
        h = sub.s.seats[c.me].active
        if not options or h is None:
            break
        best = max(options, key=lambda o: (
            conquest_value(sub, o.region, True, h.race, h.power) / max(1, o.cost), -o.region))
        try:
            sub.s = engine.apply(sub.s, best.action).state
        except engine.RulesViolation:
            break
        n += 1
    return n


# ---------------------------------------------------------------- redeployment


def target_spread(c: Ctx, race: str, held: list[int], total: int) -> dict[int, int]:
    """How many tokens each region should hold: exposed regions get more."""
    s = c.s
    alloc = {r: 1 for r in held}
    w = {r: (threat(s, c.me, r, race) + 0.01) ** c.k.spread for r in held}
    for _ in range(max(0, total - len(held))):
        r = max(held, key=lambda r: (w[r] / alloc[r], -r))
        alloc[r] += 1
    return alloc


def redeploy_step(c: Ctx) -> engine.Action:
    s = c.s
    me = c.me
    h = s.seats[me].active
    if h is None:
        return engine.End(player=c.name)
    held = held_regions(s, h.race)
    reserve = min(traits.reserve(h.race), h.hand)
    spare = h.hand - reserve
    t = s.turn
    if held:
        total = sum(s.areas[r].tokens for r in held) + spare
        want = target_spread(c, h.race, held, total)
        if spare > 0:
            if c.level == "easy":
                r = c.rng.choice(held)
                return engine.Deploy(player=c.name, region=r, count=spare)
            deficit = {r: want[r] - s.areas[r].tokens for r in held}
            r = max(held, key=lambda r: (deficit[r], -r))
            n = max(1, min(spare, deficit[r]))
            return engine.Deploy(player=c.name, region=r, count=n)
        if not c.last_turn and c.level != "easy":
            givers = [r for r in held if s.areas[r].tokens > want[r] and s.areas[r].tokens > 1
                      and r not in t.moved_to]
            takers = [r for r in held if s.areas[r].tokens < want[r] and r not in t.moved_from]
            if givers and takers:
                f = max(givers, key=lambda r: (s.areas[r].tokens - want[r], -r))
                to = max(takers, key=lambda r: (want[r] - s.areas[r].tokens, -r))
                n = min(s.areas[f].tokens - want[f], want[to] - s.areas[to].tokens,
                        s.areas[f].tokens - 1)
                if n >= 1:
                    return engine.Move(player=c.name, **{"from": f}, to=to, count=n)
    a = piece_step(c, h, held)
    if a is not None:
        return a
    if (s.stage is Stage.REDEPLOY or t.expanded) and traits.stout(h.power) \
            and not c.last_turn and stout_decline(c, h, held):
        return engine.Decline(player=c.name)
    return engine.End(player=c.name)


def piece_step(c: Ctx, h: Hold, held: list[int]) -> engine.Action | None:
    s = c.s
    if not traits.places_pieces(h.power) or c.last_turn:
        return None
    legal = [a for a in engine.legal_actions(s) if a.do in ("place", "ally")]
    if not legal:
        return None
    if c.level == "easy":
        if c.rng.random() < 0.5:
            return c.rng.choice(legal)
        return None
    w = {r: threat(s, c.me, r, h.race) for r in held}
    piece = traits.piece(h.power)
    if piece == "fortress":
        places = [a for a in legal if a.do == "place"]
        if places:
            return max(places, key=lambda a: (w[a.region], -a.region))
    if piece == "hero":
        want = sorted(held, key=lambda r: (-w[r], r))[:2]
        have = sorted(r for r in held if "hero" in s.areas[r].pieces)
        missing = [r for r in want if r not in have]
        if missing:
            for a in legal:
                if a.do == "place" and a.region == missing[0]:
                    return a
    if piece == "encampment":
        mine = sum(s.areas[r].pieces.count("encampment") for r in held)
        on_map = sum(a.pieces.count("encampment") for a in s.areas)
        if mine < 5 and on_map < 5:
            places = [a for a in legal if a.do == "place"]
            if places:
                return max(places, key=lambda a: (
                    w[a.region] / (1 + s.areas[a.region].pieces.count("encampment")),
                    -a.region))
    if traits.diplomat(h.power):
        allies = [a for a in legal if a.do == "ally"]
        if allies:
            def danger(name: str) -> float:
                i = s.players.index(name)
                d = 0.0
                for r in held:
                    for n in s.geo.nbrs[r]:
                        b = s.areas[n]
                        if b.owner == i and not b.decline:
                            d += 1 + b.tokens
                return d
            return max(allies, key=lambda a: (danger(a.target), a.target))
    return None


def stout_decline(c: Ctx, h: Hold, held: list[int]) -> bool:
    """Stout: decline after scoring when next turn's readied troops would be few."""
    s = c.s
    if c.level == "easy":
        return False
    ready = sum(s.areas[r].tokens - 1 for r in held)
    return ready <= 3 + c.k.decline and c.turns_left >= 2


# ---------------------------------------------------------------- defenders


def survivors_step(c: Ctx) -> engine.Action:
    s = c.s
    p = s.pending[0]
    if p.race is not None:
        race = p.race
        held = held_regions(s, race)
        r = max(held, key=lambda r: (threat(s, c.me, r, race), -r))
        if c.level == "easy":
            r = c.rng.choice(held)
        return engine.Deploy(player=c.name, region=r, count=p.tokens)
    legal = engine.legal_actions(s)
    places = [a for a in legal if a.do == "place"]
    h = s.seats[c.me].active
    if places and h is not None:
        return max(places, key=lambda a: (threat(s, c.me, a.region, h.race), -a.region))
    return engine.End(player=c.name)
