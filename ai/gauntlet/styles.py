"""Four gauntlet players, each with a style of its own, written from docs/RULES.md.

- `greedy`: the coin counter. Values a combo by its tokens, how well race and power fit
  this board, the coins lying on it and its price; conquers the region paying most per
  token, rolls the die at the end, guards the threatened borders, declines when the
  projected income of a fresh combo beats what the tired race would still bring.
- `decliner`: the early decliner. Cheap, big armies; grabs as many regions as it can,
  cheapest first, spreads thin, and declines as soon as its race has done its work.
- `turtle`: builds a compact realm of defensive combos, keeps tokens back to guard its
  borders, piles them where the enemy stands, and declines only when stuck.
- `aggressor`: the leader's enemy. Picks big, cheap-to-attack armies and always hits the
  player who looks richest on the table first, then any Active enemy.

Each style's judgement hangs on a few knobs (`K`); scripts/gauntlet_tune.py set them by
playing each style against the others and `normal` and keeping what won more: the
gauntlet is tuned to win, never to lose.
"""

from __future__ import annotations

import engine

from . import lore
from .base import RulesPlayer, Seen


def combo(d: Seen, slot: int) -> tuple[str, str, int]:
    c = d.s.row[slot]
    return c.race, c.power, c.coins


class Greedy(RulesPlayer):
    style = "greedy"
    K = {"tokens_per_region": 3.45, "life": 3.0, "plunder": 1.5, "stay_fade": 0.85,
         "go_fade": 0.75, "gain": 1.2, "margin": 1.05}

    def per_turn(self, d: Seen, race: str, power: str) -> float:
        """Coins a fresh combo should bring each turn: a region per few tokens, each worth
        its board fit, plus flat coins and plunder."""
        k = self.K
        toks = lore.tokens(race, power) - lore.reserve(race) * 0.5
        v = toks / k["tokens_per_region"] * (1 + lore.board_fit(d.s, race, power))
        v += lore.flat_coins(power)
        if lore.plunders(race, power):
            v += k["plunder"]
        return v

    def combo_value(self, d: Seen, slot: int, turns: int) -> float:
        race, power, coins = combo(d, slot)
        life = min(turns, self.K["life"])
        v = life * self.per_turn(d, race, power)
        v += lore.POWER_ONCE_COIN.get(power, 0)
        return v + coins - slot

    def pick_score(self, d: Seen, slot: int) -> float:
        return self.combo_value(d, slot, d.turns_left)

    def want_decline(self, d: Seen) -> bool:
        k = self.K
        s = d.s
        h = d.hold
        held = d.held(h.race)
        left = d.turns_left
        now = sum(lore.region_coins(s, r, h.race, h.power) for r in held)
        now += lore.flat_coins(h.power)
        gain = self.chain_gain(d)
        # staying: today's income plus what the chain adds, fading as the race thins out
        stay = sum((now + gain * k["gain"]) * (k["stay_fade"] ** i) for i in range(left))
        # declining: plain coins now for the flipped regions, fading, plus a fresh combo
        coins = s.seats[d.me].coins
        fresh = max((self.combo_value(d, i, left - 1) for i in range(len(s.row)) if i <= coins),
                    default=0.0)
        go = sum(len(held) * (k["go_fade"] ** i) for i in range(left)) + fresh
        return go > stay * k["margin"]

    def conquest_score(self, d: Seen, o: engine.Conquest) -> float | None:
        v = self.region_worth(d, o.region)
        if v <= 0:
            return None
        return v / o.cost


class Decliner(RulesPlayer):
    style = "decliner"
    K = {"slot": 1.5, "afterlife_race": 3.0, "afterlife_power": 2.0, "wealth": 0.5,
         "gain": 1, "thin": 1.2, "stout_spare": 4}

    def pick_score(self, d: Seen, slot: int) -> float:
        k = self.K
        race, power, coins = combo(d, slot)
        v = lore.tokens(race, power) + coins - k["slot"] * slot
        if race in lore.AFTERLIFE_RACES:
            v += k["afterlife_race"]
        if power in lore.AFTERLIFE_POWERS:
            v += k["afterlife_power"]
        v += lore.POWER_ONCE_COIN.get(power, 0) * k["wealth"]
        return v

    def want_decline(self, d: Seen) -> bool:
        k = self.K
        h = d.hold
        gain = self.chain_gain(d)
        held = d.held(h.race)
        on_board = sum(d.s.areas[r].tokens for r in held)
        return gain <= k["gain"] or on_board + h.hand < k["thin"] * len(held) + 2

    def stout_decline(self, d: Seen) -> bool:
        h = d.hold
        spare = sum(d.s.areas[r].tokens - 1 for r in d.held(h.race))
        return spare <= self.K["stout_spare"]

    def conquest_score(self, d: Seen, o: engine.Conquest) -> float | None:
        if d.s.areas[o.region].owner == d.me:
            return None
        return -o.cost + 0.1 * self.region_worth(d, o.region)

    def guard_weight(self, d: Seen, rid: int) -> float:
        return 1.0  # thin and even


class Turtle(RulesPlayer):
    style = "turtle"
    K = {"shield_race": 3.0, "shield_power": 4.0, "fit": 5.0, "flat": 2.0, "keep": 0.3,
         "touch": 0.8, "cost": 0.6, "front": 2.0, "stuck": 1}

    def pick_score(self, d: Seen, slot: int) -> float:
        k = self.K
        race, power, coins = combo(d, slot)
        v: float = lore.tokens(race, power) + coins - slot
        if race in lore.SHIELD_RACES:
            v += k["shield_race"]
        if power in lore.SHIELD_POWERS:
            v += k["shield_power"]
        v += k["fit"] * lore.board_fit(d.s, race, power) + k["flat"] * lore.flat_coins(power)
        return v

    def want_decline(self, d: Seen) -> bool:
        return d.turns_left >= 3 and self.chain_gain(d) <= self.K["stuck"]

    def conquest_score(self, d: Seen, o: engine.Conquest) -> float | None:
        k = self.K
        s = d.s
        h = d.hold
        held = d.held(h.race)
        if held and d.turns_left > 1:
            exposed = sum(1 for r in held if d.pressure(r) >= 2.0)
            if h.hand - o.cost < int(exposed * k["keep"] + 0.5):  # spare tokens for the front
                return None
        v = self.region_worth(d, o.region)
        if v <= 0:
            return None
        touching = sum(1 for n in s.geo.nbrs[o.region] if s.areas[n].race == h.race)
        return v + k["touch"] * touching - k["cost"] * o.cost

    def guard_weight(self, d: Seen, rid: int) -> float:
        return float(d.pressure(rid) ** self.K["front"])  # stack the front, leave the inside thin


class Aggressor(RulesPlayer):
    style = "aggressor"
    K = {"tokens": 0.72, "cheap": 3.0, "plunder": 2.0, "cost": 0.3, "enemy": 3.0,
         "leader": 5.0, "hand": 4, "gain": 1, "leader_front": 2.0}

    def pick_score(self, d: Seen, slot: int) -> float:
        k = self.K
        race, power, coins = combo(d, slot)
        v = k["tokens"] * lore.tokens(race, power) + coins - slot
        if race in lore.CHEAP_RACES or power in lore.CHEAP_POWERS:
            v += k["cheap"]
        if lore.plunders(race, power) or race == "Skeletons":
            v += k["plunder"]
        return v

    def want_decline(self, d: Seen) -> bool:
        h = d.hold
        return h.hand < self.K["hand"] and self.chain_gain(d) <= self.K["gain"]

    def conquest_score(self, d: Seen, o: engine.Conquest) -> float | None:
        k = self.K
        a = d.s.areas[o.region]
        if a.owner == d.me:
            return None
        target = d.leader()
        v = self.region_worth(d, o.region) - k["cost"] * o.cost
        if a.owner >= 0 and not a.decline:
            v += k["enemy"]
            if a.owner == target:
                v += k["leader"]
        elif a.owner == target:
            v += 1.0
        return v

    def guard_weight(self, d: Seen, rid: int) -> float:
        """Tokens go where the leader can be hit from next turn."""
        target = d.leader()
        w = 0.2 + d.pressure(rid) * 0.5
        for n in d.land_neighbours(rid):
            if d.s.areas[n].owner == target:
                w += self.K["leader_front"]
        return w


STYLES: dict[str, type[RulesPlayer]] = {
    cls.style: cls for cls in (Greedy, Decliner, Turtle, Aggressor)
}


def with_knobs(style: str, **knobs: float) -> RulesPlayer:
    """A player of `style` with some knobs changed (for tuning the gauntlet to win)."""
    base = STYLES[style]
    unknown = set(knobs) - set(base.K)
    if unknown:
        raise ValueError(f"{style} has no knob {sorted(unknown)}")
    cls = type(base.__name__, (base,), {"K": {**base.K, **knobs}})
    assert issubclass(cls, RulesPlayer)
    return cls()
