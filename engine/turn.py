"""The turn's mechanics (RULES.md §5-§9, §12): conquering a region, closing the conquest
phase, scoring, going into decline, the row and the stacks, and passing the turn on."""

from __future__ import annotations

from . import data
from .abilities import Income, power_rule, race_rule
from .queries import (
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
from .state import Area, Combo, GameState, Hold, Pending, Stage, Turn


def close_ghouls(s: GameState, me: int, events: list[dict]) -> None:
    """The Active race acts: the In Decline Ghouls are done for the turn (§12.1 step 2).

    Readied Ghoul tokens still in hand stand again where they were lifted from (as if never
    picked up), any others on a Ghoul region; with no Ghoul region left they go to the tray.
    """
    if s.turn.ghouls == 2:
        return
    g = ghoul_hold(s, me)
    if g is not None and g.hand > 0:
        hw = hold_w(s, me, g.race)
        held = race_regions(s, g.race)
        left = hw.hand
        spots = [(rid, n) for rid, n in s.turn.ghoul_ready if rid in held]
        if held:
            spots.append((held[0], left))
        for rid, n in spots:
            k = min(n, left)
            if k:
                s.area_w(rid).tokens += k
                left -= k
                events.append({"type": "deployed", "player": player_name(s, me), "region": rid,
                               "count": k, "auto": True})
        hw.hand = 0
    s.turn_w().ghouls = 2


def pending_bonus(s: GameState, me: int) -> int:
    """Skeletons' tokens still to be taken at redeployment."""
    t = s.turn
    h = s.seats[me].active
    if t.bonus_given or h is None:
        return 0
    n = race_rule(h.race).redeploy_bonus(t.n_nonempty)
    return min(n, in_tray(s, h.race)) if n else 0


def close_conquests(s: GameState, me: int, events: list[dict]) -> None:
    """Conquests end; redeployment begins (Skeletons take their new tokens now)."""
    t = s.turn
    if t.ended and t.bonus_given:
        return
    bonus = pending_bonus(s, me)
    tw = s.turn_w()
    tw.ended = True
    tw.bonus_given = True
    tw.roll = None
    close_ghouls(s, me, events)
    s.stage = Stage.REDEPLOY
    if bonus:
        h = s.seat_w(me).active
        h.hand += bonus
        events.append({"type": "bonus_tokens", "player": player_name(s, me), "race": h.race,
                       "tokens": bonus})


def roll_die(s: GameState, events: list[dict], player: str, why: str) -> int:
    if s.dice:
        value = s.dice[0]
        s.dice = s.dice[1:]
    else:
        faces = data.components().die
        value = faces[s.rng_w().randrange(len(faces))]
    events.append({"type": "rolled", "player": player, "value": value, "for": why})
    return value


def refill(s: GameState, events: list[dict]) -> None:
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
            events.append({"type": "reshuffled", "badges": len(pile)})
        race, power = s.banners[0], s.badges[0]
        s.banners, s.badges = s.banners[1:], s.badges[1:]
        row.append(Combo(race, power, 0))
        events.append({"type": "drew", "race": race, "power": power})
    s.row = tuple(row)


def banner_home(s: GameState, hold: Hold, events: list[dict]) -> None:
    """A race that left the map: banner to the bottom of the stack (kept badge discarded)."""
    s.banners = (*s.banners, hold.race)
    if hold.power is not None and power_rule(hold.power).spirit:
        s.discards = (*s.discards, hold.power)
    events.append({"type": "vanished", "race": hold.race})
    refill(s, events)


def vanish_decline(s: GameState, seat_i: int, race: str, events: list[dict]) -> None:
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


def strip_region(s: GameState, rid: int, events: list[dict]) -> Area:
    """Empty a region for a new holder: defenders leave, lair and fortress go, camps return."""
    a = s.area_w(rid)
    if a.pieces:
        camps = a.pieces.count("encampment")
        if camps and a.owner >= 0:
            t = s.turn_w()
            t.displaced = (*t.displaced, (a.owner, camps))
        a.pieces = ()
    return a


def occupy(s: GameState, me: int, rid: int, hold: Hold, active: bool, n: int,
            events: list[dict], how: str) -> None:
    """Resolve the defenders of `rid` and move `n` tokens of `hold` in."""
    a = s.areas[rid]
    defender, d_race, lost = (None, None, 0)
    nonempty = a.lost_tribe or a.tokens > 0
    if a.lost_tribe:
        d_race, lost = "Lost Tribe", 1
    elif a.tokens > 0:
        d_seat, d_race, d_dec, d_tokens = a.owner, a.race, a.decline, a.tokens
        defender = player_name(s, d_seat)
        lost = min(d_tokens, race_rule(d_race).losses(d_dec))
        if how == "enchant" and (lost or s.options.get("elf_lost_to_sorcerers", True)):
            lost = d_tokens
        survivors = d_tokens - lost
        if not d_dec and d_seat != me:
            t = s.turn_w()
            t.attacked = t.attacked | {d_seat}
    a = strip_region(s, rid, events)
    a.lost_tribe = False
    if a.tokens > 0:
        a.clear()
        if survivors:
            hold_w(s, d_seat, d_race).survivors += survivors
        if d_dec and not race_regions(s, d_race):
            vanish_decline(s, d_seat, d_race, events)
    a.owner, a.race, a.tokens, a.decline = me, hold.race, n, not active
    race = race_rule(hold.race)
    if active:
        if race.builds_lairs and n_pieces(s, "troll_lair") < limits()["troll_lair"]:
            a.pieces = pieces_with(a.pieces, "troll_lair")
        if hold.holes_used < race.holes and n_pieces(s, "hole") < limits()["hole"]:
            a.pieces = pieces_with(a.pieces, "hole")
            s.seat_w(me).active.holes_used += 1
        t = s.turn_w()
        t.n_conquests += 1
        if nonempty:
            t.n_nonempty += 1
    ev = {"type": "conquered", "player": player_name(s, me), "region": rid, "race": hold.race,
          "tokens": n, "defender": defender, "defender_race": d_race, "lost": lost}
    if not active:
        ev["in_decline"] = True
    if how != "conquer":
        ev["by"] = how
    events.append(ev)


def abandon_region(s: GameState, rid: int) -> int:
    """Empty one of your regions: its lair, fortress, hole, hero, dragon and camps go too."""
    a = s.area_w(rid)
    n = a.tokens
    a.clear()
    a.pieces = ()
    return n


def begin_turn(s: GameState, idx: int, events: list[dict]) -> None:
    """Start `idx`'s turn: ready the Active troops and the In Decline Ghouls."""
    s.current = idx
    s.turn = Turn()
    s._own.add("turn")
    t = s.turn
    if s.peace:
        s.peace = tuple(p for p in s.peace if p[0] != idx)
    seat = s.seats[idx]
    events.append({"type": "turn_started", "player": player_name(s, idx), "round": s.round})
    if seat.active is None:
        s.stage = Stage.PICK
    else:
        s.stage = Stage.CONQUEST
        h = s.seat_w(idx).active
        ready = []
        for rid in race_regions(s, h.race):
            a = s.areas[rid]
            if a.tokens > 1:
                ready.append((rid, a.tokens - 1))
                s.area_w(rid).tokens = 1
        h.hand += sum(n for _, n in ready)
        t.ready = tuple(ready)
    g = ghoul_hold(s, idx)
    if g is None:
        t.ghouls = 2
    else:
        ready = []
        for rid in race_regions(s, g.race):
            a = s.areas[rid]
            if a.tokens > 1:
                ready.append((rid, a.tokens - 1))
                s.area_w(rid).tokens = 1
        if ready:
            hold_w(s, idx, g.race).hand += sum(n for _, n in ready)
        t.ghoul_ready = tuple(ready)


def next_turn(s: GameState, events: list[dict]) -> None:
    idx = s.current + 1
    if idx >= len(s.players):
        idx = 0
        if s.round >= s.board.rounds:
            end_game(s, events)
            return
        s.round += 1
        events.append({"type": "round_started", "round": s.round})
    begin_turn(s, idx, events)


def end_game(s: GameState, events: list[dict]) -> None:
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
    s.stage = Stage.FINISHED
    s.pending = ()
    events.append({"type": "game_over", "ranking": [dict(r) for r in ranking],
                   "winners": [r["player"] for r in ranking if r["rank"] == 1]})


def finish_turn(s: GameState, me: int, events: list[dict]) -> None:
    """Turn over: survivors of every attacked race wait to be placed, then the next turn."""
    events.append({"type": "turn_ended", "player": player_name(s, me), "round": s.round})
    n = len(s.players)
    pending: list[Pending] = []
    displaced: dict[int, int] = {}
    for seat_i, k in s.turn.displaced:
        displaced[seat_i] = displaced.get(seat_i, 0) + k
    for off in range(1, n + 1):
        i = (me + off) % n
        seat = s.seats[i]
        for h in (seat.active, *seat.declines):
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
        if i in displaced:
            act = s.seats[i].active
            if act is not None and power_rule(act.power).bivouacs and race_regions(s, act.race):
                free = limits()["encampment"] - n_pieces(s, "encampment")
                if free > 0:
                    pending.append(Pending(i, None, 0, min(free, displaced[i])))
    s.pending = tuple(pending)
    if pending:
        s.stage = Stage.SURVIVORS
        for p in pending:
            d = {"type": "must_place", "player": player_name(s, p.seat)}
            d.update({"tokens": p.tokens, "race": p.race} if p.race else {"encampments": p.camps})
            events.append(d)
    else:
        next_turn(s, events)


def pop_pending(s: GameState, events: list[dict]) -> None:
    s.pending = s.pending[1:]
    if not s.pending:
        next_turn(s, events)


def score_turn(s: GameState, me: int, events: list[dict], *, active_bonus: bool) -> None:
    """1 coin per region held (Active and In Decline), plus race and power bonuses."""
    seat = s.seat_w(me)
    t = s.turn
    geo = s.geo
    parts = {"regions": 0, "race": 0, "power": 0, "decline": 0}  # the private breakdown
    if seat.active is not None:
        h = seat.active
        regs = tuple(race_regions(s, h.race))
        parts["regions"] += len(regs)
        if active_bonus:
            forts = sum(s.areas[r].pieces.count("fortress") for r in regs)
            ctx = Income(geo, regs, t.n_nonempty, t.picked, forts)
            parts["race"] += race_rule(h.race).income(ctx)
            parts["power"] += power_rule(h.power).income(ctx)
    for h in seat.declines:
        regs = tuple(race_regions(s, h.race))
        ctx = Income(geo, regs, 0, False, 0)
        parts["regions"] += len(regs)
        parts["decline"] += race_rule(h.race).decline_income(ctx)
    income = sum(parts.values())
    seat.coins += income
    events.append({"type": "scored", "player": seat.name, "income": income,
                   "coins": seat.coins, "breakdown": parts, "private": True})


def wrap_up(s: GameState, me: int, events: list[dict]) -> None:
    """End-of-turn steps before scoring: Amazons' 4 leave the map, Heroes and camps stand."""
    close_conquests(s, me, events)
    h = s.seats[me].active
    extra = h.hand - min(race_rule(h.race).reserve, h.hand)
    held = race_regions(s, h.race)
    if extra > 0 and held:  # tokens left in hand (Skeletons' new ones too): thinnest regions
        h = s.seat_w(me).active
        put: dict[int, int] = {}
        for _ in range(extra):
            rid = min(held, key=lambda r: (s.areas[r].tokens, r))
            s.area_w(rid).tokens += 1
            put[rid] = put.get(rid, 0) + 1
        h.hand -= extra
        for rid, n in sorted(put.items()):
            events.append({"type": "deployed", "player": player_name(s, me), "region": rid,
                           "count": n, "auto": True})
    race = race_rule(h.race)
    power = power_rule(h.power)
    if race.reserve:
        held = race_regions(s, h.race)
        total = h.hand + sum(s.areas[r].tokens for r in held)
        need = min(race.reserve, total) - h.hand
        removed = 0
        while need > 0:
            held = race_regions(s, h.race)
            rid = max(held, key=lambda r: (s.areas[r].tokens, -r))
            a = s.area_w(rid)
            if a.tokens > 1:
                a.tokens -= 1
            else:
                abandon_region(s, rid)
                events.append({"type": "abandoned", "player": player_name(s, me), "region": rid,
                               "forced": True})
            need -= 1
            removed += 1
        hw = s.seat_w(me).active
        hw.hand += removed
        if removed or hw.hand:
            events.append({"type": "reserve", "player": player_name(s, me), "race": h.race,
                           "tokens": hw.hand})
    held = race_regions(s, h.race)
    if power.bivouacs and s.turn.camps:  # lifted camps not set up anew go back where they stood
        free = limits()["encampment"] - n_pieces(s, "encampment")
        for rid in s.turn.camps:
            if free <= 0:
                break
            if rid in held:
                a = s.area_w(rid)
                a.pieces = pieces_with(a.pieces, "encampment")
                free -= 1
                events.append({"type": "placed", "player": player_name(s, me), "piece": "encampment",
                               "region": rid, "auto": True})
    if power.heroic and held:  # both Heroes stand at the end of the turn
        on = [r for r in held if "hero" in s.areas[r].pieces]
        prefer = [r for r in s.turn.heroes if r in held]
        order = prefer + sorted(held, key=lambda r: (-s.areas[r].tokens, r))
        for rid in order:
            if len(on) >= limits()["hero"]:
                break
            if rid not in on:
                a = s.area_w(rid)
                a.pieces = pieces_with(a.pieces, "hero")
                on.append(rid)
                events.append({"type": "placed", "player": player_name(s, me), "piece": "hero",
                               "region": rid, "auto": True})


def decline_race(s: GameState, me: int, events: list[dict]) -> None:
    """Flip the Active race: one token per region stays (Ghouls keep all); older decline goes."""
    seat = s.seat_w(me)
    h = seat.active
    race = race_rule(h.race)
    power = power_rule(h.power)
    if not power.spirit:
        for old in seat.declines:
            if old.power is not None and power_rule(old.power).spirit:
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
        if not race.keeps_all_on_decline:
            a.tokens = 1
        a.decline = True
        if a.pieces:
            a.pieces = pieces_without(a.pieces, ("hole", "hero", "dragon", "encampment"))
    if not power.spirit:
        s.discards = (*s.discards, h.power)
    seat = s.seat_w(me)
    new = Hold(h.race, h.power, 0, 0, h.holes_used)
    seat.active = None
    seat.declines = (*seat.declines, new)
    events.append({"type": "declined", "player": seat.name, "race": h.race, "power": h.power})
    if not held:
        seat.declines = tuple(x for x in seat.declines if x is not new)
        banner_home(s, new, events)


def undo_ready(s: GameState, me: int) -> None:
    """A decline turn: the readied tokens count as never picked up."""
    t = s.turn
    seat = s.seat_w(me)
    for rid, n in t.ready:
        s.area_w(rid).tokens += n
    seat.active.hand -= sum(n for _, n in t.ready)
    g = None
    for h in seat.declines:
        if race_rule(h.race).conquers_in_decline:
            g = h
    for rid, n in t.ghoul_ready:
        s.area_w(rid).tokens += n
    if g is not None:
        g.hand -= sum(n for _, n in t.ghoul_ready)
    tw = s.turn_w()
    tw.ready, tw.ghoul_ready = (), ()
