"""Everything the AI levels know about what a race or a power does, in one place.

The rest of `ai/` asks these functions ("does this power roll before conquering?", "what
does this region pay this race?") and never tests a race or power name itself, so that a
change in how the engine describes abilities is a change to this file alone.
"""

from __future__ import annotations

from functools import cache

from engine import data, power_rule, race_rule
from engine.ability import Reach
from engine.geo import Geo
from engine.powers import ALLIED, LIFTED, ROLL
from engine.state import Hold, Turn, geo_of

# A combo's worth beyond its tokens, in coins: (per Active turn, once). Per-turn values
# are the bonus coins a race or power usually adds on a typical board; "once" is what it
# gives after its Active life (decline perks) or at once (Wealthy).
POWER_VALUE: dict[str, tuple[float, float]] = {
    "Alchemist": (2.0, 0), "Berserk": (1.0, 0), "Bivouacking": (0.9, 0),
    "Commando": (1.3, 0), "Diplomat": (0.7, 0), "Dragon Master": (1.1, 0),
    "Flying": (1.0, 0), "Forest": (1.1, 0), "Fortified": (1.1, 0), "Heroic": (0.9, 0),
    "Hill": (1.1, 0), "Merchant": (3.0, 0), "Mounted": (0.9, 0), "Pillaging": (1.5, 0),
    "Seafaring": (0.7, 0), "Spirit": (0.3, 2.0), "Stout": (0.3, 1.5), "Swamp": (1.0, 0),
    "Underworld": (0.6, 0), "Wealthy": (0, 7.0),
}
RACE_VALUE: dict[str, tuple[float, float]] = {
    "Amazons": (0.4, 0), "Dwarves": (1.0, 1.5), "Elves": (0.6, 0), "Ghouls": (0.2, 2.5),
    "Giants": (0.8, 0), "Halflings": (0.6, 0), "Humans": (1.1, 0), "Orcs": (1.5, 0),
    "Ratmen": (0, 0), "Skeletons": (1.2, 0), "Sorcerers": (1.1, 0), "Tritons": (0.8, 0),
    "Trolls": (0.9, 0), "Wizards": (1.1, 0),
}
ONCE_NOW = frozenset({"Wealthy"})  # "once" values paid on the first turn, not after decline

# Per-region bonuses (RULES §10-§11): the race's and the power's, while Active.
_RACE_TERRAIN = {"Humans": "farmland"}
_RACE_MAGIC = frozenset({"Wizards"})
_RACE_MINES = frozenset({"Dwarves"})  # they pay In Decline too
_POWER_TERRAIN = {"Forest": "forest", "Hill": "hill", "Swamp": "swamp"}
_POWER_EVERY_REGION = frozenset({"Merchant"})
_POWER_FLAT = {"Alchemist": 2.0}
_PLUNDER_RACES = frozenset({"Orcs"})
_PLUNDER_POWERS = frozenset({"Pillaging"})
_BONE_RACES = frozenset({"Skeletons"})  # new tokens for non-empty conquests


def combo_value_parts(race: str, power: str) -> tuple[float, float, float, float]:
    """(race per turn, race once, power per turn, power once) from the tables above."""
    rp, ro = RACE_VALUE.get(race, (0.0, 0.0))
    pp, po = POWER_VALUE.get(power, (0.0, 0.0))
    return rp, ro, pp, po


def pays_at_once(power: str) -> bool:
    return power in ONCE_NOW


def tokens(race: str, power: str) -> int:
    return race_rule(race).tokens + power_rule(power).tokens


def region_income(geo: Geo, rid: int, race: str, power: str | None, active: bool) -> float:
    """Coins region `rid` brings each turn to `race` (with `power` while Active)."""
    v = 1.0
    if race in _RACE_MINES and geo.mine[rid]:
        v += 1
    if active:
        if _RACE_TERRAIN.get(race) == geo.terrain[rid] or (race in _RACE_MAGIC and geo.magic[rid]):
            v += 1
        if power in _POWER_EVERY_REGION or (
                power in _POWER_TERRAIN and _POWER_TERRAIN[power] == geo.terrain[rid]):
            v += 1
    return v


def flat_income(power: str | None) -> float:
    """Coins a power pays each Active turn whatever the regions (Alchemist)."""
    return _POWER_FLAT.get(power or "", 0.0)


def plunders(race: str, power: str | None) -> bool:
    """A coin for each non-empty region conquered this turn (Orcs, Pillaging)."""
    return race in _PLUNDER_RACES or (power or "") in _PLUNDER_POWERS


def raises_bones(race: str) -> bool:
    """New tokens from the tray for non-empty conquests (Skeletons)."""
    return race in _BONE_RACES


def mines_in_decline(race: str) -> bool:
    return race in _RACE_MINES


def conquers_in_decline(race: str) -> bool:
    """The race still conquers after going into decline (Ghouls)."""
    rule = race_rule(race).in_decline
    return rule is not None


def keeps_all_on_decline(race: str) -> bool:
    """Going into decline keeps every token, not one per region (Ghouls)."""
    return race_rule(race).tokens_in_decline(2) == 2


def reserve(race: str) -> int:
    """Tokens kept off the map between turns, for attack only (Amazons)."""
    return race_rule(race).reserve


def converts(race: str) -> bool:
    """The race may turn an enemy token into its own (Sorcerers)."""
    return "enchant" in race_rule(race).verbs


_PROBE_BOARD = "official-2p"  # any board: a reach that holds nothing reads no region


@cache
def _probe(race: str, power: str | None) -> tuple[bool, bool]:
    """(enters anywhere, flies): how the race and the power widen a fresh reach."""
    r = race_rule(race)
    p = power_rule(power) if power is not None else None
    reach = Reach(0, Hold(race, power), True, (), r, p, frozenset(), (), False)
    geo = geo_of(data.board(_PROBE_BOARD))
    r.reach(geo, reach)
    if p is not None:
        p.reach(geo, reach)
    return reach.enter_anywhere, reach.anywhere


def enters_anywhere(race: str) -> bool:
    return _probe(race, None)[0]


def loses_nothing(race: str) -> bool:
    """Active tokens are not lost when a region falls (Elves)."""
    return race_rule(race).losses(False) == 0


def berserk(power: str | None) -> bool:
    return power is not None and "roll" in power_rule(power).verbs


def dragon(power: str | None) -> bool:
    return power is not None and "dragon" in power_rule(power).verbs


def stout(power: str | None) -> bool:
    return power is not None and power_rule(power).declines_after_expanding()


def spirit(power: str | None) -> bool:
    return power is not None and power_rule(power).extra_decline()


def diplomat(power: str | None) -> bool:
    return power is not None and "ally" in power_rule(power).verbs


def flies(power: str | None) -> bool:
    return power is not None and _probe("Humans", power)[1]


def piece(power: str | None) -> str | None:
    """The piece this power places at redeployment, if any."""
    return None if power is None else power_rule(power).piece


def places_pieces(power: str | None) -> bool:
    return piece(power) is not None or diplomat(power)


def rolled(t: Turn) -> int | None:
    """The reinforcement die rolled before a conquest this turn (Berserk), if any."""
    return t.get(ROLL)


def lifted(t: Turn) -> frozenset[str]:
    """Pieces picked up this turn to be placed anew (Heroic, Bivouacking)."""
    return t.get(LIFTED)


def allied(t: Turn) -> bool:
    """The Diplomat has named this turn's ally."""
    return t.get(ALLIED)


@cache
def die_chance(short: int) -> float:
    """Chance the reinforcement die makes up `short` tokens."""
    faces = data.components().die
    return sum(1 for f in faces if f >= short) / len(faces)


@cache
def die_mean() -> float:
    faces = data.components().die
    return sum(faces) / len(faces)
