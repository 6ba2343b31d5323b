"""The turn's mechanics (RULES.md §5-§12): conquering a region, closing the conquest
phase, scoring, going into decline, the row and the stacks, and passing the turn on.

What a race or power adds is its hooks (engine/ability.py), called here unconditionally."""

from __future__ import annotations

from collections.abc import Callable

from . import data, ghouls
from .ability import kit_of, power_rule, race_rule
from .events import (
    BonusTokens,
    Conquered,
    Declined,
    Deployed,
    Drew,
    EventLog,
    GameOver,
    MustPlace,
    Reshuffled,
    Rolled,
    RoundStarted,
    Scored,
    TurnEnded,
    TurnStarted,
    Vanished,
)
from .geo import Income
from .queries import hold_w, in_tray, pieces_without, player_name, race_regions
from .state import (
    CONQUEST,
    FINISHED,
    PICK,
    REDEPLOY,
    SURVIVORS,
    Area,
    Combo,
    GameState,
    Hold,
    Pending,
    Turn,
)

# pieces that leave a race's regions when it goes into decline (lairs and fortresses stay)
DECLINE_DROPS = ("hole", "hero", "dragon", "encampment")


def pending_bonus(s: GameState, me: int) -> int:
    """Tokens the Active race takes from the tray when its conquests end (Skeletons)."""
    h = s.seats[me].active
    if h is None or s.turn.ended:
        return 0
    kit = kit_of(h)
    if not kit.redeploy_bonus:
        return 0
    n = kit.race.redeploy_bonus(s.turn.n_nonempty)
    return min(n, in_tray(s, h.race)) if n else 0


def close_conquests(s: GameState, me: int, events: EventLog) -> None:
    """Conquests end; redeployment begins: the race's bonus tokens (Skeletons) come from the
    tray, and the race's and power's `on_conquests_end` hooks run, once."""
    if s.turn.ended:
        return
    bonus = pending_bonus(s, me)
    s.turn_w().ended = True
    s.stage = REDEPLOY
    h = s.seats[me].active
    if h is None:
        return
    for ab in kit_of(h).on_conquests_end:
        ab.on_conquests_end(s, me, events)
    if bonus:
        hw = s.seat_w(me).active
        assert hw is not None
        hw.hand += bonus
        events.add(BonusTokens, player=player_name(s, me), race=h.race, tokens=bonus)


def roll_die(s: GameState, events: EventLog, player: str, why: str) -> int:
    if s.dice:
        value = s.dice[0]
        s.dice = s.dice[1:]
    else:
        faces = data.components().die
        value = faces[s.rng_w().randrange(len(faces))]
    events.add(Rolled, player=player, value=value, for_=why)
    return value


def refill(s: GameState, events: EventLog) -> None:
    """Fill the row up to 6 combos from the stack tops (badge discards reshuffled)."""
    want = data.components().visible_combos
    row = list(s.row)
    while len(row) < want and s.banners:
        if not s.badges:
            if not s.discards:
                break
            pile = list(s.discards)
            s.rng_w().shuffle(pile)
            s.badges, s.discards = tuple(pile), ()
            events.add(Reshuffled, badges=len(pile))
        race, power = s.banners[0], s.badges[0]
        s.banners, s.badges = s.banners[1:], s.badges[1:]
        row.append(Combo(race, power, 0))
        events.add(Drew, race=race, power=power)
    s.row = tuple(row)


def _extra_decline(h: Hold) -> bool:
    return h.power is not None and power_rule(h.power).extra_decline()


def banner_home(s: GameState, hold: Hold, events: EventLog) -> None:
    """A race that left the map: banner to the bottom of the stack (kept badge discarded)."""
    s.banners = (*s.banners, hold.race)
    if hold.power is not None and _extra_decline(hold):
        s.discards = (*s.discards, hold.power)
    events.add(Vanished, race=hold.race)
    refill(s, events)


def vanish_decline(s: GameState, seat_i: int, race: str, events: EventLog) -> None:
    """An In Decline race with no region left leaves the game (tokens to the tray)."""
    seat = s.seat_w(seat_i)
    keep = []
    gone = None
    for h in seat.declines:
        if h.race == race:
            gone = h
        else:
            keep.append(h)
    if gone is None:
        return
    seat.declines = tuple(keep)
    banner_home(s, gone, events)


def strip_region(s: GameState, rid: int) -> Area:
    """Empty a region for a new holder: defenders leave, all pieces go (the holder's Active
    power hears of the pieces it lost)."""
    a = s.area_w(rid)
    if a.pieces:
        if a.owner >= 0:
            act = s.seats[a.owner].active
            if act is not None and act.power is not None:
                power_rule(act.power).on_pieces_lost(s, a.owner, a.pieces)
        a.pieces = ()
    return a


Losses = Callable[[GameState, int, int], int]


def occupy(s: GameState, me: int, rid: int, hold: Hold, active: bool, n: int,
           events: EventLog, how: str, losses: Losses | None = None) -> None:
    """Resolve the defenders of `rid` and move `n` tokens of `hold` in. `losses(s, lost,
    tokens)` may change how many defending tokens are lost for good (Sorcerers)."""
    a = s.areas[rid]
    defender: str | None = None
    d_race: str | None = None
    lost = survivors = 0
    d_seat = -1
    d_dec = False
    nonempty = a.lost_tribe or a.tokens > 0
    if a.lost_tribe:
        d_race, lost = "Lost Tribe", 1
    elif a.tokens > 0 and a.race is not None:
        d_seat, d_race, d_dec, d_tokens = a.owner, a.race, a.decline, a.tokens
        defender = player_name(s, d_seat)
        lost = min(d_tokens, race_rule(d_race).losses(d_dec))
        if losses is not None:
            lost = losses(s, lost, d_tokens)
        survivors = d_tokens - lost
        if not d_dec and d_seat != me:
            t = s.turn_w()
            t.attacked = t.attacked | {d_seat}
    had_tokens = a.tokens > 0
    a = strip_region(s, rid)
    a.lost_tribe = False
    if had_tokens and d_race is not None:
        a.clear()
        if survivors:
            hold_w(s, d_seat, d_race).survivors += survivors
        if d_dec and not race_regions(s, d_race):
            vanish_decline(s, d_seat, d_race, events)
    a.owner, a.race, a.tokens, a.decline = me, hold.race, n, not active
    if active:
        for ab in kit_of(hold).on_conquer:
            ab.on_conquer(s, me, rid, hold, how)
        t = s.turn_w()
        t.n_conquests += 1
        if nonempty:
            t.n_nonempty += 1
    extra: dict[str, object] = {}
    if not active:
        extra["in_decline"] = True
    if how != "conquer":
        extra["by"] = how
    events.add(Conquered, player=player_name(s, me), region=rid, race=hold.race, tokens=n,
                               defender=defender, defender_race=d_race, lost=lost, **extra)


def abandon_region(s: GameState, rid: int) -> int:
    """Empty one of your regions: its lair, fortress, hole, hero, dragon and camps go too."""
    a = s.area_w(rid)
    n = a.tokens
    a.clear()
    a.pieces = ()
    return n


def begin_turn(s: GameState, idx: int, events: EventLog) -> None:
    """Start `idx`'s turn: ready the Active troops and the In Decline Ghouls."""
    s.current = idx
    s.turn = Turn()
    s.own_turn()
    t = s.turn
    if s.peace:
        s.peace = tuple(p for p in s.peace if p[0] != idx)
    seat = s.seats[idx]
    events.add(TurnStarted, player=player_name(s, idx), round=s.round)
    if seat.active is None:
        s.stage = PICK
    else:
        s.stage = CONQUEST
        h = s.seat_w(idx).active
        assert h is not None
        ready = []
        lifted = 0
        areas = s.areas
        for rid in race_regions(s, h.race):
            n = areas[rid].tokens - 1
            if n > 0:
                ready.append((rid, n))
                lifted += n
                s.area_w(rid).tokens = 1
                areas = s.areas
        h.hand += lifted
        t.ready = tuple(ready)
    ghouls.begin(s, idx)


def next_turn(s: GameState, events: EventLog) -> None:
    idx = s.current + 1
    if idx >= len(s.players):
        idx = 0
        if s.round >= s.board.rounds:
            end_game(s, events)
            return
        s.round += 1
        events.add(RoundStarted, round=s.round)
    begin_turn(s, idx, events)


def end_game(s: GameState, events: EventLog) -> None:
    """Most coins wins; ties broken by race tokens on the board; still tied: shared."""
    on_board = [0] * len(s.players)
    for a in s.areas:
        if a.owner >= 0:
            on_board[a.owner] += a.tokens
    keys = [(s.seats[i].coins, on_board[i]) for i in range(len(s.players))]
    order = sorted(range(len(s.players)), key=lambda i: (-keys[i][0], -keys[i][1], i))
    ranking = []
    for i in order:
        rank = 1 + sum(1 for j in range(len(s.players)) if keys[j] > keys[i])
        ranking.append({"player": player_name(s, i), "total": keys[i][0], "tokens": on_board[i],
                        "rank": rank})
    s.ranking = tuple(ranking)
    s.stage = FINISHED
    s.pending = ()
    events.add(GameOver, ranking=[dict(r) for r in ranking],
                              winners=[r["player"] for r in ranking if r["rank"] == 1])


def finish_turn(s: GameState, me: int, events: EventLog) -> None:
    """Turn over: survivors of every attacked race wait to be placed, then the next turn."""
    events.add(TurnEnded, player=player_name(s, me), round=s.round)
    n = len(s.players)
    pending: list[Pending] = []
    seats = s.seats
    for off in range(1, n + 1):
        i = (me + off) % n
        seat = seats[i]
        act = seat.active
        if act is not None and act.survivors or seat.declines:
            for h in (act, *seat.declines):
                if h is None or not h.survivors:
                    continue
                hw = hold_w(s, i, h.race)
                if race_regions(s, h.race):
                    pending.append(Pending(i, h.race, hw.survivors, 0))
                elif hw is s.seats[i].active:
                    hw.hand += hw.survivors
                    hw.survivors = 0
                else:  # an In Decline race with no region left
                    hw.survivors = 0
            seats = s.seats
            act = seats[i].active
        if act is not None and act.power is not None:
            kit = kit_of(act)
            if kit.replaces:
                assert kit.power is not None
                k = kit.power.pieces_to_replace(s, i)
                if k > 0:
                    pending.append(Pending(i, None, 0, k))
    s.pending = tuple(pending)
    if pending:
        s.stage = SURVIVORS
        for p in pending:
            name = player_name(s, p.seat)
            if p.race:
                events.add(MustPlace, player=name, tokens=p.tokens, race=p.race)
            else:
                events.add(MustPlace, player=name, encampments=p.camps)
    else:
        next_turn(s, events)


def pop_pending(s: GameState, events: EventLog) -> None:
    s.pending = s.pending[1:]
    if not s.pending:
        next_turn(s, events)


def score_turn(s: GameState, me: int, events: EventLog, *, active_bonus: bool) -> None:
    """1 coin per region held (Active and In Decline), plus race and power bonuses."""
    seat = s.seat_w(me)
    regions = race_bonus = power_bonus = decline_bonus = 0
    h = seat.active
    if h is not None:
        regs = race_regions(s, h.race)
        regions = len(regs)
        kit = kit_of(h)
        if active_bonus and kit.scores:
            t = s.turn
            areas = s.areas
            forts = sum([areas[r].pieces.count("fortress") for r in regs if areas[r].pieces])
            ctx = Income(s.geo, regs, t.n_nonempty, t.picked, forts)
            race_bonus = kit.race.income(ctx)
            if kit.power is not None:
                power_bonus = kit.power.income(ctx)
    for h in seat.declines:
        regs = race_regions(s, h.race)
        regions += len(regs)
        decline_bonus += race_rule(h.race).decline_income(Income(s.geo, regs, 0, False, 0))
    income = regions + race_bonus + power_bonus + decline_bonus
    seat.coins += income
    events.add(Scored, player=seat.name, income=income, coins=seat.coins,
               breakdown={"regions": regions, "race": race_bonus, "power": power_bonus,
                          "decline": decline_bonus})


def wrap_up(s: GameState, me: int, events: EventLog) -> None:
    """End-of-turn steps before scoring: tokens left in hand are deployed, then the race's
    and the power's own end of turn (the Amazons' reserve, camps and Heroes stand)."""
    close_conquests(s, me, events)
    h = s.seats[me].active
    assert h is not None
    kit = kit_of(h)
    extra = h.hand - min(kit.race.reserve, h.hand)
    held = race_regions(s, h.race) if extra > 0 else ()
    if extra > 0 and held:  # tokens left in hand (Skeletons' new ones too): thinnest regions
        hw = s.seat_w(me).active
        assert hw is not None
        put: dict[int, int] = {}
        for _ in range(extra):
            rid = min(held, key=lambda r: (s.areas[r].tokens, r))
            s.area_w(rid).tokens += 1
            put[rid] = put.get(rid, 0) + 1
        hw.hand -= extra
        for rid, n in sorted(put.items()):
            events.add(Deployed, player=player_name(s, me), region=rid, count=n, auto=True)
    for ab in kit.on_turn_end:
        ab.on_turn_end(s, me, events)


def decline_race(s: GameState, me: int, events: EventLog) -> None:
    """Flip the Active race: one token per region stays (Ghouls keep all); older decline goes
    (a Spirit race, in decline beside another, neither goes nor makes another go)."""
    seat = s.seat_w(me)
    h = seat.active
    assert h is not None
    race = race_rule(h.race)
    extra = _extra_decline(h)
    if not extra:
        for old in seat.declines:
            if _extra_decline(old):
                continue
            for rid in race_regions(s, old.race):
                abandon_region(s, rid)
            seat = s.seat_w(me)
            seat.declines = tuple(x for x in seat.declines if x is not old)
            banner_home(s, old, events)
            break
    held = race_regions(s, h.race)
    for rid in held:
        a = s.area_w(rid)
        a.tokens = race.tokens_in_decline(a.tokens)
        a.decline = True
        if a.pieces:
            a.pieces = pieces_without(a.pieces, DECLINE_DROPS)
    if not extra and h.power is not None:
        s.discards = (*s.discards, h.power)
    seat = s.seat_w(me)
    new = Hold(h.race, h.power, 0, 0, h.holes_used)
    seat.active = None
    seat.declines = (*seat.declines, new)
    events.add(Declined, player=seat.name, race=h.race, power=h.power)
    if not held:
        seat.declines = tuple(x for x in seat.declines if x is not new)
        banner_home(s, new, events)


def undo_ready(s: GameState, me: int) -> None:
    """A decline turn: the readied tokens count as never picked up."""
    t = s.turn
    seat = s.seat_w(me)
    for rid, n in t.ready:
        s.area_w(rid).tokens += n
    assert seat.active is not None
    seat.active.hand -= sum(n for _, n in t.ready)
    g = ghouls.conqueror(s, me)
    if g is not None:
        rule = race_rule(g.race).in_decline
        assert rule is not None
        rule.on_decline_turn(s, me)
    s.turn_w().ready = ()
