"""Event summaries and refusals in any catalog language (pure functions, no discord).

Every event kind of engine.events has its `event.<kind>` sentence in every catalog (a test
checks it), so no kind falls to a generic line; engine refusals are worded from their key
and params. Player names are passed in bold; coin totals appear only in private lines.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import i18n
from engine.errors import MESSAGES
from engine.events import Conquered, GameOver, Lifted, parse_event

log = logging.getLogger(__name__)

# kinds that happen on every turn and say nothing a player needs in the summary
QUIET = frozenset({"turn_started", "survivors_done", "drew", "reshuffled"})
LOST_TRIBE = ("lost_tribe", "Lost Tribe")


def bold(name: Any) -> str:
    return f"**{name}**"


def event_line(ev: dict[str, Any], lang: str = "en", *, quiet: bool = False) -> str | None:
    """The sentence for one public event (None for quiet kinds unless `quiet`)."""
    kind = ev.get("type")
    if kind in QUIET and not quiet:
        return None
    if kind == "scored":  # public: who scored, never how much
        return i18n.t("event.scored", lang, player=bold(ev.get("player", "?")))
    try:
        typed = parse_event(ev)
    except ValueError:
        log.warning("event of unknown shape %r", kind)
        return None
    d = typed.model_dump(by_alias=True)
    if "player" in d:
        d["player"] = bold(d["player"])
    match typed:
        case Conquered():
            d["decline"] = typed.in_decline
            d["how"] = i18n.t(f"event.how.{typed.by}", lang) if typed.by in (
                "dragon", "enchant", "reinforce") else ""
            if typed.defender_race in LOST_TRIBE or typed.defender in LOST_TRIBE:
                return i18n.t("event.conquered_tribe", lang, **d)
            if typed.defender:
                d["defender"] = bold(typed.defender)
                return i18n.t("event.conquered_player", lang, **d)
            return i18n.t("event.conquered", lang, **d)
    match kind:
        case "rolled":
            d["why"] = d.pop("for")
        case "lifted" if isinstance(typed, Lifted):
            d["regions"] = i18n.t("list.sep", lang).join(str(r) for r in typed.regions)
        case "allied":
            d["target"] = bold(d["target"])
        case "must_place" if ev.get("tokens") is None:
            return i18n.t("event.must_place_camps", lang, **d)
        case "game_over" if isinstance(typed, GameOver):
            d["n"] = len(typed.winners)
            d["winners"] = i18n.t("list.sep", lang).join(bold(w) for w in typed.winners)
    return i18n.t(f"event.{kind}", lang, **d)


def event_lines(events: Iterable[dict[str, Any]], lang: str = "en") -> list[str]:
    """Public summary lines (private kinds are skipped; they reach their player alone)."""
    out = []
    for ev in events:
        if ev.get("private") and ev.get("type") != "scored":
            continue
        line = event_line(ev, lang)
        if line:
            out.append(line)
    return out


def private_line(ev: dict[str, Any], lang: str = "en") -> str | None:
    """The owner's line for a private event (their income and total)."""
    if ev.get("type") == "scored" and "income" in ev:
        return i18n.t("event.scored_private", lang, income=ev["income"], coins=ev["coins"])
    return None


ECHO_LIMIT = 80  # characters of a player's own input quoted back (as bot.text.echo)


def _clipped(value: Any) -> Any:
    """A text parameter, which may quote a player's input, cut short and kept on one line."""
    if not isinstance(value, str):
        return value
    value = " ".join(value.split())
    return value if len(value) <= ECHO_LIMIT else value[:ECHO_LIMIT - 1] + "…"


def refusal(key: str | None, params: dict[str, Any] | None, lang: str,
            english: str | None = None) -> str | None:
    """An engine refusal worded in `lang` with its way forward; None if it has no key."""
    if not key or key not in MESSAGES:
        return None
    clipped = {k: _clipped(v) for k, v in (params or {}).items()}
    reason = i18n.t(f"refusal.{key}", lang, **clipped)
    return i18n.t("refusal.hint", lang, reason=reason)
