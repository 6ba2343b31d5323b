"""Ghouls In Decline (RULES.md §10.4, §12.1 step 2, §16 #20): the whole rule in one place.

In Decline Ghouls take a full expansion of their own on their holder's turn, before the
Active race acts: they are readied with the Active race at the turn's start, conquer
(`conquer`/`reinforce` with `race: "decline"`), redeploy (`deploy`/`move` on their regions),
and are done when the Active race first acts (`GhoulsInDecline.before_active_action`, the
one step `apply` takes before every Active-race action). Ghoul tokens readied but neither
used nor redeployed then stand again where they were lifted from (as if never picked up),
any others on the lowest-numbered Ghoul region; with no Ghoul region left they go to the
tray. On a decline turn they do not act at all: their readied tokens count as never lifted.
"""

from __future__ import annotations

from enum import Enum

from . import errors as E
from .ability import DeclineRule, kit_of, race_rule
from .events import Deployed, EventLog
from .queries import hold_w, player_name, race_regions
from .state import CONQUEST, PICK, SURVIVORS, GameState, Hold, Part, dump_pairs, load_pairs


class GhoulPhase(Enum):
    """Where the In Decline Ghouls are in their part of the turn (dumped as 0, 1, 2)."""

    CONQUER = 0
    REDEPLOY = 1
    DONE = 2


# the phases as module constants (an Enum member read through its class is slow)
G_CONQUER, G_REDEPLOY, G_DONE = GhoulPhase.CONQUER, GhoulPhase.REDEPLOY, GhoulPhase.DONE

PHASE: Part[GhoulPhase] = Part("ghouls", G_CONQUER, lambda p: p.value, GhoulPhase)
# (region, tokens) lifted from each Ghoul region when readying
READY: Part[tuple[tuple[int, int], ...]] = Part("ghoul_ready", (), dump_pairs, load_pairs)


def conqueror(s: GameState, me: int) -> Hold | None:
    """The player's In Decline race that still acts on their turn (their Ghouls), if any."""
    for h in s.seats[me].declines:
        if kit_of(h).race.in_decline is not None:
            return h
    return None


_PHASE: str = PHASE.name  # its key in Turn.parts


def phase(s: GameState) -> GhoulPhase:
    phase: GhoulPhase = s.turn.parts.get(_PHASE, G_CONQUER)  # s.turn.get(PHASE), read often
    return phase


def acting(s: GameState, me: int) -> Hold | None:
    """The Ghouls while their part of this turn is not over (None otherwise)."""
    if s.turn.parts.get(_PHASE, G_CONQUER) is G_DONE:
        return None
    return conqueror(s, me)


def conquer_hold(s: GameState, me: int) -> Hold:
    """The Ghouls, for a conquest In Decline now (or the refusal)."""
    if s.stage is PICK:
        raise E.WrongStage.refuse("pick_first")
    if s.stage is SURVIVORS:
        raise E.WrongStage.refuse("survivors_only")
    g = conqueror(s, me)
    if g is None:
        raise E.NoSuchPower.refuse("no_decline_conqueror")
    if s.turn.get(PHASE) is not G_CONQUER or s.stage is not CONQUEST:
        raise E.ConquestsOver.refuse("ghouls_done")
    if g.hand < 1:
        raise E.NoTokens.refuse("ghouls_no_tokens")
    return g


def may_redeploy(s: GameState) -> None:
    """Refuse a Ghoul redeployment once their part of the turn is over."""
    if s.turn.get(PHASE) is G_DONE:
        raise E.ConquestsOver.refuse("ghouls_finished")


def redeploying(s: GameState) -> None:
    """A final die roll or a redeployment of the Ghouls: their conquests are over."""
    s.turn_w().put(PHASE, G_REDEPLOY)


def may_conquer(s: GameState, g: Hold) -> bool:
    return (s.turn.get(PHASE) is G_CONQUER and s.stage is CONQUEST
            and g.hand >= 1)


class GhoulsInDecline(DeclineRule):
    """The turn's three moments for In Decline Ghouls: readying, standing down, declining."""

    def on_turn_start(self, s: GameState, me: int, h: Hold) -> None:
        ready = []
        for rid in race_regions(s, h.race):
            a = s.areas[rid]
            if a.tokens > 1:
                ready.append((rid, a.tokens - 1))
                s.area_w(rid).tokens = 1
        if ready:
            hold_w(s, me, h.race).hand += sum(n for _, n in ready)
        s.turn_w().put(READY, tuple(ready))

    def before_active_action(self, s: GameState, me: int, events: EventLog) -> None:
        t = s.turn
        if t.get(PHASE) is G_DONE:
            return
        g = conqueror(s, me)
        if g is not None and g.hand > 0:
            hw = hold_w(s, me, g.race)
            held = race_regions(s, g.race)
            left = hw.hand
            spots = [(rid, n) for rid, n in t.get(READY) if rid in held]
            if held:
                spots.append((held[0], left))
            name = player_name(s, me)
            for rid, n in spots:
                k = min(n, left)
                if k:
                    s.area_w(rid).tokens += k
                    left -= k
                    events.add(Deployed, player=name, region=rid, count=k, auto=True)
            hw.hand = 0
        s.turn_w().put(PHASE, G_DONE)

    def on_decline_turn(self, s: GameState, me: int) -> None:
        ready = s.turn.get(READY)
        for rid, n in ready:
            s.area_w(rid).tokens += n
        g = None
        for h in s.seat_w(me).declines:
            if race_rule(h.race).in_decline is self:
                g = h
        if g is not None:
            g.hand -= sum(n for _, n in ready)
        s.turn_w().put(READY, ())


def stand_down(s: GameState, me: int, events: EventLog) -> None:
    """Before the Active race acts: every In Decline race of the player finishes its part."""
    if s.turn.get(PHASE) is G_DONE:
        return
    g = conqueror(s, me)
    if g is None:
        s.turn_w().put(PHASE, G_DONE)
        return
    rule = race_rule(g.race).in_decline
    assert rule is not None
    rule.before_active_action(s, me, events)


def begin(s: GameState, me: int) -> None:
    """The player's turn starts: the Ghouls are readied, or (none) their phase is over."""
    g = conqueror(s, me)
    if g is None:
        s.turn_w().put(PHASE, G_DONE)
        return
    rule = race_rule(g.race).in_decline
    assert rule is not None
    rule.on_turn_start(s, me, g)
