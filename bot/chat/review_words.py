"""A finished game's review in words (/sw-game review): its three swings, and the asking
member's better turn or the honest "no clearly better turn". Deeds are worded as the
replay's captions word them (story.deeds, render.deeds_text)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import i18n
import render
import story
from ai.moments import GameReview


def _deeds(player: str, events: Sequence[Mapping[str, Any]], lang: str, *,
           regions: bool = False) -> str:
    said = render.deeds_text(story.deeds(player, events), lang)
    conquered = [str(e.get("region")) for e in events if e.get("type") == "conquered"]
    if regions and conquered:
        return i18n.t("review.regions", lang, deeds=said,
                      regions=i18n.t("list.sep", lang).join(conquered))
    return said


def review_lines(review: GameReview, game_id: int, seat: str | None,
                 lang: str = "en") -> list[str]:
    """The review's words; `seat`: the asking member's seat in the game (None: not seated)."""
    lines = [i18n.t("review.head", lang, game=game_id)]
    for swing in review.swings:
        key = "review.swing_up" if swing.delta >= 0 else "review.swing_down"
        lines.append(i18n.t(key, lang, round=swing.round, player=swing.player,
                            deeds=_deeds(swing.player, swing.events, lang),
                            n=round(abs(swing.delta))))
    if seat is not None and seat in review.better:
        better = review.better[seat]
        if better is None:
            lines.append(i18n.t("review.no_better", lang, player=seat))
        else:
            lines.append(i18n.t("review.better", lang, player=seat, round=better.round,
                                ai=_deeds(seat, better.ai_events, lang, regions=True),
                                played=_deeds(seat, better.played_events, lang,
                                              regions=True),
                                n=round(better.gain)))
    return lines
