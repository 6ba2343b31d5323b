"""The 14 races (RULES.md §10): each one class holding its whole rule, through the hooks of
engine/ability.py. Numbers (banner tokens, box counts) come from data/."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from . import errors as E
from .ability import Conquest, Race, Reach, register_race
from .actions import Action, Enchant, trusted
from .checks import candidates, reach, target_error
from .events import Abandoned, EventLog, Reserve
from .geo import Geo, Income
from .ghouls import GhoulsInDecline
from .queries import in_tray, limits, n_pieces, pieces_with, player_name, race_regions
from .state import Area, GameState, Hold, Part, dump_set, load_set
from .turn import abandon_region, occupy


@register_race
class Amazons(Race):
    """Four tokens attack only: they leave the map after every redeployment (§16 #21)."""

    name = "Amazons"
    reserve = 4

    def on_turn_end(self, s: GameState, me: int, events: EventLog) -> None:
        h = s.seats[me].active
        assert h is not None
        held = race_regions(s, h.race)
        total = h.hand + sum(s.areas[r].tokens for r in held)
        need = min(self.reserve, total) - h.hand
        removed = 0
        name = player_name(s, me)
        while need > 0:
            held = race_regions(s, h.race)
            rid = max(held, key=lambda r: (s.areas[r].tokens, -r))
            a = s.area_w(rid)
            if a.tokens > 1:
                a.tokens -= 1
            else:
                abandon_region(s, rid)
                events.add(Abandoned, player=name, region=rid, forced=True)
            need -= 1
            removed += 1
        hw = s.seat_w(me).active
        assert hw is not None
        hw.hand += removed
        if removed or hw.hand:
            events.add(Reserve, player=name, race=h.race, tokens=hw.hand)


def _mines(ctx: Income) -> int:
    return sum(1 for r in ctx.regions if ctx.geo.mine[r])


@register_race
class Dwarves(Race):
    """+1 coin per Mine region, Active or In Decline."""

    name = "Dwarves"

    def income(self, ctx: Income) -> int:
        return _mines(ctx)

    def decline_income(self, ctx: Income) -> int:
        return _mines(ctx)


@register_race
class Elves(Race):
    """Active Elves lose no token when one of their regions is conquered."""

    name = "Elves"

    def losses(self, decline: bool) -> int:
        return 1 if decline else 0


@register_race
class Ghouls(Race):
    """All tokens stay on decline, and In Decline Ghouls keep conquering (engine/ghouls.py)."""

    name = "Ghouls"
    in_decline = GhoulsInDecline()

    def tokens_in_decline(self, tokens: int) -> int:
        return tokens


@register_race
class Giants(Race):
    """-1 cost on regions next to a Mountain the Giants hold (minimum 1)."""

    name = "Giants"

    def cost_reduction(self, geo: Geo, held: frozenset[int], rid: int) -> int:
        return 0 if held.isdisjoint(geo.mountain_nbrs[rid]) else 1


@register_race
class Halflings(Race):
    """Enter anywhere; a Hole-in-the-Ground on each of the first 2 conquests of each pick
    (§16 #16)."""

    name = "Halflings"
    holes: ClassVar[int] = 2

    def reach(self, geo: Geo, r: Reach) -> None:
        r.enter_anywhere = True

    def on_conquer(self, s: GameState, me: int, rid: int, hold: Hold, how: str) -> None:
        if hold.holes_used < self.holes and n_pieces(s, "hole") < limits()["hole"]:
            a = s.area_w(rid)
            a.pieces = pieces_with(a.pieces, "hole")
            hold.holes_used += 1

    def on_scenario(self, h: Hold, held: list[Area]) -> None:
        holes = sum(a.pieces.count("hole") for a in held)
        h.holes_used = min(self.holes, max(holes, len(held)))


@register_race
class Humans(Race):
    """+1 coin per Farmland region."""

    name = "Humans"

    def income(self, ctx: Income) -> int:
        return sum(1 for r in ctx.regions if ctx.geo.terrain[r] == "farmland")


@register_race
class Orcs(Race):
    """+1 coin per non-empty region conquered this turn."""

    name = "Orcs"

    def income(self, ctx: Income) -> int:
        return ctx.n_nonempty


@register_race
class Ratmen(Race):
    """No race power: many tokens."""

    name = "Ratmen"


@register_race
class Skeletons(Race):
    """+1 token from the tray per 2 non-empty regions conquered this turn, taken when the
    conquests end (so the deploy that ends them may use it already)."""

    name = "Skeletons"

    def redeploy_bonus(self, n_nonempty: int) -> int:
        return n_nonempty // 2


ENCHANTED: Part[frozenset[int]] = Part("enchanted", frozenset(), dump_set, load_set)
_enchant = trusted(Enchant)


@register_race
class Sorcerers(Race):
    """Once per opponent per turn, replace a lone Active enemy token with a Sorcerer from the
    tray (§16 #5, #6)."""

    name = "Sorcerers"
    verbs = frozenset({"enchant"})

    def refuse_other(self, h: Hold) -> E.RulesViolation:
        return E.NoSuchPower.refuse("only_sorcerers", race=h.race)

    def enchant_error(self, s: GameState, me: int, rid: int, h: Hold,
                      r: Reach | None = None) -> E.RulesViolation | None:
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
        if a.owner in s.turn.get(ENCHANTED):
            return E.AlreadyUsed.refuse("enchant_once", player=player_name(s, a.owner))
        if in_tray(s, h.race) < 1:
            return E.TrayEmpty.refuse("enchant_tray_empty")
        return target_error(s, rid, r if r is not None else reach(s, me, h, True))

    def act(self, s: GameState, me: int, h: Hold, action: Action, events: EventLog) -> None:
        assert isinstance(action, Enchant)
        err = self.enchant_error(s, me, action.region, h)
        if err:
            raise err
        owner = s.areas[action.region].owner
        t = s.turn_w()
        t.expanded = True
        t.put(ENCHANTED, t.get(ENCHANTED) | {owner})
        hw = s.seat_w(me).active
        assert hw is not None
        occupy(s, me, action.region, hw, True, 1, events, "enchant", _converted)

    def conquests(self, s: GameState, me: int, h: Hold, r: Reach) -> Sequence[Conquest]:
        name = s.players[me]
        return [Conquest(_enchant(player=name, region=rid), rid, 0)
                for rid in candidates(s, r) if self.enchant_error(s, me, rid, h, r) is None]


def _converted(s: GameState, lost: int, tokens: int) -> int:
    """The enchanted token is lost to its owner (an Elf too, unless the option says not)."""
    return tokens if lost or s.options.get("elf_lost_to_sorcerers", True) else lost


@register_race
class Tritons(Race):
    """-1 cost on coastal regions (minimum 1)."""

    name = "Tritons"

    def cost_reduction(self, geo: Geo, held: frozenset[int], rid: int) -> int:
        return 1 if geo.coastal[rid] else 0


@register_race
class Trolls(Race):
    """A Troll Lair in every region the Trolls conquer (+1 defence, stays in decline)."""

    name = "Trolls"

    def on_conquer(self, s: GameState, me: int, rid: int, hold: Hold, how: str) -> None:
        if n_pieces(s, "troll_lair") < limits()["troll_lair"]:
            a = s.area_w(rid)
            a.pieces = pieces_with(a.pieces, "troll_lair")


@register_race
class Wizards(Race):
    """+1 coin per Magic source region."""

    name = "Wizards"

    def income(self, ctx: Income) -> int:
        return sum(1 for r in ctx.regions if ctx.geo.magic[r])
