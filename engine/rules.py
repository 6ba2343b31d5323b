"""The turn procedure (RULES.md §5-§12, defaults of §16): legality checks and transitions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import assert_never

from . import errors as E
from .abilities import power_rule, race_rule
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
    ally_error,
    conquest_cost,
    decline_error,
    enchant_error,
    end_checks,
    place_error,
    require_active,
    require_conquest,
    target_error,
)
from .queries import (
    check_region,
    ghoul_hold,
    hold_w,
    in_tray,
    limits,
    n_pieces,
    pieces_with,
    pieces_without,
    player_name,
    race_regions,
)
from .state import Combo, GameState, Hold, Pending, Stage
from .turn import (
    abandon_region,
    close_conquests,
    close_ghouls,
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


@dataclass(slots=True)
class Step:
    """The result of one action: the new state and what happened."""

    state: GameState
    events: list[dict] = field(default_factory=list)

    @property
    def reveals(self) -> bool:
        """True when the step rolled the die or drew from a stack (undo stops here)."""
        return any(e["type"] in ("rolled", "drew", "reshuffled") for e in self.events)


def _do_pick(s: GameState, me: int, act: Pick, events: list[dict]) -> None:
    if s.stage is not Stage.PICK:
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
    events.append({"type": "picked", "player": seat.name, "slot": act.slot,
                   "race": chosen.race, "power": chosen.power, "paid": act.slot,
                   "collected": chosen.coins, "tokens": tokens})
    refill(s, events)
    s.turn_w().picked = True
    s.stage = Stage.CONQUEST


def _do_abandon(s: GameState, me: int, act: Abandon, events: list[dict]) -> None:
    h = require_conquest(s, me)
    check_region(s, act.region)
    t = s.turn
    if t.n_conquests or t.roll is not None:
        raise E.AbandonTooLate.refuse("abandon_too_late")
    if s.areas[act.region].race != h.race:
        raise E.NotYourRegion.refuse("not_your_race_region", race=h.race, region=act.region)
    close_ghouls(s, me, events)
    n = abandon_region(s, act.region)
    s.seat_w(me).active.hand += n
    s.turn_w().expanded = True
    events.append({"type": "abandoned", "player": player_name(s, me), "region": act.region,
                   "tokens": n})


def _conquer_hold(s: GameState, me: int, decline: bool) -> Hold:
    if decline:
        if s.stage is Stage.PICK:
            raise E.WrongStage.refuse("pick_first")
        if s.stage is Stage.SURVIVORS:
            raise E.WrongStage.refuse("survivors_only")
        g = ghoul_hold(s, me)
        if g is None:
            raise E.NoSuchPower.refuse("no_decline_conqueror")
        if s.turn.ghouls != 0 or s.stage is not Stage.CONQUEST:
            raise E.ConquestsOver.refuse("ghouls_done")
        if g.hand < 1:
            raise E.NoTokens.refuse("ghouls_no_tokens")
        return g
    h = require_conquest(s, me)
    return h


def _do_conquer(s: GameState, me: int, act: Conquer, events: list[dict]) -> None:
    decline = act.race == "decline"
    h = _conquer_hold(s, me, decline)
    rid = act.region
    if not decline:
        if h.hand < 1:
            raise E.NoTokens.refuse("no_tokens")
        close_ghouls(s, me, events)
    err = target_error(s, me, rid, h, not decline)
    if err:
        raise err
    cost = conquest_cost(s, me, rid, h, not decline)
    roll = None if decline else s.turn.roll
    if roll is not None:
        cost = max(1, cost - roll)
    if cost > h.hand:
        if roll is not None:
            raise E.NotEnoughTokens.refuse("not_enough_after_roll", region=rid, cost=cost,
                                           roll=roll, hand=h.hand)
        raise E.NotEnoughTokens.refuse("not_enough_tokens", region=rid, cost=cost, hand=h.hand)
    hw = hold_w(s, me, h.race)
    hw.hand -= cost
    t = s.turn_w()
    t.expanded = True
    t.roll = None
    occupy(s, me, rid, hw, not decline, cost, events, "conquer")


def _do_reinforce(s: GameState, me: int, act: Reinforce, events: list[dict]) -> None:
    decline = act.race == "decline"
    h = _conquer_hold(s, me, decline)
    rid = act.region
    if not decline:
        if power_rule(h.power).berserk:
            raise E.NoSuchPower.refuse("berserk_rolls")
        if h.hand < 1:
            raise E.NoTokens.refuse("final_needs_token")
        close_ghouls(s, me, events)
    err = target_error(s, me, rid, h, not decline)
    if err:
        raise err
    cost = conquest_cost(s, me, rid, h, not decline)
    short = cost - h.hand
    if short < 1:
        raise E.NotEligible.refuse("die_not_needed", region=rid, cost=cost, hand=h.hand)
    if short > 3:
        raise E.NotEligible.refuse("die_too_short", region=rid, cost=cost, hand=h.hand,
                                   short=short)
    t = s.turn_w()
    t.expanded = True
    value = roll_die(s, events, player_name(s, me), f"region {rid}")
    hw = hold_w(s, me, h.race)
    if value + hw.hand >= cost:
        n = hw.hand
        hw.hand = 0
        occupy(s, me, rid, hw, not decline, n, events, "reinforce")
    else:
        events.append({"type": "reinforce_failed", "player": player_name(s, me), "region": rid,
                       "needed": cost, "had": hw.hand, "rolled": value})
    if decline:
        s.turn_w().ghouls = 1
    else:
        close_conquests(s, me, events)


def _do_roll(s: GameState, me: int, act: Roll, events: list[dict]) -> None:
    h = require_conquest(s, me)
    if not power_rule(h.power).berserk:
        raise E.NoSuchPower.refuse("only_berserk", power=h.power)
    if s.turn.roll is not None:
        raise E.AlreadyUsed.refuse("already_rolled", roll=s.turn.roll)
    if h.hand < 1:
        raise E.NoTokens.refuse("no_tokens")
    close_ghouls(s, me, events)
    value = roll_die(s, events, player_name(s, me), "berserk")
    t = s.turn_w()
    t.roll = value
    t.expanded = True


def _do_enchant(s: GameState, me: int, act: Enchant, events: list[dict]) -> None:
    h = require_conquest(s, me)
    err = enchant_error(s, me, act.region, h)
    if err:
        raise err
    close_ghouls(s, me, events)
    owner = s.areas[act.region].owner
    t = s.turn_w()
    t.expanded = True
    t.enchanted = t.enchanted | {owner}
    occupy(s, me, act.region, s.seat_w(me).active, True, 1, events, "enchant")


def _do_dragon(s: GameState, me: int, act: Dragon, events: list[dict]) -> None:
    h = require_conquest(s, me)
    if not power_rule(h.power).dragon:
        raise E.NoSuchPower.refuse("only_dragon_masters", power=h.power)
    if s.turn.dragon_used:
        raise E.AlreadyUsed.refuse("dragon_once")
    if h.hand < 1:
        raise E.NoTokens.refuse("dragon_no_tokens")
    err = target_error(s, me, act.region, h, True)
    if err:
        raise err
    close_ghouls(s, me, events)
    for rid in race_regions(s, h.race):
        if "dragon" in s.areas[rid].pieces:
            a = s.area_w(rid)
            a.pieces = pieces_without(a.pieces, ("dragon",))
    hw = s.seat_w(me).active
    hw.hand -= 1
    t = s.turn_w()
    t.expanded = True
    t.dragon_used = True
    occupy(s, me, act.region, hw, True, 1, events, "dragon")
    a = s.area_w(act.region)
    a.pieces = pieces_with(a.pieces, "dragon")


def _redeploy_hold(s: GameState, me: int, rid: int) -> tuple[Hold, bool]:
    """The race of yours that holds `rid` and may be redeployed now (hold, is_active)."""
    if s.stage is Stage.PICK:
        raise E.WrongStage.refuse("pick_first")
    check_region(s, rid)
    a = s.areas[rid]
    seat = s.seats[me]
    if a.owner != me or a.race is None:
        raise E.NotYourRegion.refuse("not_your_tokens", region=rid)
    if seat.active is not None and a.race == seat.active.race:
        return seat.active, True
    g = ghoul_hold(s, me)
    if g is not None and a.race == g.race:
        if s.turn.ghouls == 2:
            raise E.ConquestsOver.refuse("ghouls_finished")
        return g, False
    raise E.NotYourRegion.refuse("decline_stays", region=rid, race=a.race)


def _do_deploy(s: GameState, me: int, act: Deploy, events: list[dict]) -> None:
    if s.stage is Stage.SURVIVORS:
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
        events.append({"type": "deployed", "player": player_name(s, me), "region": act.region,
                       "count": act.count, "survivors": True})
        left = p.tokens - act.count
        if left or p.camps:
            s.pending = (Pending(p.seat, p.race if left else None, left, p.camps), *s.pending[1:])
        else:
            pop_pending(s, events)
        return
    h, active = _redeploy_hold(s, me, act.region)
    if act.count > h.hand:
        raise E.BadCount.refuse("hand_count", hand=h.hand, count=act.count)
    if active:
        close_ghouls(s, me, events)
        close_conquests(s, me, events)
    else:
        s.turn_w().ghouls = 1
    s.area_w(act.region).tokens += act.count
    hold_w(s, me, h.race).hand -= act.count
    s.turn_w().expanded = True
    events.append({"type": "deployed", "player": player_name(s, me), "region": act.region,
                   "count": act.count})


def _do_move(s: GameState, me: int, act: Move, events: list[dict]) -> None:
    if s.stage is Stage.SURVIVORS:
        raise E.WrongStage.refuse("survivors_deploy")
    h, active = _redeploy_hold(s, me, act.from_)
    check_region(s, act.to)
    b = s.areas[act.to]
    if b.owner != me or b.race != h.race or act.to == act.from_:
        raise E.NotYourRegion.refuse("move_target", region=act.to, race=h.race)
    a = s.areas[act.from_]
    if act.count > a.tokens - 1:
        raise E.BadCount.refuse("move_count", region=act.from_, tokens=a.tokens, most=a.tokens - 1)
    t = s.turn
    if act.from_ in t.moved_to or act.to in t.moved_from:
        raise (E.MoveChain.refuse("move_took", region=act.from_) if act.from_ in t.moved_to
               else E.MoveChain.refuse("move_gave", region=act.to))
    if active:
        close_ghouls(s, me, events)
        close_conquests(s, me, events)
    else:
        s.turn_w().ghouls = 1
    s.area_w(act.from_).tokens -= act.count
    s.area_w(act.to).tokens += act.count
    tw = s.turn_w()
    tw.expanded = True
    tw.moved_from = tw.moved_from | {act.from_}
    tw.moved_to = tw.moved_to | {act.to}
    events.append({"type": "moved", "player": player_name(s, me), "from": act.from_, "to": act.to,
                   "count": act.count})


def _lift(s: GameState, me: int, piece: str, events: list[dict]) -> None:
    """The turn's first placement of Heroes or encampments picks all of them up to set anew."""
    spots = []
    for rid in race_regions(s, s.seats[me].active.race):
        n = s.areas[rid].pieces.count(piece)
        if n:
            spots += [rid] * n
            a = s.area_w(rid)
            a.pieces = pieces_without(a.pieces, (piece,))
    t = s.turn_w()
    t.lifted = t.lifted | {piece}
    if piece == "hero":
        t.heroes = tuple(spots)
    else:
        t.camps = tuple(spots)
    if spots:
        events.append({"type": "lifted", "player": player_name(s, me), "piece": piece,
                       "regions": spots})


def _do_place(s: GameState, me: int, act: Place, events: list[dict]) -> None:
    err = place_error(s, me, act.piece, act.region)
    if err:
        raise err
    if s.stage is Stage.SURVIVORS:
        a = s.area_w(act.region)
        a.pieces = pieces_with(a.pieces, "encampment")
        p = s.pending[0]
        events.append({"type": "placed", "player": player_name(s, me), "piece": act.piece,
                       "region": act.region})
        if p.camps > 1:
            s.pending = (Pending(p.seat, None, 0, p.camps - 1), *s.pending[1:])
        else:
            pop_pending(s, events)
        return
    close_ghouls(s, me, events)
    close_conquests(s, me, events)
    if act.piece in ("hero", "encampment") and act.piece not in s.turn.lifted:
        if act.piece == "hero" or n_pieces(s, "encampment") >= limits()["encampment"]:
            _lift(s, me, act.piece, events)
        else:  # §11.3: camps still in the box are added; the ones standing stay
            t = s.turn_w()
            t.lifted = t.lifted | {act.piece}
    a = s.area_w(act.region)
    a.pieces = pieces_with(a.pieces, act.piece)
    t = s.turn_w()
    t.expanded = True
    if act.piece == "fortress":
        t.fortress_placed = True
    events.append({"type": "placed", "player": player_name(s, me), "piece": act.piece,
                   "region": act.region})


def _do_ally(s: GameState, me: int, act: Ally, events: list[dict]) -> None:
    require_active(s, me)
    err = ally_error(s, me, act.target)
    if err:
        raise err
    close_ghouls(s, me, events)
    close_conquests(s, me, events)
    t = s.turn_w()
    t.allied = True
    t.expanded = True
    ally = s.players.index(act.target)
    s.peace = (*(p for p in s.peace if p[0] != me), (me, ally))
    events.append({"type": "allied", "player": player_name(s, me), "target": act.target})


def _do_decline(s: GameState, me: int, act: Decline, events: list[dict]) -> None:
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


def _do_end(s: GameState, me: int, act: End, events: list[dict]) -> None:
    if s.stage is Stage.SURVIVORS:
        p = s.pending[0]
        if p.tokens:
            raise E.HandNotEmpty.refuse("place_survivors", tokens=p.tokens)
        events.append({"type": "survivors_done", "player": player_name(s, me)})
        pop_pending(s, events)
        return
    err = end_checks(s, me)
    if err:
        raise err
    if s.stage is Stage.PICK:  # nothing to pick: readied In Decline Ghouls stand again
        close_ghouls(s, me, events)
        score_turn(s, me, events, active_bonus=False)
        finish_turn(s, me, events)
        return
    wrap_up(s, me, events)
    score_turn(s, me, events, active_bonus=True)
    finish_turn(s, me, events)


def apply(state: GameState, action: Action) -> Step:
    """Check the action against the rules, then return the new state and its events."""
    me = actor_check(state, action.player)
    s = state.fork()
    events: list[dict] = []
    handler = _HANDLERS.get(type(action))
    if handler is None:
        assert_never(action)
    handler(s, me, action, events)
    s.version += 1
    return Step(s.seal(), events)


_HANDLERS = {
    Pick: _do_pick, Abandon: _do_abandon, Conquer: _do_conquer, Reinforce: _do_reinforce,
    Roll: _do_roll, Decline: _do_decline, Deploy: _do_deploy, Move: _do_move,
    Enchant: _do_enchant, Dragon: _do_dragon, Place: _do_place, Ally: _do_ally, End: _do_end,
}


assert set(_HANDLERS) == set(ACTION_TYPES)
