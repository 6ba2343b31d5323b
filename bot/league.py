"""Community leagues: seasons, registration, rounds and tables, results, standings, audit.

Pure data; every statement goes through the store's methods (bot.store owns the SQL); no
discord objects. A league belongs to a guild and has
at most one open season. Members register for the open season (as players or substitutes);
an organiser starts rounds: the bot forms tables (bot.tables), opens one lobby per table in the
league's table channels, and after the start window seats substitutes (or AI seats, if
allowed) for the no-shows and starts the games. A game opened with `/league game` belongs to
the season too. When a league game finishes, its final ranking is recorded once (keyed by
game id); a member whose seat was kicked (or who quit) is recorded last. Organisers can void,
award or re-open a game; each change is in the audit log with who and why.

Standings and ratings are recomputed from the recorded results in the order the games
finished (bot.standings, bot.ratings: OpenSkill Plackett–Luce), so they always follow the
results: voiding a game is a recompute without it. Results recorded before OpenSkill (the old
Elo) are rated the same way, from the same stored rankings.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import i18n
from bot import league_export, tables
from bot.errors import ServiceError
from bot.ratings import Skill, counted_ranks
from bot.seats import MAX_PLAYERS, MIN_PLAYERS, board_for, engine_name
from bot.standings import (
    Placing,
    PlayedGame,
    Row,
    build_table,
    placement_points,
    win_shares,
)
from bot.store import (
    AuditRow,
    ChannelBusy,
    Duplicate,
    GameRow,
    GameStatus,
    League,
    LeagueGameFlags,
    Registration,
    RoundRow,
    Season,
    Seat,
    Store,
)
from engine import data as engine_data

START_RATING = Skill.initial().ordinal
NAME_LIMIT = 40
REASON_LIMIT = 200
AI_NAME = "AI"
AUDIT_ACTIONS = ("create", "settings", "channel add", "channel remove", "season start",
                 "season end", "season rounds", "round start", "no-show", "table cancelled",
                 "void", "award", "reopen")
AI_LEVEL = "normal"  # AI seats of league tables (they never earn points or rating)

SCORING_HELP = i18n.t("league.scoring_help", "en")  # the standings footer (league/ catalogs)

def iso(t: datetime) -> str:
    return t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z"


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def round_turn_limit(seconds_left: float, seats: int, *, floor: int = 60,
                     ceiling: int = 14 * 86400) -> int:
    """The per-turn limit that makes a game of `seats` players fit the round's deadline even
    if every turn uses its whole limit: the time left over the game's turns (board rounds ×
    seats), within the clock's bounds."""
    turns = engine_data.board(board_for(max(MIN_PLAYERS, seats))).rounds * max(MIN_PLAYERS, seats)
    return int(max(floor, min(ceiling, seconds_left // turns)))


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


# -- rows -----------------------------------------------------------------------------------


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
    game: GameRow  # the lobby after the no-shows were handled
    no_shows: tuple[tuple[int, int | None], ...]  # (no-show, substitute or None = AI/dropped)
    ai_seats: tuple[str, ...]
    cancelled: bool  # too few players left to start


# reopen()'s outcome (English) -> its sentence's suffix: league.reopened.<x> for the reply,
# league.audit.reopened.<x> for the audit detail
REOPEN_OUTCOMES = {"counts again": "counts",
                   "counts again with the result it was played to": "played",
                   "has no result again": "no_result"}


def day_names(lang: str) -> dict[str, int]:
    """`lang`'s weekday names as /league availability reads them -> weekday (Monday 0)."""
    return {i18n.t(f"league.day.{d}", lang).lower().rstrip("."): i
            for i, d in enumerate(tables.WEEKDAYS)}


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


# -- the service ----------------------------------------------------------------------------


class LeagueService:
    """Leagues of one bot, on top of the store's league methods."""

    def __init__(self, store: Store, *, now: Callable[[], datetime] | None = None) -> None:
        self.store = store
        self.now = now or (lambda: datetime.now(UTC))

    # -- leagues -------------------------------------------------------------------------

    async def leagues(self, guild_id: int) -> list[League]:
        return await self.store.leagues(guild_id)

    async def create_league(self, guild_id: int, name: str, by: int | None = None) -> League:
        name = clean_name(name, "league")
        try:
            return await self.store.create_league(guild_id, name, by)
        except Duplicate:
            raise LeagueError.said("league.err.league_taken", name=name) from None

    async def league(self, guild_id: int, name: str | None = None) -> League:
        """The named league, or the server's only league when no name is given."""
        leagues = await self.leagues(guild_id)
        if name:
            wanted = name.strip().casefold()
            for lg in leagues:
                if lg.name.casefold() == wanted:
                    return lg
            known = ", ".join(lg.name for lg in leagues)
            if known:
                raise NoLeague.said("league.err.no_league_named", name=name.strip(),
                                    leagues=known)
            raise NoLeague.said("league.err.no_league_named_none", name=name.strip())
        if not leagues:
            raise NoLeague.said("league.err.no_league")
        if len(leagues) > 1:
            raise NoLeague.said("league.err.several_leagues",
                                leagues=", ".join(lg.name for lg in leagues))
        return leagues[0]

    # -- seasons -------------------------------------------------------------------------

    async def seasons(self, league: League) -> list[Season]:
        return await self.store.seasons(league.id)

    async def open_season(self, league: League) -> Season | None:
        return await self.store.open_season(league.id)

    async def current_season(self, league: League) -> Season:
        """The open season; refuses with the way forward when none is open."""
        season = await self.open_season(league)
        if season is None:
            raise NoSeason.said("league.err.no_open_season", league=league.name)
        return season

    async def season(self, league: League, name: str | None = None) -> Season:
        """The named season, else the open one, else the latest that ended."""
        seasons = await self.seasons(league)
        if name:
            wanted = name.strip().casefold()
            for s in seasons:
                if s.name.casefold() == wanted:
                    return s
            if seasons:
                raise NoSeason.said("league.err.no_season_named", league=league.name,
                                    name=name.strip(),
                                    seasons=", ".join(s.name for s in seasons))
            raise NoSeason.said("league.err.no_season_named_none", league=league.name,
                                name=name.strip())
        if not seasons:
            raise NoSeason.said("league.err.no_season_yet", league=league.name)
        open_ = [s for s in seasons if s.is_open]
        return open_[0] if open_ else seasons[-1]

    async def start_season(self, league: League, name: str, by: int | None = None, *,
                           rounds: int | None = None) -> Season:
        name = clean_name(name, "season")
        if rounds is not None and not 1 <= rounds <= 100:
            raise LeagueError.said("league.err.rounds_range")
        running = await self.open_season(league)
        if running is not None:
            raise LeagueError.said("league.err.season_running", season=running.name,
                                   league=league.name)
        try:
            season = await self.store.start_season(league.id, name, by)
        except Duplicate:
            again = await self.open_season(league)
            if again is not None:
                raise LeagueError.said("league.err.season_running", season=again.name,
                                       league=league.name) from None
            raise LeagueError.said("league.err.season_taken", league=league.name,
                                   name=name) from None
        if rounds is not None:
            await self.store.set_season_rounds(season.id, rounds)
        return season

    async def end_season(self, league: League, by: int | None = None) -> Season:
        season = await self.current_season(league)
        return await self.store.end_season(season.id, by)

    # -- registration --------------------------------------------------------------------

    async def registration(self, season: Season, user_id: int) -> Registration | None:
        return await self.store.registration(season.id, user_id)

    async def is_registered(self, season: Season, user_id: int) -> bool:
        reg = await self.registration(season, user_id)
        return reg is not None and reg.active

    async def register(self, league: League, user_id: int, name: str, *,
                       substitute: bool = False) -> Season:
        """Register for the open season, as a player or as a substitute (seated only in
        place of a no-show)."""
        season = await self.current_season(league)
        reg = await self.registration(season, user_id)
        if reg is not None and reg.active:
            raise LeagueError.said("league.err.already_registered", season=season.name)
        await self.store.register(season.id, user_id, name[:NAME_LIMIT] or "player")
        await self.store.set_registration_prefs(season.id, user_id,
                                                {"substitute": int(substitute), "sit_out": 0})
        return season

    async def unregister(self, league: League, user_id: int) -> Season:
        """Leave the open season; results already played stay in the standings."""
        season = await self.current_season(league)
        if not await self.is_registered(season, user_id):
            raise NotRegistered.said("league.err.not_registered_leave", season=season.name)
        await self.store.unregister(season.id, user_id)
        return season

    async def registrations(self, season: Season, *, include_left: bool = False
                            ) -> list[Registration]:
        return await self.store.registrations(season.id, include_left=include_left)

    # -- league games --------------------------------------------------------------------

    async def season_of_game(self, game_id: int) -> tuple[League, Season] | None:
        return await self.store.season_of_game(game_id)

    async def open_game(
        self,
        league: League,
        *,
        guild_id: int,
        channel_id: int,
        opener_id: int,
        opener_name: str,
        is_mod: bool,
        members: Sequence[tuple[int, str]] = (),
        seats: int | None = None,
        seed: int,
    ) -> tuple[GameRow, Season]:
        """Open a league lobby in the channel, tagged with the open season.

        The opener takes the first seat when registered (a moderator who is not registered
        opens it without a seat); `members` are seated too and must all be registered.
        """
        season = await self.current_season(league)
        opener_registered = await self.is_registered(season, opener_id)
        if not opener_registered and not is_mod:
            raise NotRegistered.said("league.err.not_registered_open", season=season.name)
        wanted: list[tuple[int, str]] = []
        if opener_registered:
            wanted.append((opener_id, opener_name))
        for uid, name in members:
            if any(uid == w[0] for w in wanted):
                continue
            if not await self.is_registered(season, uid):
                raise NotRegistered.said("league.err.member_not_registered", user=uid,
                                         season=season.name)
            wanted.append((uid, name))
        limit = seats if seats is not None else MAX_PLAYERS
        if not MIN_PLAYERS <= limit <= MAX_PLAYERS:
            raise LeagueError.said("league.err.player_range", min=MIN_PLAYERS,
                                   max=MAX_PLAYERS)
        if len(wanted) > limit:
            raise LeagueError.said("league.err.too_many_players", n=len(wanted), seats=limit)
        taken: list[str] = []
        seat_list = []
        for uid, name in wanted:
            seat = Seat(uid, engine_name(name, taken))
            taken.append(seat.name)
            seat_list.append(seat)
        options: dict[str, Any] = {"league": {"season_id": season.id, "season": season.name,
                                              "league": league.name}}
        if seats is not None:
            options["max_players"] = seats
        try:
            game = await self.store.create_game(
                guild_id=guild_id, channel_id=channel_id, seed=seed, players=seat_list,
                options=options, opener_id=opener_id, season_id=season.id)
        except ChannelBusy:
            raise LeagueError.said("league.err.channel_busy") from None
        return game, season

    async def check_seat(self, game: GameRow, user_id: int) -> None:
        """GameService seat check: only registered members sit in a league game, and a round
        table's lobby only seats the players drawn for that table."""
        tagged = await self.season_of_game(game.id)
        if tagged is None:
            return
        _, season = tagged
        if not await self.is_registered(season, user_id):
            raise NotRegistered.said("league.err.seat_not_registered", user=user_id,
                                     season=season.name)
        table = (game.options.get("league") or {}).get("table")
        if game.status is GameStatus.LOBBY and table is not None and user_id not in table:
            raise LeagueError.said("league.err.not_drawn", user=user_id,
                                   round=game.options["league"].get("round"),
                                   table=", ".join(f"<@{u}>" for u in table))

    # -- results -------------------------------------------------------------------------

    async def _final_ranking(self, game_id: int) -> list[dict[str, Any]] | None:
        return await self.store.final_ranking(game_id)

    async def _races(self, game_id: int) -> dict[str, list[str]]:
        return await self.store.game_races(game_id)

    async def played_placings(self, game: GameRow) -> list[Placing] | None:
        """The members' placings of a finished game: the game's ranking for seats held by a
        member (AI and vacant seats left out), then every member who left a seat (kicked, or
        quit) ranked last together."""
        ranking = await self._final_ranking(game.id)
        if ranking is None:
            return None
        races = await self._races(game.id)
        placings: list[Placing] = []
        for entry in ranking:
            seat = game.seat_named(str(entry.get("player")))
            if seat is None or seat.user_id <= 0:
                continue
            placings.append(Placing(seat.user_id, seat.name, int(entry["rank"]),
                                    int(entry.get("total", 0)), tuple(races.get(seat.name, ()))))
        last = len(ranking) + 1
        holders = {p.user_id for p in placings}
        for seat_name, users in sorted((game.options.get("left") or {}).items()):
            for uid in users if isinstance(users, list) else [users]:
                uid = int(uid)
                if uid > 0 and uid not in holders:
                    holders.add(uid)
                    placings.append(Placing(uid, seat_name, last, 0,
                                            tuple(races.get(seat_name, ()))))
        return placings

    async def record(self, game_id: int) -> Recorded | None:
        """Record a finished league game's result once; None when it is not one to record
        (not a league game, not finished, or recorded already)."""
        tagged = await self.season_of_game(game_id)
        if tagged is None:
            return None
        league, season = tagged
        game = await self.store.get_game(game_id)
        if game is None or game.status is not GameStatus.FINISHED:
            return None
        placings = await self.played_placings(game)
        if placings is None:
            return None
        before = await self._season_games(season)
        if not await self.store.record_league_result(
                game_id, [(p.user_id, p.seat, p.rank, p.coins, " ".join(p.races))
                          for p in placings]):
            return None
        changes = self._changes(before, await self._season_games(season), placings)
        return Recorded(game_id, league, season, tuple(placings), changes)

    @staticmethod
    def _changes(before: list[PlayedGame], after: list[PlayedGame],
                 placings: Iterable[Placing]) -> dict[int, float]:
        rows_before = {r.user_id: r.rating for r in build_table(before)}
        rows_after = {r.user_id: r.rating for r in build_table(after)}
        return {p.user_id: rows_after.get(p.user_id, START_RATING)
                - rows_before.get(p.user_id, START_RATING) for p in placings}

    async def sync(self) -> list[Recorded]:
        """Record every finished league game whose result is missing (e.g. after a crash)."""
        out = []
        for game_id in await self.store.unrecorded_league_games():
            rec = await self.record(game_id)
            if rec is not None:
                out.append(rec)
        return out

    async def _games(self, *, season_id: int | None = None, league_id: int | None = None,
                     voided: bool = False) -> list[PlayedGame]:
        """Recorded games in the order they finished (voided ones only when asked)."""
        games: dict[int, PlayedGame] = {}
        for r in await self.store.league_results(season_id=season_id, league_id=league_id,
                                                 voided=voided):
            pg = games.get(r.game_id)
            p = Placing(r.user_id, r.seat, r.rank, r.coins, tuple((r.races or "").split()))
            games[r.game_id] = (
                PlayedGame(r.game_id, r.season_id, r.finished_at, (*pg.placings, p), r.round_no,
                           r.voided, r.awarded) if pg
                else PlayedGame(r.game_id, r.season_id, r.finished_at, (p,), r.round_no,
                                r.voided, r.awarded))
        return list(games.values())

    async def _season_games(self, season: Season, *, voided: bool = False) -> list[PlayedGame]:
        return await self._games(season_id=season.id, voided=voided)

    async def _names(self, season_ids: Sequence[int]) -> dict[int, str]:
        return await self.store.registered_names(season_ids)

    async def standings(self, league: League, season_name: str | None = None) -> Standings:
        await self.sync()
        season = await self.season(league, season_name)
        games = await self._season_games(season, voided=True)
        counted = [g for g in games if not g.voided]
        regs = await self.registrations(season, include_left=True)
        names = {r.user_id: r.name for r in regs}
        planned = await self.store.season_rounds(season.id)
        rounds = await self.store.league_rounds(season.id)
        open_rows = await self.store.open_league_game_rows(season.id)
        in_play: dict[int, int] = {}
        for game in open_rows:
            users = {s.user_id for s in game.players if s.user_id > 0}
            if game.status is GameStatus.LOBBY:
                users |= set((game.options.get("league") or {}).get("table") or ())
            for u in users:
                in_play[u] = in_play.get(u, 0) + 1
        remaining = None if planned is None else max(0, planned - len(rounds))
        # the OpenSkill fold is ~0.15 ms a game (bench/league.py): off the event loop
        rows = await asyncio.to_thread(build_table, counted, names,
                                       [r.user_id for r in regs if r.active],
                                       remaining_rounds=remaining, in_play=in_play)
        return Standings(league, season, tuple(rows), len(counted), len(open_rows), len(rounds),
                         planned, len(games) - len(counted))

    async def rating(self, league: League, user_id: int) -> RatingCard:
        """A member's season line (open or latest season) and all-time league rating."""
        await self.sync()
        seasons = await self.seasons(league)
        season = None
        if seasons:
            season = next((s for s in seasons if s.is_open), seasons[-1])
        season_row, place, size = None, None, 0
        if season is not None:
            st = await self.standings(league, season.name)
            size = len(st.rows)
            for i, r in enumerate(st.rows, 1):
                if r.user_id == user_id:
                    season_row, place = r, i
        games = await self._games(league_id=league.id)
        names = await self._names([s.id for s in seasons])
        all_rows = await asyncio.to_thread(build_table, games, names)
        all_time = next((r for r in all_rows if r.user_id == user_id), None)
        return RatingCard(league, season, user_id, season_row, place, size, all_time)

    async def player(self, league: League, user_id: int, season_name: str | None = None
                     ) -> PlayerCard:
        """A member's season: line, place, and every counted game with their rank."""
        st = await self.standings(league, season_name)
        place, row = next(((i, r) for i, r in enumerate(st.rows, 1) if r.user_id == user_id),
                          (None, None))
        played = []
        for g in await self._season_games(st.season):
            members = g.counted()
            ranks = dict(zip([p.user_id for p in members],
                             counted_ranks([p.rank for p in members]), strict=True))
            if user_id in ranks:
                played.append((g, ranks[user_id], len(members)))
        return PlayerCard(league, st.season, user_id, row, place, tuple(played))

    # -- organisers and settings ---------------------------------------------------------

    async def settings(self, league: League) -> LeagueSettings:
        raw = await self.store.league_settings(league.id)
        return LeagueSettings(
            organiser_role_id=raw["organiser_role_id"], allow_ai=bool(raw["allow_ai"]),
            table_size=int(raw["table_size"]), start_minutes=int(raw["start_minutes"]),
            round_days=int(raw["round_days"]), summary_channel=raw["summary_channel"],
            summary_at=raw["summary_at"],
            channels=tuple(await self.store.league_channels(league.id)))

    async def is_organiser(self, league: League, role_ids: Iterable[int]) -> bool:
        role = (await self.settings(league)).organiser_role_id
        return role is not None and role in set(role_ids)

    async def audit(self, league: League, *, by: int | None, action: str, reason: str = "",
                    detail: str = "", season: Season | None = None,
                    game_id: int | None = None) -> None:
        await self.store.add_league_audit(
            league_id=league.id, season_id=season.id if season else None, game_id=game_id,
            actor_id=by, action=action, reason=reason, detail=detail, now=iso(self.now()))

    async def audit_log(self, league: League, limit: int = 20, *, action: str | None = None,
                        game_id: int | None = None) -> list[AuditEntry]:
        return [AuditEntry.of(r) for r in await self.store.league_audit(
            league.id, limit, action=action, game_id=game_id)]

    async def configure(self, league: League, by: int, changes: dict[str, Any]) -> LeagueSettings:
        """Change settings (validated here); logged with the old and new values."""
        if not changes:
            raise LeagueError.said("league.err.no_setting")
        if "table_size" in changes and not tables.MIN_TABLE <= changes["table_size"] <= \
                tables.MAX_TABLE:
            raise LeagueError.said("league.err.table_range")
        if "start_minutes" in changes and not 0 <= changes["start_minutes"] <= 24 * 60:
            raise LeagueError.said("league.err.window_range")
        if "round_days" in changes and not 1 <= changes["round_days"] <= 60:
            raise LeagueError.said("league.err.days_range")
        old = await self.store.league_settings(league.id)
        stored = {k: (int(v) if isinstance(v, bool) else v) for k, v in changes.items()}
        await self.store.set_league_settings(league.id, stored)
        detail = ", ".join(f"{k}: {old.get(k)} → {stored[k]}" for k in stored)
        await self.audit(league, by=by, action="settings", detail=detail)
        return await self.settings(league)

    async def set_channel(self, league: League, by: int, channel_id: int, on: bool) -> bool:
        changed = await self.store.set_league_channel(league.id, channel_id, on)
        if changed:
            await self.audit(league, by=by, action="channel add" if on else "channel remove",
                             detail=f"<#{channel_id}>")
        return changed

    async def set_rounds(self, league: League, by: int, rounds: int | None) -> Season:
        season = await self.current_season(league)
        if rounds is not None and not 1 <= rounds <= 100:
            raise LeagueError.said("league.err.rounds_range")
        await self.store.set_season_rounds(season.id, rounds)
        await self.audit(league, by=by, action="season rounds", season=season,
                         detail=str(rounds))
        return season

    # -- player preferences --------------------------------------------------------------

    async def _own_registration(self, league: League, user_id: int) -> Season:
        season = await self.current_season(league)
        if not await self.is_registered(season, user_id):
            raise NotRegistered.said("league.err.not_registered", season=season.name)
        return season

    async def set_days(self, league: League, user_id: int, text: str,
                       lang: str = i18n.DEFAULT) -> frozenset[int]:
        """The member's weekdays, named in English or in `lang` (the reader's language)."""
        season = await self._own_registration(league, user_id)
        try:
            days = tables.parse_days(text, day_names(lang), [i18n.t("league.any_day", lang)])
        except ValueError as exc:
            raise LeagueError.said("league.err.bad_day", day=repr(str(exc))) from None
        await self.store.set_registration_prefs(
            season.id, user_id, {"days": " ".join(tables.WEEKDAYS[d] for d in sorted(days))})
        return days

    async def set_sit_out(self, league: League, user_id: int, on: bool) -> Season:
        season = await self._own_registration(league, user_id)
        await self.store.set_registration_prefs(season.id, user_id, {"sit_out": int(on)})
        return season

    async def set_substitute(self, league: League, user_id: int, on: bool) -> Season:
        season = await self._own_registration(league, user_id)
        await self.store.set_registration_prefs(season.id, user_id, {"substitute": int(on)})
        return season

    # -- rounds --------------------------------------------------------------------------

    async def _met(self, season: Season) -> dict[tuple[int, int], int]:
        games = await self._season_games(season)
        return tables.met_counts([[p.user_id for p in g.counted()] for g in games])

    async def start_round(self, league: League, by: int, *, guild_id: int,
                          seed: Callable[[], int]) -> RoundStarted:
        """Form the tables of the next round and open one lobby per table channel."""
        season = await self.current_season(league)
        conf = await self.settings(league)
        rounds = await self.store.league_rounds(season.id)
        if rounds and not rounds[-1].begun:
            raise LeagueError.said("league.err.round_waiting", round=rounds[-1].number)
        planned = await self.store.season_rounds(season.id)
        number = len(rounds) + 1
        if planned is not None and number > planned:
            raise LeagueError.said("league.err.rounds_done", season=season.name,
                                   rounds=planned)
        now = self.now()
        round_weekdays = tables.round_days(now.weekday(), conf.round_days)
        prefs = await self.store.registration_prefs(season.id)
        standings = {r.user_id: r.rating for r in build_table(await self._season_games(season))}
        candidates, sitting, away = [], [], []
        for p in prefs:
            if p.substitute:
                continue
            if p.sit_out:
                sitting.append(p.user_id)
                continue
            if not tables.parse_days(p.days) & round_weekdays:
                away.append(p.user_id)
                continue
            candidates.append(tables.Candidate(p.user_id, standings.get(p.user_id, START_RATING)))
        plan = tables.form_tables(candidates, met=await self._met(season),
                                  preferred=conf.table_size, allow_ai=conf.allow_ai)
        if not plan.tables:
            raise LeagueError.said("league.err.too_few", n=len(candidates), round=number,
                                   need=tables.MIN_TABLE)
        free = [c for c in conf.channels if await self.store.open_game(c) is None]
        if len(free) < len(plan.tables):
            raise LeagueError.said("league.err.no_channels", round=number,
                                   need=len(plan.tables), free=len(free),
                                   total=len(conf.channels))
        start_by = iso(now + timedelta(minutes=conf.start_minutes))
        deadline = iso(now + timedelta(days=conf.round_days))
        games = []
        for i, (t, channel_id) in enumerate(zip(plan.tables, free, strict=False), 1):
            options = {"league": {"season_id": season.id, "season": season.name,
                                  "league": league.name, "round": number, "table_no": i,
                                  "table": list(t.players), "ai_seats": t.ai_seats,
                                  "start_by": start_by, "deadline": deadline},
                       "max_players": t.seats}
            games.append((guild_id, channel_id, (), options, seed(), i))
        try:
            round_id, ids = await self.store.create_league_round(
                season_id=season.id, number=number, by=by, now=iso(now), start_by=start_by,
                deadline=deadline, games=games)
        except ChannelBusy:
            raise LeagueError.said("league.err.table_taken") from None
        out = tuple(RoundTable(i, gid, ch, t.players, t.ai_seats)
                    for i, (gid, t, ch) in enumerate(zip(ids, plan.tables, free, strict=False), 1))
        await self.audit(league, by=by, action="round start", season=season,
                         detail=audit_detail("league.audit.round_start", number=number, tables=[
                             {"n": t.number, "channel": t.channel_id,
                              "players": " ".join(f"<@{u}>" for u in t.players),
                              "ai": t.ai_seats} for t in out]))
        return RoundStarted(league, season, number, round_id, start_by, deadline, out,
                            plan.benched, tuple(sitting), tuple(away))

    async def current_round(self, season: Season) -> RoundRow | None:
        rounds = await self.store.league_rounds(season.id)
        return rounds[-1] if rounds else None

    async def round_to_begin(self, league: League, *, force: bool = False
                             ) -> tuple[Season, RoundRow]:
        """The round that may begin now; refuses (changing nothing) when none is waiting or
        its start window is still open without `force`."""
        season = await self.current_season(league)
        rnd = await self.current_round(season)
        if rnd is None or rnd.begun:
            raise LeagueError.said("league.err.no_round_waiting")
        if not force and self.now() < parse_iso(rnd.start_by):
            raise LeagueError.said("league.err.window_open", round=rnd.number,
                                   time=rnd.start_by[11:16])
        return season, rnd

    async def begin_round(self, league: League, by: int | None, *, force: bool = False
                          ) -> tuple[int, list[TableBegun]]:
        """After the start window: seat substitutes (else AI seats, if allowed) for players
        who did not join their table's lobby, then return the lobbies ready to start. Tables
        left with fewer than 2 players are cancelled (their game ended)."""
        season, rnd = await self.round_to_begin(league, force=force)
        round_id, number = rnd.id, rnd.number
        if not await self.store.mark_round_begun(round_id, iso(self.now())):
            raise LeagueError.said("league.err.just_begun", round=number)
        conf = await self.settings(league)
        prefs = await self.store.registration_prefs(season.id)
        round_games = await self.store.round_games(round_id)
        drawn = set()
        lobbies = []
        for game_id, table_no in round_games:
            game = await self.store.get_game(game_id)
            if game is not None:
                drawn |= set((game.options.get("league") or {}).get("table") or ())
                lobbies.append((table_no, game))
        subs = [(p.user_id, p.name) for p in prefs if p.substitute and p.user_id not in drawn]
        names = {p.user_id: p.name for p in prefs}
        out: list[TableBegun] = []
        for table_no, game in lobbies:
            if game.status is not GameStatus.LOBBY:
                continue
            meta = dict(game.options.get("league") or {})
            table = list(meta.get("table") or ())
            seated = {s.user_id for s in game.players}
            seats = list(game.players)
            no_shows: list[tuple[int, int | None]] = []
            ai: list[str] = []
            for uid in table:
                if uid in seated:
                    continue
                if subs:
                    sub_id, sub_name = subs.pop(0)
                    seats.append(Seat(sub_id, engine_name(sub_name, [s.name for s in seats])))
                    no_shows.append((uid, sub_id))
                elif conf.allow_ai:
                    name = engine_name(f"{AI_NAME} {len(ai) + 1}", [s.name for s in seats])
                    seats.append(Seat(0, name, ai=AI_LEVEL))
                    ai.append(name)
                    no_shows.append((uid, None))
                else:
                    no_shows.append((uid, None))
            for _ in range(int(meta.get("ai_seats") or 0)):
                name = engine_name(f"{AI_NAME} {len(ai) + 1}", [s.name for s in seats])
                seats.append(Seat(0, name, ai=AI_LEVEL))
                ai.append(name)
            meta["no_shows"] = [u for u, _ in no_shows]
            options = dict(game.options)
            options["league"] = meta
            options["max_players"] = max(len(seats), MIN_PLAYERS)
            # the round's deadline on the game's clock: a turn limit that fits the whole game
            # before it (turns x limit <= time left), fixed when the game starts
            left = (parse_iso(str(meta.get("deadline"))) - self.now()).total_seconds()
            options["clock"] = {"limit": round_turn_limit(left, len(seats)),
                                "remind": (options.get("clock") or {}).get("remind", "dm")}
            humans = [s for s in seats if s.user_id > 0]
            cancelled = len(humans) < MIN_PLAYERS or len(seats) < MIN_PLAYERS
            game = await self.store.update_lobby(game.id, players=seats, options=options,
                                                 opener_id=humans[0].user_id if humans
                                                 else None)
            if cancelled:
                await self.store.set_status(game.id, GameStatus.ENDED)
            for uid, sub in no_shows:
                what = ("league.audit.replaced_by" if sub else "league.audit.replaced_ai"
                        if conf.allow_ai else "league.audit.plays_without")
                await self.audit(league, by=by, action="no-show", season=season,
                                 game_id=game.id,
                                 detail=audit_detail("league.audit.no_show", number=number,
                                                     table=table_no, user=uid,
                                                     name=str(names.get(uid, uid)),
                                                     what=what, sub=sub or 0))
            if cancelled:
                await self.audit(league, by=by, action="table cancelled", season=season,
                                 game_id=game.id,
                                 detail=audit_detail("league.audit.cancelled", number=number,
                                                     table=table_no))
            out.append(TableBegun(table_no, game, tuple(no_shows), tuple(ai), cancelled))
        return number, out

    # -- disputes: void, award, re-open --------------------------------------------------

    async def _league_game(self, league: League, game_id: int
                           ) -> tuple[Season, GameRow, LeagueGameFlags]:
        tagged = await self.season_of_game(game_id)
        if tagged is None or tagged[0].id != league.id:
            raise LeagueError.said("league.err.not_league_game", game=game_id,
                                   league=league.name)
        game = await self.store.get_game(game_id)
        flags = await self.store.league_game_flags(game_id)
        assert game is not None and flags is not None
        return tagged[1], game, flags

    async def void(self, league: League, by: int, game_id: int, reason: str | None) -> Season:
        reason = clean_reason(reason)
        await self.sync()
        season, game, flags = await self._league_game(league, game_id)
        if flags.voided_at is not None:
            raise LeagueError.said("league.err.already_void", game=game_id)
        if game.status.is_open:
            raise LeagueError.said("league.err.still_open", game=game_id,
                                   status=i18n.Msg(f"league.status.{game.status.value}"))
        await self.store.set_league_result(game_id, placings=None,
                                           recorded_at=flags.recorded_at or iso(self.now()),
                                           voided_at=iso(self.now()), awarded=flags.awarded)
        await self.audit(league, by=by, action="void", reason=reason, season=season,
                         game_id=game_id)
        return season

    async def award(self, league: League, by: int, game_id: int, order: Sequence[int],
                    reason: str | None, *,
                    stop: Callable[[GameRow], Awaitable[None]] | None = None) -> Recorded:
        """Set a game's result by hand: `order` lists its members best first (each one
        ranked by position). A game still open is stopped first (with `stop`, e.g. the game
        service's end, once everything is checked)."""
        reason = clean_reason(reason)
        season, game, flags = await self._league_game(league, game_id)
        if len(set(order)) != len(order) or not order:
            raise LeagueError.said("league.err.name_once")
        members = {s.user_id for s in game.players if s.user_id > 0}
        meta = game.options.get("league") or {}
        if game.status is GameStatus.LOBBY and meta.get("table"):
            members |= set(meta["table"])
        for users in (game.options.get("left") or {}).values():
            members |= {int(u) for u in (users if isinstance(users, list) else [users])}
        unknown = [u for u in order if u not in members]
        missing = [u for u in members if u not in order]
        if unknown or missing:
            raise LeagueError.said("league.err.name_every", game=game_id,
                                   members=", ".join(f"<@{u}>" for u in sorted(members)))
        if game.status.is_open:
            if stop is not None:
                await stop(game)
            else:
                await self.store.set_status(game_id, GameStatus.ENDED)
        seats = {s.user_id: s.name for s in game.players}
        races = await self._races(game_id)
        placings = [Placing(u, seats.get(u, f"member {u}"), i, 0,
                            tuple(races.get(seats.get(u, ""), ())))
                    for i, u in enumerate(order, 1)]
        before = await self._season_games(season)
        await self.store.set_league_result(
            game_id, placings=[(p.user_id, p.seat, p.rank, p.coins, " ".join(p.races))
                               for p in placings],
            recorded_at=iso(self.now()), voided_at=None, awarded=True)
        await self.audit(league, by=by, action="award", reason=reason, season=season,
                         game_id=game_id,
                         detail=", ".join(f"{p.rank}. <@{p.user_id}>" for p in placings))
        changes = self._changes(before, await self._season_games(season), placings)
        return Recorded(game_id, league, season, tuple(placings), changes)

    async def reopen(self, league: League, by: int, game_id: int, reason: str | None) -> str:
        """Undo a void or an award: the game counts again with the result it was played to
        (an awarded game that never finished goes back to having no result)."""
        reason = clean_reason(reason)
        season, game, flags = await self._league_game(league, game_id)
        recorded_at, voided_at, awarded = flags.recorded_at, flags.voided_at, flags.awarded
        if voided_at is None and not awarded:
            raise LeagueError.said("league.err.nothing_to_reopen", game=game_id)
        if voided_at is not None and not awarded:
            await self.store.set_league_result(game_id, placings=None, recorded_at=recorded_at,
                                               voided_at=None, awarded=False)
            what = "counts again"
        elif game.status is GameStatus.FINISHED:
            placings = await self.played_placings(game) or []
            await self.store.set_league_result(
                game_id, placings=[(p.user_id, p.seat, p.rank, p.coins, " ".join(p.races))
                                   for p in placings],
                recorded_at=iso(self.now()), voided_at=None, awarded=False)
            what = "counts again with the result it was played to"
        else:
            await self.store.set_league_result(game_id, placings=[], recorded_at=None,
                                               voided_at=None, awarded=False)
            what = "has no result again"
        await self.audit(league, by=by, action="reopen", reason=reason, season=season,
                         game_id=game_id, detail=audit_detail(f"league.audit.reopened.{REOPEN_OUTCOMES[what]}"))
        return what

    # -- export and summary --------------------------------------------------------------

    async def export(self, league: League, season_name: str | None = None
                     ) -> tuple[Season, str, str]:
        """(season, CSV text, JSON text) of a season's games and results."""
        st = await self.standings(league, season_name)
        games = await self._season_games(st.season, voided=True)
        regs = await self.registrations(st.season, include_left=True)
        names = {r.user_id: r.name for r in regs}
        rows = league_export.game_rows(league.name, st.season.name, games, names)
        return (st.season, league_export.to_csv(rows),
                league_export.to_json(league.name, st.season.name, games, names, st.rows))

    async def summaries_due(self, every: timedelta = timedelta(days=7), *, shards: Any = None
                            ) -> list[tuple[League, int]]:
        """Leagues with a summary channel and an open season whose last weekly summary is
        older than `every` (or never posted); each is marked as posted now (a league another
        process marked first is left to it)."""
        rows = await self.store.league_summary_channels()
        now = self.now()
        out = []
        for row in rows:
            lg, at = row.league, row.summary_at
            if shards is not None and not shards.serves(lg.guild_id):
                continue  # another process's guild (bot.store.Shards)
            if await self.open_season(lg) is None:
                continue
            if at is not None and now - parse_iso(at) < every:
                continue
            if await self.store.claim_league_summary(lg.id, at, iso(now)):  # once, across processes
                out.append((lg, row.channel_id))
        return out


__all__ = [
    "AUDIT_ACTIONS", "REOPEN_OUTCOMES", "AuditEntry", "League", "LeagueError", "LeagueService", "LeagueSettings", "NoLeague",
    "NoSeason", "NotOrganiser", "NotRegistered", "Placing", "PlayedGame", "PlayerCard",
    "RatingCard", "Recorded", "Registration", "RoundStarted", "Row", "Season", "Standings",
    "TableBegun", "build_table", "placement_points", "win_shares",
]
