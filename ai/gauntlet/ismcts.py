"""The ISMCTS player: information-set Monte Carlo tree search over its combo picks.

At the decision that shapes a game most (which combo to pick) it grows a tree of its own
choices, with the hidden information sampled anew in every iteration:

- each iteration draws a world from what the seat may see (other players' coins guessed
  from the table, the undrawn stacks reshuffled, the dice redrawn) and a playing style
  for every other seat (the gauntlet's rules players: they stand in for people it has
  never met);
- it walks down the tree, choosing among the moves available in that world by UCB1
  counted over the iterations in which each move was available (Cowling, Powley and
  Whitehouse's single-observer ISMCTS); its own later picks within the horizon are nodes
  too;
- between its own decisions, and after the last node, everyone plays on (itself with the
  strategist's rules, the others with their stand-in's), until the start of its own turn
  `HORIZON` rounds ahead or the end of the game;
- the result is scored for first place, not for margin: the chance of finishing first,
  read from the coins each seat should hold at the end (coins now plus what it holds
  now earns over its turns left) through a logistic curve.

Every other decision (declines, conquests, redeployment, survivors, pieces) is the
strategist's. The tree can weigh declines too (`K["decline"]` iterations at a turn's
start), but against three `normal` that measured no better than the strategist's own
rule, so it is off (docs/ai.md, "The two strong players (issue #29)"). The amount of
work is a fixed number of iterations, so the choice depends only on the seat's view and
the seed.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import engine
from engine import GameState, Stage

from . import lore
from .base import RulesPlayer, Seen
from .strategist import Strategist
from .styles import Aggressor, Decliner, Greedy

HORIZON = 2  # rounds played out past the decision
ITERATIONS = {"pick": 32, "decline": 0}  # 0: the strategist declines
DEPTH = 2  # own decisions in the tree per iteration
EXPLORE = 0.7  # UCB1 exploration constant (rewards lie in 0..1)
SPREAD = 12.0  # coins of lead that make first place about 73% likely (logistic scale)
KEEP = 0.85  # share of its income a seat keeps earning per turn left (races tire)
PICKS = 3  # the strategist's best combos of the row weighed at a pick
MAX_STEPS = 3000


@dataclass
class Node:
    """Statistics of one of the seat's own moves, in the tree under the decision."""

    visits: int = 0
    total: float = 0.0
    seen: int = 0  # iterations in which this move was available
    children: dict[str, Node] = field(default_factory=dict)


def guess_coins(s: GameState, seat: int) -> int:
    """Coins another seat may hold, from the table only: the five it started with and,
    for each round played, the mean of its income now and the table's."""
    incomes = [lore.income_now(s, i) for i in range(len(s.players))]
    mean = sum(incomes) / len(incomes)
    return round(5 + (s.round - 1) * (incomes[seat] + mean) / 2)


def chance_first(s: GameState, me: int, spread: float = SPREAD) -> float:
    """How likely seat `me` finishes first, read from each seat's expected final coins."""
    if s.finished and s.ranking:
        firsts = [r["player"] for r in s.ranking if r["rank"] == 1]
        return 1 / len(firsts) if s.players[me] in firsts else 0.0
    left = s.board.rounds - s.round + 1
    final = []
    for i, seat in enumerate(s.seats):
        turns = left - (1 if i < s.current else 0)
        final.append(seat.coins + lore.income_now(s, i) * turns * KEEP)
    best_other = max(x for i, x in enumerate(final) if i != me)
    return 1 / (1 + math.exp(-(final[me] - best_other) / spread))


class Ismcts(RulesPlayer):
    style = "ismcts"
    K = {"horizon": HORIZON, "pick": ITERATIONS["pick"], "decline": ITERATIONS["decline"],
         "depth": DEPTH, "explore": EXPLORE, "spread": SPREAD, "picks": PICKS}
    STANDINS: tuple[type[RulesPlayer], ...] = (Decliner, Decliner, Greedy, Aggressor)

    def __init__(self) -> None:
        super().__init__()
        self.plain = Strategist()
        self.standins = [cls() for cls in self.STANDINS]

    # ------------------------------------------------------------ where it searches

    def kind(self, s: GameState, me: int) -> str | None:
        """'pick' or 'decline' where the seat faces one of its big decisions, else None."""
        if s.actor != s.players[me] or s.stage is Stage.SURVIVORS:
            return None
        if s.stage is Stage.PICK:
            return "pick" if sum(1 for i in range(len(s.row)) if i <= s.seats[me].coins) > 1 \
                else None
        t = s.turn
        h = s.seats[me].active
        left = s.board.rounds - s.round + 1
        if (s.stage is Stage.CONQUEST and h is not None and not t.expanded and not t.picked
                and t.n_conquests == 0 and left > 1):
            return "decline"
        return None

    def moves(self, s: GameState, me: int, kind: str, rng: random.Random) -> list[engine.Action]:
        name = s.players[me]
        d = Seen(s, me, name, rng)
        if kind == "pick":
            slots = [i for i in range(len(s.row)) if i <= s.seats[me].coins]
            slots.sort(key=lambda i: (-self.plain.pick_score(d, i), i))
            return [engine.Pick(player=name, slot=i) for i in slots[:int(self.K["picks"])]]
        go = self.plain.conquest(d) or self.plain.redeploy(d)
        return [engine.Decline(player=name), go]

    def decide(self, d: Seen) -> engine.Action:
        kind = self.kind(d.s, d.me)
        if kind is None or not self.K[kind]:
            return self.plain.decide(d)
        moves = self.moves(d.s, d.me, kind, d.rng)
        return self.search(d, kind, moves)

    # ------------------------------------------------------------ the search

    def search(self, d: Seen, kind: str, moves: list[engine.Action]) -> engine.Action:
        """The move with the best mean reward over the iterations (the first on ties)."""
        root = self.tree(d, kind, moves)
        best = max(range(len(moves)), key=lambda i: (_mean(root.children.get(_key(moves[i]))),
                                                     -i))
        return moves[best]

    def tree(self, d: Seen, kind: str, moves: list[engine.Action]) -> Node:
        """The tree grown over `moves` at this decision, after `K[kind]` iterations."""
        root = Node()
        view = d.s
        stop = (view.round + int(self.K["horizon"]), d.me)
        for k in range(int(self.K[kind])):
            rng = random.Random(d.rng.getrandbits(64) ^ k)
            world = engine.sample_hidden(view, d.name, rng,
                                         lambda i: guess_coins(view, i))
            styles = {i: self.standins[rng.randrange(len(self.standins))]
                      for i in range(len(view.players)) if i != d.me}
            self.iterate(world, d.me, root, moves, stop, styles, rng)
        return root

    def iterate(self, s: GameState, me: int, root: Node, first: list[engine.Action],
                stop: tuple[int, int], styles: dict[int, RulesPlayer],
                rng: random.Random) -> None:
        path: list[Node] = []
        node = root
        moves: list[engine.Action] | None = first
        depth = 0
        n = 0
        while not s.finished and n < MAX_STEPS:
            if moves is None and depth < self.K["depth"] and (s.round, s.current) != stop:
                kind = self.kind(s, me)
                if kind is not None and self.K[kind]:
                    moves = self.moves(s, me, kind, rng)
            if moves is not None:
                i = self.select(node, moves)
                node = node.children[_key(moves[i])]
                path.append(node)
                s = _step(s, moves[i])
                moves = None
                depth += 1
                n += 1
                continue
            if (s.round, s.current) >= stop and s.stage is not Stage.SURVIVORS:
                break
            i = s.players.index(s.actor)
            player = self.plain if i == me else styles[i]
            s = _step(s, player.decide(Seen(s, i, s.players[i], rng)))
            n += 1
        reward = chance_first(s, me, self.K["spread"])
        for x in path:
            x.visits += 1
            x.total += reward

    def select(self, node: Node, moves: list[engine.Action]) -> int:
        """UCB1 over the moves available now, counted over the iterations they were."""
        kids = []
        for a in moves:
            kid = node.children.setdefault(_key(a), Node())
            kid.seen += 1
            kids.append(kid)
        c = self.K["explore"]

        def ucb(i: int) -> tuple[float, int]:
            kid = kids[i]
            if kid.visits == 0:
                return (math.inf, -i)
            return (kid.total / kid.visits + c * math.sqrt(math.log(kid.seen) / kid.visits), -i)
        return max(range(len(kids)), key=ucb)


def _key(a: engine.Action) -> str:
    return repr(a)


def _mean(node: Node | None) -> float:
    return -1.0 if node is None or node.visits == 0 else node.total / node.visits


def _step(s: GameState, a: engine.Action) -> GameState:
    try:
        return engine.apply(s, a).state
    except engine.RulesViolation:
        return engine.apply(s, engine.legal_actions(s)[0]).state
