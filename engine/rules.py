"""The turn procedure (RULES.md §5-§12, defaults of §16): `apply` checks one action and
carries it out on a copy of the state.

Before any action of the Active race, one step ends the part of the turn that In Decline
Ghouls take (engine/ghouls.py). The verbs and pieces of a race or power are carried out by
that race or power (engine/races.py, engine/powers.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import errors as E
from . import ghouls
from .ability import PIECE_OWNERS, VERB_OWNERS, Ability, abilities_of, power_rule, race_rule
from .actions import (
    ACTION_TYPES,
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
)
from .checks import (
    actor_check,
    cost_at,
    decline_error,
    end_checks,
    place_error,
    reach,
    require_active,
    require_conquest,
    target_error,
)
from .events import (
    Abandoned,
    Deployed,
    Event,
    EventLog,
    Moved,
    Picked,
    Placed,
    ReinforceFailed,
    SurvivorsDone,
)
from .queries import check_region, hold_w, in_tray, pieces_with, player_name
from .state import CONQUEST, PICK, SURVIVORS, Combo, GameState, Hold, Pending
from .turn import (
    abandon_region,
    close_conquests,
    decline_race,
    finish_turn,
    occupy,
    pop_pending,
    refill,
    roll_die,
    score_turn,
    undo_ready,
    wrap_up,
)

REVEALING = frozenset({"rolled", "drew", "reshuffled"})
_new = object.__new__


class Step:
    """The result of one action: the new state and what happened. `events` are the typed
    models of engine/events.py (built on first read; each reads like its JSON dict), and
    `event_dicts()` gives the dicts the protocol prints."""

    __slots__ = ("state", "log", "_events")

    def __init__(self, state: GameState, log: EventLog) -> None:
        self.state = state
        self.log = log
        self._events: list[Event] | None = None

    @classmethod
    def of(cls, state: GameState, log: EventLog) -> Step:
        """The step, made without __init__ (one per action: this is faster)."""
        step = _new(cls)
        step.state = state
        step.log = log
        step._events = None
        return step

    @property
    def events(self) -> list[Event]:
        if self._events is None:
            self._events = self.log.models()
        return self._events

    @property
    def reveals(self) -> bool:
        """True when the step rolled the die or drew from a stack (undo stops here)."""
        return any(k in REVEALING for k in self.log.kinds())

    def event_dicts(self) -> list[dict[str, object]]:
        return [e.as_dict() for e in self.events]


def _do_pick(s: GameState, me: int, act: Pick, events: EventLog) -> None:
    if s.stage is not PICK:
        raise E.WrongStage.refuse("already_active")
    if act.slot >= len(s.row):
        raise E.NoSuchSlot.refuse("no_such_slot", n=len(s.row), last=len(s.row) - 1)
    seat = s.seats[me]
    if act.slot > seat.coins:
        raise E.CannotAfford.refuse("cannot_afford", slot=act.slot, coins=seat.coins)
    row = [Combo(c.race, c.power, c.coins + (1 if j < act.slot else 0))
           for j, c in enumerate(s.row)]
    chosen = row.pop(act.slot)
    seat = s.seat_w(me)
    seat.coins += chosen.coins - act.slot
    tokens = race_rule(chosen.race).tokens + power_rule(chosen.power).tokens
    tokens = min(tokens, in_tray(s, chosen.race))
    seat.active = Hold(chosen.race, chosen.power, tokens)
    s.row = tuple(row)
    events.add(Picked, player=seat.name, slot=act.slot, race=chosen.race,
                            power=chosen.power, paid=act.slot, collected=chosen.coins,
                            tokens=tokens)
    refill(s, events)
    s.turn_w().picked = True
    s.stage = CONQUEST


def _do_abandon(s: GameState, me: int, act: Abandon, events: EventLog) -> None:
    h = require_conquest(s, me)
    check_region(s, act.region)
    t = s.turn
    if t.n_conquests or h.power is not None and power_rule(h.power).conquering_begun(t):
        raise E.AbandonTooLate.refuse("abandon_too_late")
    if s.areas[act.region].race != h.race:
        raise E.NotYourRegion.refuse("not_your_race_region", race=h.race, region=act.region)
    n = abandon_region(s, act.region)
    hw = s.seat_w(me).active
    assert hw is not None
    hw.hand += n
    s.turn_w().expanded = True
    events.add(Abandoned, player=player_name(s, me), region=act.region, tokens=n)


def _conquer_hold(s: GameState, me: int, decline: bool) -> Hold:
    return ghouls.conquer_hold(s, me) if decline else require_conquest(s, me)


def _do_conquer(s: GameState, me: int, act: Conquer, events: EventLog) -> None:
    decline = act.race == "decline"
    h = _conquer_hold(s, me, decline)
    rid = act.region
    if not decline and h.hand < 1:
        raise E.NoTokens.refuse("no_tokens")
    r = reach(s, me, h, not decline)
    err = target_error(s, rid, r)
    if err:
        raise err
    cost = cost_at(s, rid, r)
    t = s.turn
    if r.power is not None:
        cost = r.power.adjust_cost(t, cost)
    if cost > h.hand:
        if r.power is not None:
            raise r.power.short_error(t, rid, cost, h.hand)
        raise E.NotEnoughTokens.refuse("not_enough_tokens", region=rid, cost=cost, hand=h.hand)
    hw = hold_w(s, me, h.race)
    hw.hand -= cost
    s.turn_w().expanded = True
    occupy(s, me, rid, hw, not decline, cost, events, "conquer")


def _do_reinforce(s: GameState, me: int, act: Reinforce, events: EventLog) -> None:
    decline = act.race == "decline"
    h = _conquer_hold(s, me, decline)
    rid = act.region
    if not decline:
        err = power_rule(h.power).reinforce_error() if h.power else None
        if err:
            raise err
        if h.hand < 1:
            raise E.NoTokens.refuse("final_needs_token")
    r = reach(s, me, h, not decline)
    err = target_error(s, rid, r)
    if err:
        raise err
    cost = cost_at(s, rid, r)
    short = cost - h.hand
    if short < 1:
        raise E.NotEligible.refuse("die_not_needed", region=rid, cost=cost, hand=h.hand)
    if short > 3:
        raise E.NotEligible.refuse("die_too_short", region=rid, cost=cost, hand=h.hand,
                                   short=short)
    s.turn_w().expanded = True
    value = roll_die(s, events, player_name(s, me), f"region {rid}")
    hw = hold_w(s, me, h.race)
    if value + hw.hand >= cost:
        n = hw.hand
        hw.hand = 0
        occupy(s, me, rid, hw, not decline, n, events, "reinforce")
    else:
        events.add(ReinforceFailed, player=player_name(s, me), region=rid, needed=cost,
                                         had=hw.hand, rolled=value)
    if decline:
        ghouls.redeploying(s)
    else:
        close_conquests(s, me, events)


def _mine(h: Hold | None, owned: str, test: str) -> Ability | None:
    """The race or power of `h` with the verb or piece `owned` (test: "verb" or "piece")."""
    if h is None:
        return None
    for ab in abilities_of(h):
        if (owned in ab.verbs) if test == "verb" else ab.piece == owned:
            return ab
    return None


def _do_verb(s: GameState, me: int, act: Roll | Enchant | Dragon | Ally,
             events: EventLog) -> None:
    """A verb of a race or power: the stage its owner names, then the owner carries it out."""
    owner = VERB_OWNERS[act.do]
    h = require_conquest(s, me) if owner.verb_stage == "conquest" else require_active(s, me)
    mine = _mine(h, act.do, "verb")
    if mine is None:
        raise owner.refuse_other(h)
    mine.act(s, me, h, act, events)


def _redeploy_hold(s: GameState, me: int, rid: int) -> tuple[Hold, bool]:
    """The race of yours that holds `rid` and may be redeployed now (hold, is_active)."""
    if s.stage is PICK:
        raise E.WrongStage.refuse("pick_first")
    check_region(s, rid)
    a = s.areas[rid]
    seat = s.seats[me]
    if a.owner != me or a.race is None:
        raise E.NotYourRegion.refuse("not_your_tokens", region=rid)
    if seat.active is not None and a.race == seat.active.race:
        return seat.active, True
    g = ghouls.conqueror(s, me)
    if g is not None and a.race == g.race:
        ghouls.may_redeploy(s)
        return g, False
    raise E.NotYourRegion.refuse("decline_stays", region=rid, race=a.race)


def _deploy_survivors(s: GameState, me: int, act: Deploy, events: EventLog) -> None:
    p = s.pending[0]
    if p.race is None:
        raise E.WrongStage.refuse("no_survivors")
    check_region(s, act.region)
    a = s.areas[act.region]
    if a.race != p.race or a.owner != me:
        raise E.NotYourRegion.refuse("survivors_region", region=act.region, race=p.race)
    if act.count > p.tokens:
        raise E.BadCount.refuse("survivor_count", tokens=p.tokens, count=act.count)
    s.area_w(act.region).tokens += act.count
    h = hold_w(s, me, p.race)
    h.survivors -= act.count
    events.add(Deployed, player=player_name(s, me), region=act.region, count=act.count,
                              survivors=True)
    left = p.tokens - act.count
    if left or p.camps:
        s.pending = (Pending(p.seat, p.race if left else None, left, p.camps), *s.pending[1:])
    else:
        pop_pending(s, events)


def _do_deploy(s: GameState, me: int, act: Deploy, events: EventLog) -> None:
    if s.stage is SURVIVORS:
        _deploy_survivors(s, me, act, events)
        return
    rid, count = act.region, act.count  # an action's fields are slow to read: once each
    h, active = _redeploy_hold(s, me, rid)
    if active:  # the deploy ends the conquests first: the Skeletons' new tokens count
        close_conquests(s, me, events)
    else:
        ghouls.redeploying(s)
    hw = hold_w(s, me, h.race)
    if count > hw.hand:
        raise E.BadCount.refuse("hand_count", hand=hw.hand, count=count)
    s.area_w(rid).tokens += count
    hw.hand -= count
    if not s.turn.expanded:
        s.turn_w().expanded = True
    events.add(Deployed, player=player_name(s, me), region=rid, count=count)


def _do_move(s: GameState, me: int, act: Move, events: EventLog) -> None:
    if s.stage is SURVIVORS:
        raise E.WrongStage.refuse("survivors_deploy")
    f, to, count = act.from_, act.to, act.count  # an action's fields: read once each
    h, active = _redeploy_hold(s, me, f)
    check_region(s, to)
    b = s.areas[to]
    if b.owner != me or b.race != h.race or to == f:
        raise E.NotYourRegion.refuse("move_target", region=to, race=h.race)
    a = s.areas[f]
    if count > a.tokens - 1:
        raise E.BadCount.refuse("move_count", region=f, tokens=a.tokens, most=a.tokens - 1)
    if active:
        close_conquests(s, me, events)
    else:
        ghouls.redeploying(s)
    s.area_w(f).tokens -= count
    s.area_w(to).tokens += count
    tw = s.turn_w()
    tw.expanded = True
    if f not in tw.moved_from:
        tw.moved_from = tw.moved_from | {f}
    if to not in tw.moved_to:
        tw.moved_to = tw.moved_to | {to}
    events.add(Moved, player=player_name(s, me), from_=f, to=to, count=count)


def _do_place(s: GameState, me: int, act: Place, events: EventLog) -> None:
    err = place_error(s, me, act.piece, act.region)
    if err:
        raise err
    if s.stage is SURVIVORS:
        a = s.area_w(act.region)
        a.pieces = pieces_with(a.pieces, "encampment")
        p = s.pending[0]
        events.add(Placed, player=player_name(s, me), piece=act.piece, region=act.region)
        if p.camps > 1:
            s.pending = (Pending(p.seat, None, 0, p.camps - 1), *s.pending[1:])
        else:
            pop_pending(s, events)
        return
    close_conquests(s, me, events)
    mine = _mine(s.seats[me].active, act.piece, "piece") or PIECE_OWNERS[act.piece]
    mine.place(s, me, act.region, events)
    s.turn_w().expanded = True
    events.add(Placed, player=player_name(s, me), piece=act.piece, region=act.region)


def _do_decline(s: GameState, me: int, act: Decline, events: EventLog) -> None:
    err = decline_error(s, me)
    if err:
        raise err
    t = s.turn
    if t.expanded or t.picked:  # Stout: a normal turn, scored, then the decline
        wrap_up(s, me, events)
        score_turn(s, me, events, active_bonus=True)
        decline_race(s, me, events)
    else:
        undo_ready(s, me)
        decline_race(s, me, events)
        score_turn(s, me, events, active_bonus=False)
    finish_turn(s, me, events)


def _do_end(s: GameState, me: int, act: End, events: EventLog) -> None:
    if s.stage is SURVIVORS:
        p = s.pending[0]
        if p.tokens:
            raise E.HandNotEmpty.refuse("place_survivors", tokens=p.tokens)
        events.add(SurvivorsDone, player=player_name(s, me))
        pop_pending(s, events)
        return
    err = end_checks(s, me)
    if err:
        raise err
    if s.stage is PICK:  # nothing to pick: the turn passes (the Ghouls stood down)
        score_turn(s, me, events, active_bonus=False)
        finish_turn(s, me, events)
        return
    wrap_up(s, me, events)
    score_turn(s, me, events, active_bonus=True)
    finish_turn(s, me, events)


def by_active_race(s: GameState, me: int, action: Action) -> bool:
    """Whether `action` is the Active race's (so the In Decline Ghouls stand down first)."""
    do = action.do
    if do == "pick" or s.stage is SURVIVORS:
        return False
    if do == "conquer" or do == "reinforce":
        return action.race != "decline"  # type: ignore[union-attr]
    if do == "deploy" or do == "move":
        rid = action.region if do == "deploy" else action.from_  # type: ignore[union-attr]
        h = s.seats[me].active
        return (h is not None and 0 <= rid < s.geo.n and s.areas[rid].owner == me
                and s.areas[rid].race == h.race)
    if do == "decline":
        return s.turn.expanded or s.turn.picked
    return True


Handler = Callable[[GameState, int, Any, EventLog], None]
_HANDLERS: dict[str, Handler] = {
    "pick": _do_pick, "abandon": _do_abandon, "conquer": _do_conquer,
    "reinforce": _do_reinforce, "roll": _do_verb, "enchant": _do_verb, "dragon": _do_verb,
    "ally": _do_verb, "decline": _do_decline, "deploy": _do_deploy, "move": _do_move,
    "place": _do_place, "end": _do_end,
}
# every verb of the closed action union has its handler (checked once, at import)
assert set(_HANDLERS) == {t.model_fields["do"].default for t in ACTION_TYPES}


def apply(state: GameState, action: Action) -> Step:
    """Check the action against the rules, then return the new state and its events."""
    me = actor_check(state, action.player)
    s = state.fork()
    events = EventLog.fresh()
    if ghouls.phase(s) is not ghouls.G_DONE and by_active_race(s, me, action):
        ghouls.stand_down(s, me, events)
    _HANDLERS[action.do](s, me, action, events)
    s.version += 1
    return Step.of(s.seal(), events)
