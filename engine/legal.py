"""Every legal action for whoever must act now, found with the same checks `apply` uses:
conquests through `checks.reach`/`targets` (one definition of conquest legality), the
verbs and pieces of races and powers through their own hooks."""

from __future__ import annotations

from functools import lru_cache

from . import ghouls
from .ability import Conquest, kit_of
from .actions import (
    Abandon,
    Action,
    Deploy,
    End,
    Listed,
    Pick,
    Place,
    listed,
    trusted,
)
from .checks import decline_refusal, end_checks, place_error, reach, targets
from .events import EventLog
from .queries import race_regions
from .state import CONQUEST, FINISHED, PICK, SURVIVORS, GameState, Hold
from .turn import pending_bonus

__all__ = ["Conquest", "legal_actions", "legal_conquests"]

_pick = trusted(Pick)
_abandon = trusted(Abandon)
_deploy = trusted(Deploy)
_place = trusted(Place)
_end = trusted(End)


def _active_view(s: GameState, me: int) -> GameState:
    """The board the Active race acts on: In Decline Ghouls still holding readied tokens
    stand down first (as the first Active action makes them)."""
    g = ghouls.acting(s, me)
    if g is None or g.hand <= 0:
        return s
    v = s.fork()
    ghouls.stand_down(v, me, EventLog())
    return v.seal()


def legal_actions(s: GameState) -> list[Action]:
    """All actions the rules allow the actor now (deploy and move with every count)."""
    stage = s.stage
    if stage is FINISHED:
        return []
    name = s.players[s.current] if stage is not SURVIVORS else s.actor
    assert name is not None
    if stage is SURVIVORS:
        return _survivors(s, name)
    me = s.current
    seat = s.seats[me]
    if stage is PICK:
        if not s.row:
            return [_end(player=name)]
        return [_pick(player=name, slot=i) for i in range(len(s.row)) if i <= seat.coins]
    mine = listed(name)
    out: list[Action] = []
    if decline_refusal(s, me) is None:
        out.append(mine.decline)
    g = ghouls.acting(s, me)
    if g is not None:
        held = race_regions(s, g.race)
        if ghouls.may_conquer(s, g):
            targets(s, reach(s, me, g, False, held), "decline", out)
        _redeploy(s, held, mine, g.hand, out)
        s = _active_view(s, me)
    h = s.seats[me].active
    assert h is not None
    t = s.turn
    held = race_regions(s, h.race)
    kit = kit_of(h)
    if stage is CONQUEST and not t.ended:
        p = kit.power
        if not t.n_conquests and not (kit.conquering_begun and p is not None
                                      and p.conquering_begun(t)):
            out += _abandons(name, held)
        if h.hand >= 1:
            for ab in kit.before_conquests:
                out.extend(ab.before_conquests(s, me, h))
            _active_conquests(s, me, h, held, out)
    _redeploy(s, held, mine, h.hand + pending_bonus(s, me), out)
    for ab in kit.redeploy_actions:
        out.extend(ab.redeploy_actions(s, me, h, held))
    if end_checks(s, me) is None:
        out.append(mine.end)
    return out


def legal_conquests(s: GameState) -> list[Conquest]:
    """Every legal conquest of the actor now (conquer, reinforce, dragon, enchant) with its
    cost: the same actions `legal_actions` lists, so callers need not recompute costs."""
    if s.stage is not CONQUEST:
        return []
    me = s.current
    out: list[Conquest] = []
    g = ghouls.acting(s, me)
    if g is not None:
        if ghouls.may_conquer(s, g):
            out.extend(targets(s, reach(s, me, g, False), "decline"))
        s = _active_view(s, me)
    h = s.seats[me].active
    if h is None or s.turn.ended or h.hand < 1:
        return out
    out.extend(_active_conquests(s, me, h, race_regions(s, h.race)))
    return out


def _active_conquests(s: GameState, me: int, h: Hold, held: tuple[int, ...],
                      actions: list[Action] | None = None) -> list[Conquest]:
    """The Active race's conquests: plain and with the die, then its race's and power's own
    (with `actions`, only their actions, appended there)."""
    r = reach(s, me, h, True, held)
    out = targets(s, r, None, actions)
    for ab in kit_of(h).conquests:
        own = ab.conquests(s, me, h, r)
        if actions is None:
            out.extend(own)
        else:
            actions.extend(c.action for c in own)
    return out


@lru_cache(maxsize=1 << 12)
def _abandons(name: str, held: tuple[int, ...]) -> tuple[Action, ...]:
    return tuple(_abandon(player=name, region=r) for r in held)


def _redeploy(s: GameState, held: tuple[int, ...], mine: Listed, hand: int,
              out: list[Action]) -> None:
    """Deploys from hand (`hand`: what the hand holds once a deploy has ended the
    conquests) and moves between the race's regions (free: any region to any other)."""
    if hand:
        deploys = mine.deploys
        for r in held:
            run = deploys.get(r)
            if run is None or len(run) < hand:
                run = mine.deploy_run(r, hand)
            out += run if len(run) == hand else run[:hand]
    if len(held) < 2:
        return
    areas = s.areas
    moves = mine.moves
    for f in held:
        spare = areas[f].tokens - 1
        if spare < 1:
            continue
        row = moves.get(f)
        for to in held:
            if to != f:
                way = row.get(to) if row is not None else None
                if way is None or len(way) < spare:
                    way = mine.move_run(f, to, spare)
                    row = moves[f]
                out += way if len(way) == spare else way[:spare]


def _survivors(s: GameState, name: str) -> list[Action]:
    p = s.pending[0]
    me = p.seat
    out: list[Action] = []
    if p.race is not None:
        for r in race_regions(s, p.race):
            for c in range(1, p.tokens + 1):
                out.append(_deploy(player=name, region=r, count=c))
        return out
    h = s.seats[me].active
    if h is not None:
        for r in race_regions(s, h.race):
            if place_error(s, me, "encampment", r) is None:
                out.append(_place(player=name, piece="encampment", region=r))
    out.append(_end(player=name))
    return out
