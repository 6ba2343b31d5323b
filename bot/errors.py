"""Refusals: what the service says no to, as data a reply can word in any language.

Every refusal carries a catalog key and its params (`ServiceError.said(key, **params)`); the
English `.message` is for logs and English readers. `tests/bot/test_refusal_keys.py` fails on
a refusal raised from a sentence instead of a key. The UI (bot/ui.py) turns any of them into
an ephemeral reply in the reader's language; nothing here knows about Discord.
"""

from __future__ import annotations

from typing import Any

import i18n


class ServiceError(Exception):
    """A refusal with a sentence for the player (what went wrong and what to do)."""

    code = "refused"

    def __init__(self, message: str, key: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.key, self.params = key, params  # a catalog sentence, so any language can word it

    @classmethod
    def said(cls, key: str, **params: Any) -> ServiceError:
        """The refusal whose sentence is the catalog's `key` (English here; ui words it)."""
        return cls(i18n.t(key, "en", **params), key, **params)


class NoGameHere(ServiceError):
    code = "no_game"


class NotSeated(ServiceError):
    code = "not_seated"


class NotYourTurn(ServiceError):
    code = "not_your_turn"


class StaleVersion(ServiceError):
    code = "stale"


class LobbyError(ServiceError):
    code = "lobby"


class NotAllowed(ServiceError):
    code = "not_allowed"


class NothingToUndo(ServiceError):
    code = "nothing_to_undo"


class RuleBroken(ServiceError):
    """The engine refused the action (RulesViolation or InvalidAction); `.rule_code` is its code."""

    code = "rule"

    def __init__(self, message: str, rule_code: str, key: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.rule_code = rule_code
        self.key, self.params = key, dict(params or {})  # the engine's sentence, as data

    @classmethod
    def said(cls, key: str, **params: Any) -> RuleBroken:
        """Malformed input refused in the bot's own words (catalog `key`), not the engine's."""
        return cls(i18n.t(key, "en", **params), "invalid_action", key, params)
