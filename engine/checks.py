"""Legality checks (RULES.md §5-§12): what an action may target and what it costs.

Each `*_error` returns the RulesViolation an action would meet, or None; `legal.py` lists the
actions these checks let through, and `rules.py` raises what they return."""

from __future__ import annotations

from . import errors as E
from .abilities import power_rule, race_rule
from .queries import (
    DEFENCE_PIECES,
    IMMUNE_PIECES,
    in_tray,
    limits,
    n_pieces,
    player_name,
    race_regions,
)
from .state import GameState, Hold, Stage


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
                held = frozenset(race_regions(s, hold.race))
            cost -= race.cost_reduction(s.geo, held, rid)
        power = power_rule(hold.power)
        if power.reduces_cost:
            cost -= power.cost_reduction(s.geo, rid)
    return cost if cost > 1 else 1


T_OK, T_UNKNOWN, T_MINE, T_WATER, T_IMMUNE, T_PEACE, T_ENTRY, T_ADJ = range(8)


def target_code(s: GameState, me: int, rid: int, hold: Hold, active: bool,
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
        held = race_regions(s, race)
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


def target_error(s: GameState, me: int, rid: int, hold: Hold, active: bool,
                  held: tuple[int, ...] | None = None) -> E.RulesViolation | None:
    """Why region `rid` cannot be attacked by `hold` (None when it can)."""
    code = target_code(s, me, rid, hold, active, held)
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
        return E.AtPeace.refuse("at_peace", player=player_name(s, a.owner), race=a.race, region=rid)
    if code == T_ENTRY:
        return E.NotEntry.refuse("not_entry", region=rid, race=race)
    return E.NotAdjacent.refuse("not_adjacent", region=rid, race=race)


def target_candidates(s: GameState, hold: Hold, active: bool, held: list[int]) -> list[int]:
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


def actor_check(s: GameState, player: str) -> int:
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


def require_active(s: GameState, me: int) -> Hold:
    if s.stage is Stage.PICK:
        raise E.WrongStage.refuse("pick_first")
    if s.stage is Stage.SURVIVORS:
        raise E.WrongStage.refuse("survivors_only")
    h = s.seats[me].active
    if h is None:
        raise E.NoActiveRace.refuse("no_active_race")
    return h


def require_conquest(s: GameState, me: int) -> Hold:
    h = require_active(s, me)
    if s.stage is not Stage.CONQUEST or s.turn.ended:
        raise E.ConquestsOver.refuse("conquests_over")
    return h


def end_checks(s: GameState, me: int) -> E.RulesViolation | None:
    """Why the current player may not end the turn now (None when they may)."""
    if s.stage is Stage.PICK:
        if not s.row:  # every banner is in play: nothing to pick, the turn passes
            return None
        return E.WrongStage.refuse("pick_first")
    h = s.seats[me].active
    if h is None:
        return E.NoActiveRace.refuse("no_active_race")
    return None


def enchant_error(s: GameState, me: int, rid: int, h: Hold) -> E.RulesViolation | None:
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
        return E.AlreadyUsed.refuse("enchant_once", player=player_name(s, a.owner))
    if in_tray(s, h.race) < 1:
        return E.TrayEmpty.refuse("enchant_tray_empty")
    return target_error(s, me, rid, h, True)


def place_error(s: GameState, me: int, piece: str, rid: int) -> E.RulesViolation | None:
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
        if n_pieces(s, "fortress") >= lim["fortress"]:
            return E.PieceLimit.refuse("fortresses_all", n=lim["fortress"])
    elif piece == "encampment":
        if not power.bivouacs:
            return E.NoSuchPower.refuse("only_bivouacking")
        if "encampment" in s.turn.lifted and n_pieces(s, "encampment") >= lim["encampment"]:
            return E.PieceLimit.refuse("encampments_all", n=lim["encampment"])
    elif piece == "hero":
        if not power.heroic:
            return E.NoSuchPower.refuse("only_heroic")
        if "hero" in s.turn.lifted:
            if "hero" in a.pieces:
                return E.PieceLimit.refuse("hero_there", region=rid)
            if n_pieces(s, "hero") >= lim["hero"]:
                return E.PieceLimit.refuse("heroes_all")
    else:
        return E.NoSuchPower.refuse("lairs_automatic")
    return None


def ally_error(s: GameState, me: int, target: str) -> E.RulesViolation | None:
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


def decline_error(s: GameState, me: int) -> E.RulesViolation | None:
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
        return end_checks(s, me)
    if t.picked:
        return E.CannotDecline.refuse("decline_picked")
    return E.CannotDecline.refuse("decline_expanded")
