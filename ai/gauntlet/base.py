"""The skeleton every gauntlet player shares: read the seat's view, answer each prompt.

A gauntlet player is written from the rules (docs/RULES.md), not from the AI levels: it
never imports `ai.policy` or `ai.search`. It decides on `engine.sample_hidden(...)` of the
real state, so it cannot peek: other players' coins read as 0, the undrawn stacks are
reshuffled and the dice are redrawn before it looks. The styles (`styles.py`) override the
judgements: which combo, which conquest, when to decline, where the tokens stand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

import engine
from engine import GameState, Stage
from engine.powers import ALLIED, LIFTED, ROLL
from engine.state import Hold

from . import lore

DIE_FACES = (0, 0, 0, 1, 2, 3)  # RULES §15: the reinforcement die


def die_odds(short: int) -> float:
    return sum(1 for f in DIE_FACES if f >= short) / len(DIE_FACES)


@dataclass
class Seen:
    """One decision: the seat's view of the game and who is deciding."""

    s: GameState
    me: int
    name: str
    rng: random.Random

    @property
    def turns_left(self) -> int:
        """Own turns still to play, this one included."""
        left = self.s.board.rounds - self.s.round + 1
        if self.s.stage is Stage.SURVIVORS and self.me < self.s.current:
            left -= 1
        return max(1, left)

    @property
    def active(self) -> Hold | None:
        return self.s.seats[self.me].active

    @property
    def hold(self) -> Hold:
        """The Active race, for the judgements asked only while there is one."""
        h = self.s.seats[self.me].active
        assert h is not None, "a judgement of the Active race, asked without one"
        return h

    def held(self, race: str) -> list[int]:
        return [i for i, a in enumerate(self.s.areas) if a.race == race]

    def land_neighbours(self, rid: int) -> list[int]:
        geo = self.s.geo
        return [n for n in geo.nbrs[rid] if not geo.water[n]]

    def pressure(self, rid: int) -> float:
        """How much region `rid` may be attacked next round: enemy Active stacks next to it
        count most, then the map's edge (where new races come in)."""
        p = 0.0
        for n in self.land_neighbours(rid):
            a = self.s.areas[n]
            if a.owner >= 0 and a.owner != self.me:
                p += (2.0 + a.tokens) if not a.decline else 0.5
            elif a.owner < 0:
                p += 0.3
        if self.s.geo.entry[rid]:
            p += 1.0
        return p

    def land_of(self, seat: int) -> int:
        return sum(1 for a in self.s.areas if a.owner == seat)

    def leader(self) -> int | None:
        """The opponent who looks richest from the table: most regions, then most tokens
        on the board (coins are hidden, so this is what a player at the table can see)."""
        others = [i for i in range(len(self.s.players)) if i != self.me]
        if not others:
            return None

        def look(i: int) -> tuple[int, int, int]:
            tok = sum(a.tokens for a in self.s.areas if a.owner == i)
            return (self.land_of(i), tok, -i)
        return max(others, key=look)


class RulesPlayer:
    """A gauntlet player: `act(state, seed)` returns a legal action for `state.actor`."""

    style = "base"
    K: ClassVar[dict[str, float]]  # each style's knobs (styles.py)

    def __init__(self) -> None:
        self.strays = 0  # decisions the rules refused and a fallback had to answer

    # ------------------------------------------------------------ entry point

    def act(self, state: GameState, seed: int) -> engine.Action:
        if state.actor is None:
            raise ValueError("the game is over: nobody has to act")
        name = state.actor
        me = state.players.index(name)
        rng = random.Random(seed)
        view = engine.sample_hidden(state, name, rng)
        a = self.decide(Seen(view, me, name, rng))
        try:
            engine.apply(view, a)
        except engine.RulesViolation:
            self.strays += 1
            a = engine.legal_actions(view)[0]
        return a

    def decide(self, d: Seen) -> engine.Action:
        s = d.s
        if s.stage is Stage.SURVIVORS:
            return self.survivors(d)
        if s.stage is Stage.PICK:
            slots = [i for i in range(len(s.row)) if i <= s.seats[d.me].coins]
            if not slots:
                return engine.End(player=d.name)
            best = max(slots, key=lambda i: (self.pick_score(d, i), -i))
            return engine.Pick(player=d.name, slot=best)
        h = d.active
        t = s.turn
        if (s.stage is Stage.CONQUEST and h is not None and not t.expanded and not t.picked
                and d.turns_left > 1 and self.want_decline(d)):
            return engine.Decline(player=d.name)
        if s.stage is Stage.CONQUEST:
            a = self.conquest(d)
            if a is not None:
                return a
        return self.redeploy(d)

    # ------------------------------------------------------------ judgements (styles)

    def pick_score(self, d: Seen, slot: int) -> float:
        raise NotImplementedError

    def want_decline(self, d: Seen) -> bool:
        raise NotImplementedError

    def conquest_score(self, d: Seen, o: engine.Conquest) -> float | None:
        """How much this sure conquest is wanted now; None: not at all."""
        raise NotImplementedError

    def guard_weight(self, d: Seen, rid: int) -> float:
        """How many spare tokens region `rid` deserves, relative to the others."""
        return d.pressure(rid)

    def stout_decline(self, d: Seen) -> bool:
        return False

    # ------------------------------------------------------------ conquests

    def conquest(self, d: Seen) -> engine.Action | None:
        s = d.s
        options = engine.legal_conquests(s)
        if not options:
            return None
        ghouls = [o for o in options if o.in_decline and o.action.do == "conquer"]
        if ghouls:  # In Decline Ghouls go first: cheapest land that is not ours
            own = [o for o in ghouls if s.areas[o.region].owner != d.me]
            if own:
                return min(own, key=lambda o: (o.cost, o.region)).action
        mine = [o for o in options if not o.in_decline]
        h = d.active
        if not mine or h is None:
            return None
        for o in mine:
            if o.action.do == "enchant":  # free: the Sorcerer's new token comes from the tray
                return o.action
        if lore.is_berserk(h.power) and s.turn.get(ROLL) is None:
            return engine.Roll(player=d.name) if any(
                o.action.do in ("conquer", "reinforce") for o in mine) else None
        dragons = [o for o in mine if o.action.do == "dragon"]
        if dragons:
            full = {o.region: o.cost for o in mine if o.action.do in ("conquer", "reinforce")}
            best = max(dragons, key=lambda o: (full.get(o.region, 0), -o.region))
            if full.get(best.region, 0) >= 3:
                return best.action
        sure = [o for o in mine if o.action.do == "conquer"]
        scored = [(self.conquest_score(d, o), o) for o in sure]
        scored = [(v, o) for v, o in scored if v is not None]
        if scored:
            return max(scored, key=lambda x: (x[0], -x[1].region))[1].action
        tries = [o for o in mine if o.action.do == "reinforce"]
        if tries and self.use_die(d):
            best = max(tries, key=lambda o: (die_odds(o.short) * self.region_worth(d, o.region),
                                             -o.region))
            return best.action
        return None

    def use_die(self, d: Seen) -> bool:
        return True

    def region_worth(self, d: Seen, rid: int) -> float:
        """Coins a region is worth to the Active race this turn, plus what it costs others."""
        s = d.s
        h = d.hold
        a = s.areas[rid]
        v = float(lore.region_coins(s, rid, h.race, h.power))
        if lore.plunders(h.race, h.power) and lore.is_nonempty(s, rid):
            v += 1
        if a.owner >= 0 and a.owner != d.me:
            v += 1.0 if not a.decline else 0.5
        if a.owner == d.me:
            v -= 1.0  # taking it from one's own In Decline race only moves the coin
        return v

    def chain_gain(self, d: Seen, limit: int = 10) -> int:
        """Regions a cheapest-first chain of sure conquests would take with the hand now."""
        s = d.s
        n = 0
        for _ in range(limit):
            opts = [o for o in engine.legal_conquests(s)
                    if not o.in_decline and o.action.do in ("conquer", "dragon", "enchant")
                    and s.areas[o.region].owner != d.me]
            if not opts:
                break
            o = min(opts, key=lambda o: (o.cost, o.region))
            s = engine.apply(s, o.action).state
            n += 1
        return n

    # ------------------------------------------------------------ redeployment

    def targets(self, d: Seen, race: str, held: list[int], total: int) -> dict[int, int]:
        """Tokens each held region should end with: one each, the rest by guard weight."""
        want = {r: 1 for r in held}
        extra = total - len(held)
        if extra <= 0:
            return want
        w = {r: max(0.05, self.guard_weight(d, r)) for r in held}
        for _ in range(extra):
            r = max(held, key=lambda r: (w[r] / want[r], -r))
            want[r] += 1
        return want

    def redeploy(self, d: Seen) -> engine.Action:
        s = d.s
        h = d.active
        if h is None:
            return engine.End(player=d.name)
        held = d.held(h.race)
        spare = h.hand - min(lore.reserve(h.race), h.hand)
        t = s.turn
        if held:
            total = sum(s.areas[r].tokens for r in held) + spare
            want = self.targets(d, h.race, held, total)
            if spare > 0:
                r = max(held, key=lambda r: (want[r] - s.areas[r].tokens, -r))
                n = max(1, min(spare, want[r] - s.areas[r].tokens))
                return engine.Deploy(player=d.name, region=r, count=n)
            if d.turns_left > 1:
                give = [r for r in held if s.areas[r].tokens > want[r] and r not in t.moved_to]
                take = [r for r in held if s.areas[r].tokens < want[r] and r not in t.moved_from]
                if give and take:
                    f = max(give, key=lambda r: (s.areas[r].tokens - want[r], -r))
                    to = max(take, key=lambda r: (want[r] - s.areas[r].tokens, -r))
                    n = min(s.areas[f].tokens - want[f], want[to] - s.areas[to].tokens)
                    if n >= 1:
                        return engine.Move(player=d.name, **{"from": f}, to=to, count=n)
        a = self.pieces(d, h, held)
        if a is not None:
            return a
        if lore.is_stout(h.power) and d.turns_left > 1 and self.stout_decline(d):
            return engine.Decline(player=d.name)
        return engine.End(player=d.name)

    def pieces(self, d: Seen, h: Hold, held: list[int]) -> engine.Action | None:
        """Fortress, encampments, Heroes and the Diplomat's ally, where they guard most."""
        s = d.s
        piece = lore.piece_of(h.power)
        legal = None
        if piece is not None and held:
            legal = engine.legal_actions(s)
            spots = [a for a in legal if a.do == "place" and a.piece == piece]
            if piece == "hero":  # both Heroes on the two most pressed regions
                want = sorted(held, key=lambda r: (-d.pressure(r), r))[:2]
                on = [r for r in held if "hero" in s.areas[r].pieces]
                lifted = "hero" in s.turn.get(LIFTED)
                missing = [r for r in want if r not in on]
                if missing and (lifted or set(on) != set(want)):
                    for a in spots:
                        if a.region == missing[0]:
                            return a
            elif piece == "fortress":
                if spots:
                    return max(spots, key=lambda a: (d.pressure(a.region), -a.region))
            elif spots and sum(a.pieces.count("encampment") for a in s.areas) < 5:
                return max(spots, key=lambda a: (
                    d.pressure(a.region) / (1 + s.areas[a.region].pieces.count("encampment")),
                    -a.region))
        if lore.is_diplomat(h.power) and not s.turn.get(ALLIED):
            if legal is None:
                legal = engine.legal_actions(s)
            allies = [a for a in legal if a.do == "ally"]
            if allies:
                return max(allies, key=lambda a: (self.ally_score(d, a.target), a.target))
        return None

    def ally_score(self, d: Seen, target: str) -> float:
        """The Diplomat makes peace with whoever has most Active tokens at its borders."""
        s = d.s
        i = s.players.index(target)
        h = d.hold
        near = 0.0
        for r in d.held(h.race):
            for n in d.land_neighbours(r):
                b = s.areas[n]
                if b.owner == i and not b.decline:
                    near += 1 + b.tokens
        return near

    # ------------------------------------------------------------ defenders

    def survivors(self, d: Seen) -> engine.Action:
        s = d.s
        p = s.pending[0]
        if p.race is not None:
            held = d.held(p.race)
            r = max(held, key=lambda r: (d.pressure(r), -r))
            return engine.Deploy(player=d.name, region=r, count=p.tokens)
        legal = engine.legal_actions(s)
        spots = [a for a in legal if a.do == "place"]
        if spots:
            return max(spots, key=lambda a: (d.pressure(a.region), -a.region))
        return engine.End(player=d.name)
