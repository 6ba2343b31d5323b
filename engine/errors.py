"""Errors: malformed input (InvalidAction) is kept apart from rule breaks (RulesViolation).

A rule break carries data, not only a sentence: a stable `code` (the kind of break), a
`key` (which sentence) and named `params` (the numbers and names in it), so that any
language can word it. `MESSAGES` holds the English sentences; `message` is one of them
filled in. The template syntax is the i18n catalogs' (a small ICU subset, parsed by engine/icu.py):
`{name}`, `{n, plural, one {# token} other {# tokens}}`, and `{x, race|power|piece}` for
a race, power or piece id that each language names in its own words.
"""

from __future__ import annotations

from typing import Any, Self

from .icu import compiled

# key -> English sentence. Each catalog has `refusal.<key>` with the same placeholders.
MESSAGES: dict[str, str] = {
    "unknown_region": "There is no region {region} on this board (0-{last}).",
    "already_yours": "Your {race, race} already hold region {region}.",
    "water": "Region {region} is water; only Seafaring races may conquer it.",
    "immune": "Region {region} is immune: it holds a {piece, piece}.",
    "at_peace": "You are at peace with {player}: you may not attack their {race, race} in "
                "region {region} until their next turn.",
    "not_entry": "Region {region} is not a border region; your {race, race} must enter the "
                 "map at the edge.",
    "not_adjacent": "Region {region} is not next to your {race, race}.",
    "game_over": "The game is over.",
    "unknown_player": "'{player}' is not playing in this game.",
    "survivors_first": "{actor} must place their surviving tokens first.",
    "not_your_turn": "It is {actor}'s turn, not {player}'s.",
    "pick_first": "Pick a race and power combo first.",
    "survivors_only": "Only survivors may be placed now.",
    "no_active_race": "You have no Active race.",
    "conquests_over": "Your conquests are over for this turn.",
    "already_active": "You already have an Active race; pick only after a decline.",
    "no_such_slot": "The row has only {n} combos (slots 0-{last}).",
    "cannot_afford": "Slot {slot} costs {slot, plural, one {# coin} other {# coins}}; you "
                     "have {coins}.",
    "abandon_too_late": "Regions may be abandoned only before your first conquest.",
    "not_your_race_region": "Your {race, race} do not hold region {region}.",
    "no_decline_conqueror": "You have no In Decline race that can conquer.",
    "ghouls_done": "Your In Decline Ghouls have finished conquering this turn.",
    "ghouls_no_tokens": "Your In Decline Ghouls have no token in hand.",
    "no_tokens": "You have no token in hand to conquer with.",
    "not_enough_tokens": "Region {region} needs {cost, plural, one {# token} other {# tokens}}; "
                         "you have {hand} in hand.",
    "not_enough_after_roll": "Region {region} needs {cost, plural, one {# token} other "
                             "{# tokens}} after your roll of {roll}; you have {hand} in hand.",
    "berserk_rolls": "Berserk races roll before every conquest instead (use roll).",
    "final_needs_token": "The final conquest needs at least 1 token in hand.",
    "die_not_needed": "Region {region} needs {cost, plural, one {# token} other {# tokens}} "
                      "and you have {hand}: conquer it directly.",
    "die_too_short": "Region {region} needs {cost, plural, one {# token} other {# tokens}}; "
                     "you have {hand}, {short} short, more than the die's 3.",
    "only_berserk": "Only Berserk races roll before a conquest; yours are {power, power}.",
    "already_rolled": "You already rolled {roll}; conquer a region first.",
    "only_sorcerers": "Only Sorcerers can enchant; your Active race is {race, race}.",
    "enchant_no_tokens": "Sorcerers need at least 1 token in hand to enchant.",
    "enchant_no_enemy": "Region {region} holds no Active race token of an opponent.",
    "enchant_not_lone": "Region {region} holds {tokens} tokens; only a lone token can be "
                        "enchanted.",
    "enchant_encampment": "An encampment protects the token in region {region}.",
    "enchant_once": "You already enchanted a token of {player} this turn.",
    "enchant_tray_empty": "No Sorcerer token is left in the tray.",
    "only_dragon_masters": "Only Dragon Masters have the Dragon; yours are {power, power}.",
    "dragon_once": "The Dragon attacks only once per turn.",
    "dragon_no_tokens": "The Dragon attack needs 1 token in hand.",
    "not_your_tokens": "You hold no tokens in region {region}.",
    "ghouls_finished": "Your In Decline Ghouls have finished for this turn.",
    "decline_stays": "Region {region} holds In Decline {race, race}, which do not move.",
    "no_survivors": "You have no survivors to deploy; place encampments or end.",
    "survivors_region": "Region {region} is not held by your {race, race}.",
    "survivor_count": "You have {tokens, plural, one {# survivor} other {# survivors}} to "
                      "place, not {count}.",
    "hand_count": "You have {hand, plural, one {# token} other {# tokens}} in hand, not "
                  "{count}.",
    "survivors_deploy": "Survivors are placed from hand with deploy.",
    "move_target": "Region {region} is not another region of your {race, race}.",
    "move_count": "Region {region} has {tokens} tokens and must keep 1; you can move at most "
                  "{most}.",
    "camps_only": "Only your displaced encampments may be placed now.",
    "active_region": "Your Active race does not hold region {region}.",
    "only_fortified": "Only Fortified races build fortresses.",
    "fortress_once": "You may build only one fortress per turn.",
    "fortress_there": "Region {region} already has a fortress.",
    "fortresses_all": "All {n} fortresses are on the map.",
    "only_bivouacking": "Only Bivouacking races have encampments.",
    "encampments_all": "All {n} encampments are on the map.",
    "only_heroic": "Only Heroic races have Heroes.",
    "hero_there": "Region {region} already has a Hero; Heroes stand in two different regions.",
    "heroes_all": "Both Heroes are on the map already.",
    "lairs_automatic": "Troll Lairs are placed by themselves when Trolls conquer.",
    "only_diplomats": "Only Diplomats choose an ally.",
    "not_an_opponent": "'{player}' is not one of your opponents.",
    "ally_once": "You already chose an ally this turn.",
    "ally_attacked": "You attacked {player}'s Active race this turn; choose another ally.",
    "nothing_to_decline": "You have no Active race to put into decline; pick a combo.",
    "decline_picked": "You picked this race this turn; it can decline on a later turn.",
    "decline_expanded": "You have already expanded this turn; decline instead of expanding.",
    "place_survivors": "Place your {tokens, plural, one {# surviving token} other "
                       "{# surviving tokens}} first.",
    # malformed input (InvalidAction): `error` and `problem` are the parser's own words,
    # `field` the path of the bad field; all three may quote the input, so wording them
    # for a player cuts them short
    "not_json": "The line is not valid JSON: {error}.",
    "not_an_object": "An action must be a JSON object with a \"do\" field.",
    "malformed": "Malformed action ({field}): {problem}.",
}

# English names of the pieces, as the English catalog has them under `piece.<id>`.
PIECE_NAMES = {"hole": "Hole-in-the-Ground", "hero": "Hero", "dragon": "Dragon",
               "fortress": "fortress", "encampment": "encampment", "troll_lair": "Troll Lair"}

def format_english(template: str, params: dict[str, Any]) -> str:
    """Fill an English template (plural: one for exactly 1, other otherwise). The template
    is parsed by engine.icu, which the catalogs share."""
    out: list[str] = []
    for kind, arg, typ, forms in compiled(template):
        if kind == "text":
            out.append(arg)
            continue
        value = params[arg]
        if typ == "plural":
            by = dict(forms)
            form = by.get(f"={value}") or by["one" if value == 1 else "other"]
            out.append(format_english(form.replace("#", str(value)), params))
        elif typ == "piece":
            out.append(PIECE_NAMES.get(value, str(value)))
        else:
            out.append(str(value))
    return "".join(out)


class EngineError(Exception):
    """Base of every error the engine raises on purpose; carries a stable code and a sentence.

    A refusal is data (`key`, `params`); its English `message` is filled in only when read,
    so the checks that `legal_actions` runs by the thousand cost no formatting."""

    code = "engine_error"

    def __init__(self, message: str | None = None, code: str | None = None, *,
                 key: str | None = None, params: dict[str, Any] | None = None) -> None:
        super().__init__(*(() if message is None else (message,)))
        self._message = message
        if code is not None:
            self.code = code
        self.key = key or self.code
        self.params = dict(params or {})

    @classmethod
    def refuse(cls, key: str, **params: Any) -> Self:
        """The error for the sentence `key` of MESSAGES, filled with `params` (built without
        __init__: the checks behind legal_actions make thousands that are never raised)."""
        if key not in MESSAGES:
            raise KeyError(f"no message {key!r}")
        e = cls.__new__(cls)
        e._message = None
        e.key = key
        e.params = params
        return e

    @property
    def message(self) -> str:
        if self._message is None:
            self._message = format_english(MESSAGES[self.key], self.params)
        return self._message

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.message, self.code, self.key, self.params))

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


def _rebuild(cls: type[EngineError], message: str, code: str, key: str,
             params: dict[str, Any]) -> EngineError:
    return cls(message, code, key=key, params=params)


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
NotEligible = _violation("NotEligible", "not_eligible", "The reinforcement die needs a shortfall of 1 to 3 tokens.")
TrayEmpty = _violation("TrayEmpty", "tray_empty", "The tray has no token of that race left.")
PieceLimit = _violation("PieceLimit", "piece_limit", "The box holds no more of that piece.")
NoTarget = _violation("NoTarget", "bad_target", "The target does not meet the power's conditions.")
AbandonTooLate = _violation("AbandonTooLate", "abandon_too_late", "Regions may be abandoned only before the first conquest.")
GameOver = _violation("GameOver", "game_over", "The game has ended.")
