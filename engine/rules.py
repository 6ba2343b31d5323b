"""The turn procedure (RULES.md §5-§12, defaults of §16): legality checks and transitions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import assert_never

from . import data
from . import errors as E
from .abilities import Income, power_rule, race_rule
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
from .state import Area, Combo, GameState, Hold, Pending, Stage, Turn

OPTIONS: dict[str, bool] = {
    "own_decline_counts": True,  # §16 #9: own In Decline tokens add +1 to the cost
    "elf_lost_to_sorcerers": True,  # §16 #6: a converted Elf token is lost
}
IMMUNE_PIECES = ("hole", "hero", "dragon")
DEFENCE_PIECES = ("troll_lair", "fortress", "encampment")
_LIMITS = None


def limits() -> dict[str, int]:
    global _LIMITS
    if _LIMITS is None:
        _LIMITS = dict(data.components().pieces)
    return _LIMITS


@dataclass(slots=True)
class Step:
    """The result of one action: the new state and what happened."""

    state: GameState
    events: list[dict] = field(default_factory=list)

    @property
    def reveals(self) -> bool:
        """True when the step rolled the die or drew from a stack (undo stops here)."""
        return any(e["type"] in ("rolled", "drew", "reshuffled") for e in self.events)


# ---------------------------------------------------------------- small queries


def _held(s: GameState, race: str) -> tuple[int, ...]:
    """Regions holding tokens of `race` (a banner belongs to one player at a time)."""
    c = s._cache  # valid while no area of this state was written (area_w drops it)
    if c is None:
        if s._own is not None:  # being changed: the fork's starting cache + written regions
            base = s._base
            if base is None:
                return tuple([i for i, a in enumerate(s.areas) if a.race == race])
            got = base.get(race, ())
            dirty = s._dirty
            if dirty:
                areas = s.areas
                now = {r for r in got if r not in dirty}
                now.update(r for r in dirty if areas[r].race == race)
                got = tuple(sorted(now))
            return got
        # one pass finds every race's regions
        found: dict[str, list[int]] = {}
        for i, a in enumerate(s.areas):
            r = a.race
            if r is not None:
                if r in found:
                    found[r].append(i)
                else:
                    found[r] = [i]
        c = s._cache = {r: tuple(v) for r, v in found.items()}
    return c.get(race, ())


def _n_pieces(s: GameState, piece: str) -> int:
    return sum(a.pieces.count(piece) for a in s.areas if a.pieces)


def _tray(s: GameState, race: str) -> int:
    """Tokens of `race` still in the box."""
    used = sum(a.tokens for a in s.areas if a.race == race)
    for seat in s.seats:
        for h in (seat.active, *seat.declines):
            if h is not None and h.race == race:
                used += h.hand + h.survivors
    return race_rule(race).box - used


def _ghouls(s: GameState, me: int) -> Hold | None:
    for h in s.seats[me].declines:
        if race_rule(h.race).conquers_in_decline:
            return h
    return None


def _hold_of(s: GameState, me: int, race: str) -> Hold | None:
    seat = s.seats[me]
    if seat.active is not None and seat.active.race == race:
        return seat.active
    for h in seat.declines:
        if h.race == race:
            return h
    return None


def _hold_w(s: GameState, me: int, race: str) -> Hold:
    """The writable hold of `race` in seat `me` (copying the seat first)."""
    s.seat_w(me)
    h = _hold_of(s, me, race)
    assert h is not None
    return h


def _without(pieces: tuple[str, ...], drop: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(p for p in pieces if p not in drop)


def _with(pieces: tuple[str, ...], piece: str) -> tuple[str, ...]:
    return tuple(sorted((*pieces, piece)))


def _name(s: GameState, i: int) -> str:
    return s.players[i]


def _check_region(s: GameState, rid: int) -> None:
    if not 0 <= rid < s.geo.n:
        raise E.UnknownRegion.refuse("unknown_region", region=rid, last=s.geo.n - 1)


# ---------------------------------------------------------------- costs and targets


def conquest_cost(s: GameState, me: int, rid: int, hold: Hold, active: bool,
                  held: frozenset[int] | None = None) -> int:
    """Tokens needed: 2 + markers + Lost Tribe + defending tokens, minus reductions, min 1."""
    a = s.areas[rid]
    cost = 2 + a.tokens + (1 if a.lost_tribe else 0) + (1 if s.geo.mountain[rid] else 0)
    if a.pieces:
        cost += sum(1 for p in a.pieces if p in DEFENCE_PIECES)
    if a.owner == me and a.decline and not s.options.get("own_decline_counts", True):
        cost -= a.tokens
    if active:
        race = race_rule(hold.race)
        if race.reduces_cost:
            if held is None:
                held = frozenset(_held(s, hold.race))
            cost -= race.cost_reduction(s.geo, held, rid)
        power = power_rule(hold.power)
        if power.reduces_cost:
            cost -= power.cost_reduction(s.geo, rid)
    return cost if cost > 1 else 1


T_OK, T_UNKNOWN, T_MINE, T_WATER, T_IMMUNE, T_PEACE, T_ENTRY, T_ADJ = range(8)


def _target_code(s: GameState, me: int, rid: int, hold: Hold, active: bool,
                 held: tuple[int, ...] | None = None) -> int:
    """T_OK when `hold` may attack region `rid`, else the reason (T_* constants)."""
    geo = s.geo
    if not 0 <= rid < geo.n:
        return T_UNKNOWN
    a = s.areas[rid]
    race = hold.race
    if a.race == race:
        return T_MINE
    power = power_rule(hold.power) if active and hold.power else None
    if geo.water[rid] and not (power is not None and power.seafaring):
        return T_WATER
    if a.owner >= 0 and a.owner != me:
        if a.pieces and any(p in IMMUNE_PIECES for p in a.pieces):
            return T_IMMUNE
        if active and not a.decline and s.peace:
            for diplomat, ally in s.peace:
                if diplomat == a.owner and ally == me:
                    return T_PEACE
    if held is None:
        held = _held(s, race)
    if not held:
        if race_rule(race).enters_anywhere or (power is not None and power.flies) or geo.entry[rid]:
            return T_OK
        return T_ENTRY
    if power is not None and power.flies:
        return T_OK
    nb = geo.nbrs[rid]
    for h in held:
        if h in nb:
            return T_OK
    if power is not None and power.underworld and geo.cavern[rid] and any(
        geo.cavern[h] for h in held
    ):
        return T_OK
    return T_ADJ


def _target_error(s: GameState, me: int, rid: int, hold: Hold, active: bool,
                  held: tuple[int, ...] | None = None) -> E.RulesViolation | None:
    """Why region `rid` cannot be attacked by `hold` (None when it can)."""
    code = _target_code(s, me, rid, hold, active, held)
    if code == T_OK:
        return None
    race = hold.race
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
        return E.AtPeace.refuse("at_peace", player=_name(s, a.owner), race=a.race, region=rid)
    if code == T_ENTRY:
        return E.NotEntry.refuse("not_entry", region=rid, race=race)
    return E.NotAdjacent.refuse("not_adjacent", region=rid, race=race)


def _candidates(s: GameState, hold: Hold, active: bool, held: list[int]) -> list[int]:
    """Regions worth checking as targets (a superset of the legal ones)."""
    power = power_rule(hold.power) if active and hold.power else None
    if not held or (power is not None and power.flies):
        return list(range(s.geo.n))
    out: set[int] = set()
    for h in held:
        out |= s.geo.nbrs[h]
    if power is not None and power.underworld and any(s.geo.cavern[h] for h in held):
        out |= s.geo.caverns
    return sorted(out)


# ---------------------------------------------------------------- the turn's shape


def _actor_check(s: GameState, player: str) -> int:
    if s.stage is Stage.FINISHED:
        raise E.GameOver.refuse("game_over")
    if player not in s.players:
        raise E.UnknownPlayer.refuse("unknown_player", player=player)
    actor = s.actor
    if player != actor:
        if s.stage is Stage.SURVIVORS:
            raise E.NotYourTurn.refuse("survivors_first", actor=actor)
        raise E.NotYourTurn.refuse("not_your_turn", actor=actor, player=player)
    return s.players.index(player)


def _require_active(s: GameState, me: int) -> Hold:
    if s.stage is Stage.PICK:
        raise E.WrongStage.refuse("pick_first")
    if s.stage is Stage.SURVIVORS:
        raise E.WrongStage.refuse("survivors_only")
    h = s.seats[me].active
    if h is None:
        raise E.NoActiveRace.refuse("no_active_race")
    return h


def _require_conquest(s: GameState, me: int) -> Hold:
    h = _require_active(s, me)
    if s.stage is not Stage.CONQUEST or s.turn.ended:
        raise E.ConquestsOver.refuse("conquests_over")
    return h


def _close_ghouls(s: GameState, me: int, events: list[dict]) -> None:
    """The Active race acts: the In Decline Ghouls are done for the turn (§12.1 step 2).

    Readied Ghoul tokens still in hand stand again where they were lifted from (as if never
    picked up), any others on a Ghoul region; with no Ghoul region left they go to the tray.
    """
    if s.turn.ghouls == 2:
        return
    g = _ghouls(s, me)
    if g is not None and g.hand > 0:
        hw = _hold_w(s, me, g.race)
        held = _held(s, g.race)
        left = hw.hand
        spots = [(rid, n) for rid, n in s.turn.ghoul_ready if rid in held]
        if held:
            spots.append((held[0], left))
        for rid, n in spots:
            k = min(n, left)
            if k:
                s.area_w(rid).tokens += k
                left -= k
                events.append({"type": "deployed", "player": _name(s, me), "region": rid,
                               "count": k, "auto": True})
        hw.hand = 0
    s.turn_w().ghouls = 2


def _pending_bonus(s: GameState, me: int) -> int:
    """Skeletons' tokens still to be taken at redeployment."""
    t = s.turn
    h = s.seats[me].active
    if t.bonus_given or h is None:
        return 0
    n = race_rule(h.race).redeploy_bonus(t.n_nonempty)
    return min(n, _tray(s, h.race)) if n else 0


def _close_conquests(s: GameState, me: int, events: list[dict]) -> None:
    """Conquests end; redeployment begins (Skeletons take their new tokens now)."""
    t = s.turn
    if t.ended and t.bonus_given:
        return
    bonus = _pending_bonus(s, me)
    tw = s.turn_w()
    tw.ended = True
    tw.bonus_given = True
    tw.roll = None
    _close_ghouls(s, me, events)
    s.stage = Stage.REDEPLOY
    if bonus:
        h = s.seat_w(me).active
        h.hand += bonus
        events.append({"type": "bonus_tokens", "player": _name(s, me), "race": h.race,
                       "tokens": bonus})


def _roll(s: GameState, events: list[dict], player: str, why: str) -> int:
    if s.dice:
        value = s.dice[0]
        s.dice = s.dice[1:]
    else:
        faces = data.components().die
        value = faces[s.rng_w().randrange(len(faces))]
    events.append({"type": "rolled", "player": player, "value": value, "for": why})
    return value


# ---------------------------------------------------------------- row and stacks


def _refill(s: GameState, events: list[dict]) -> None:
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


def _banner_home(s: GameState, hold: Hold, events: list[dict]) -> None:
    """A race that left the map: banner to the bottom of the stack (kept badge discarded)."""
    s.banners = (*s.banners, hold.race)
    if hold.power is not None and power_rule(hold.power).spirit:
        s.discards = (*s.discards, hold.power)
    events.append({"type": "vanished", "race": hold.race})
    _refill(s, events)


def _vanish_decline(s: GameState, seat_i: int, race: str, events: list[dict]) -> None:
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
    _banner_home(s, gone, events)


# ---------------------------------------------------------------- conquest effects


def _strip_region(s: GameState, rid: int, events: list[dict]) -> Area:
    """Empty a region for a new holder: defenders leave, lair and fortress go, camps return."""
    a = s.area_w(rid)
    if a.pieces:
        camps = a.pieces.count("encampment")
        if camps and a.owner >= 0:
            t = s.turn_w()
            t.displaced = (*t.displaced, (a.owner, camps))
        a.pieces = ()
    return a


def _occupy(s: GameState, me: int, rid: int, hold: Hold, active: bool, n: int,
            events: list[dict], how: str) -> None:
    """Resolve the defenders of `rid` and move `n` tokens of `hold` in."""
    a = s.areas[rid]
    defender, d_race, lost = (None, None, 0)
    nonempty = a.lost_tribe or a.tokens > 0
    if a.lost_tribe:
        d_race, lost = "Lost Tribe", 1
    elif a.tokens > 0:
        d_seat, d_race, d_dec, d_tokens = a.owner, a.race, a.decline, a.tokens
        defender = _name(s, d_seat)
        lost = min(d_tokens, race_rule(d_race).losses(d_dec))
        if how == "enchant" and (lost or s.options.get("elf_lost_to_sorcerers", True)):
            lost = d_tokens
        survivors = d_tokens - lost
        if not d_dec and d_seat != me:
            t = s.turn_w()
            t.attacked = t.attacked | {d_seat}
    a = _strip_region(s, rid, events)
    a.lost_tribe = False
    if a.tokens > 0:
        a.clear()
        if survivors:
            _hold_w(s, d_seat, d_race).survivors += survivors
        if d_dec and not _held(s, d_race):
            _vanish_decline(s, d_seat, d_race, events)
    a.owner, a.race, a.tokens, a.decline = me, hold.race, n, not active
    race = race_rule(hold.race)
    if active:
        if race.builds_lairs and _n_pieces(s, "troll_lair") < limits()["troll_lair"]:
            a.pieces = _with(a.pieces, "troll_lair")
        if hold.holes_used < race.holes and _n_pieces(s, "hole") < limits()["hole"]:
            a.pieces = _with(a.pieces, "hole")
            s.seat_w(me).active.holes_used += 1
        t = s.turn_w()
        t.n_conquests += 1
        if nonempty:
            t.n_nonempty += 1
    ev = {"type": "conquered", "player": _name(s, me), "region": rid, "race": hold.race,
          "tokens": n, "defender": defender, "defender_race": d_race, "lost": lost}
    if not active:
        ev["in_decline"] = True
    if how != "conquer":
        ev["by"] = how
    events.append(ev)


def _abandon_region(s: GameState, rid: int) -> int:
    """Empty one of your regions: its lair, fortress, hole, hero, dragon and camps go too."""
    a = s.area_w(rid)
    n = a.tokens
    a.clear()
    a.pieces = ()
    return n


# ---------------------------------------------------------------- turn boundaries


def begin_turn(s: GameState, idx: int, events: list[dict]) -> None:
    """Start `idx`'s turn: ready the Active troops and the In Decline Ghouls."""
    s.current = idx
    s.turn = Turn()
    s._own.add("turn")
    t = s.turn
    if s.peace:
        s.peace = tuple(p for p in s.peace if p[0] != idx)
    seat = s.seats[idx]
    events.append({"type": "turn_started", "player": _name(s, idx), "round": s.round})
    if seat.active is None:
        s.stage = Stage.PICK
    else:
        s.stage = Stage.CONQUEST
        h = s.seat_w(idx).active
        ready = []
        for rid in _held(s, h.race):
            a = s.areas[rid]
            if a.tokens > 1:
                ready.append((rid, a.tokens - 1))
                s.area_w(rid).tokens = 1
        h.hand += sum(n for _, n in ready)
        t.ready = tuple(ready)
    g = _ghouls(s, idx)
    if g is None:
        t.ghouls = 2
    else:
        ready = []
        for rid in _held(s, g.race):
            a = s.areas[rid]
            if a.tokens > 1:
                ready.append((rid, a.tokens - 1))
                s.area_w(rid).tokens = 1
        if ready:
            _hold_w(s, idx, g.race).hand += sum(n for _, n in ready)
        t.ghoul_ready = tuple(ready)


def _next_turn(s: GameState, events: list[dict]) -> None:
    idx = s.current + 1
    if idx >= len(s.players):
        idx = 0
        if s.round >= s.board.rounds:
            _game_over(s, events)
            return
        s.round += 1
        events.append({"type": "round_started", "round": s.round})
    begin_turn(s, idx, events)


def _game_over(s: GameState, events: list[dict]) -> None:
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
        ranking.append({"player": _name(s, i), "total": keys[i][0], "tokens": on_board[i],
                        "rank": rank})
    s.ranking = tuple(ranking)
    s.stage = Stage.FINISHED
    s.pending = ()
    events.append({"type": "game_over", "ranking": [dict(r) for r in ranking],
                   "winners": [r["player"] for r in ranking if r["rank"] == 1]})


def _finish_turn(s: GameState, me: int, events: list[dict]) -> None:
    """Turn over: survivors of every attacked race wait to be placed, then the next turn."""
    events.append({"type": "turn_ended", "player": _name(s, me), "round": s.round})
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
            hw = _hold_w(s, i, h.race)
            if _held(s, h.race):
                pending.append(Pending(i, h.race, hw.survivors, 0))
            elif hw is s.seats[i].active:
                hw.hand += hw.survivors
                hw.survivors = 0
            else:  # an In Decline race with no region left
                hw.survivors = 0
        if i in displaced:
            act = s.seats[i].active
            if act is not None and power_rule(act.power).bivouacs and _held(s, act.race):
                free = limits()["encampment"] - _n_pieces(s, "encampment")
                if free > 0:
                    pending.append(Pending(i, None, 0, min(free, displaced[i])))
    s.pending = tuple(pending)
    if pending:
        s.stage = Stage.SURVIVORS
        for p in pending:
            d = {"type": "must_place", "player": _name(s, p.seat)}
            d.update({"tokens": p.tokens, "race": p.race} if p.race else {"encampments": p.camps})
            events.append(d)
    else:
        _next_turn(s, events)


def _pop_pending(s: GameState, events: list[dict]) -> None:
    s.pending = s.pending[1:]
    if not s.pending:
        _next_turn(s, events)


def _score(s: GameState, me: int, events: list[dict], *, active_bonus: bool) -> None:
    """1 coin per region held (Active and In Decline), plus race and power bonuses."""
    seat = s.seat_w(me)
    t = s.turn
    geo = s.geo
    parts = {"regions": 0, "race": 0, "power": 0, "decline": 0}  # the private breakdown
    if seat.active is not None:
        h = seat.active
        regs = tuple(_held(s, h.race))
        parts["regions"] += len(regs)
        if active_bonus:
            forts = sum(s.areas[r].pieces.count("fortress") for r in regs)
            ctx = Income(geo, regs, t.n_nonempty, t.picked, forts)
            parts["race"] += race_rule(h.race).income(ctx)
            parts["power"] += power_rule(h.power).income(ctx)
    for h in seat.declines:
        regs = tuple(_held(s, h.race))
        ctx = Income(geo, regs, 0, False, 0)
        parts["regions"] += len(regs)
        parts["decline"] += race_rule(h.race).decline_income(ctx)
    income = sum(parts.values())
    seat.coins += income
    events.append({"type": "scored", "player": seat.name, "income": income,
                   "coins": seat.coins, "breakdown": parts, "private": True})


def _end_checks(s: GameState, me: int) -> E.RulesViolation | None:
    """Why the current player may not end the turn now (None when they may)."""
    if s.stage is Stage.PICK:
        if not s.row:  # every banner is in play: nothing to pick, the turn passes
            return None
        return E.WrongStage.refuse("pick_first")
    h = s.seats[me].active
    if h is None:
        return E.NoActiveRace.refuse("no_active_race")
    return None


def _wrap_up(s: GameState, me: int, events: list[dict]) -> None:
    """End-of-turn steps before scoring: Amazons' 4 leave the map, Heroes and camps stand."""
    _close_conquests(s, me, events)
    h = s.seats[me].active
    extra = h.hand - min(race_rule(h.race).reserve, h.hand)
    held = _held(s, h.race)
    if extra > 0 and held:  # tokens left in hand (Skeletons' new ones too): thinnest regions
        h = s.seat_w(me).active
        put: dict[int, int] = {}
        for _ in range(extra):
            rid = min(held, key=lambda r: (s.areas[r].tokens, r))
            s.area_w(rid).tokens += 1
            put[rid] = put.get(rid, 0) + 1
        h.hand -= extra
        for rid, n in sorted(put.items()):
            events.append({"type": "deployed", "player": _name(s, me), "region": rid,
                           "count": n, "auto": True})
    race = race_rule(h.race)
    power = power_rule(h.power)
    if race.reserve:
        held = _held(s, h.race)
        total = h.hand + sum(s.areas[r].tokens for r in held)
        need = min(race.reserve, total) - h.hand
        removed = 0
        while need > 0:
            held = _held(s, h.race)
            rid = max(held, key=lambda r: (s.areas[r].tokens, -r))
            a = s.area_w(rid)
            if a.tokens > 1:
                a.tokens -= 1
            else:
                _abandon_region(s, rid)
                events.append({"type": "abandoned", "player": _name(s, me), "region": rid,
                               "forced": True})
            need -= 1
            removed += 1
        hw = s.seat_w(me).active
        hw.hand += removed
        if removed or hw.hand:
            events.append({"type": "reserve", "player": _name(s, me), "race": h.race,
                           "tokens": hw.hand})
    held = _held(s, h.race)
    if power.bivouacs and s.turn.camps:  # lifted camps not set up anew go back where they stood
        free = limits()["encampment"] - _n_pieces(s, "encampment")
        for rid in s.turn.camps:
            if free <= 0:
                break
            if rid in held:
                a = s.area_w(rid)
                a.pieces = _with(a.pieces, "encampment")
                free -= 1
                events.append({"type": "placed", "player": _name(s, me), "piece": "encampment",
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
                a.pieces = _with(a.pieces, "hero")
                on.append(rid)
                events.append({"type": "placed", "player": _name(s, me), "piece": "hero",
                               "region": rid, "auto": True})


def _decline_race(s: GameState, me: int, events: list[dict]) -> None:
    """Flip the Active race: one token per region stays (Ghouls keep all); older decline goes."""
    seat = s.seat_w(me)
    h = seat.active
    race = race_rule(h.race)
    power = power_rule(h.power)
    if not power.spirit:
        for old in seat.declines:
            if old.power is not None and power_rule(old.power).spirit:
                continue
            for rid in _held(s, old.race):
                _abandon_region(s, rid)
            seat = s.seat_w(me)
            seat.declines = tuple(x for x in seat.declines if x is not old)
            _banner_home(s, old, events)
            break
    held = _held(s, h.race)
    for rid in held:
        a = s.area_w(rid)
        if not race.keeps_all_on_decline:
            a.tokens = 1
        a.decline = True
        if a.pieces:
            a.pieces = _without(a.pieces, ("hole", "hero", "dragon", "encampment"))
    if not power.spirit:
        s.discards = (*s.discards, h.power)
    seat = s.seat_w(me)
    new = Hold(h.race, h.power, 0, 0, h.holes_used)
    seat.active = None
    seat.declines = (*seat.declines, new)
    events.append({"type": "declined", "player": seat.name, "race": h.race, "power": h.power})
    if not held:
        seat.declines = tuple(x for x in seat.declines if x is not new)
        _banner_home(s, new, events)


def _undo_ready(s: GameState, me: int) -> None:
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


# ---------------------------------------------------------------- action handlers


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
    tokens = min(tokens, _tray(s, chosen.race))
    seat.active = Hold(chosen.race, chosen.power, tokens)
    s.row = tuple(row)
    events.append({"type": "picked", "player": seat.name, "slot": act.slot,
                   "race": chosen.race, "power": chosen.power, "paid": act.slot,
                   "collected": chosen.coins, "tokens": tokens})
    _refill(s, events)
    s.turn_w().picked = True
    s.stage = Stage.CONQUEST


def _do_abandon(s: GameState, me: int, act: Abandon, events: list[dict]) -> None:
    h = _require_conquest(s, me)
    _check_region(s, act.region)
    t = s.turn
    if t.n_conquests or t.roll is not None:
        raise E.AbandonTooLate.refuse("abandon_too_late")
    if s.areas[act.region].race != h.race:
        raise E.NotYourRegion.refuse("not_your_race_region", race=h.race, region=act.region)
    _close_ghouls(s, me, events)
    n = _abandon_region(s, act.region)
    s.seat_w(me).active.hand += n
    s.turn_w().expanded = True
    events.append({"type": "abandoned", "player": _name(s, me), "region": act.region,
                   "tokens": n})


def _conquer_hold(s: GameState, me: int, decline: bool) -> Hold:
    if decline:
        if s.stage is Stage.PICK:
            raise E.WrongStage.refuse("pick_first")
        if s.stage is Stage.SURVIVORS:
            raise E.WrongStage.refuse("survivors_only")
        g = _ghouls(s, me)
        if g is None:
            raise E.NoSuchPower.refuse("no_decline_conqueror")
        if s.turn.ghouls != 0 or s.stage is not Stage.CONQUEST:
            raise E.ConquestsOver.refuse("ghouls_done")
        if g.hand < 1:
            raise E.NoTokens.refuse("ghouls_no_tokens")
        return g
    h = _require_conquest(s, me)
    return h


def _do_conquer(s: GameState, me: int, act: Conquer, events: list[dict]) -> None:
    decline = act.race == "decline"
    h = _conquer_hold(s, me, decline)
    rid = act.region
    if not decline:
        if h.hand < 1:
            raise E.NoTokens.refuse("no_tokens")
        _close_ghouls(s, me, events)
    err = _target_error(s, me, rid, h, not decline)
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
    hw = _hold_w(s, me, h.race)
    hw.hand -= cost
    t = s.turn_w()
    t.expanded = True
    t.roll = None
    _occupy(s, me, rid, hw, not decline, cost, events, "conquer")


def _do_reinforce(s: GameState, me: int, act: Reinforce, events: list[dict]) -> None:
    decline = act.race == "decline"
    h = _conquer_hold(s, me, decline)
    rid = act.region
    if not decline:
        if power_rule(h.power).berserk:
            raise E.NoSuchPower.refuse("berserk_rolls")
        if h.hand < 1:
            raise E.NoTokens.refuse("final_needs_token")
        _close_ghouls(s, me, events)
    err = _target_error(s, me, rid, h, not decline)
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
    value = _roll(s, events, _name(s, me), f"region {rid}")
    hw = _hold_w(s, me, h.race)
    if value + hw.hand >= cost:
        n = hw.hand
        hw.hand = 0
        _occupy(s, me, rid, hw, not decline, n, events, "reinforce")
    else:
        events.append({"type": "reinforce_failed", "player": _name(s, me), "region": rid,
                       "needed": cost, "had": hw.hand, "rolled": value})
    if decline:
        s.turn_w().ghouls = 1
    else:
        _close_conquests(s, me, events)


def _do_roll(s: GameState, me: int, act: Roll, events: list[dict]) -> None:
    h = _require_conquest(s, me)
    if not power_rule(h.power).berserk:
        raise E.NoSuchPower.refuse("only_berserk", power=h.power)
    if s.turn.roll is not None:
        raise E.AlreadyUsed.refuse("already_rolled", roll=s.turn.roll)
    if h.hand < 1:
        raise E.NoTokens.refuse("no_tokens")
    _close_ghouls(s, me, events)
    value = _roll(s, events, _name(s, me), "berserk")
    t = s.turn_w()
    t.roll = value
    t.expanded = True


def _enchant_error(s: GameState, me: int, rid: int, h: Hold) -> E.RulesViolation | None:
    if not race_rule(h.race).converts:
        return E.NoSuchPower.refuse("only_sorcerers", race=h.race)
    if h.hand < 1:
        return E.NoTokens.refuse("enchant_no_tokens")
    if not 0 <= rid < s.geo.n:
        return E.UnknownRegion.refuse("unknown_region", region=rid, last=s.geo.n - 1)
    a = s.areas[rid]
    if a.owner < 0 or a.owner == me or a.decline or a.tokens == 0:
        return E.NoTarget.refuse("enchant_no_enemy", region=rid)
    if a.tokens != 1:
        return E.NoTarget.refuse("enchant_not_lone", region=rid, tokens=a.tokens)
    if "encampment" in a.pieces:
        return E.NoTarget.refuse("enchant_encampment", region=rid)
    if a.owner in s.turn.enchanted:
        return E.AlreadyUsed.refuse("enchant_once", player=_name(s, a.owner))
    if _tray(s, h.race) < 1:
        return E.TrayEmpty.refuse("enchant_tray_empty")
    return _target_error(s, me, rid, h, True)


def _do_enchant(s: GameState, me: int, act: Enchant, events: list[dict]) -> None:
    h = _require_conquest(s, me)
    err = _enchant_error(s, me, act.region, h)
    if err:
        raise err
    _close_ghouls(s, me, events)
    owner = s.areas[act.region].owner
    t = s.turn_w()
    t.expanded = True
    t.enchanted = t.enchanted | {owner}
    _occupy(s, me, act.region, s.seat_w(me).active, True, 1, events, "enchant")


def _do_dragon(s: GameState, me: int, act: Dragon, events: list[dict]) -> None:
    h = _require_conquest(s, me)
    if not power_rule(h.power).dragon:
        raise E.NoSuchPower.refuse("only_dragon_masters", power=h.power)
    if s.turn.dragon_used:
        raise E.AlreadyUsed.refuse("dragon_once")
    if h.hand < 1:
        raise E.NoTokens.refuse("dragon_no_tokens")
    err = _target_error(s, me, act.region, h, True)
    if err:
        raise err
    _close_ghouls(s, me, events)
    for rid in _held(s, h.race):
        if "dragon" in s.areas[rid].pieces:
            a = s.area_w(rid)
            a.pieces = _without(a.pieces, ("dragon",))
    hw = s.seat_w(me).active
    hw.hand -= 1
    t = s.turn_w()
    t.expanded = True
    t.dragon_used = True
    _occupy(s, me, act.region, hw, True, 1, events, "dragon")
    a = s.area_w(act.region)
    a.pieces = _with(a.pieces, "dragon")


def _redeploy_hold(s: GameState, me: int, rid: int) -> tuple[Hold, bool]:
    """The race of yours that holds `rid` and may be redeployed now (hold, is_active)."""
    if s.stage is Stage.PICK:
        raise E.WrongStage.refuse("pick_first")
    _check_region(s, rid)
    a = s.areas[rid]
    seat = s.seats[me]
    if a.owner != me or a.race is None:
        raise E.NotYourRegion.refuse("not_your_tokens", region=rid)
    if seat.active is not None and a.race == seat.active.race:
        return seat.active, True
    g = _ghouls(s, me)
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
        _check_region(s, act.region)
        a = s.areas[act.region]
        if a.race != p.race or a.owner != me:
            raise E.NotYourRegion.refuse("survivors_region", region=act.region, race=p.race)
        if act.count > p.tokens:
            raise E.BadCount.refuse("survivor_count", tokens=p.tokens, count=act.count)
        s.area_w(act.region).tokens += act.count
        h = _hold_w(s, me, p.race)
        h.survivors -= act.count
        events.append({"type": "deployed", "player": _name(s, me), "region": act.region,
                       "count": act.count, "survivors": True})
        left = p.tokens - act.count
        if left or p.camps:
            s.pending = (Pending(p.seat, p.race if left else None, left, p.camps), *s.pending[1:])
        else:
            _pop_pending(s, events)
        return
    h, active = _redeploy_hold(s, me, act.region)
    if act.count > h.hand:
        raise E.BadCount.refuse("hand_count", hand=h.hand, count=act.count)
    if active:
        _close_ghouls(s, me, events)
        _close_conquests(s, me, events)
    else:
        s.turn_w().ghouls = 1
    s.area_w(act.region).tokens += act.count
    _hold_w(s, me, h.race).hand -= act.count
    s.turn_w().expanded = True
    events.append({"type": "deployed", "player": _name(s, me), "region": act.region,
                   "count": act.count})


def _do_move(s: GameState, me: int, act: Move, events: list[dict]) -> None:
    if s.stage is Stage.SURVIVORS:
        raise E.WrongStage.refuse("survivors_deploy")
    h, active = _redeploy_hold(s, me, act.from_)
    _check_region(s, act.to)
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
        _close_ghouls(s, me, events)
        _close_conquests(s, me, events)
    else:
        s.turn_w().ghouls = 1
    s.area_w(act.from_).tokens -= act.count
    s.area_w(act.to).tokens += act.count
    tw = s.turn_w()
    tw.expanded = True
    tw.moved_from = tw.moved_from | {act.from_}
    tw.moved_to = tw.moved_to | {act.to}
    events.append({"type": "moved", "player": _name(s, me), "from": act.from_, "to": act.to,
                   "count": act.count})


def _place_error(s: GameState, me: int, piece: str, rid: int) -> E.RulesViolation | None:
    if not 0 <= rid < s.geo.n:
        return E.UnknownRegion.refuse("unknown_region", region=rid, last=s.geo.n - 1)
    a = s.areas[rid]
    lim = limits()
    if s.stage is Stage.SURVIVORS:
        p = s.pending[0]
        if piece != "encampment" or p.camps == 0 or p.race is not None:
            return E.WrongStage.refuse("camps_only")
        h = s.seats[me].active
        if h is None or a.race != h.race:
            return E.NotYourRegion.refuse("active_region", region=rid)
        return None
    if s.stage is Stage.PICK:
        return E.WrongStage.refuse("pick_first")
    h = s.seats[me].active
    if h is None:
        return E.NoActiveRace.refuse("no_active_race")
    power = power_rule(h.power)
    if a.race != h.race:
        return E.NotYourRegion.refuse("not_your_race_region", race=h.race, region=rid)
    if piece == "fortress":
        if not power.fortifies:
            return E.NoSuchPower.refuse("only_fortified")
        if s.turn.fortress_placed:
            return E.AlreadyUsed.refuse("fortress_once")
        if "fortress" in a.pieces:
            return E.PieceLimit.refuse("fortress_there", region=rid)
        if _n_pieces(s, "fortress") >= lim["fortress"]:
            return E.PieceLimit.refuse("fortresses_all", n=lim["fortress"])
    elif piece == "encampment":
        if not power.bivouacs:
            return E.NoSuchPower.refuse("only_bivouacking")
        if "encampment" in s.turn.lifted and _n_pieces(s, "encampment") >= lim["encampment"]:
            return E.PieceLimit.refuse("encampments_all", n=lim["encampment"])
    elif piece == "hero":
        if not power.heroic:
            return E.NoSuchPower.refuse("only_heroic")
        if "hero" in s.turn.lifted:
            if "hero" in a.pieces:
                return E.PieceLimit.refuse("hero_there", region=rid)
            if _n_pieces(s, "hero") >= lim["hero"]:
                return E.PieceLimit.refuse("heroes_all")
    else:
        return E.NoSuchPower.refuse("lairs_automatic")
    return None


def _lift(s: GameState, me: int, piece: str, events: list[dict]) -> None:
    """The turn's first placement of Heroes or encampments picks all of them up to set anew."""
    spots = []
    for rid in _held(s, s.seats[me].active.race):
        n = s.areas[rid].pieces.count(piece)
        if n:
            spots += [rid] * n
            a = s.area_w(rid)
            a.pieces = _without(a.pieces, (piece,))
    t = s.turn_w()
    t.lifted = t.lifted | {piece}
    if piece == "hero":
        t.heroes = tuple(spots)
    else:
        t.camps = tuple(spots)
    if spots:
        events.append({"type": "lifted", "player": _name(s, me), "piece": piece,
                       "regions": spots})


def _do_place(s: GameState, me: int, act: Place, events: list[dict]) -> None:
    err = _place_error(s, me, act.piece, act.region)
    if err:
        raise err
    if s.stage is Stage.SURVIVORS:
        a = s.area_w(act.region)
        a.pieces = _with(a.pieces, "encampment")
        p = s.pending[0]
        events.append({"type": "placed", "player": _name(s, me), "piece": act.piece,
                       "region": act.region})
        if p.camps > 1:
            s.pending = (Pending(p.seat, None, 0, p.camps - 1), *s.pending[1:])
        else:
            _pop_pending(s, events)
        return
    _close_ghouls(s, me, events)
    _close_conquests(s, me, events)
    if act.piece in ("hero", "encampment") and act.piece not in s.turn.lifted:
        if act.piece == "hero" or _n_pieces(s, "encampment") >= limits()["encampment"]:
            _lift(s, me, act.piece, events)
        else:  # §11.3: camps still in the box are added; the ones standing stay
            t = s.turn_w()
            t.lifted = t.lifted | {act.piece}
    a = s.area_w(act.region)
    a.pieces = _with(a.pieces, act.piece)
    t = s.turn_w()
    t.expanded = True
    if act.piece == "fortress":
        t.fortress_placed = True
    events.append({"type": "placed", "player": _name(s, me), "piece": act.piece,
                   "region": act.region})


def _ally_error(s: GameState, me: int, target: str) -> E.RulesViolation | None:
    h = s.seats[me].active
    if h is None or not power_rule(h.power).diplomat:
        return E.NoSuchPower.refuse("only_diplomats")
    if target not in s.players or target == s.players[me]:
        return E.UnknownPlayer.refuse("not_an_opponent", player=target)
    if s.turn.allied:
        return E.AlreadyUsed.refuse("ally_once")
    if s.players.index(target) in s.turn.attacked:
        return E.NoTarget.refuse("ally_attacked", player=target)
    return None


def _do_ally(s: GameState, me: int, act: Ally, events: list[dict]) -> None:
    _require_active(s, me)
    err = _ally_error(s, me, act.target)
    if err:
        raise err
    _close_ghouls(s, me, events)
    _close_conquests(s, me, events)
    t = s.turn_w()
    t.allied = True
    t.expanded = True
    ally = s.players.index(act.target)
    s.peace = (*(p for p in s.peace if p[0] != me), (me, ally))
    events.append({"type": "allied", "player": _name(s, me), "target": act.target})


def _decline_error(s: GameState, me: int) -> E.RulesViolation | None:
    if s.stage is Stage.PICK:
        return E.WrongStage.refuse("nothing_to_decline")
    if s.stage is Stage.SURVIVORS:
        return E.WrongStage.refuse("survivors_only")
    h = s.seats[me].active
    if h is None:
        return E.NoActiveRace.refuse("no_active_race")
    t = s.turn
    if not t.expanded and not t.picked:
        return None
    if power_rule(h.power).stout:
        return _end_checks(s, me)
    if t.picked:
        return E.CannotDecline.refuse("decline_picked")
    return E.CannotDecline.refuse("decline_expanded")


def _do_decline(s: GameState, me: int, act: Decline, events: list[dict]) -> None:
    err = _decline_error(s, me)
    if err:
        raise err
    t = s.turn
    if t.expanded or t.picked:  # Stout: a normal turn, scored, then the decline
        _wrap_up(s, me, events)
        _score(s, me, events, active_bonus=True)
        _decline_race(s, me, events)
    else:
        _undo_ready(s, me)
        _decline_race(s, me, events)
        _score(s, me, events, active_bonus=False)
    _finish_turn(s, me, events)


def _do_end(s: GameState, me: int, act: End, events: list[dict]) -> None:
    if s.stage is Stage.SURVIVORS:
        p = s.pending[0]
        if p.tokens:
            raise E.HandNotEmpty.refuse("place_survivors", tokens=p.tokens)
        events.append({"type": "survivors_done", "player": _name(s, me)})
        _pop_pending(s, events)
        return
    err = _end_checks(s, me)
    if err:
        raise err
    if s.stage is Stage.PICK:  # nothing to pick: readied In Decline Ghouls stand again
        _close_ghouls(s, me, events)
        _score(s, me, events, active_bonus=False)
        _finish_turn(s, me, events)
        return
    _wrap_up(s, me, events)
    _score(s, me, events, active_bonus=True)
    _finish_turn(s, me, events)


# ---------------------------------------------------------------- apply


def apply(state: GameState, action: Action) -> Step:
    """Check the action against the rules, then return the new state and its events."""
    me = _actor_check(state, action.player)
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
