"""League results: recording a finished game once, standings, ratings and a member's card
recomputed from the recorded results, and the disputes (void, award, re-open)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any

import i18n
from bot.league.audit import audit_detail
from bot.league.models import (
    REOPEN_OUTCOMES,
    START_RATING,
    LeagueError,
    PlayerCard,
    RatingCard,
    Recorded,
    Standings,
    clean_reason,
    iso,
)
from bot.league.ratings import counted_ranks
from bot.league.seasons import LeagueBase
from bot.league.standings import Placing, PlayedGame, build_table
from bot.store import GameRow, GameStatus, League, LeagueGameFlags, Season


class LeagueResults(LeagueBase):
    """Recording results, standings and ratings from them, and the disputes."""

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
        for uid, seat_name in _left_seats(game).items():
            if uid not in holders:
                placings.append(Placing(uid, seat_name, last, 0, tuple(races.get(seat_name, ()))))
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
                users |= set(game.opts.drawn)
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
                    reason: str | None) -> Recorded:
        """Set a game's result by hand: `order` lists its members best first (each one
        ranked by position). A game still open is stopped first, once everything is checked
        (ended in a session of its channel, as a moderator's /sw-mod end does)."""
        reason = clean_reason(reason)
        season, game, flags = await self._league_game(league, game_id)
        if len(set(order)) != len(order) or not order:
            raise LeagueError.said("league.err.name_once")
        members = {s.user_id for s in game.players if s.user_id > 0}
        if game.status is GameStatus.LOBBY:
            members |= set(game.opts.drawn)
        members |= set(_left_seats(game))
        unknown = [u for u in order if u not in members]
        missing = [u for u in members if u not in order]
        if unknown or missing:
            raise LeagueError.said("league.err.name_every", game=game_id,
                                   members=", ".join(f"<@{u}>" for u in sorted(members)))
        # a game played to its end keeps the coins it was played to; one stopped has none
        coins: dict[int, int] = {}
        if game.status is GameStatus.FINISHED:
            coins = {p.user_id: p.coins for p in await self.played_placings(game) or ()}
        if game.status.is_open:
            async with self.games.session(game.channel_id, want="open", game_id=game.id) as s:
                await s.set_status(GameStatus.ENDED)
        # each member's seat: the one they hold, else the one they were kicked from (or
        # quit); a member drawn for a lobby they never joined has none
        seats = {**_left_seats(game), **{s.user_id: s.name for s in game.players
                                          if s.user_id > 0}}
        races = await self._races(game_id)
        placings = [Placing(u, seats.get(u, f"member {u}"), i, coins.get(u, 0),
                            tuple(races.get(seats[u], ())) if u in seats else ())
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
                         game_id=game_id,
                         detail=audit_detail(f"league.audit.reopened.{REOPEN_OUTCOMES[what]}"))
        return what


def _left_seats(game: GameRow) -> dict[int, str]:
    """Member -> the seat they left mid-game (kicked, or quit: each seat lists them under
    `left`)."""
    out: dict[int, str] = {}
    for seat in sorted(game.players, key=lambda s: s.name):
        for uid in seat.left:
            if uid > 0:
                out.setdefault(uid, seat.name)
    return out
