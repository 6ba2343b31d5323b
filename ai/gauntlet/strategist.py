"""The strategist: a gauntlet player written from what strong human players do.

It reads the table the way a strong player does, with its own reading of the rules
(`lore.py`), and never looks past its own turn:

- Races are ammunition: take the combo that brings most tokens for the coins, grab wide
  and cheap, and go into decline as soon as the race has done its work, so that a fresh
  race comes in while the old one still scores.
- Decline timing counts the turns left: with two turns to go it declines only when a
  fresh race's one big turn beats two more turns of the tired one, and never on the last.
- On the last turns it plays for the final count: the whole hand goes into conquests and
  the die, and whoever looks richest on the table loses land first (deny the leader).
- It stands guard against the strongest neighbour, and on the very last turn of the game
  leaves nothing back.
- The leader is whoever looks richest from the table (coins are hidden): regions and the
  income they bring.
"""

from __future__ import annotations

import engine
from engine import GameState

from . import lore
from .base import RulesPlayer, Seen


def fresh_regions(s: GameState, me: int, tokens: int) -> float:
    """Regions a fresh race of `tokens` tokens should take in its first turn: the cheapest
    land first (2, plus what stands there), and half a region more from the die."""
    costs = sorted(2 + a.tokens + len(a.pieces) + (1 if a.lost_tribe else 0)
                   for r, a in enumerate(s.areas) if not s.geo.water[r] and a.owner != me)
    n, left = 0, tokens
    for c in costs:
        if c > left:
            break
        left -= c
        n += 1
    return n + (0.5 if left > 0 else 0.0)


class Strategist(RulesPlayer):
    style = "strategist"
    K = {"slot": 1.0, "bonus": 2.0, "afterlife_race": 3.0, "afterlife_power": 2.0,
         "cheap": 1.0, "gain": 1, "thin": 1.2, "late": 1.0, "late_turns": 3,
         "fresh_growth": 0.3, "deny": 1.0, "deny_rounds": 2, "harm": 0.3, "front": 0.0,
         "stout_spare": 4}

    # ------------------------------------------------------------ picks

    def pick_score(self, d: Seen, slot: int) -> float:
        k = self.K
        c = d.s.row[slot]
        left = d.turns_left
        toks = lore.tokens(c.race, c.power) - lore.reserve(c.race) * 0.5
        if c.race in lore.CHEAP_RACES or c.power in lore.CHEAP_POWERS:
            toks += k["cheap"]
        v = toks + c.coins - k["slot"] * slot
        # per-region and flat coins over the turn or two the race will be Active
        life = min(2, left)
        v += k["bonus"] * life * (lore.board_fit(d.s, c.race, c.power) * toks / 2.5
                                  + lore.flat_coins(c.power)) / 2.5
        v += lore.POWER_ONCE_COIN.get(c.power, 0) * 0.5
        if left >= 3:
            if c.race in lore.AFTERLIFE_RACES:
                v += k["afterlife_race"]
            if c.power in lore.AFTERLIFE_POWERS:
                v += k["afterlife_power"]
        return v

    # ------------------------------------------------------------ declines

    def want_decline(self, d: Seen) -> bool:
        k = self.K
        h = d.hold
        s = d.s
        gain = self.chain_gain(d)
        held = d.held(h.race)
        on_board = sum(s.areas[r].tokens for r in held)
        spent = gain <= k["gain"] or on_board + h.hand < k["thin"] * len(held) + 2
        left = d.turns_left
        if k["late"] and left <= k["late_turns"]:
            # the last turns counted out: staying, the tired race adds what its chain
            # takes and a little less each turn after; declining, its land scores as it
            # stands and a fresh race makes one big first turn and grows a little
            gain_f = float(gain)
            stay = sum(lore.income_now(s, d.me) + gain_f
                       + sum(max(0.0, gain_f - i) for i in range(1, j + 1))
                       for j in range(left))
            coins = s.seats[d.me].coins + len(held)
            best = max((lore.tokens(c.race, c.power) - i + c.coins
                        for i, c in enumerate(s.row) if i <= coins), default=0)
            first = fresh_regions(s, d.me, best)
            go = left * len(held) + sum(1.2 * first + (j - 1) * first * k["fresh_growth"]
                                        for j in range(1, left))
            return go > stay
        return spent

    def stout_decline(self, d: Seen) -> bool:
        h = d.hold
        spare = sum(d.s.areas[r].tokens - 1 for r in d.held(h.race))
        return spare <= self.K["stout_spare"] and d.turns_left > 2

    # ------------------------------------------------------------ conquests

    def leader_seat(self, s: GameState, me: int) -> int | None:
        """The opponent who looks richest: most income from what it holds now."""
        others = [i for i in range(len(s.players)) if i != me]
        if not others:
            return None
        return max(others, key=lambda i: (lore.income_now(s, i), -i))

    def conquest_score(self, d: Seen, o: engine.Conquest) -> float | None:
        k = self.K
        s = d.s
        a = s.areas[o.region]
        if a.owner == d.me:
            return None
        v = -o.cost + 0.1 * self.region_worth(d, o.region)
        if a.owner >= 0 and not a.decline:
            v += k["harm"]
        if k["deny"] and d.turns_left <= k["deny_rounds"] and a.owner >= 0 \
                and a.owner == self.leader_seat(s, d.me):
            v += k["deny"]
        return v

    def guard_weight(self, d: Seen, rid: int) -> float:
        k = self.K
        s = d.s
        if not k["front"] or (d.turns_left <= 1 and d.me == len(s.players) - 1):
            return 1.0  # thin and even; on the game's last turn nothing is left to guard
        worst = 0.0
        for n in d.land_neighbours(rid):
            b = s.areas[n]
            if b.owner >= 0 and b.owner != d.me and not b.decline:
                worst = max(worst, float(b.tokens))
        return 1.0 + k["front"] * worst
