"""What the league service answers and refuses: its errors (each a catalog sentence), the
typed results of its calls (standings, cards, a recorded result, a round started or begun,
settings), and the small checks and time helpers its parts share. Pure: no database, no
discord."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import i18n
from bot.errors import ServiceError
from bot.league import tables
from bot.league.ratings import Skill
from bot.league.standings import Placing, PlayedGame, Row

if TYPE_CHECKING:
    from bot.game.results import Outcome
    from bot.store.rows import GameRow, League, Season

START_RATING = Skill.initial().ordinal
NAME_LIMIT = 40
REASON_LIMIT = 200

SCORING_HELP = i18n.t("league.scoring_help", "en")  # the standings footer (league/ catalogs)


def iso(t: datetime) -> str:
    return t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z"


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


# -- errors ---------------------------------------------------------------------------------


class LeagueError(ServiceError):
    code = "league"


class NoLeague(LeagueError):
    code = "no_league"


class NoSeason(LeagueError):
    code = "no_season"


class NotRegistered(LeagueError):
    code = "not_registered"


class NotOrganiser(LeagueError):
    code = "not_organiser"


# -- answers --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standings:
    league: League
    season: Season
    rows: tuple[Row, ...]
    games: int  # finished games counted
    open_games: int  # league games of the season still in their lobby or running
    rounds_played: int = 0
    planned_rounds: int | None = None
    voided: int = 0


@dataclass(frozen=True, slots=True)
class RatingCard:
    league: League
    season: Season | None
    user_id: int
    season_row: Row | None
    season_place: int | None
    season_size: int
    all_time: Row | None


@dataclass(frozen=True, slots=True)
class PlayerCard:
    league: League
    season: Season
    user_id: int
    row: Row | None
    place: int | None
    games: tuple[tuple[PlayedGame, int, int], ...]  # game, counted rank, counted players


@dataclass(frozen=True, slots=True)
class Recorded:
    game_id: int
    league: League
    season: Season
    placings: tuple[Placing, ...]
    changes: dict[int, float] = field(default_factory=dict)  # user id -> season rating change


@dataclass(frozen=True, slots=True)
class LeagueSettings:
    organiser_role_id: int | None
    allow_ai: bool
    table_size: int
    start_minutes: int
    round_days: int
    summary_channel: int | None
    summary_at: str | None
    channels: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundTable:
    number: int
    game_id: int
    channel_id: int
    players: tuple[int, ...]
    ai_seats: int


@dataclass(frozen=True, slots=True)
class RoundStarted:
    league: League
    season: Season
    number: int
    round_id: int
    start_by: str
    deadline: str
    tables: tuple[RoundTable, ...]
    benched: tuple[int, ...]
    sitting_out: tuple[int, ...]
    unavailable: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TableBegun:
    table: int
    game: GameRow  # the game started (or, cancelled, ended) after the no-shows were handled
    no_shows: tuple[tuple[int, int | None], ...]  # (no-show, substitute or None = AI/dropped)
    ai_seats: tuple[str, ...]
    cancelled: bool  # too few players left to start
    outcome: Outcome | None = None  # the game's start, for the Announcer (None: cancelled)


# reopen()'s outcome (English) -> its sentence's suffix: league.reopened.<x> for the reply,
# league.audit.reopened.<x> for the audit detail
REOPEN_OUTCOMES = {"counts again": "counts",
                   "counts again with the result it was played to": "played",
                   "has no result again": "no_result"}


def day_names(lang: str) -> dict[str, int]:
    """`lang`'s weekday names as /league availability reads them -> weekday (Monday 0)."""
    return {i18n.t(f"league.day.{d}", lang).lower().rstrip("."): i
            for i, d in enumerate(tables.WEEKDAYS)}


def clean_name(raw: str, what: str) -> str:
    name = re.sub(r"\s+", " ", raw).strip()
    name = "".join(ch for ch in name if ch.isprintable() and ch not in "`*_~|<>@#\\")
    if not name:
        raise LeagueError.said(f"league.err.{what}_name_empty")
    if len(name) > NAME_LIMIT:
        raise LeagueError.said(f"league.err.{what}_name_long", limit=NAME_LIMIT)
    return name


def clean_reason(raw: str | None) -> str:
    reason = re.sub(r"\s+", " ", raw or "").strip()
    if not reason:
        raise LeagueError.said("league.err.no_reason")
    return reason[:REASON_LIMIT]
