"""The heuristic player: one decision at a time, from the seat's own view of the state.

Every function here reads a determinized copy (see `hidden.seat_view`), never the real
state. The plan of a turn is rebuilt from scratch at each decision; because it depends only
on the position, following it action after action gives the same plan as computing it once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

import engine
from engine import GameState, Stage, data, power_rule, race_rule

# Value of a combo over its life, in coins: (per Active turn, once).
POWER_VALUE: dict[str, tuple[float, float]] = {
    "Alchemist": (2.0, 0), "Berserk": (1.0, 0), "Bivouacking": (0.9, 0),
    "Commando": (1.3, 0), "Diplomat": (0.7, 0), "Dragon Master": (1.1, 0),
    "Flying": (1.0, 0), "Forest": (1.1, 0), "Fortified": (1.1, 0), "Heroic": (0.9, 0),
    "Hill": (1.1, 0), "Merchant": (3.0, 0), "Mounted": (0.9, 0), "Pillaging": (1.5, 0),
    "Seafaring": (0.7, 0), "Spirit": (0.3, 2.0), "Stout": (0.3, 1.5), "Swamp": (1.0, 0),
    "Underworld": (0.6, 0), "Wealthy": (0, 7.0),
}
RACE_VALUE: dict[str, tuple[float, float]] = {
    "Amazons": (0.4, 0), "Dwarves": (1.0, 1.5), "Elves": (0.6, 0), "Ghouls": (0.2, 2.5),
    "Giants": (0.8, 0), "Halflings": (0.6, 0), "Humans": (1.1, 0), "Orcs": (1.5, 0),
    "Ratmen": (0, 0), "Skeletons": (1.2, 0), "Sorcerers": (1.1, 0), "Tritons": (0.8, 0),
    "Trolls": (0.9, 0), "Wizards": (1.1, 0),
}
TOKEN_VALUE = 0.5  # coins per token per Active turn, early in a race's life (tuned by self-play)
LIFE = 3.5  # Active turns a race usually gets
CONQ_LAMBDA = 0.5  # conquest score = value - 0.5 x cost (65% vs value/cost in self-play)
PICK_MODE = "look"  # "table": trust the value table alone (the fast heuristic does)
PICK_CANDS = 3
PICK_SAMPLES = 2
PICK_WORK = 16  # samples x rounds x players per candidate
# the easy player's mistakes: how often it strays from the normal player's choice
EASY = {"pick_top": 4, "decline": 0.35, "random_conquest": 0.5}


@cache
def die_chance(short: int) -> float:
    """Chance the reinforcement die makes up `short` tokens."""
    faces = data.components().die
    return sum(1 for f in faces if f >= short) / len(faces)


@dataclass
class Ctx:
    """What the deciding seat looks at, computed once per decision."""

    s: GameState
    me: int
    name: str
    turns_left: int  # own turns left, this one included
    rng: random.Random
    level: str

    @property
    def last_turn(self) -> bool:
        return self.turns_left <= 1


def make_ctx(s: GameState, level: str, rng: random.Random) -> Ctx:
    name = s.actor
    me = s.players.index(name)
    turns_left = s.board.rounds - s.round + 1
    if me < s.current:  # a defender whose own turn this round is over
        turns_left -= 1
    return Ctx(s, me, name, max(1, turns_left), rng, level)


# ---------------------------------------------------------------- region values


def region_income(s: GameState, rid: int, race: str, power: str | None, active: bool) -> float:
    """Coins a region brings each turn to a race that holds it."""
    geo = s.geo
    bonus = (
        (race == "Dwarves" and geo.mine[rid])
        or (active and race == "Humans" and geo.terrain[rid] == "farmland")
        or (active and race == "Wizards" and geo.magic[rid])
    )
    power_bonus = active and (
        power == "Merchant"
        or (power in ("Forest", "Hill", "Swamp") and geo.terrain[rid] == power.lower())
    )
    v = 1.0 + bonus + power_bonus
    return v


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
    inc = region_income(s, rid, race, power, active)
    keep = 1.0 if c.last_turn else 1.0 + 0.55 * min(c.turns_left - 1, 2)
    v = inc * keep
    nonempty = a.lost_tribe or a.tokens > 0
    if a.owner >= 0 and a.owner != c.me:
        v += 0.9 if not a.decline else 0.5  # they lose the region's income (and tokens)
    if nonempty and active and (race == "Orcs" or power == "Pillaging"):
        v += 1
    if nonempty and active and race == "Skeletons":
        v += 0.4
    if a.owner == c.me:
        v -= 1.4  # one's own In Decline region: the decline race loses what this one gains
    if active and race == "Dwarves" and s.geo.mine[rid]:
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


def pick_step(c: Ctx) -> engine.Action:
    s = c.s
    coins = s.seats[c.me].coins
    slots = [i for i in range(len(s.row)) if i <= coins]
    if not slots:
        return engine.End(player=c.name)
    if c.level == "easy":  # a newcomer's eye: any of the first few that look good
        scored = sorted(slots, key=lambda i: (-pick_value(c, i), i))
        return engine.Pick(player=c.name, slot=c.rng.choice(scored[:EASY["pick_top"]]))
    scored = sorted(slots, key=lambda i: (-pick_value(c, i), i))
    if PICK_MODE == "look" and c.level == "normal" and len(scored) > 1:
        return engine.Pick(player=c.name, slot=look_ahead_pick(c, scored[:PICK_CANDS]))
    return engine.Pick(player=c.name, slot=scored[0])


def look_ahead_pick(c: Ctx, slots: list[int]) -> int:
    """Play each candidate combo a few rounds ahead (every seat playing the fast heuristic)
    and keep the one that leaves the best coin and income margin."""
    from .hidden import seat_view

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
    coins = [x.coins for x in s.seats]
    if not s.finished:
        left = s.board.rounds - s.round + 1
        rate = income_rates(s)
        coins = [coins[i] + left * 0.8 * rate[i] for i in range(len(coins))]
    return coins[me] - max(x for i, x in enumerate(coins) if i != me)


def income_rates(s: GameState) -> list[float]:
    """Coins each seat would score per turn from what it holds now (an estimate)."""
    out = [0.0] * len(s.seats)
    for i, seat in enumerate(s.seats):
        h = seat.active
        for r, a in enumerate(s.areas):
            if a.owner == i:
                if h is not None and a.race == h.race:
                    out[i] += region_income(s, r, h.race, h.power, True)
                else:
                    out[i] += 1.0
        if h is not None:
            out[i] += POWER_VALUE.get(h.power, (0, 0))[0] * 0.5
    return out


def pick_value(c: Ctx, slot: int) -> float:
    combo = c.s.row[slot]
    return combo_value(combo.race, combo.power, c.turns_left) + combo.coins - slot


def combo_value(race: str, power: str, turns_left: int) -> float:
    """A combo's worth in coins over the turns it will likely be Active."""
    life = min(turns_left, LIFE)
    tokens = race_rule(race).tokens + power_rule(power).tokens
    rp, ro = RACE_VALUE.get(race, (0, 0))
    pp, po = POWER_VALUE.get(power, (0, 0))
    v = tokens * TOKEN_VALUE * life + (rp + pp) * life
    if power == "Wealthy":
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
    held = held_regions(s, h.race)
    gain = plan_chain(c)
    if c.level == "easy":
        return gain == 0 or (gain <= 2 and c.rng.random() < EASY["decline"])
    if not held:
        return gain <= 1
    coins = s.seats[c.me].coins
    best_row = max((combo_value(x.race, x.power, c.turns_left - 1) + x.coins - i
                    for i, x in enumerate(s.row) if i <= coins), default=0.0)
    stay = sum(region_income(s, r, h.race, h.power, True) for r in held) + gain * 1.1
    fresh_per_turn = best_row / max(1.0, min(c.turns_left - 1, LIFE))
    if gain <= 1:
        return c.turns_left >= 3 or fresh_per_turn > 0.6 * stay
    if gain == 2:
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
    ghoul = [o for o in options if o.in_decline]
    if ghoul:  # In Decline Ghouls first: the Active race acting ends them
        g = next(x for x in s.seats[c.me].declines if race_rule(x.race).in_decline is not None)
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
    if power_rule(h.power).before_conquests(s, c.me, h):  # a Berserk roll is due
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


def _best_conquest(c: Ctx, options, active: bool, race: str, power) -> engine.Action | None:
    sure = [o for o in options if o.action.do == "conquer"]
    if sure:
        def score(o) -> tuple:
            v = conquest_value(c, o.region, active, race, power)
            return (v - CONQ_LAMBDA * o.cost, -o.region)
        if c.level == "easy" and c.rng.random() < EASY["random_conquest"]:
            return c.rng.choice(sure).action
        best = max(sure, key=score)
        if conquest_value(c, best.region, active, race, power) <= 0:
            return None
        return best.action
    tries = [o for o in options if o.action.do == "reinforce"]
    if not tries:
        return None
    if c.level == "easy" and c.rng.random() < 0.5:
        return None
    best = max(tries, key=lambda o: (die_chance(o.short) * conquest_value(
        c, o.region, active, race, power), -o.region))
    if conquest_value(c, best.region, active, race, power) <= 0:
        return None
    return best.action


def plan_chain(c: Ctx, limit: int = 12) -> int:
    """How many regions this turn's conquest chain would take (sure conquests only)."""
    s = c.s
    n = 0
    sub = Ctx(s, c.me, c.name, c.turns_left, random.Random(0), "normal")
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
    w = {r: threat(s, c.me, r, race) + 0.01 for r in held}
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
    reserve = min(race_rule(h.race).reserve, h.hand)
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
    if (s.stage is Stage.REDEPLOY or t.expanded) and power_rule(h.power).declines_after_expanding() \
            and not c.last_turn and stout_decline(c, h, held):
        return engine.Decline(player=c.name)
    return engine.End(player=c.name)


def piece_step(c: Ctx, h, held: list[int]) -> engine.Action | None:
    s = c.s
    power = power_rule(h.power)
    if (power.piece is None and "ally" not in power.verbs) or c.last_turn:
        return None
    legal = [a for a in engine.legal_actions(s) if a.do in ("place", "ally")]
    if not legal:
        return None
    if c.level == "easy":
        if c.rng.random() < 0.5:
            return c.rng.choice(legal)
        return None
    w = {r: threat(s, c.me, r, h.race) for r in held}
    if power.piece == "fortress":
        places = [a for a in legal if a.do == "place"]
        if places:
            return max(places, key=lambda a: (w[a.region], -a.region))
    if power.piece == "hero":
        want = sorted(held, key=lambda r: (-w[r], r))[:2]
        have = sorted(r for r in held if "hero" in s.areas[r].pieces)
        missing = [r for r in want if r not in have]
        if missing:
            for a in legal:
                if a.do == "place" and a.region == missing[0]:
                    return a
    if power.piece == "encampment":
        mine = sum(s.areas[r].pieces.count("encampment") for r in held)
        on_map = sum(a.pieces.count("encampment") for a in s.areas)
        if mine < 5 and on_map < 5:
            places = [a for a in legal if a.do == "place"]
            if places:
                return max(places, key=lambda a: (
                    w[a.region] / (1 + s.areas[a.region].pieces.count("encampment")),
                    -a.region))
    if "ally" in power.verbs:
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


def stout_decline(c: Ctx, h, held: list[int]) -> bool:
    """Stout: decline after scoring when next turn's readied troops would be few."""
    s = c.s
    if c.level == "easy":
        return False
    ready = sum(s.areas[r].tokens - 1 for r in held)
    return ready <= 3 and c.turns_left >= 2


# ---------------------------------------------------------------- defenders


def survivors_step(c: Ctx) -> engine.Action:
    s = c.s
    p = s.pending[0]
    if p.race is not None:
        held = held_regions(s, p.race)
        r = max(held, key=lambda r: (threat(s, c.me, r, p.race), -r))
        if c.level == "easy":
            r = c.rng.choice(held)
        return engine.Deploy(player=c.name, region=r, count=p.tokens)
    legal = engine.legal_actions(s)
    places = [a for a in legal if a.do == "place"]
    h = s.seats[c.me].active
    if places and h is not None:
        return max(places, key=lambda a: (threat(s, c.me, a.region, h.race), -a.region))
    return engine.End(player=c.name)
