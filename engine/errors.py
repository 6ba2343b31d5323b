"""Errors: malformed input (InvalidAction) is kept apart from rule breaks (RulesViolation)."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose; carries a stable code and a sentence."""

    code = "engine_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}


class InvalidAction(EngineError, ValueError):
    """The input is not an action at all (bad JSON, unknown verb, wrong field types)."""

    code = "invalid_action"


class RulesViolation(EngineError):
    """A well-formed action that the rules forbid in this position."""

    code = "rules_violation"


def _violation(name: str, code: str, doc: str) -> type[RulesViolation]:
    cls = type(name, (RulesViolation,), {"code": code, "__doc__": doc})
    return cls


NotYourTurn = _violation("NotYourTurn", "not_your_turn", "Someone else must act now.")
WrongStage = _violation("WrongStage", "wrong_stage", "The action does not fit this step of the turn.")
NoSuchSlot = _violation("NoSuchSlot", "no_such_slot", "The combo row has no such position.")
CannotAfford = _violation("CannotAfford", "cannot_afford", "A combo costs one coin per combo above it.")
UnknownRegion = _violation("UnknownRegion", "unknown_region", "The board has no such region.")
UnknownPlayer = _violation("UnknownPlayer", "unknown_player", "No such player in this game.")
NotYourRegion = _violation("NotYourRegion", "not_your_region", "The region is not held by that race of yours.")
AlreadyYours = _violation("AlreadyYours", "already_yours", "Your race already holds the region.")
NotAdjacent = _violation("NotAdjacent", "not_adjacent", "Conquests must border a region your race holds.")
NotEntry = _violation("NotEntry", "not_entry_region", "A first conquest must be a border region.")
WaterRegion = _violation("WaterRegion", "water", "Only Seafaring races may conquer seas and lakes.")
Immune = _violation("Immune", "immune", "Holes, Heroes and the Dragon make a region immune.")
AtPeace = _violation("AtPeace", "at_peace", "A Diplomat's ally may not attack the Diplomat's Active race.")
NotEnoughTokens = _violation("NotEnoughTokens", "not_enough_tokens", "The conquest needs more tokens than you hold.")
NoTokens = _violation("NoTokens", "no_tokens_in_hand", "Every conquest needs at least one token in hand.")
ConquestsOver = _violation("ConquestsOver", "conquests_over", "Conquests have ended for this turn.")
AlreadyUsed = _violation("AlreadyUsed", "already_used", "The ability may be used only so often per turn.")
NoSuchPower = _violation("NoSuchPower", "not_your_power", "Your Active race does not have that race or power.")
NoActiveRace = _violation("NoActiveRace", "no_active_race", "You have no Active race.")
CannotDecline = _violation("CannotDecline", "cannot_decline", "Decline is a whole turn, taken instead of expanding.")
HandNotEmpty = _violation("HandNotEmpty", "hand_not_empty", "Tokens in hand must be deployed before the turn ends.")
BadCount = _violation("BadCount", "bad_count", "The number of tokens does not fit.")
MoveChain = _violation("MoveChain", "move_chain", "Tokens move once per turn: from a region that gave to one that takes.")
NotEligible = _violation("NotEligible", "not_eligible", "The reinforcement die needs a shortfall of 1 to 3 tokens.")
TrayEmpty = _violation("TrayEmpty", "tray_empty", "The tray has no token of that race left.")
PieceLimit = _violation("PieceLimit", "piece_limit", "The box holds no more of that piece.")
NoTarget = _violation("NoTarget", "bad_target", "The target does not meet the power's conditions.")
AbandonTooLate = _violation("AbandonTooLate", "abandon_too_late", "Regions may be abandoned only before the first conquest.")
GameOver = _violation("GameOver", "game_over", "The game has ended.")
