"""What the gauntlet players know of the rules, read from docs/RULES.md (§7, §10, §11).

Written apart from the AI levels (nothing here comes from `ai.policy` or `ai.search`):
the gauntlet must judge the levels with eyes of its own. Every question a gauntlet player
asks about what a race or power does is answered here, in one place.
"""

from __future__ import annotations

import engine
from engine import GameState

# RULES §10-§11: the per-region coin bonuses of an Active race and of its power.
RACE_TERRAIN_COIN = {"Humans": "farmland"}
RACE_SYMBOL_COIN = {"Dwarves": "mine", "Wizards": "magic"}
POWER_TERRAIN_COIN = {"Forest": "forest", "Hill": "hill", "Swamp": "swamp"}
# RULES §11.1 / §11.20: coins that do not depend on the regions.
POWER_FLAT_COIN = {"Alchemist": 2}
POWER_ONCE_COIN = {"Wealthy": 7}
# RULES §10.8 / §11.14: a coin per non-empty region conquered this turn.
PLUNDER = ({"Orcs"}, {"Pillaging"})
# What each piece-placing power puts down (RULES §11.3, §11.9, §11.10).
PIECE_OF = {"Fortified": "fortress", "Bivouacking": "encampment", "Heroic": "hero"}
# Cost cuts (RULES §6.2): which races and powers make conquests cheaper somewhere.
CHEAP_RACES = {"Giants", "Tritons"}
CHEAP_POWERS = {"Commando", "Mounted", "Underworld", "Berserk", "Dragon Master"}
# Defensive races and powers (RULES §10.3, §10.13, §11.3, §11.9, §11.10).
SHIELD_RACES = {"Trolls", "Elves"}
SHIELD_POWERS = {"Fortified", "Heroic", "Bivouacking"}
# Races and powers that stay useful after the decline (RULES §12.3).
AFTERLIFE_RACES = {"Ghouls", "Dwarves"}
AFTERLIFE_POWERS = {"Spirit", "Stout", "Seafaring"}


def tokens(race: str, power: str) -> int:
    """Tokens a combo brings (banner + badge, RULES §5.4)."""
    return engine.race_rule(race).tokens + engine.power_rule(power).tokens


def region_coins(s: GameState, rid: int, race: str, power: str | None) -> int:
    """Coins region `rid` brings per turn to an Active `race` with `power` (RULES §7)."""
    geo = s.geo
    v = 1
    t = RACE_TERRAIN_COIN.get(race)
    if t is not None and geo.terrain[rid] == t:
        v += 1
    sym = RACE_SYMBOL_COIN.get(race)
    if sym == "mine" and geo.mine[rid] or sym == "magic" and geo.magic[rid]:
        v += 1
    if power is not None:
        if power == "Merchant":
            v += 1
        pt = POWER_TERRAIN_COIN.get(power)
        if pt is not None and geo.terrain[rid] == pt:
            v += 1
    return v


def income_now(s: GameState, seat: int) -> float:
    """Coins seat `seat` would score for what it holds now (RULES §7): a coin a region,
    the Active race's bonuses, a Dwarf mine In Decline."""
    h = s.seats[seat].active
    total = float(flat_coins(h.power)) if h is not None else 0.0
    for r, a in enumerate(s.areas):
        if a.owner != seat or a.race is None:
            continue
        if h is not None and a.race == h.race:
            total += region_coins(s, r, h.race, h.power)
        else:
            total += 2 if a.race == "Dwarves" and s.geo.mine[r] else 1
    return total


def flat_coins(power: str | None) -> int:
    return POWER_FLAT_COIN.get(power or "", 0)


def plunders(race: str, power: str | None) -> bool:
    return race in PLUNDER[0] or (power or "") in PLUNDER[1]


def is_nonempty(s: GameState, rid: int) -> bool:
    a = s.areas[rid]
    return a.lost_tribe or a.tokens > 0


def board_fit(s: GameState, race: str, power: str) -> float:
    """Share of the land where this combo earns more than one coin a region."""
    geo = s.geo
    land = [r for r in range(geo.n) if not geo.water[r]]
    rich = sum(1 for r in land if region_coins(s, r, race, power) > 1)
    return rich / max(1, len(land))


def piece_of(power: str | None) -> str | None:
    return PIECE_OF.get(power or "")


def is_berserk(power: str | None) -> bool:
    return power is not None and "roll" in engine.power_rule(power).verbs


def is_stout(power: str | None) -> bool:
    return power is not None and engine.power_rule(power).declines_after_expanding()


def is_diplomat(power: str | None) -> bool:
    return power is not None and "ally" in engine.power_rule(power).verbs


def reserve(race: str) -> int:
    """Tokens the race keeps off the board between turns (Amazons' four, RULES §10.1)."""
    return engine.race_rule(race).reserve


def dragon_and_magic(do: str) -> bool:
    """Conquests that do not pay the normal cost: the Dragon (1 token) and enchantment."""
    return do in ("dragon", "enchant")
