"""The 20 special powers (RULES.md §11): each one class holding its whole rule, through the
hooks of engine/ability.py. Numbers (badge tokens) come from data/."""

from __future__ import annotations

from collections.abc import Sequence

from . import errors as E
from .ability import Conquest, Power, Reach, register_power
from .actions import Action, Ally, Dragon, Place, Roll, trusted
from .checks import T_OK, candidates, place_error, reach, target_code, target_error
from .events import Allied, EventLog, Lifted, Placed
from .geo import Geo, Income
from .queries import limits, n_pieces, pieces_with, pieces_without, player_name, race_regions
from .state import (
    GameState,
    Hold,
    Part,
    Turn,
    dump_ints,
    dump_pairs,
    dump_set,
    load_ints,
    load_pairs,
    load_set,
)
from .turn import close_conquests, occupy, roll_die


@register_power
class Alchemist(Power):
    """+2 coins at the end of every turn while Active."""

    name = "Alchemist"

    def income(self, ctx: Income) -> int:
        return 2


ROLL: Part[int | None] = Part("roll", None)
_roll = trusted(Roll)


@register_power
class Berserk(Power):
    """Roll the die before each conquest; the cost less the roll, minimum 1; no final
    conquest with the die (§11.2, §16 #31)."""

    name = "Berserk"
    verbs = frozenset({"roll"})

    def refuse_other(self, h: Hold) -> E.RulesViolation:
        return E.NoSuchPower.refuse("only_berserk", power=h.power)

    def act(self, s: GameState, me: int, h: Hold, action: Action, events: EventLog) -> None:
        roll = s.turn.get(ROLL)
        if roll is not None:
            raise E.AlreadyUsed.refuse("already_rolled", roll=roll)
        if h.hand < 1:
            raise E.NoTokens.refuse("no_tokens")
        value = roll_die(s, events, player_name(s, me), "berserk")
        t = s.turn_w()
        t.put(ROLL, value)
        t.expanded = True

    def before_conquests(self, s: GameState, me: int, h: Hold) -> Sequence[Action]:
        return (_roll(player=s.players[me]),) if s.turn.get(ROLL) is None else ()

    def adjust_cost(self, t: Turn, cost: int) -> int:
        roll = t.get(ROLL)
        return cost if roll is None else max(1, cost - roll)

    def short_error(self, t: Turn, rid: int, cost: int, hand: int) -> E.RulesViolation:
        roll = t.get(ROLL)
        if roll is None:
            return super().short_error(t, rid, cost, hand)
        return E.NotEnoughTokens.refuse("not_enough_after_roll", region=rid, cost=cost,
                                        roll=roll, hand=hand)

    def reinforce_error(self) -> E.RulesViolation | None:
        return E.NoSuchPower.refuse("berserk_rolls")

    def conquering_begun(self, t: Turn) -> bool:
        return t.get(ROLL) is not None

    def on_conquer(self, s: GameState, me: int, rid: int, hold: Hold, how: str) -> None:
        if how == "conquer" and s.turn.get(ROLL) is not None:
            s.turn_w().put(ROLL, None)

    def on_conquests_end(self, s: GameState, me: int, events: EventLog) -> None:
        if s.turn.get(ROLL) is not None:
            s.turn_w().put(ROLL, None)


# Heroes and encampments: the turn's first placement picks up those standing to set anew
LIFTED: Part[frozenset[str]] = Part("lifted", frozenset(), dump_set, load_set)
_place = trusted(Place)


def _lift(s: GameState, me: int, piece: str, spots_part: Part[tuple[int, ...]],
          events: EventLog) -> None:
    """Pick up every `piece` of the Active race, to be placed anew this turn; where they
    stood is kept in `spots_part` (one entry per piece)."""
    h = s.seats[me].active
    assert h is not None
    spots: list[int] = []
    for rid in race_regions(s, h.race):
        n = s.areas[rid].pieces.count(piece)
        if n:
            spots += [rid] * n
            a = s.area_w(rid)
            a.pieces = pieces_without(a.pieces, (piece,))
    t = s.turn_w()
    t.put(LIFTED, t.get(LIFTED) | {piece})
    t.put(spots_part, tuple(spots))
    if spots:
        events.add(Lifted, player=player_name(s, me), piece=piece, regions=spots)


def _put(s: GameState, rid: int, piece: str) -> None:
    a = s.area_w(rid)
    a.pieces = pieces_with(a.pieces, piece)


def _places(s: GameState, me: int, piece: str, held: tuple[int, ...]) -> list[Action]:
    name = s.players[me]
    return [_place(player=name, piece=piece, region=r) for r in held
            if place_error(s, me, piece, r) is None]


CAMPS: Part[tuple[int, ...]] = Part("camps", (), dump_ints, load_ints)
# (seat, encampments) knocked off the map this turn, to be put back by their owners
DISPLACED: Part[tuple[tuple[int, int], ...]] = Part("displaced", (), dump_pairs, load_pairs)


@register_power
class Bivouacking(Power):
    """5 encampments placed at redeployment; each +1 defence, never lost: knocked off, they
    are put back by their owner at the end of the attacker's turn (§11.3, §16 #12)."""

    name = "Bivouacking"
    piece = "encampment"

    def refuse_other(self, h: Hold) -> E.RulesViolation:
        return E.NoSuchPower.refuse("only_bivouacking")

    def place_error(self, s: GameState, me: int, rid: int) -> E.RulesViolation | None:
        lim = limits()["encampment"]
        if "encampment" in s.turn.get(LIFTED) and n_pieces(s, "encampment") >= lim:
            return E.PieceLimit.refuse("encampments_all", n=lim)
        return None

    def place(self, s: GameState, me: int, rid: int, events: EventLog) -> None:
        if "encampment" not in s.turn.get(LIFTED):
            if n_pieces(s, "encampment") >= limits()["encampment"]:
                _lift(s, me, "encampment", CAMPS, events)
            else:  # §11.3: camps still in the box are added; the ones standing stay
                t = s.turn_w()
                t.put(LIFTED, t.get(LIFTED) | {"encampment"})
        _put(s, rid, "encampment")

    def redeploy_actions(self, s: GameState, me: int, h: Hold,
                         held: tuple[int, ...]) -> Sequence[Action]:
        return _places(s, me, "encampment", held)

    def on_turn_end(self, s: GameState, me: int, events: EventLog) -> None:
        camps = s.turn.get(CAMPS)
        if not camps:
            return
        h = s.seats[me].active
        assert h is not None
        held = race_regions(s, h.race)
        free = limits()["encampment"] - n_pieces(s, "encampment")
        name = player_name(s, me)
        for rid in camps:  # lifted camps not set up anew go back where they stood
            if free <= 0:
                break
            if rid in held:
                _put(s, rid, "encampment")
                free -= 1
                events.add(Placed, player=name, piece="encampment", region=rid, auto=True)

    def on_pieces_lost(self, s: GameState, seat: int, pieces: tuple[str, ...]) -> None:
        camps = pieces.count("encampment")
        if camps:
            t = s.turn_w()
            t.put(DISPLACED, (*t.get(DISPLACED), (seat, camps)))

    def pieces_to_replace(self, s: GameState, seat: int) -> int:
        lost = sum(k for i, k in s.turn.get(DISPLACED) if i == seat)
        h = s.seats[seat].active
        if not lost or h is None or not race_regions(s, h.race):
            return 0
        free = limits()["encampment"] - n_pieces(s, "encampment")
        return min(free, lost) if free > 0 else 0


@register_power
class Commando(Power):
    """-1 cost on every region (minimum 1)."""

    name = "Commando"

    def cost_reduction(self, geo: Geo, rid: int) -> int:
        return 1


ALLIED: Part[bool] = Part("allied", False)
_ally = trusted(Ally)


@register_power
class Diplomat(Power):
    """At the end of the turn, name an ally who may not attack your Active race until your
    next turn; once per turn, final (§11.5, §16 #14)."""

    name = "Diplomat"
    verbs = frozenset({"ally"})
    verb_stage = "active"

    def refuse_other(self, h: Hold) -> E.RulesViolation:
        return E.NoSuchPower.refuse("only_diplomats")

    def ally_error(self, s: GameState, me: int, target: str) -> E.RulesViolation | None:
        if target not in s.players or target == s.players[me]:
            return E.UnknownPlayer.refuse("not_an_opponent", player=target)
        if s.turn.get(ALLIED):
            return E.AlreadyUsed.refuse("ally_once")
        if s.players.index(target) in s.turn.attacked:
            return E.NoTarget.refuse("ally_attacked", player=target)
        return None

    def act(self, s: GameState, me: int, h: Hold, action: Action, events: EventLog) -> None:
        assert isinstance(action, Ally)
        err = self.ally_error(s, me, action.target)
        if err:
            raise err
        close_conquests(s, me, events)
        t = s.turn_w()
        t.put(ALLIED, True)
        t.expanded = True
        ally = s.players.index(action.target)
        s.peace = (*(p for p in s.peace if p[0] != me), (me, ally))
        events.add(Allied, player=player_name(s, me), target=action.target)

    def redeploy_actions(self, s: GameState, me: int, h: Hold,
                         held: tuple[int, ...]) -> Sequence[Action]:
        if s.turn.get(ALLIED):  # once per turn: no target is left (ally_error says why)
            return ()
        name = s.players[me]
        return [_ally(player=name, target=other) for other in s.players
                if self.ally_error(s, me, other) is None]


DRAGON_USED: Part[bool] = Part("dragon_used", False)
_dragon = trusted(Dragon)


@register_power
class DragonMaster(Power):
    """Once per turn, conquer with one token and move the Dragon there: the region is immune
    (§11.6, §16 #10, #33)."""

    name = "Dragon Master"
    verbs = frozenset({"dragon"})

    def refuse_other(self, h: Hold) -> E.RulesViolation:
        return E.NoSuchPower.refuse("only_dragon_masters", power=h.power)

    def act(self, s: GameState, me: int, h: Hold, action: Action, events: EventLog) -> None:
        assert isinstance(action, Dragon)
        if s.turn.get(DRAGON_USED):
            raise E.AlreadyUsed.refuse("dragon_once")
        if h.hand < 1:
            raise E.NoTokens.refuse("dragon_no_tokens")
        err = target_error(s, action.region, reach(s, me, h, True))
        if err:
            raise err
        for rid in race_regions(s, h.race):
            if "dragon" in s.areas[rid].pieces:
                a = s.area_w(rid)
                a.pieces = pieces_without(a.pieces, ("dragon",))
        hw = s.seat_w(me).active
        assert hw is not None
        hw.hand -= 1
        t = s.turn_w()
        t.expanded = True
        t.put(DRAGON_USED, True)
        occupy(s, me, action.region, hw, True, 1, events, "dragon")
        _put(s, action.region, "dragon")

    def conquests(self, s: GameState, me: int, h: Hold, r: Reach) -> Sequence[Conquest]:
        if s.turn.get(DRAGON_USED):
            return ()
        name = s.players[me]
        return [Conquest(_dragon(player=name, region=rid), rid, 1)
                for rid in candidates(s, r) if target_code(s, rid, r) == T_OK]


@register_power
class Flying(Power):
    """Conquer any land region, adjacent or not (the first conquest too, §16 #15)."""

    name = "Flying"

    def reach(self, geo: Geo, r: Reach) -> None:
        r.anywhere = True


def _terrain_bonus(terrain: str, ctx: Income) -> int:
    return sum(1 for r in ctx.regions if ctx.geo.terrain[r] == terrain)


@register_power
class Forest(Power):
    """+1 coin per Forest region."""

    name = "Forest"

    def income(self, ctx: Income) -> int:
        return _terrain_bonus("forest", ctx)


FORTRESS_PLACED: Part[bool] = Part("fortress_placed", False)


@register_power
class Fortified(Power):
    """Once per turn a Fortress (+1 defence; +1 coin each while Active) (§11.9, §16 #11)."""

    name = "Fortified"
    piece = "fortress"

    def refuse_other(self, h: Hold) -> E.RulesViolation:
        return E.NoSuchPower.refuse("only_fortified")

    def income(self, ctx: Income) -> int:
        return ctx.fortresses

    def place_error(self, s: GameState, me: int, rid: int) -> E.RulesViolation | None:
        lim = limits()["fortress"]
        if s.turn.get(FORTRESS_PLACED):
            return E.AlreadyUsed.refuse("fortress_once")
        if "fortress" in s.areas[rid].pieces:
            return E.PieceLimit.refuse("fortress_there", region=rid)
        if n_pieces(s, "fortress") >= lim:
            return E.PieceLimit.refuse("fortresses_all", n=lim)
        return None

    def place(self, s: GameState, me: int, rid: int, events: EventLog) -> None:
        _put(s, rid, "fortress")
        s.turn_w().put(FORTRESS_PLACED, True)

    def redeploy_actions(self, s: GameState, me: int, h: Hold,
                         held: tuple[int, ...]) -> Sequence[Action]:
        if s.turn.get(FORTRESS_PLACED):  # once per turn: no region is left (place_error)
            return ()
        return _places(s, me, "fortress", held)


HEROES: Part[tuple[int, ...]] = Part("heroes", (), dump_ints, load_ints)


@register_power
class Heroic(Power):
    """Two Heroes make two of your regions immune; the turn's first `place hero` picks both
    up, and both stand again at the end of every turn (§11.10, §16 #13)."""

    name = "Heroic"
    piece = "hero"

    def refuse_other(self, h: Hold) -> E.RulesViolation:
        return E.NoSuchPower.refuse("only_heroic")

    def place_error(self, s: GameState, me: int, rid: int) -> E.RulesViolation | None:
        if "hero" in s.turn.get(LIFTED):
            if "hero" in s.areas[rid].pieces:
                return E.PieceLimit.refuse("hero_there", region=rid)
            if n_pieces(s, "hero") >= limits()["hero"]:
                return E.PieceLimit.refuse("heroes_all")
        return None

    def place(self, s: GameState, me: int, rid: int, events: EventLog) -> None:
        if "hero" not in s.turn.get(LIFTED):
            _lift(s, me, "hero", HEROES, events)
        _put(s, rid, "hero")

    def redeploy_actions(self, s: GameState, me: int, h: Hold,
                         held: tuple[int, ...]) -> Sequence[Action]:
        return _places(s, me, "hero", held)

    def on_turn_end(self, s: GameState, me: int, events: EventLog) -> None:
        h = s.seats[me].active
        assert h is not None
        held = race_regions(s, h.race)
        if not held:
            return
        on = [r for r in held if "hero" in s.areas[r].pieces]
        prefer = [r for r in s.turn.get(HEROES) if r in held]
        order = prefer + sorted(held, key=lambda r: (-s.areas[r].tokens, r))
        name = player_name(s, me)
        for rid in order:
            if len(on) >= limits()["hero"]:
                break
            if rid not in on:
                _put(s, rid, "hero")
                on.append(rid)
                events.add(Placed, player=name, piece="hero", region=rid, auto=True)


@register_power
class Hill(Power):
    """+1 coin per Hill region."""

    name = "Hill"

    def income(self, ctx: Income) -> int:
        return _terrain_bonus("hill", ctx)


@register_power
class Merchant(Power):
    """+1 coin per region."""

    name = "Merchant"

    def income(self, ctx: Income) -> int:
        return len(ctx.regions)


@register_power
class Mounted(Power):
    """-1 cost on Hill and Farmland regions (minimum 1)."""

    name = "Mounted"

    def cost_reduction(self, geo: Geo, rid: int) -> int:
        return 1 if geo.terrain[rid] in ("hill", "farmland") else 0


@register_power
class Pillaging(Power):
    """+1 coin per non-empty region conquered this turn."""

    name = "Pillaging"

    def income(self, ctx: Income) -> int:
        return ctx.n_nonempty


@register_power
class Seafaring(Power):
    """Conquer seas and the lake as empty regions; kept in decline."""

    name = "Seafaring"

    def reach(self, geo: Geo, r: Reach) -> None:
        r.sea = True


@register_power
class Spirit(Power):
    """In Decline, does not count toward the one-decline limit; the badge stays with the race
    until the race leaves the map."""

    name = "Spirit"

    def extra_decline(self) -> bool:
        return True


@register_power
class Stout(Power):
    """May go into decline at the end of a conquest turn, after scoring."""

    name = "Stout"

    def declines_after_expanding(self) -> bool:
        return True


@register_power
class Swamp(Power):
    """+1 coin per Swamp region."""

    name = "Swamp"

    def income(self, ctx: Income) -> int:
        return _terrain_bonus("swamp", ctx)


@register_power
class Underworld(Power):
    """-1 cost on caverns; all caverns are adjacent to one another."""

    name = "Underworld"

    def reach(self, geo: Geo, r: Reach) -> None:
        if any(geo.cavern[h] for h in r.held):
            r.links = geo.caverns

    def cost_reduction(self, geo: Geo, rid: int) -> int:
        return 1 if geo.cavern[rid] else 0


@register_power
class Wealthy(Power):
    """+7 coins once, at the end of the first turn."""

    name = "Wealthy"

    def income(self, ctx: Income) -> int:
        return 7 if ctx.first_turn else 0
