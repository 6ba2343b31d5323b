"""League rounds: forming a round's tables (bot.league.tables) and opening their lobbies,
then, after the start window, seating substitutes or AI seats for the no-shows and starting
the games (through the game service's sessions, like every writer of a game)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

from bot.errors import NoGameHere, ServiceError
from bot.league import tables
from bot.league.audit import audit_detail
from bot.league.models import (
    START_RATING,
    LeagueError,
    RoundStarted,
    RoundTable,
    TableBegun,
    iso,
    parse_iso,
)
from bot.league.results import LeagueResults
from bot.league.standings import build_table
from bot.seats import MIN_PLAYERS, board_for, engine_name
from bot.store import ChannelBusy, GameRow, GameStatus, League, RoundRow, Season, Seat
from engine import data as engine_data

log = logging.getLogger(__name__)

AI_NAME = "AI"
AI_LEVEL = "normal"  # AI seats of league tables (they never earn points or rating)


def round_turn_limit(seconds_left: float, seats: int, *, floor: int = 60,
                     ceiling: int = 14 * 86400) -> int:
    """The per-turn limit that makes a game of `seats` players fit the round's deadline even
    if every turn uses its whole limit: the time left over the game's turns (board rounds ×
    seats), within the clock's bounds."""
    turns = engine_data.board(board_for(max(MIN_PLAYERS, seats))).rounds * max(MIN_PLAYERS, seats)
    return int(max(floor, min(ceiling, seconds_left // turns)))


class LeagueRounds(LeagueResults):
    """Starting a round (its tables and lobbies) and beginning it (its no-shows)."""

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
                deadline=deadline, games=games, sat_out=sitting)
        except ChannelBusy:
            raise LeagueError.said("league.err.table_taken") from None
        await self.timers.arm(league.id)  # the round begins when its start window closes
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
        who did not join their table's lobby and start each table's game. Tables left with
        fewer than 2 players are cancelled (their game ended).

        Each table's seats are rewritten and its game started in one session of the game
        service (the channel's lock, the lobby read under it), so a member's Join lands
        either before it (seated) or after it (refused: the game started)."""
        season, rnd = await self.round_to_begin(league, force=force)
        if not await self.store.mark_round_begun(rnd.id, iso(self.now())):
            raise LeagueError.said("league.err.just_begun", round=rnd.number)
        await self.timers.arm(league.id)  # begun: its window's timer goes
        conf = await self.settings(league)
        prefs = await self.store.registration_prefs(season.id)
        tables_of_round = []
        drawn: set[int] = set()
        for game_id, table_no in await self.store.round_games(rnd.id):
            game = await self.store.get_game(game_id)
            if game is not None:  # the drawn players are fixed when the round starts
                drawn |= set(game.opts.drawn)
                tables_of_round.append((table_no, game))
        subs = [(p.user_id, p.name) for p in prefs if p.substitute and p.user_id not in drawn]
        names = {p.user_id: p.name for p in prefs}
        out: list[TableBegun] = []
        for table_no, game in tables_of_round:
            try:
                begun = await self._begin_table(table_no, game, by, conf.allow_ai, subs)
            except NoGameHere:  # ended by a moderator, or the channel has another game
                log.info("round %s table %s: its lobby is gone", rnd.id, table_no)
                continue
            except ServiceError as exc:  # the other tables still begin
                log.warning("round %s table %s did not start: %s", rnd.id, table_no,
                            exc.message)
                continue
            if begun is None:
                continue
            for uid, sub in begun.no_shows:
                what = ("league.audit.replaced_by" if sub else "league.audit.replaced_ai"
                        if conf.allow_ai else "league.audit.plays_without")
                await self.audit(league, by=by, action="no-show", season=season,
                                 game_id=game.id,
                                 detail=audit_detail("league.audit.no_show", number=rnd.number,
                                                     table=table_no, user=uid,
                                                     name=str(names.get(uid, uid)),
                                                     what=what, sub=sub or 0))
            if begun.cancelled:
                await self.audit(league, by=by, action="table cancelled", season=season,
                                 game_id=game.id,
                                 detail=audit_detail("league.audit.cancelled",
                                                     number=rnd.number, table=table_no))
            out.append(begun)
        return rnd.number, out

    async def _begin_table(self, table_no: int, lobby: GameRow, by: int | None,
                           allow_ai: bool, subs: list[tuple[int, str]]) -> TableBegun | None:
        """One table: under its channel's lock, seat a substitute (else an AI seat) for each
        drawn player who did not join, then start the game, or end it when fewer than 2
        players are left. `subs` loses the substitutes seated. None: not a lobby any more."""
        games = self.games
        async with games.session(lobby.channel_id, want="open", game_id=lobby.id) as s:
            game = s.game
            if game.status is not GameStatus.LOBBY:
                return None
            meta = dict(game.options.get("league") or {})
            seats = list(game.players)
            seated = {seat.user_id for seat in seats}
            no_shows: list[tuple[int, int | None]] = []
            ai: list[str] = []
            for uid in meta.get("table") or ():
                if uid in seated:
                    continue
                if subs:
                    sub_id, sub_name = subs.pop(0)
                    seats.append(Seat(sub_id, engine_name(sub_name, [x.name for x in seats])))
                    no_shows.append((uid, sub_id))
                    continue
                if allow_ai:
                    ai.append(self._ai_seat(seats))
                no_shows.append((uid, None))
            for _ in range(int(meta.get("ai_seats") or 0)):
                ai.append(self._ai_seat(seats))
            meta["no_shows"] = [u for u, _ in no_shows]
            options = dict(game.options)
            options["league"] = meta
            options["max_players"] = max(len(seats), MIN_PLAYERS)
            # the round's deadline on the game's clock: a turn limit that fits the whole game
            # before it (turns x limit <= time left), fixed when the game starts
            left = (parse_iso(str(meta.get("deadline"))) - self.now()).total_seconds()
            options["clock"] = {"limit": round_turn_limit(left, len(seats)),
                                "remind": (options.get("clock") or {}).get("remind", "dm")}
            humans = [seat for seat in seats if seat.user_id > 0]
            cancelled = len(humans) < MIN_PLAYERS or len(seats) < MIN_PLAYERS
            await s.update_lobby(players=seats, options=options,
                                 opener_id=humans[0].user_id if humans else None)
            outcome = None
            if cancelled:
                await s.set_status(GameStatus.ENDED)
            else:
                await games.begin(s, by or 0, is_mod=True)
                outcome = await games.finish(s.outcome(None))
            return TableBegun(table_no, s.game, tuple(no_shows), tuple(ai), cancelled, outcome)

    @staticmethod
    def _ai_seat(seats: list[Seat]) -> str:
        """Seat one more league AI (named "AI 1", "AI 2"...); its name."""
        n = 1 + sum(1 for seat in seats if seat.ai)
        name = engine_name(f"{AI_NAME} {n}", [seat.name for seat in seats])
        seats.append(Seat(0, name, ai=AI_LEVEL))
        return name
