"""Community leagues: seasons, registration, league games, standings and ratings.

Pure data; every statement goes through the store's methods (bot.store owns the SQL); no
discord objects. A league belongs to a
guild and has at most one open season. Members register for the open season; a game opened
with `/league game` is tagged with that season, only its registered members may take a seat,
and when the game finishes its final ranking is recorded once (keyed by game id). Standings
and ratings are recomputed from the recorded results in the order the games finished, so
they are always consistent with the results and never drift.

Scoring, per finished game with n counted players (seats held by a member):
- points: the player in place p gets 12 * (n - p) / (n - 1), so first 12, last 0 whatever
  the table size (2p 12/0, 3p 12/6/0, 4p 12/8/4/0, 5p 12/9/6/3/0); tied players share the
  places they cover equally (two tied winners of a 3-player game get (12 + 6) / 2 = 9 each);
- wins: a win shared by w players counts 1/w for each;
- average rank: the rank as announced at the end of the game (ties share the better rank);
- rating: multiplayer Elo, everyone starts at 1500. Every pair (i, j) of a game is a duel
  with expected score E = 1 / (1 + 10 ** ((R_j - R_i) / 400)) and result 1 (i ranked above
  j), 1/2 (tied) or 0; i's rating moves by K / (n - 1) * sum over j of (result - E) with
  K = 32, all from the ratings before the game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.service import MAX_PLAYERS, MIN_PLAYERS, ServiceError, engine_name
from bot.store import (
    ChannelBusy,
    Duplicate,
    GameRow,
    GameStatus,
    League,
    Registration,
    Season,
    Seat,
    Store,
)

START_RATING = 1500.0
K_FACTOR = 32.0
POINTS_FOR_FIRST = 12.0
NAME_LIMIT = 40

SCORING_HELP = (
    "Points per game: place p of n gets 12×(n−p)/(n−1) (first 12, last 0; ties share). "
    "Shared wins are split. Rating: pairwise Elo from 1500, K=32/(n−1) per opponent."
)

# -- errors ---------------------------------------------------------------------------------


class LeagueError(ServiceError):
    code = "league"


class NoLeague(LeagueError):
    code = "no_league"


class NoSeason(LeagueError):
    code = "no_season"


class NotRegistered(LeagueError):
    code = "not_registered"


# -- rows -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Placing:
    user_id: int
    seat: str
    rank: int
    coins: int


@dataclass(frozen=True, slots=True)
class PlayedGame:
    game_id: int
    season_id: int
    finished_at: str
    placings: tuple[Placing, ...]


@dataclass(slots=True)
class Row:
    """One line of a standings table."""

    user_id: int
    name: str
    played: int = 0
    wins: float = 0.0
    rank_total: int = 0
    points: float = 0.0
    rating: float = START_RATING
    last_change: float = 0.0
    registered: bool = False

    @property
    def avg_rank(self) -> float | None:
        return self.rank_total / self.played if self.played else None


@dataclass(frozen=True, slots=True)
class Standings:
    league: League
    season: Season
    rows: tuple[Row, ...]
    games: int  # finished games counted
    open_games: int  # league games of the season still in their lobby or running


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
class Recorded:
    game_id: int
    league: League
    season: Season
    placings: tuple[Placing, ...]
    changes: dict[int, float] = field(default_factory=dict)  # user id -> season rating change


# -- scoring (pure) -------------------------------------------------------------------------


def placement_points(ranks: Sequence[int]) -> list[float]:
    """Points of each player from the ranks of one game (1 = best; ties share a rank)."""
    n = len(ranks)
    if n < 2:
        return [0.0] * n
    out = []
    for r in ranks:
        tied = sum(1 for q in ranks if q == r)
        # a tied group with rank r covers places r .. r + tied - 1
        places = range(r, r + tied)
        out.append(sum(POINTS_FOR_FIRST * (n - p) / (n - 1) for p in places) / tied)
    return out


def win_shares(ranks: Sequence[int]) -> list[float]:
    winners = sum(1 for r in ranks if r == 1)
    return [1.0 / winners if r == 1 else 0.0 for r in ranks]


def expected(r_i: float, r_j: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((r_j - r_i) / 400.0))


def elo_changes(ratings: Sequence[float], ranks: Sequence[int], k: float = K_FACTOR
                ) -> list[float]:
    """Rating change of each player of one game: pairwise Elo, K scaled by 1/(n-1)."""
    n = len(ratings)
    if n < 2:
        return [0.0] * n
    out = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            if i == j:
                continue
            result = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
            total += result - expected(ratings[i], ratings[j])
        out.append(k / (n - 1) * total)
    return out


def compact_ranks(ranks: Sequence[int]) -> list[int]:
    """Ranks among the counted players only: 1 + how many of them finished strictly ahead."""
    return [1 + sum(1 for q in ranks if q < r) for r in ranks]


def build_table(
    games: Iterable[PlayedGame],
    names: dict[int, str] | None = None,
    registered: Iterable[int] = (),
) -> list[Row]:
    """Fold the games (in the order given) into standings rows, best first."""
    names = names or {}
    rows: dict[int, Row] = {}

    def row(uid: int, seat: str) -> Row:
        if uid not in rows:
            rows[uid] = Row(uid, names.get(uid, seat))
        return rows[uid]

    for game in games:
        placings = [p for p in game.placings if p.user_id]
        if not placings:
            continue
        ranks = compact_ranks([p.rank for p in placings])
        players = [row(p.user_id, p.seat) for p in placings]
        points = placement_points(ranks)
        wins = win_shares(ranks)
        changes = elo_changes([r.rating for r in players], ranks)
        for r, rank, pts, win, change in zip(players, ranks, points, wins, changes,
                                             strict=True):
            r.played += 1
            r.rank_total += rank
            r.points += pts
            r.wins += win
            r.rating += change
            r.last_change = change
    for uid in registered:
        row(uid, names.get(uid, f"member {uid}")).registered = True
    return sorted(rows.values(),
                  key=lambda r: (-round(r.points, 6), -round(r.wins, 6), -r.rating,
                                 r.name.casefold(), r.user_id))


def clean_name(raw: str, what: str) -> str:
    name = re.sub(r"\s+", " ", raw).strip()
    name = "".join(ch for ch in name if ch.isprintable() and ch not in "`*_~|<>@#\\")
    if not name:
        raise LeagueError(f"Give the {what} a name made of letters or digits.")
    if len(name) > NAME_LIMIT:
        raise LeagueError(f"That {what} name is too long: {NAME_LIMIT} characters at most.")
    return name


# -- the service ----------------------------------------------------------------------------


class LeagueService:
    """Leagues of one bot, on top of the store's league methods."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- leagues -------------------------------------------------------------------------

    async def leagues(self, guild_id: int) -> list[League]:
        return await self.store.leagues(guild_id)

    async def create_league(self, guild_id: int, name: str, by: int | None = None) -> League:
        name = clean_name(name, "league")
        try:
            return await self.store.create_league(guild_id, name, by)
        except Duplicate:
            raise LeagueError(f"This server already has a league called {name}. "
                              "Pick another name.") from None

    async def league(self, guild_id: int, name: str | None = None) -> League:
        """The named league, or the server's only league when no name is given."""
        leagues = await self.leagues(guild_id)
        if name:
            wanted = name.strip().casefold()
            for lg in leagues:
                if lg.name.casefold() == wanted:
                    return lg
            known = ", ".join(lg.name for lg in leagues)
            raise NoLeague(f"There is no league called {name.strip()} here"
                           + (f"; leagues: {known}." if known else
                              ". A moderator can create one with `/league create`."))
        if not leagues:
            raise NoLeague("This server has no league yet. A moderator can create one with "
                           "`/league create`.")
        if len(leagues) > 1:
            raise NoLeague("This server has several leagues ("
                           + ", ".join(lg.name for lg in leagues)
                           + "); name one with the `league` option.")
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
            raise NoSeason(f"No season of {league.name} is open right now; a moderator can "
                           "start one with `/league season start`.")
        return season

    async def season(self, league: League, name: str | None = None) -> Season:
        """The named season, else the open one, else the latest that ended."""
        seasons = await self.seasons(league)
        if name:
            wanted = name.strip().casefold()
            for s in seasons:
                if s.name.casefold() == wanted:
                    return s
            raise NoSeason(f"{league.name} has no season called {name.strip()}"
                           + ("; seasons: " + ", ".join(s.name for s in seasons) + "."
                              if seasons else "."))
        if not seasons:
            raise NoSeason(f"{league.name} has had no season yet; a moderator can start one "
                           "with `/league season start`.")
        open_ = [s for s in seasons if s.is_open]
        return open_[0] if open_ else seasons[-1]

    async def start_season(self, league: League, name: str, by: int | None = None) -> Season:
        name = clean_name(name, "season")
        running = await self.open_season(league)
        if running is not None:
            raise LeagueError(f"{running.name} is still running in {league.name}; end it first "
                              "with `/league season end`.")
        try:
            return await self.store.start_season(league.id, name, by)
        except Duplicate:
            again = await self.open_season(league)
            if again is not None:
                raise LeagueError(f"{again.name} is still running in {league.name}; end it "
                                  "first with `/league season end`.") from None
            raise LeagueError(f"{league.name} already had a season called {name}; season "
                              "names are unique in a league, so pick another.") from None

    async def end_season(self, league: League, by: int | None = None) -> Season:
        season = await self.current_season(league)
        return await self.store.end_season(season.id, by)

    # -- registration --------------------------------------------------------------------

    async def registration(self, season: Season, user_id: int) -> Registration | None:
        return await self.store.registration(season.id, user_id)

    async def is_registered(self, season: Season, user_id: int) -> bool:
        reg = await self.registration(season, user_id)
        return reg is not None and reg.active

    async def register(self, league: League, user_id: int, name: str) -> Season:
        season = await self.current_season(league)
        reg = await self.registration(season, user_id)
        if reg is not None and reg.active:
            raise LeagueError(f"You're already registered for {season.name}. Play with "
                              "`/league game`.")
        await self.store.register(season.id, user_id, name[:NAME_LIMIT] or "player")
        return season

    async def unregister(self, league: League, user_id: int) -> Season:
        """Leave the open season; results already played stay in the standings."""
        season = await self.current_season(league)
        if not await self.is_registered(season, user_id):
            raise NotRegistered(f"You're not registered for {season.name}, so there is "
                                "nothing to leave.")
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
            raise NotRegistered(f"You're not registered for {season.name}; use `/league join`, "
                                "then open the game.")
        wanted: list[tuple[int, str]] = []
        if opener_registered:
            wanted.append((opener_id, opener_name))
        for uid, name in members:
            if any(uid == w[0] for w in wanted):
                continue
            if not await self.is_registered(season, uid):
                raise NotRegistered(f"<@{uid}> is not registered for {season.name}; they can "
                                    "use `/league join`.")
            wanted.append((uid, name))
        limit = seats if seats is not None else MAX_PLAYERS
        if not MIN_PLAYERS <= limit <= MAX_PLAYERS:
            raise LeagueError(f"Small World is for {MIN_PLAYERS} to {MAX_PLAYERS} players.")
        if len(wanted) > limit:
            raise LeagueError(f"That is {len(wanted)} players for {limit} seats; name fewer "
                              "players or raise `seats`.")
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
            raise LeagueError("This channel already has a game. Finish it first, or open the "
                              "league game in another channel.") from None
        return game, season

    async def check_seat(self, game: GameRow, user_id: int) -> None:
        """GameService seat check: only registered members sit in a league game."""
        tagged = await self.season_of_game(game.id)
        if tagged is None:
            return
        _, season = tagged
        if not await self.is_registered(season, user_id):
            raise NotRegistered(f"<@{user_id}> is not registered for {season.name}, and only "
                                "registered players sit in this league game; use `/league join`"
                                " first.")

    # -- results -------------------------------------------------------------------------

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
        ranking = await self.store.final_ranking(game_id)
        if ranking is None:
            return None
        placings = []
        for entry in ranking:
            seat = game.seat_named(str(entry.get("player")))
            if seat is None or not seat.user_id:
                continue  # a seat left vacant by a moderator kick is not counted
            placings.append(Placing(seat.user_id, seat.name, int(entry["rank"]),
                                    int(entry.get("total", 0))))
        before = await self._season_games(season)
        if not await self.store.record_league_result(
                game_id, [(p.user_id, p.seat, p.rank, p.coins) for p in placings]):
            return None
        rows_before = {r.user_id: r.rating for r in build_table(before)}
        after = {r.user_id: r.rating for r in build_table(await self._season_games(season))}
        changes = {p.user_id: after.get(p.user_id, START_RATING)
                   - rows_before.get(p.user_id, START_RATING) for p in placings}
        return Recorded(game_id, league, season, tuple(placings), changes)

    async def sync(self) -> list[Recorded]:
        """Record every finished league game whose result is missing (e.g. after a crash)."""
        out = []
        for game_id in await self.store.unrecorded_league_games():
            rec = await self.record(game_id)
            if rec is not None:
                out.append(rec)
        return out

    @staticmethod
    def _played(rows: Iterable[Any]) -> list[PlayedGame]:
        games: dict[int, PlayedGame] = {}
        for r in rows:
            pg = games.get(r.game_id)
            p = Placing(r.user_id, r.seat, r.rank, r.coins)
            games[r.game_id] = (PlayedGame(r.game_id, r.season_id, r.finished_at,
                                           (*pg.placings, p)) if pg
                                else PlayedGame(r.game_id, r.season_id, r.finished_at, (p,)))
        return list(games.values())

    async def _season_games(self, season: Season) -> list[PlayedGame]:
        return self._played(await self.store.league_results(season_id=season.id))

    async def standings(self, league: League, season_name: str | None = None) -> Standings:
        await self.sync()
        season = await self.season(league, season_name)
        games = await self._season_games(season)
        regs = await self.registrations(season, include_left=True)
        names = {r.user_id: r.name for r in regs}
        rows = build_table(games, names, [r.user_id for r in regs if r.active])
        open_games = await self.store.open_league_games(season.id)
        return Standings(league, season, tuple(rows), len(games), open_games)

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
        games = self._played(await self.store.league_results(league_id=league.id))
        names = await self.store.registered_names([s.id for s in seasons])
        all_rows = build_table(games, names)
        all_time = next((r for r in all_rows if r.user_id == user_id), None)
        return RatingCard(league, season, user_id, season_row, place, size, all_time)
