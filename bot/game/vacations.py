"""Vacations and the away-day bank.

`/sw-me away 3d [reason]` covers every running game of the member in the server: each of her
seats carries the vacation's end (`Seat.until`), so while she is away her turn clocks wait
for her return (bot.game.stints), or, in a game whose `vacation` option is "ai", the AI plays
her turns at once; survivors she must place meanwhile are placed by her standing orders or
the AI (they cannot wait). Each channel is told that she is away and until when — the
reason only if she chose to share it. `/sw back` ends it early, in every game.

The bank: a member may spend `away_days` days (the server's choice, default 7) in any 30
days; a league may set a lower cap for its games. A vacation spends its days when it is
taken (whole days, rounded up; coming back early gives the unused days back), and when a
turn of hers runs out the bank spends one more day on that turn before the AI takes over.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import i18n
from bot.clock import UNITS
from bot.errors import ServiceError
from bot.game.core import GameCore
from bot.game.results import Outcome
from bot.language import of_game
from bot.store import GameRow, Vacation

DAY = 86400
AWAY_DAYS = 7  # the bank's default: days a member may spend away
BANK_WINDOW = 30 * DAY  # ... in any this many seconds
MIN_AWAY = 3600
MAX_AWAY = 30 * DAY
_PART = re.compile(r"(\d+)\s*([mhd])")
_WHOLE = re.compile(r"^(?:\d+\s*[mhd]\s*)+$")
REASON_LIMIT = 120


class VacationError(ServiceError):
    code = "vacation"


def away_seconds(text: str) -> int:
    """Seconds from "3d", "12h", "1d12h" (at least an hour, at most 30 days); a
    VacationError with the format otherwise."""
    raw = (text or "").strip().lower()
    if not _WHOLE.match(raw):
        raise VacationError.said("away.bad_duration", value=raw[:30] or "—")
    seconds = sum(int(n) * UNITS[u] for n, u in _PART.findall(raw))
    if seconds < MIN_AWAY:
        raise VacationError.said("away.too_short")
    if seconds > MAX_AWAY:
        raise VacationError.said("away.too_long", days=MAX_AWAY // DAY)
    return seconds


def days_of(seconds: float) -> int:
    """Away days a stretch of time spends: whole days, rounded up (at least one)."""
    return max(1, math.ceil(seconds / DAY - 1e-9))


def clean_reason(reason: str | None) -> str:
    text = " ".join((reason or "").split())
    return "".join(ch for ch in text if ch.isprintable() and ch not in "`@<>|*_~")[:REASON_LIMIT]


@dataclass(frozen=True, slots=True)
class Bank:
    """A member's away days in one server: her cap per 30 days and what she spent."""

    cap: int
    spent: int

    @property
    def left(self) -> int:
        return max(0, self.cap - self.spent)


@dataclass(slots=True)
class AwayNews:
    """What going away (or coming back) did: the vacation, the bank after it, and the
    outcome of each game whose channel is told."""

    vacation: Vacation | None
    bank: Bank
    outcomes: list[Outcome]


class Vacations(GameCore):
    """Members away from all their running games of a server."""

    async def bank(self, guild_id: int, user_id: int) -> Bank:
        """Her cap (the server's, or a lower one of a league she plays a running game of) and
        the days her vacations of the last 30 days spent."""
        cap = (await self.store.guild_options(guild_id)).away_days
        cap = AWAY_DAYS if cap is None else cap
        seasons = [tag.season_id for g in await self._running(guild_id, user_id)
                   if (tag := g.opts.league) is not None and tag.season_id]
        caps = await self.store.league_away_days(seasons)
        cap = min([cap, *caps])
        spent = await self.store.days_spent(guild_id, user_id, self.now() - BANK_WINDOW)
        return Bank(cap, spent)

    async def _running(self, guild_id: int, user_id: int) -> list[GameRow]:
        return [g for g in await self.store.games_with(user_id, ("active",))
                if g.guild_id == guild_id]

    async def vacation(self, guild_id: int, user_id: int) -> Vacation | None:
        return await self.store.vacation_at(guild_id, user_id, self.now())

    async def go_away(self, guild_id: int, user_id: int, seconds: int, *,
                      reason: str | None = None, share: bool = False) -> AwayNews:
        """Start a vacation of `seconds` over all her running games of the server."""
        now = self.now()
        current = await self.store.vacation_at(guild_id, user_id, now)
        if current is not None:
            raise VacationError.said("away.already", until=int(current.until))
        bank = await self.bank(guild_id, user_id)
        days = days_of(seconds)
        if days > bank.left:
            raise VacationError.said("away.bank_short", days=days, left=bank.left,
                                     cap=bank.cap)
        reason = clean_reason(reason)
        vacation = await self.store.add_vacation(
            guild_id, user_id, started_at=now, until=now + seconds, days=days, reason=reason,
            shared=share and bool(reason))
        outcomes = await self._mark(guild_id, user_id, vacation)
        return AwayNews(vacation, await self.bank(guild_id, user_id), outcomes)

    async def come_back(self, guild_id: int, user_id: int) -> AwayNews | None:
        """End her vacation now (None: she is not on one); unused whole days go back."""
        now = self.now()
        current = await self.store.vacation_at(guild_id, user_id, now)
        if current is None:
            return None
        await self.store.end_vacation(current.id, now, days_of(now - current.started_at))
        outcomes = await self._mark(guild_id, user_id, None)
        return AwayNews(current, await self.bank(guild_id, user_id), outcomes)

    async def _mark(self, guild_id: int, user_id: int,
                    vacation: Vacation | None) -> list[Outcome]:
        """Her seat in each running game of the server carries the vacation's end (None:
        she is back); each game's outcome leads with the line its channel reads."""
        outcomes = []
        for game in await self._running(guild_id, user_id):
            try:
                async with self.session(game.channel_id, game_id=game.id) as s:
                    seat = s.game.seat_of(user_id)
                    if seat is None:
                        continue
                    lang = of_game(s.game)
                    if vacation is None:
                        if seat.until is None:
                            continue
                        await s.set_players(s.game.reseated(seat.name, until=None))
                        s.headline = [i18n.t("away.back_line", lang, seat=seat.name)]
                    else:
                        await s.set_players(s.game.reseated(seat.name, until=vacation.until))
                        s.headline = [away_line(s.game, seat.name, vacation, lang)]
                    await s.autoplay_vacant()
                    out = await self.finish(s.outcome(None))
                    out.nudge = bool(out.events)  # a notice, unless the AI played
                    outcomes.append(out)
            except ServiceError:
                continue  # the game ended meanwhile
        return outcomes

    async def seat_vacation(self, game: GameRow, user_id: int) -> float | None:
        """The end of the vacation a member is on now in the game's server (a game that
        starts during it carries it on her seat)."""
        if game.guild_id is None or not user_id:
            return None
        found = await self.store.vacation_at(game.guild_id, user_id, self.now())
        return found.until if found is not None else None

    async def spend_day(self, game: GameRow, seat_name: str, key: str) -> tuple[float, int] | None:
        """Her turn ran out: spend one away day on it when her bank has one (the turn's
        deadlines move a day on); -> (the new limit, days left), or None: the AI takes over."""
        seat = game.seat_named(seat_name)
        if seat is None or not seat.user_id or game.guild_id is None:
            return None
        bank = await self.bank(game.guild_id, seat.user_id)
        if bank.left < 1:
            return None
        now = self.now()
        due = now + DAY
        actor = await self._actor_of(seat.user_id)
        quiet = actor.quiet if actor is not None else None
        if quiet is not None:
            due = quiet.shift(due)
        near = due - 0.1 * (due - now)
        if quiet is not None:
            near = min(quiet.shift(near), due)
        if not await self.store.rearm_turn(game.id, key, {"turn": due, "near": near}):
            return None  # the stint moved on meanwhile
        await self.store.add_vacation(game.guild_id, seat.user_id, started_at=now, until=now + DAY,
                                      days=1, auto=True)
        if self.deadlines_changed is not None:
            self.deadlines_changed()
        return due, bank.left - 1


def away_line(game: GameRow, seat: str, vacation: Vacation, lang: str) -> str:
    """The channel's line: she is away until when (why, only if she shared it), and what
    happens to her turns meanwhile."""
    ai = game.opts.vacation == "ai"
    line = i18n.t("away.line", lang, seat=seat, until=int(vacation.until), ai=ai)
    if vacation.shared and vacation.reason:
        line += " " + i18n.t("away.reason", lang, reason=vacation.reason)
    return line
