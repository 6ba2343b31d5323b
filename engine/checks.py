"""Legality checks (RULES.md §5-§12): what an action may target and what it costs.

Each `*_error` returns the RulesViolation an action would meet, or None; `legal.py` lists the
actions these checks let through, and `rules.py` raises what they return."""

from __future__ import annotations

from . import errors as E
from .ability import (
    PIECE_OWNERS,
    Conquest,
    Power,
    Race,
    Reach,
    kit_of,
)
from .actions import Action, listed
from .geo import Geo
from .queries import (
    DEFENCE_PIECES,
    IMMUNE_PIECES,
    player_name,
    race_regions,
)
from .state import CONQUEST, FINISHED, PICK, SURVIVORS, GameState, Hold

__all__ = ["Conquest", "Reach"]


def reach(s: GameState, me: int, hold: Hold, active: bool,
          held: tuple[int, ...] | None = None) -> Reach:
    """Where `hold` (the Active race, or an In Decline one that conquers) may attack now."""
    if held is None:
        held = race_regions(s, hold.race)
    kit = kit_of(hold)
    race = kit.race
    power = kit.power if active else None
    peace = (frozenset(d for d, ally in s.peace if ally == me) if active and s.peace
             else _NO_PEACE)
    geo = s.geo
    r = Reach(me, hold, active, held, race, power, peace, _base_costs(geo, power),
              active and _cuts(race))
    race.reach(geo, r)
    if power is not None:
        power.reach(geo, r)
    r.settle(geo, s.options.get("own_decline_counts", True))
    return r


_NO_PEACE: frozenset[int] = frozenset()
_CUTS: dict[Race, bool] = {}


def _cuts(race: Race) -> bool:
    """Whether the race overrides `cost_reduction` (else it is not asked, per region)."""
    got = _CUTS.get(race)
    if got is None:
        got = _CUTS[race] = type(race).cost_reduction is not Race.cost_reduction
    return got


def candidates(s: GameState, r: Reach) -> list[int]:
    """Regions worth checking as targets, in id order: a superset of the legal ones, less
    those `target_code` refuses on the board's facts alone (the race's own regions, water
    when it does not sail, non-entry regions for a first conquest that needs one)."""
    geo = s.geo
    held = r.held
    if not held:
        if r.anywhere or r.enter_anywhere:
            return list(geo.ids if r.sea else geo.land)
        return list(geo.entries if r.sea else geo.land_entries)
    mine = r.held_set
    if r.anywhere:
        return [x for x in (geo.ids if r.sea else geo.land) if x not in mine]
    nbrs = geo.nbrs
    out: set[int] = set(r.links)
    out = out.union(*[nbrs[x] for x in held])
    out -= mine
    if not r.sea:
        out -= geo.waters
    return sorted(out)


_IMMUNE = frozenset(IMMUNE_PIECES)
_DEFENCE = frozenset(DEFENCE_PIECES)

T_OK, T_UNKNOWN, T_MINE, T_WATER, T_IMMUNE, T_PEACE, T_ENTRY, T_ADJ = range(8)


def target_code(s: GameState, rid: int, r: Reach) -> int:
    """T_OK when the race of `r` may attack region `rid`, else the reason (T_* constants)."""
    if not 0 <= rid < s.geo.n:
        return T_UNKNOWN
    return _code(s, rid, r)


def _code(s: GameState, rid: int, r: Reach) -> int:
    """`target_code` for a region of the board (the listing's candidates are)."""
    a = s.areas[rid]
    if a.race == r.name:
        return T_MINE
    if r.water[rid]:
        return T_WATER
    owner = a.owner
    if owner >= 0 and owner != r.me:
        if a.pieces and not _IMMUNE.isdisjoint(a.pieces):
            return T_IMMUNE
        if owner in r.peace and not a.decline:
            return T_PEACE
    if r.free:
        return T_OK
    if not r.held:
        return T_OK if s.geo.entry[rid] else T_ENTRY
    if rid in r.links or not r.held_set.isdisjoint(s.geo.nbrs[rid]):
        return T_OK
    return T_ADJ


def cost_at(s: GameState, rid: int, r: Reach) -> int:
    """Tokens the race of `r` needs for region `rid`: 2 + markers + Lost Tribe + defending
    tokens, minus the race's and power's reductions, minimum 1 (before a Berserk roll)."""
    a = s.areas[rid]
    cost = r.base[rid] + a.tokens
    if a.lost_tribe:
        cost += 1
    if a.pieces:
        cost += sum(map(_DEFENCE.__contains__, a.pieces))
    if r.own_free and a.owner == r.me and a.decline:
        cost -= a.tokens
    if r.race_cut:
        cost -= r.race.cost_reduction(s.geo, r.held_set, rid)
    return cost if cost > 1 else 1


def _base_costs(geo: Geo, power: Power | None) -> tuple[int, ...]:
    """Per region: 2, +1 on a mountain, less the power's reduction (which depends on the
    region alone): the part of the cost that never changes in a game."""
    key = (id(geo), power)
    got = _BASE.get(key)
    if got is None or got[0] is not geo:
        base = tuple(2 + (1 if geo.mountain[rid] else 0)
                     - (power.cost_reduction(geo, rid) if power is not None else 0)
                     for rid in range(geo.n))
        got = _BASE[key] = (geo, base)
    return got[1]


_BASE: dict[tuple[int, Power | None], tuple[Geo, tuple[int, ...]]] = {}


def conquest_cost(s: GameState, me: int, rid: int, hold: Hold, active: bool,
                  held: tuple[int, ...] | None = None) -> int:
    """Tokens needed: 2 + markers + Lost Tribe + defending tokens, minus reductions, min 1."""
    return cost_at(s, rid, reach(s, me, hold, active, held))


def target_error(s: GameState, rid: int, r: Reach) -> E.RulesViolation | None:
    """Why region `rid` cannot be attacked by the race of `r` (None when it can)."""
    code = target_code(s, rid, r)
    if code == T_OK:
        return None
    race = r.hold.race
    if code == T_UNKNOWN:
        return E.UnknownRegion.refuse("unknown_region", region=rid, last=s.geo.n - 1)
    a = s.areas[rid]
    if code == T_MINE:
        return E.AlreadyYours.refuse("already_yours", race=race, region=rid)
    if code == T_WATER:
        return E.WaterRegion.refuse("water", region=rid)
    if code == T_IMMUNE:
        what = next(p for p in a.pieces if p in IMMUNE_PIECES)
        return E.Immune.refuse("immune", region=rid, piece=what)
    if code == T_PEACE:
        return E.AtPeace.refuse("at_peace", player=player_name(s, a.owner), race=a.race,
                                region=rid)
    if code == T_ENTRY:
        return E.NotEntry.refuse("not_entry", region=rid, race=race)
    return E.NotAdjacent.refuse("not_adjacent", region=rid, race=race)


def targets(s: GameState, r: Reach, decline_field: str | None = None,
            actions: list[Action] | None = None) -> list[Conquest]:
    """Every conquest (`conquer`) and final die attempt (`reinforce`) the race of `r` may
    make now, with its cost: `target_code` and `cost_at` over the candidate regions. With
    `actions`, only the actions are appended there (legal_actions needs no costs)."""
    out: list[Conquest] = []
    name = s.players[r.me]
    hand = r.hold.hand
    power = r.power
    decline = not r.active
    with_die = power is None or power.reinforce_error() is None
    adjust = power.adjust_cost if power is not None and _adjusts(power) else None
    t = s.turn
    mine = listed(name)
    conquers = mine.conquer[decline_field]
    for rid in candidates(s, r):
        if _code(s, rid, r) != T_OK:
            continue
        cost = cost_at(s, rid, r)
        if adjust is not None:
            cost = adjust(t, cost)
        if cost <= hand:
            a = conquers.get(rid)
            if a is None:
                a = mine.conquer_at(rid, decline_field)
            if actions is None:
                out.append(Conquest(a, rid, cost, 0, decline))
            else:
                actions.append(a)
        elif with_die and cost - hand <= 3:
            again = mine.reinforce_at(rid, decline_field)
            if actions is None:
                out.append(Conquest(again, rid, cost, cost - hand, decline))
            else:
                actions.append(again)
    return out


_ADJUSTS: dict[Power, bool] = {}


def _adjusts(power: Power) -> bool:
    """Whether the power overrides `adjust_cost` (else it is not asked, per region)."""
    got = _ADJUSTS.get(power)
    if got is None:
        got = _ADJUSTS[power] = type(power).adjust_cost is not Power.adjust_cost
    return got


def actor_check(s: GameState, player: str) -> int:
    stage = s.stage
    if stage is not SURVIVORS and stage is not FINISHED \
            and s.players[s.current] == player:
        return s.current
    if s.stage is FINISHED:
        raise E.GameOver.refuse("game_over")
    if player not in s.players:
        raise E.UnknownPlayer.refuse("unknown_player", player=player)
    actor = s.actor
    if player != actor:
        if s.stage is SURVIVORS:
            raise E.NotYourTurn.refuse("survivors_first", actor=actor)
        raise E.NotYourTurn.refuse("not_your_turn", actor=actor, player=player)
    return s.players.index(player)


def require_active(s: GameState, me: int) -> Hold:
    if s.stage is PICK:
        raise E.WrongStage.refuse("pick_first")
    if s.stage is SURVIVORS:
        raise E.WrongStage.refuse("survivors_only")
    h = s.seats[me].active
    if h is None:
        raise E.NoActiveRace.refuse("no_active_race")
    return h


def require_conquest(s: GameState, me: int) -> Hold:
    h = require_active(s, me)
    if s.stage is not CONQUEST or s.turn.ended:
        raise E.ConquestsOver.refuse("conquests_over")
    return h


def end_checks(s: GameState, me: int) -> E.RulesViolation | None:
    """Why the current player may not end the turn now (None when they may)."""
    if s.stage is PICK:
        if not s.row:  # every banner is in play: nothing to pick, the turn passes
            return None
        return E.WrongStage.refuse("pick_first")
    h = s.seats[me].active
    if h is None:
        return E.NoActiveRace.refuse("no_active_race")
    return None


def place_error(s: GameState, me: int, piece: str, rid: int) -> E.RulesViolation | None:
    if not 0 <= rid < s.geo.n:
        return E.UnknownRegion.refuse("unknown_region", region=rid, last=s.geo.n - 1)
    a = s.areas[rid]
    if s.stage is SURVIVORS:
        p = s.pending[0]
        if piece != "encampment" or p.camps == 0 or p.race is not None:
            return E.WrongStage.refuse("camps_only")
        h = s.seats[me].active
        if h is None or a.race != h.race:
            return E.NotYourRegion.refuse("active_region", region=rid)
        return None
    if s.stage is PICK:
        return E.WrongStage.refuse("pick_first")
    h = s.seats[me].active
    if h is None:
        return E.NoActiveRace.refuse("no_active_race")
    if a.race != h.race:
        return E.NotYourRegion.refuse("not_your_race_region", race=h.race, region=rid)
    owner = PIECE_OWNERS.get(piece)
    if owner is None:
        return E.NoSuchPower.refuse("lairs_automatic")
    mine = kit_of(h).pieces.get(piece)
    if mine is None:
        return owner.refuse_other(h)
    return mine.place_error(s, me, rid)


def decline_refusal(s: GameState, me: int) -> str | None:
    """The key of the refusal a `decline` would meet now (None: the player may decline);
    `decline_error` is the refusal itself (legal_actions needs only the yes or no)."""
    if s.stage is PICK:
        return "nothing_to_decline"
    if s.stage is SURVIVORS:
        return "survivors_only"
    h = s.seats[me].active
    if h is None:
        return "no_active_race"
    t = s.turn
    if not t.expanded and not t.picked:
        return None
    kit = kit_of(h)
    if kit.declines_late and kit.power is not None and kit.power.declines_after_expanding():
        err = end_checks(s, me)
        return None if err is None else err.key
    return "decline_picked" if t.picked else "decline_expanded"


_DECLINE_REFUSALS: dict[str, type[E.RulesViolation]] = {
    "nothing_to_decline": E.WrongStage, "survivors_only": E.WrongStage,
    "no_active_race": E.NoActiveRace, "pick_first": E.WrongStage,
    "decline_picked": E.CannotDecline, "decline_expanded": E.CannotDecline,
}


def decline_error(s: GameState, me: int) -> E.RulesViolation | None:
    key = decline_refusal(s, me)
    return None if key is None else _DECLINE_REFUSALS[key].refuse(key)
