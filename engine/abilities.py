"""Races and special powers: each a small class overriding named hooks, found by name.

Numbers (banner and badge tokens, box counts) come from data/; behaviour lives here.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import data


@dataclass(frozen=True, slots=True)
class Geo:
    """Board facts the rules read often, precomputed once per board."""

    n: int
    nbrs: tuple[frozenset[int], ...]
    terrain: tuple[str, ...]
    water: tuple[bool, ...]
    mountain: tuple[bool, ...]
    cavern: tuple[bool, ...]
    magic: tuple[bool, ...]
    mine: tuple[bool, ...]
    entry: tuple[bool, ...]
    coastal: tuple[bool, ...]
    caverns: frozenset[int]

    @classmethod
    def of(cls, board: data.Board) -> Geo:
        regs = board.regions
        water = tuple(r.is_water for r in regs)
        return cls(
            n=len(regs),
            nbrs=tuple(frozenset(r.neighbours) for r in regs),
            terrain=tuple(r.terrain for r in regs),
            water=water,
            mountain=tuple(r.terrain == "mountain" for r in regs),
            cavern=tuple("cavern" in r.symbols for r in regs),
            magic=tuple("magic_source" in r.symbols for r in regs),
            mine=tuple("mine" in r.symbols for r in regs),
            entry=tuple(r.entry for r in regs),
            coastal=tuple(
                (not water[r.id]) and any(water[n] for n in r.neighbours) for r in regs
            ),
            caverns=frozenset(r.id for r in regs if "cavern" in r.symbols),
        )


@dataclass(frozen=True, slots=True)
class Income:
    """What a scoring hook may look at: the race's regions and this turn's conquests."""

    geo: Geo
    regions: tuple[int, ...]
    n_nonempty: int
    first_turn: bool
    fortresses: int


# ---------------------------------------------------------------- races


class Race:
    """Default race: no special rule."""

    name = ""
    enters_anywhere = False  # may make its first conquest in any region
    reserve = 0  # tokens kept off the board between turns, for attack only
    keeps_all_on_decline = False
    conquers_in_decline = False
    builds_lairs = False
    holes = 0  # Holes-in-the-Ground placed on the first conquests ever
    converts = False  # Sorcerer conversion
    reduces_cost = False  # overrides cost_reduction (set by the registry)

    @property
    def tokens(self) -> int:
        return data.races()[self.name].tokens

    @property
    def box(self) -> int:
        return data.races()[self.name].box

    def cost_reduction(self, geo: Geo, held: frozenset[int], rid: int) -> int:
        """Tokens taken off the cost of conquering region `rid`."""
        return 0

    def losses(self, decline: bool) -> int:
        """Tokens lost for good when a region of this race is conquered."""
        return 1

    def income(self, ctx: Income) -> int:
        """Bonus coins at the end of a turn while Active."""
        return 0

    def decline_income(self, ctx: Income) -> int:
        """Bonus coins while In Decline."""
        return 0

    def redeploy_bonus(self, n_nonempty: int) -> int:
        """Extra tokens from the tray at redeployment."""
        return 0


RACE_RULES: dict[str, Race] = {}
POWER_RULES: dict[str, Power] = {}


def _race(cls: type[Race]) -> type[Race]:
    cls.reduces_cost = cls.cost_reduction is not Race.cost_reduction
    RACE_RULES[cls.name] = cls()
    return cls


@_race
class Amazons(Race):
    """Four tokens attack only: they leave the map after every redeployment."""

    name = "Amazons"
    reserve = 4


def _mines(ctx: Income) -> int:
    return sum(1 for r in ctx.regions if ctx.geo.mine[r])


@_race
class Dwarves(Race):
    """+1 coin per Mine region, Active or In Decline."""

    name = "Dwarves"

    def income(self, ctx: Income) -> int:
        return _mines(ctx)

    def decline_income(self, ctx: Income) -> int:
        return _mines(ctx)


@_race
class Elves(Race):
    """Active Elves lose no token when one of their regions is conquered."""

    name = "Elves"

    def losses(self, decline: bool) -> int:
        return 1 if decline else 0


@_race
class Ghouls(Race):
    """All tokens stay on decline, and In Decline Ghouls keep conquering."""

    name = "Ghouls"
    keeps_all_on_decline = True
    conquers_in_decline = True


@_race
class Giants(Race):
    """-1 cost on regions next to a Mountain the Giants hold (minimum 1)."""

    name = "Giants"

    def cost_reduction(self, geo: Geo, held: frozenset[int], rid: int) -> int:
        return 1 if any(geo.mountain[n] for n in geo.nbrs[rid] & held) else 0


@_race
class Halflings(Race):
    """Enter anywhere; a Hole-in-the-Ground on each of the first 2 conquests."""

    name = "Halflings"
    enters_anywhere = True
    holes = 2


@_race
class Humans(Race):
    """+1 coin per Farmland region."""

    name = "Humans"

    def income(self, ctx: Income) -> int:
        return sum(1 for r in ctx.regions if ctx.geo.terrain[r] == "farmland")


@_race
class Orcs(Race):
    """+1 coin per non-empty region conquered this turn."""

    name = "Orcs"

    def income(self, ctx: Income) -> int:
        return ctx.n_nonempty


@_race
class Ratmen(Race):
    """No race power: many tokens."""

    name = "Ratmen"


@_race
class Skeletons(Race):
    """+1 token from the tray per 2 non-empty regions conquered this turn."""

    name = "Skeletons"

    def redeploy_bonus(self, n_nonempty: int) -> int:
        return n_nonempty // 2


@_race
class Sorcerers(Race):
    """Once per opponent per turn, replace a lone Active enemy token with a Sorcerer."""

    name = "Sorcerers"
    converts = True


@_race
class Tritons(Race):
    """-1 cost on coastal regions (minimum 1)."""

    name = "Tritons"

    def cost_reduction(self, geo: Geo, held: frozenset[int], rid: int) -> int:
        return 1 if geo.coastal[rid] else 0


@_race
class Trolls(Race):
    """A Troll Lair in every region the Trolls conquer (+1 defence, stays in decline)."""

    name = "Trolls"
    builds_lairs = True


@_race
class Wizards(Race):
    """+1 coin per Magic source region."""

    name = "Wizards"

    def income(self, ctx: Income) -> int:
        return sum(1 for r in ctx.regions if ctx.geo.magic[r])


# ---------------------------------------------------------------- powers


class Power:
    """Default power: no special rule."""

    name = ""
    flies = False  # any land region, no adjacency, no border needed
    seafaring = False
    berserk = False
    dragon = False
    diplomat = False
    heroic = False
    bivouacs = False
    fortifies = False
    spirit = False  # exempt from the one-decline limit; badge kept
    stout = False  # may decline after redeployment
    underworld = False  # caverns adjacent to one another
    reduces_cost = False  # overrides cost_reduction (set by the registry)

    @property
    def tokens(self) -> int:
        return data.powers()[self.name].tokens

    def cost_reduction(self, geo: Geo, rid: int) -> int:
        """Tokens taken off the cost of conquering region `rid`."""
        return 0

    def income(self, ctx: Income) -> int:
        """Bonus coins at the end of a turn while Active."""
        return 0


def _power(cls: type[Power]) -> type[Power]:
    cls.reduces_cost = cls.cost_reduction is not Power.cost_reduction
    POWER_RULES[cls.name] = cls()
    return cls


@_power
class Alchemist(Power):
    """+2 coins at the end of every turn while Active."""

    name = "Alchemist"

    def income(self, ctx: Income) -> int:
        return 2


@_power
class Berserk(Power):
    """Roll the die before each conquest; cost minus the roll, minimum 1."""

    name = "Berserk"
    berserk = True


@_power
class Bivouacking(Power):
    """5 encampments placed at redeployment; each +1 defence, never lost."""

    name = "Bivouacking"
    bivouacs = True


@_power
class Commando(Power):
    """-1 cost on every region (minimum 1)."""

    name = "Commando"

    def cost_reduction(self, geo: Geo, rid: int) -> int:
        return 1


@_power
class Diplomat(Power):
    """At the end of the turn, name an ally who may not attack your Active race."""

    name = "Diplomat"
    diplomat = True


@_power
class DragonMaster(Power):
    """Once per turn, conquer with one token and move the Dragon there (immune)."""

    name = "Dragon Master"
    dragon = True


@_power
class Flying(Power):
    """Conquer any land region, adjacent or not."""

    name = "Flying"
    flies = True


def _terrain_bonus(terrain: str, ctx: Income) -> int:
    return sum(1 for r in ctx.regions if ctx.geo.terrain[r] == terrain)


@_power
class Forest(Power):
    """+1 coin per Forest region."""

    name = "Forest"

    def income(self, ctx: Income) -> int:
        return _terrain_bonus("forest", ctx)


@_power
class Fortified(Power):
    """Once per turn a Fortress (+1 defence; +1 coin each while Active)."""

    name = "Fortified"
    fortifies = True

    def income(self, ctx: Income) -> int:
        return ctx.fortresses


@_power
class Heroic(Power):
    """Two Heroes make two of your regions immune."""

    name = "Heroic"
    heroic = True


@_power
class Hill(Power):
    """+1 coin per Hill region."""

    name = "Hill"

    def income(self, ctx: Income) -> int:
        return _terrain_bonus("hill", ctx)


@_power
class Merchant(Power):
    """+1 coin per region."""

    name = "Merchant"

    def income(self, ctx: Income) -> int:
        return len(ctx.regions)


@_power
class Mounted(Power):
    """-1 cost on Hill and Farmland regions (minimum 1)."""

    name = "Mounted"

    def cost_reduction(self, geo: Geo, rid: int) -> int:
        return 1 if geo.terrain[rid] in ("hill", "farmland") else 0


@_power
class Pillaging(Power):
    """+1 coin per non-empty region conquered this turn."""

    name = "Pillaging"

    def income(self, ctx: Income) -> int:
        return ctx.n_nonempty


@_power
class Seafaring(Power):
    """Conquer seas and the lake as empty regions; kept in decline."""

    name = "Seafaring"
    seafaring = True


@_power
class Spirit(Power):
    """In Decline, does not count toward the one-decline limit."""

    name = "Spirit"
    spirit = True


@_power
class Stout(Power):
    """May go into decline at the end of a conquest turn, after scoring."""

    name = "Stout"
    stout = True


@_power
class Swamp(Power):
    """+1 coin per Swamp region."""

    name = "Swamp"

    def income(self, ctx: Income) -> int:
        return _terrain_bonus("swamp", ctx)


@_power
class Underworld(Power):
    """-1 cost on caverns; all caverns are adjacent to one another."""

    name = "Underworld"
    underworld = True

    def cost_reduction(self, geo: Geo, rid: int) -> int:
        return 1 if geo.cavern[rid] else 0


@_power
class Wealthy(Power):
    """+7 coins once, at the end of the first turn."""

    name = "Wealthy"

    def income(self, ctx: Income) -> int:
        return 7 if ctx.first_turn else 0


def race_rule(name: str) -> Race:
    """The race's rules; an unknown name fails."""
    try:
        return RACE_RULES[name]
    except KeyError:
        raise ValueError(f"unknown race {name!r}") from None


def power_rule(name: str) -> Power:
    """The power's rules; an unknown name fails."""
    try:
        return POWER_RULES[name]
    except KeyError:
        raise ValueError(f"unknown power {name!r}") from None


assert set(RACE_RULES) == set(data.RACES), sorted(set(data.RACES) ^ set(RACE_RULES))
assert set(POWER_RULES) == set(data.POWERS), sorted(set(data.POWERS) ^ set(POWER_RULES))
