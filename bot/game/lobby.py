"""Lobbies: opening one, seats (members and AI players), the turn clock it will start with,
and the start itself (the seed shuffles the seats, so it also picks the start player)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import engine
import i18n
from bot import text
from bot.clock import ClockConfig, clock_of, format_duration
from bot.errors import LobbyError, NotAllowed, NotSeated, ServiceError, StaleVersion
from bot.game.core import GameCore
from bot.game.results import Outcome
from bot.game.session import Session
from bot.language import of_game
from bot.seats import (
    AI_LEVELS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    board_for,
    engine_name,
)
from bot.store import ChannelBusy, GameRow, GameStatus, Seat, VersionConflict
from engine import data as engine_data


class Lobby(GameCore):
    """Opening, joining, leaving and starting the game of a channel."""

    async def lobby(self, channel_id: int) -> GameRow:
        return await self._open_game(channel_id)

    async def open_lobby(self, *, guild_id: int | None, channel_id: int, user_id: int,
                         name: str, players: int | None = None, board: str | None = None,
                         seed: int | None = None, options: dict[str, Any] | None = None,
                         seated: bool = True) -> GameRow:
        """Open a lobby in the channel; the opener takes the first seat (unless `seated` is
        False: a showcase of AI players)."""
        if players is not None and not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise LobbyError.said("svc.lobby_size", least=MIN_PLAYERS, most=MAX_PLAYERS,
                                  n=players)
        if board is not None:
            if board not in engine_data.BOARD_IDS:
                raise LobbyError.said("svc.no_board", board=text.echo(board),
                                      boards=", ".join(engine_data.BOARD_IDS))
            n_board = engine_data.board(board).players
            if players is not None and players != n_board:
                raise LobbyError.said("svc.board_size", board=board, n=n_board, asked=players)
            players = n_board
        if seed is None:
            seed = self._rng.randrange(1, 2**31)
        opts = dict(options or {})
        if players is not None:
            opts["max_players"] = players
        if "clock" not in opts:
            opts["clock"] = clock_of(await self.store.guild_clock(guild_id)).to_json()
        async with self.lock(channel_id):
            try:
                return await self.store.create_game(
                    guild_id=guild_id, channel_id=channel_id, seed=seed, board=board,
                    players=[Seat(user_id, engine_name(name, ()))] if seated else [],
                    options=opts, opener_id=user_id)
            except ChannelBusy:
                raise LobbyError.said("svc.channel_busy") from None

    @staticmethod
    def _in_lobby(s: Session, refusal: ServiceError) -> GameRow:
        """The session's game, which must still be a lobby (else `refusal`)."""
        if s.game.status is not GameStatus.LOBBY:
            raise refusal
        return s.game

    async def join(self, channel_id: int, user_id: int, name: str) -> GameRow:
        async with self.session(channel_id, want="open") as s:
            game = self._in_lobby(s, LobbyError.said("svc.started_wait"))
            if game.seat_of(user_id):
                raise LobbyError.said("svc.already_in")
            for check in self.seat_checks:
                await check(game, user_id)
            await self.check_reliability(game, user_id)
            limit = game.opts.max_players or MAX_PLAYERS
            if len(game.players) >= limit:
                raise LobbyError.said("svc.full", limit=limit)
            seat = Seat(user_id, engine_name(name, [s.name for s in game.players]))
            return await s.update_lobby(players=[*game.players, seat])

    async def leave(self, channel_id: int, user_id: int, *, is_mod: bool = False) -> GameRow:
        """Leave a lobby; the last member leaving closes it (status ended), unless a
        moderator leaves a lobby of AI players to start as a showcase."""
        async with self.session(channel_id, want="open") as s:
            game = self._in_lobby(s, LobbyError.said("svc.leave_started"))
            if not game.seat_of(user_id):
                raise NotSeated.said("svc.not_in_lobby")
            seats = [seat for seat in game.players if seat.user_id != user_id]
            humans = [seat for seat in seats if seat.user_id]
            opener = humans[0].user_id if user_id == game.opener_id and humans else None
            if not humans and not (is_mod and seats):
                seats = []
            await s.update_lobby(players=seats, opener_id=opener)
            if not seats:
                return await s.set_status(GameStatus.ENDED)
            return s.game

    async def start(self, channel_id: int, user_id: int, *, is_mod: bool = False) -> Outcome:
        """Start the lobby: the seat order (and so the start player) is shuffled by the seed."""
        async with self.session(channel_id, want="open") as s:
            await self.begin(s, user_id, is_mod=is_mod)
            return await self.finish(s.outcome(None))

    async def begin(self, s: Session, user_id: int, *, is_mod: bool = False) -> list[str]:
        """Start the session's lobby (any writer holding a session: a member, a league round)
        and put the start lines at the head of its outcome; the lines."""
        game = self._in_lobby(s, LobbyError.said("svc.already_started"))
        if user_id != game.opener_id and not is_mod:
            raise NotAllowed.said("svc.only_opener")
        if not any(seat.user_id for seat in game.players) and not is_mod:
            raise NotAllowed.said("svc.ai_showcase")
        n = len(game.players)
        if n < MIN_PLAYERS:
            raise LobbyError.said("svc.need_players", least=MIN_PLAYERS, n=n)
        if game.board and engine_data.board(game.board).players != n:
            raise LobbyError.said("svc.board_needs", board=game.board,
                                  wanted=engine_data.board(game.board).players, n=n)
        board = game.board or board_for(n)
        seats = list(game.players)
        random.Random(game.seed).shuffle(seats)
        seats = [await self._on_vacation(game, seat) for seat in seats]
        state = engine.new_game(board, [seat.name for seat in seats], game.seed,
                                game.opts.engine or None)
        clock = await self._lobby_clock(game)
        if clock.to_json() != game.opts.clock:  # fixed for the whole game now
            await s.update_lobby(options={**game.options, "clock": clock.to_json()})
        try:
            started = await self.store.start_game(game.id, board=board, players=seats,
                                                  state=engine.dump_state(state))
        except VersionConflict:
            raise StaleVersion.said("svc.started_now") from None
        await s.started(started, state)
        lang = of_game(started)
        lines = [text.started_line(board, [seat.name for seat in seats], lang)]
        if clock.on:
            lines.append(i18n.t("svc.started_clock", lang, clock=clock.describe(lang)))
        s.headline = lines
        return lines

    async def _on_vacation(self, game: GameRow, seat: Seat) -> Seat:
        """A member who is on vacation in the server as the game starts is away in it too."""
        if not seat.user_id or game.guild_id is None:
            return seat
        found = await self.store.vacation_at(game.guild_id, seat.user_id, self.now())
        return seat if found is None else dataclasses.replace(seat, until=found.until)

    async def check_reliability(self, game: GameRow, user_id: int) -> None:
        """A table that asks for reliability ("at most 10% of the last 50 turns missed")
        refuses a member above it, with her figure and the requirement."""
        need = game.opts.reliability
        if need is None or game.guild_id is None:
            return
        most, over = need.max_missed, need.over
        found = await self.store.reliability(game.guild_id, user_id, last=over)
        if found.recent and found.missed_share * 100 > most:
            raise LobbyError.said("rel.refused", missed=found.recent_missed, turns=found.recent,
                                  share=round(found.missed_share * 100), most=most, over=over)

    async def table_rules(self, channel_id: int, user_id: int, *, vacation: str | None = None,
                          max_missed: int | None = None, over: int | None = None,
                          is_mod: bool = False) -> GameRow:
        """Lobby (the opener or a moderator): what the table asks — an away member's turns
        wait ("pause") or the AI plays them at once ("ai"); a reliability to join (at most
        `max_missed` percent of the last `over` turns missed; 100 removes it)."""
        async with self.session(channel_id, want="open") as s:
            game = self._in_lobby(s, LobbyError.said("svc.lobby_setting"))
            options = dict(game.options)
            if vacation is not None or max_missed is not None or over is not None:
                self._can_manage_lobby(game, user_id, is_mod)
            if vacation is not None:
                if vacation not in ("pause", "ai"):
                    raise LobbyError.said("rel.bad_vacation", value=text.echo(vacation))
                options["vacation"] = vacation
            if max_missed is not None or over is not None:
                old = options.get("reliability") or {}
                most = max_missed if max_missed is not None else old.get("max_missed", 10)
                window = over if over is not None else old.get("over", 50)
                if not (0 <= most <= 100 and 1 <= window <= 500):
                    raise LobbyError.said("rel.bad_rule")
                if most >= 100:
                    options.pop("reliability", None)
                else:
                    options["reliability"] = {"max_missed": most, "over": window}
            if options != game.options:
                return await s.update_lobby(options=options)
            return game

    # -- AI seats and the clock a lobby starts with -------------------------------------

    def _can_manage_lobby(self, game: GameRow, user_id: int, is_mod: bool) -> None:
        if user_id != game.opener_id and not is_mod:
            raise NotAllowed.said("svc.only_opener_do")

    async def add_ai(self, channel_id: int, user_id: int, level: str, *,
                     is_mod: bool = False) -> GameRow:
        """Lobby: seat an AI player of `level` (named like "AI (hard) 2")."""
        if level not in AI_LEVELS:
            raise LobbyError.said("svc.no_ai_level", level=text.echo(level))
        async with self.session(channel_id, want="open") as s:
            game = self._in_lobby(s, LobbyError.said("svc.lobby_setting"))
            self._can_manage_lobby(game, user_id, is_mod)
            if game.opts.league is not None:
                raise LobbyError.said("svc.league_no_ai")
            limit = game.opts.max_players or MAX_PLAYERS
            if len(game.players) >= limit:
                raise LobbyError.said("svc.full_ai", limit=limit)
            n = 1 + sum(1 for seat in game.players if seat.ai)
            name = engine_name(f"AI ({level}) {n}", [seat.name for seat in game.players])
            return await s.update_lobby(players=[*game.players, Seat(0, name, ai=level)])

    async def remove_ai(self, channel_id: int, user_id: int, *, is_mod: bool = False) -> GameRow:
        """Lobby: remove the last AI seat."""
        async with self.session(channel_id, want="open") as s:
            game = self._in_lobby(s, LobbyError.said("svc.lobby_setting"))
            self._can_manage_lobby(game, user_id, is_mod)
            ais = [seat for seat in game.players if seat.ai]
            if not ais:
                raise LobbyError.said("svc.no_ai_seat")
            return await s.update_lobby(players=[seat for seat in game.players
                                                 if seat is not ais[-1]])

    async def set_clock(self, channel_id: int, user_id: int, clock: ClockConfig, *,
                        is_mod: bool = False) -> GameRow:
        """Lobby: choose the game's turn limit and reminders."""
        async with self.session(channel_id, want="open") as s:
            game = self._in_lobby(s, LobbyError.said("svc.lobby_setting"))
            self._can_manage_lobby(game, user_id, is_mod)
            self.check_limit(clock)
            required = await self._required_limit(game)
            if required and not clock.on:
                raise LobbyError.said("svc.league_needs_clock", limit=format_duration(required))
            return await s.update_lobby(options={**game.options, "clock": clock.to_json()})

    def check_limit(self, clock: ClockConfig) -> None:
        if clock.limit is not None and clock.limit < self.rules.min_limit:
            raise LobbyError.said("svc.min_limit", least=format_duration(self.rules.min_limit),
                                  asked=format_duration(clock.limit))

    async def set_server_clock(self, guild_id: int, clock: ClockConfig) -> None:
        """Moderator: the clock new lobbies of this server start with."""
        self.check_limit(clock)
        await self.store.set_guild_clock(guild_id, clock.to_json())

    async def _required_limit(self, game: GameRow) -> int | None:
        tag = game.opts.league
        if tag is not None and tag.season_id:
            return await self.store.season_turn_limit(tag.season_id)
        return None

    async def _lobby_clock(self, game: GameRow) -> ClockConfig:
        """The clock a lobby will start with: its own, else the server's default; a league
        season that requires a clock fills in its limit."""
        raw = game.opts.clock
        clock = clock_of(raw if raw is not None else await self.store.guild_clock(game.guild_id))
        required = await self._required_limit(game)
        if required and not clock.on:
            clock = ClockConfig(limit=required, remind=clock.remind)
        return clock

    async def lobby_clock(self, channel_id: int) -> ClockConfig:
        game = await self._open_game(channel_id)
        if game.status is GameStatus.LOBBY:
            return await self._lobby_clock(game)
        return game.opts.turn_clock

