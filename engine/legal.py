"""Every legal action for whoever must act now, found with the same checks `apply` uses."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from .abilities import power_rule, race_rule
from .actions import (
    Abandon,
    Action,
    Ally,
    Conquer,
    Decline,
    Deploy,
    Dragon,
    Enchant,
    End,
    Move,
    Pick,
    Place,
    Reinforce,
    Roll,
    trusted,
)
from .checks import (
    T_OK,
    ally_error,
    decline_error,
    enchant_error,
    end_checks,
    place_error,
    target_candidates,
    target_code,
)
from .queries import DEFENCE_PIECES, IMMUNE_PIECES, ghoul_hold, race_regions
from .state import GameState, Stage
from .turn import close_ghouls


class Conquest(NamedTuple):
    """A legal conquest with the tokens it takes, as `legal_actions` lists it.

    `cost` is what the region needs from hand now (after a Berserk roll); a `Reinforce`
    needs the die to make up `short` = cost - hand (1-3); `Dragon` takes 1 token and
    `Enchant` takes none from hand (its token comes from the tray).
    """

    action: Action
    region: int
    cost: int
    short: int = 0
    in_decline: bool = False

_pick = trusted(Pick)
_abandon = trusted(Abandon)
_conquer = trusted(Conquer)
_reinforce = trusted(Reinforce)
roll_die = trusted(Roll)
_decline = trusted(Decline)
_deploy = trusted(Deploy)
_move = trusted(Move)
_enchant = trusted(Enchant)
_dragon = trusted(Dragon)
_place = trusted(Place)
_ally = trusted(Ally)
_end = trusted(End)


def legal_actions(s: GameState) -> list[Action]:
    """All actions the rules allow the actor now (deploy and move with every count)."""
    stage = s.stage
    if stage is Stage.FINISHED:
        return []
    name = s.actor
    if stage is Stage.SURVIVORS:
        return _survivors(s, name)
    me = s.current
    seat = s.seats[me]
    if stage is Stage.PICK:
        if not s.row:
            return [_end(player=name)]
        return [_pick(player=name, slot=i) for i in range(len(s.row)) if i <= seat.coins]
    out: list[Action] = []
    t = s.turn
    h = seat.active
    if decline_error(s, me) is None:
        out.append(_decline(player=name))
    if t.ghouls != 2:
        g = ghoul_hold(s, me)
        if g is not None:
            held = race_regions(s, g.race)
            if t.ghouls == 0 and stage is Stage.CONQUEST and g.hand >= 1:
                _targets(s, me, g, False, held, name, "decline", out)
            _redeploy(s, g, held, name, out)
            if g.hand > 0:  # the Active race acts on the board where the Ghouls stand again
                s = s.fork()
                close_ghouls(s, me, [])
                s.seal()
    held = race_regions(s, h.race)
    power = power_rule(h.power)
    if stage is Stage.CONQUEST and not t.ended:
        if not t.n_conquests and t.roll is None:
            out.extend(_abandon(player=name, region=r) for r in held)
        if h.hand >= 1:
            if power.berserk and t.roll is None:
                out.append(roll_die(player=name))
            _active_conquests(s, me, h, held, name, out)
    _redeploy(s, h, held, name, out)
    piece = ("fortress" if power.fortifies else "encampment" if power.bivouacs
             else "hero" if power.heroic else None)
    if piece is not None:
        for r in held:
            if place_error(s, me, piece, r) is None:
                out.append(_place(player=name, piece=piece, region=r))
    if power.diplomat:
        for other in s.players:
            if ally_error(s, me, other) is None:
                out.append(_ally(player=name, target=other))
    if end_checks(s, me) is None:
        out.append(_end(player=name))
    return out


def legal_conquests(s: GameState) -> list[Conquest]:
    """Every legal conquest of the actor now (conquer, reinforce, dragon, enchant) with its
    cost: the same actions `legal_actions` lists, so callers need not recompute costs."""
    if s.stage is not Stage.CONQUEST:
        return []
    me = s.current
    name = s.players[me]
    t = s.turn
    out: list[Conquest] = []
    if t.ghouls != 2:
        g = ghoul_hold(s, me)
        if g is not None:
            if t.ghouls == 0 and g.hand >= 1:
                out.extend(_targets(s, me, g, False, race_regions(s, g.race), name, "decline"))
            if g.hand > 0:  # the Active race acts on the board where the Ghouls stand again
                s = s.fork()
                close_ghouls(s, me, [])
                s.seal()
    h = s.seats[me].active
    if h is None or t.ended or h.hand < 1:
        return out
    out.extend(_active_conquests(s, me, h, race_regions(s, h.race), name))
    return out


def _active_conquests(s, me, h, held, name, actions: list | None = None) -> list[Conquest]:
    """The Active race's conquests; with `actions`, their actions are appended there."""
    out = _targets(s, me, h, True, held, name, None, actions)
    t = s.turn
    if race_rule(h.race).converts:
        for r in target_candidates(s, h, True, held):
            if enchant_error(s, me, r, h) is None:
                a = _enchant(player=name, region=r)
                if actions is None:
                    out.append(Conquest(a, r, 0))
                else:
                    actions.append(a)
    if power_rule(h.power).dragon and not t.dragon_used:
        for r in target_candidates(s, h, True, held):
            if target_code(s, me, r, h, True, held) == T_OK:
                a = _dragon(player=name, region=r)
                if actions is None:
                    out.append(Conquest(a, r, 1))
                else:
                    actions.append(a)
    return out


def _targets(s, me, h, active, held, name, race, actions: list | None = None) -> list[Conquest]:
    """Conquests (and final die attempts) for one of the player's races (with `actions`,
    only their actions, appended there: legal_actions needs no costs).

    The same checks as `target_code` and `conquest_cost`, hoisted out of the loop: every
    candidate of `target_candidates` is already in reach when the race holds a region.
    """
    out: list[Conquest] = []
    geo = s.geo
    areas = s.areas
    race_name = h.race
    rrule = race_rule(race_name)
    power = power_rule(h.power) if active and h.power else None
    roll = s.turn.roll if active else None
    berserk = power is not None and power.berserk
    seafaring = power is not None and power.seafaring
    hand = h.hand
    decline = not active
    peace = frozenset(d for d, ally in s.peace if ally == me) if active else frozenset()
    entry_free = bool(held) or rrule.enters_anywhere or (power is not None and power.flies)
    race_cut = active and rrule.reduces_cost
    power_cut = power is not None and power.reduces_cost
    held_set = frozenset(held) if race_cut else None
    mountain, water, entry = geo.mountain, geo.water, geo.entry
    own_decline_counts = s.options.get("own_decline_counts", True)
    if held and power is None or held and not (power.flies or power.underworld):
        near: set[int] = set()
        nbrs = geo.nbrs
        for x in held:
            near |= nbrs[x]
        candidates = sorted(near)
    else:
        candidates = target_candidates(s, h, active, held)
    for r in candidates:
        a = areas[r]
        if a.race == race_name or (water[r] and not seafaring):
            continue
        owner = a.owner
        if owner >= 0 and owner != me:
            if a.pieces and any(p in IMMUNE_PIECES for p in a.pieces):
                continue
            if owner in peace and not a.decline:
                continue
        if not entry_free and not entry[r]:
            continue
        cost = 2 + a.tokens + (1 if a.lost_tribe else 0) + (1 if mountain[r] else 0)
        if a.pieces:
            cost += sum(1 for p in a.pieces if p in DEFENCE_PIECES)
        if owner == me and a.decline and not own_decline_counts:
            cost -= a.tokens
        if race_cut:
            cost -= rrule.cost_reduction(geo, held_set, r)
        if power_cut:
            cost -= power.cost_reduction(geo, r)
        if cost < 1:
            cost = 1
        if roll is not None:
            cost = max(1, cost - roll)
        if cost <= hand:
            if actions is None:
                out.append(Conquest(_conquer_at(name, r, race), r, cost, 0, decline))
            else:
                actions.append(_conquer_at(name, r, race))
        elif not berserk and cost - hand <= 3:
            if actions is None:
                out.append(Conquest(_reinforce_at(name, r, race), r, cost, cost - hand, decline))
            else:
                actions.append(_reinforce_at(name, r, race))
    return out


@lru_cache(maxsize=1 << 14)
def _conquer_at(name: str, region: int, race: str | None) -> Action:
    return _conquer(player=name, region=region, race=race)


@lru_cache(maxsize=1 << 14)
def _reinforce_at(name: str, region: int, race: str | None) -> Action:
    return _reinforce(player=name, region=region, race=race)


@lru_cache(maxsize=1 << 14)
def _deploys(name: str, region: int, hand: int) -> tuple[Action, ...]:
    return tuple(_deploy(player=name, region=region, count=c) for c in range(1, hand + 1))


@lru_cache(maxsize=1 << 14)
def _moves(name: str, f: int, to: int, spare: int) -> tuple[Action, ...]:
    return tuple(_move(player=name, from_=f, to=to, count=c) for c in range(1, spare + 1))


def _redeploy(s, h, held, name, out) -> None:
    """Deploys from hand and moves between the race's regions."""
    t = s.turn
    hand = h.hand
    if hand:
        for r in held:
            out.extend(_deploys(name, r, hand))
    if len(held) < 2:
        return
    areas = s.areas
    moved_to, moved_from = t.moved_to, t.moved_from
    for f in held:
        spare = areas[f].tokens - 1
        if spare < 1 or f in moved_to:
            continue
        for to in held:
            if to == f or to in moved_from:
                continue
            out.extend(_moves(name, f, to, spare))


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
