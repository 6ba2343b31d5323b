"""Catch-up: what happened in a game since a member's last action, told to her alone.

Read from the game's log: who picked which combo, who declined, which of her regions were
taken and by whom, survivors of hers waiting to be placed, and her own coins since then with
their breakdown (her private events only: never another player's coins). The Announcer
puts it in her turn DM, in the first private reply of her turn, and `/sw-me catchup` shows it
any time; the map that goes with it outlines the regions she lost (and does not hold again).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import engine
import i18n
from bot import text
from bot.errors import NotSeated
from bot.game.core import GameCore
from bot.store import ActionRow, GameRow

Event = dict[str, Any]
MAX_ROWS = 800  # actions read back at most (a whole 5-player game is about this long)


@dataclass(slots=True)
class CatchUp:
    """A member's catch-up in one game."""

    game: GameRow
    seat: str
    since: int  # the version of her last action (0: she has not acted yet)
    upto: int  # the version it tells up to
    state: Any  # the game's state at `upto` (its map)
    events: list[Event] = field(default_factory=list)  # public ones, in order
    lost: dict[str, list[int]] = field(default_factory=dict)  # taker -> her regions taken
    scored: list[Event] = field(default_factory=list)  # her private coin events

    @property
    def lost_regions(self) -> tuple[int, ...]:
        """Regions she lost since then and does not hold again (the map outlines them)."""
        obs = engine.observe(self.state, None)
        regions = obs.get("regions", {})
        lost = sorted({r for rs in self.lost.values() for r in rs})
        return tuple(r for r in lost if (regions.get(str(r)) or {}).get("owner") != self.seat)

    @property
    def survivors(self) -> int:
        """Her surviving tokens waiting to be placed now."""
        obs = engine.observe(self.state, None)
        return sum(int(p.get("tokens") or 0) for p in obs.get("pending", ())
                   if p.get("player") == self.seat and p.get("must") == "deploy")

    @property
    def is_empty(self) -> bool:
        return not (self.events or self.lost or self.scored or self.survivors)

    def lines(self, lang: str, *, head: bool = True) -> list[str]:
        """What she reads, in her language: the head, picks and declines, her regions
        taken, her survivors, her coins."""
        out = [i18n.t("catchup.head", lang, game=self.game.id, channel=self.game.channel_id,
                      moves=self.upto - self.since)] if head else []
        if self.is_empty:
            return [*out, i18n.t("catchup.nothing", lang)]
        out += [line for e in self.events if (line := text.describe_event(e, lang))]
        for taker, regions in self.lost.items():
            out.append(i18n.t("catchup.lost", lang, by=taker, n=len(regions),
                              regions=", ".join(str(r) for r in regions)))
        if self.survivors:
            out.append(i18n.t("catchup.survivors", lang, n=self.survivors))
        if self.scored:
            income = sum(int(e.get("income") or 0) for e in self.scored)
            out.append(i18n.t("catchup.coins", lang, income=income, turns=len(self.scored),
                              coins=int(self.scored[-1].get("coins") or 0)))
            breakdown: dict[str, int] = defaultdict(int)
            for e in self.scored:
                for k, v in (e.get("breakdown") or {}).items():
                    if isinstance(v, int):
                        breakdown[k] += v
            parts = text.income_parts(dict(breakdown), lang)
            if parts:
                out.append(parts)
        return out


TOLD = ("picked", "declined")  # the public events a catch-up retells


def catch_up_of(game: GameRow, seat: str, rows: list[ActionRow], state: Any,
                since: int) -> CatchUp:
    """The catch-up of `seat` from the actions after `since` (pure)."""
    out = CatchUp(game, seat, since, rows[-1].seq if rows else since, state)
    for row in rows:
        for e in row.events:
            kind = e.get("type")
            if e.get("private"):
                if kind == "scored" and e.get("player") == seat:
                    out.scored.append(e)
                continue
            if kind in TOLD and e.get("player") != seat:
                out.events.append(e)
            elif kind == "conquered" and e.get("defender") == seat and \
                    e.get("player") != seat and isinstance(e.get("region"), int):
                out.lost.setdefault(str(e.get("player")), []).append(int(e["region"]))
    return out


class CatchUps(GameCore):
    """Catch-ups for members returning to a game."""

    async def member_catch_up(self, game: GameRow, user_id: int, *,
                       before: int | None = None) -> CatchUp:
        """What happened since her last action (the last before action `before`: a reply
        to an action of hers tells what came before it) up to the game's version."""
        seat = game.seat_of(user_id)
        if seat is None:
            raise NotSeated.said("svc.not_playing")
        last = await self.store.last_action_of(game.id, user_id, before=before)
        since = max(last, game.version - MAX_ROWS)
        upto = game.version if before is None else max(before - 1, since)
        rows = await self.store.actions(game.id, after=since, upto=upto) if upto > since else []
        if before is None or not rows:
            state = (await self.loaded(game)).state
        else:  # what she saw before her action (her survivors then, the regions then)
            state = await self.rebuild(game.id, upto)
        return catch_up_of(game, seat.name, rows, state, since)
