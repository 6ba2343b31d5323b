"""Small World rules engine: pure, deterministic, replayable. stdlib + pydantic only."""

from . import data, powers, races
from .ability import (
    POWER_RULES,
    RACE_RULES,
    Power,
    Race,
    power_rule,
    race_rule,
    register_power,
    register_race,
)
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
    parse_action,
)
from .checks import conquest_cost
from .errors import EngineError, InvalidAction, RulesViolation
from .events import Event, as_dicts
from .legal import Conquest, legal_actions, legal_conquests
from .rules import Step, apply
from .setup import load_scenario, new_game
from .state import GameState, Stage, dump_state, load_state
from .view import Observation, observe, public_events, sample_hidden

assert set(RACE_RULES) == set(data.RACES), sorted(set(data.RACES) ^ set(RACE_RULES))
assert set(POWER_RULES) == set(data.POWERS), sorted(set(data.POWERS) ^ set(POWER_RULES))

__all__ = [
    "ACTION_TYPES", "POWER_RULES", "RACE_RULES", "Abandon", "Action", "Ally", "Conquer",
    "Conquest", "Event", "Observation", "Power", "Race", "as_dicts", "data", "powers", "races",
    "register_power", "register_race",
    "Decline", "Deploy", "Dragon", "Enchant", "End", "EngineError", "GameState",
    "InvalidAction", "Move", "Pick", "Place", "Reinforce", "Roll", "RulesViolation", "Stage",
    "Step", "apply", "conquest_cost", "dump_state", "legal_actions", "legal_conquests", "load_scenario",
    "load_state", "new_game", "observe", "parse_action", "power_rule", "public_events",
    "race_rule", "sample_hidden",
]
