"""Small World rules engine: pure, deterministic, replayable. stdlib + pydantic only."""

from .abilities import POWER_RULES, RACE_RULES, power_rule, race_rule
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
from .legal import Conquest, legal_actions, legal_conquests
from .rules import Step, apply
from .setup import load_scenario, new_game
from .state import GameState, Stage, dump_state, load_state
from .view import observe, public_events, sample_hidden

__all__ = [
    "ACTION_TYPES", "POWER_RULES", "RACE_RULES", "Abandon", "Action", "Ally", "Conquer",
    "Conquest",
    "Decline", "Deploy", "Dragon", "Enchant", "End", "EngineError", "GameState",
    "InvalidAction", "Move", "Pick", "Place", "Reinforce", "Roll", "RulesViolation", "Stage",
    "Step", "apply", "conquest_cost", "dump_state", "legal_actions", "legal_conquests", "load_scenario",
    "load_state", "new_game", "observe", "parse_action", "power_rule", "public_events",
    "race_rule", "sample_hidden",
]
