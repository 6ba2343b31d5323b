"""The league's audit log: the actions it records, and details stored as a catalog key with
its params so each moderator reads them in their own language. Pure: no database."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import i18n

if TYPE_CHECKING:
    from bot.store.rows import AuditRow

AUDIT_ACTIONS = ("create", "settings", "channel add", "channel remove", "season start",
                 "season end", "season rounds", "round start", "no-show", "table cancelled",
                 "void", "award", "reopen")


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    season_id: int | None
    game_id: int | None
    actor_id: int | None
    action: str
    reason: str
    detail: str  # plain text (settings, channel, rounds), or a worded detail: see audit_detail
    at: str

    @classmethod
    def of(cls, row: AuditRow) -> AuditEntry:
        return cls(row.id, row.season_id, row.game_id, row.actor_id, row.action, row.reason,
                   row.detail, row.at)

    def detail_in(self, lang: str = i18n.DEFAULT) -> str:
        """The detail in `lang` (a worded one), or as it was stored (plain data)."""
        return detail_text(self.detail, lang)


def audit_detail(key: str, **params: Any) -> str:
    """A detail stored as its catalog key and params, so the audit log reads in each
    moderator's language (and in English in exports)."""
    return json.dumps({"key": key, "params": params}, ensure_ascii=False, sort_keys=True)


def detail_text(stored: str, lang: str = i18n.DEFAULT) -> str:
    if not stored.startswith('{"key"'):
        return stored
    try:
        doc = json.loads(stored)
        params = dict(doc["params"])
        if "tables" in params:  # a round's tables: each worded on its own
            params["tables"] = "; ".join(i18n.t("league.audit.table", lang, **t)
                                         for t in params["tables"])
        if "what" in params:  # a no-show's outcome: a sentence of its own
            params["what"] = i18n.t(params["what"], lang, **params)
        return i18n.t(doc["key"], lang, **params)
    except (ValueError, KeyError, TypeError):
        return stored
