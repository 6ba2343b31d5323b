"""Games: a channel's lobby and game rows (seats, options, status), one open game per
channel."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.store.base import (
    ChannelBusy,
    Driver,
    Duplicate,
    GameNotFound,
    VersionConflict,
    Write,
    _dumps,
    now,
)
from bot.store.options import checked_options
from bot.store.rows import GAME_COLUMNS, GameRow, GameStatus, Seat, game_row


def _seat_pattern(user_id: int) -> str:
    """A LIKE pattern matching the seat list of a user: seats are stored by _dumps (sorted
    keys, no spaces), so a seat reads {"id":11,"name":...}; a quote inside a name is escaped
    and cannot fake the pattern."""
    return f'%"id":{int(user_id)},%'


class GamesSQL(Driver):
    """Games and their lobbies: one open game per channel."""

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        seed: int,
        board: str | None = None,
        players: Sequence[Seat] = (),
        options: dict[str, Any] | None = None,
        opener_id: int | None = None,
        season_id: int | None = None,
    ) -> GameRow:
        """Open a lobby; ChannelBusy when the channel already has an open game. With a
        `season_id` the game is tagged as that league season's game in the same transaction."""
        try:
            async with self.transaction() as tx:
                t = now()
                game_id = await tx.insert(
                    "INSERT INTO games (guild_id, channel_id, seed, board, players, options,"
                    " opener_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " RETURNING id",
                    guild_id, channel_id, seed, board,
                    _dumps([s.to_json() for s in players]),
                    _dumps(checked_options(options or {})),
                    opener_id, t, t,
                )
                if season_id is not None:
                    await tx.execute(
                        "INSERT INTO league_games (game_id, season_id, opened_by)"
                        " VALUES (?, ?, ?)", game_id, season_id, opener_id)
        except Duplicate as exc:
            raise ChannelBusy(f"channel {channel_id} already has an open game") from exc
        game = await self.get_game(game_id)
        assert game is not None
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self.fetchone(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return game_row(row) if row else None

    async def open_game(self, channel_id: int) -> GameRow | None:
        """The lobby or active game of a channel."""
        row = await self.fetchone(
            f"SELECT {GAME_COLUMNS} FROM games"
            " WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return game_row(row) if row else None

    async def last_game(self, channel_id: int, *, started: bool = False) -> GameRow | None:
        """The most recent game of a channel, whatever its status (or: that was started)."""
        only_started = " AND started_at IS NOT NULL" if started else ""
        row = await self.fetchone(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ?{only_started}"
            " ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return game_row(row) if row else None

    async def games_with(self, user_id: int, statuses: Iterable[str] = ("active",)) -> list[GameRow]:
        """Games in which the user holds a seat, newest first."""
        statuses = list(statuses)
        if not statuses:
            return []
        marks = ", ".join("?" for _ in statuses)
        rows = await self.fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ({marks}) AND players LIKE ?"
            " ORDER BY id DESC",
            (*statuses, _seat_pattern(user_id)),
        )
        games = [game_row(r) for r in rows]
        return [g for g in games if g.seat_of(user_id) is not None]

    async def game_ids(self, statuses: Iterable[str] | None = None) -> list[int]:
        """Ids of all games (or of those with the given statuses), oldest first."""
        if statuses is None:
            rows = await self.fetchall("SELECT id FROM games ORDER BY id")
        else:
            statuses = list(statuses)
            if not statuses:
                return []
            marks = ", ".join("?" for _ in statuses)
            rows = await self.fetchall(
                f"SELECT id FROM games WHERE status IN ({marks}) ORDER BY id", statuses)
        return [int(r[0]) for r in rows]

    async def update_lobby(
        self,
        game_id: int,
        *,
        players: Sequence[Seat] | None = None,
        options: dict[str, Any] | None = None,
        board: str | None = None,
        opener_id: int | None = None,
    ) -> GameRow:
        """Change the seats/options/board/opener of a game still in its lobby."""
        sets: list[str] = []
        params: list[Any] = []
        if opener_id is not None:
            sets.append("opener_id = ?")
            params.append(opener_id)
        if players is not None:
            sets.append("players = ?")
            params.append(_dumps([s.to_json() for s in players]))
        if options is not None:
            sets.append("options = ?")
            params.append(_dumps(checked_options(options)))
        if board is not None:
            sets.append("board = ?")
            params.append(board)
        if sets:
            await self.write(Write(
                f"UPDATE games SET {', '.join(sets)}, updated_at = ?"
                " WHERE id = ? AND status = 'lobby'", (*params, now(), game_id),
                need=1, refuse=VersionConflict(f"game {game_id} is no longer in its lobby")))
        game = await self.get_game(game_id)
        if game is None:
            raise GameNotFound(game_id)
        return game

    async def start_game(
        self, game_id: int, *, board: str, players: Sequence[Seat], state: dict[str, Any]
    ) -> GameRow:
        """Lobby -> active with the final seat order; the initial state is snapshot 0."""
        t = now()
        await self.write(
            Write("UPDATE games SET status = 'active', board = ?, players = ?, version = 0,"
                  " started_at = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
                  (board, _dumps([s.to_json() for s in players]), t, t, game_id),
                  need=1, refuse=VersionConflict(f"game {game_id} is not in its lobby")),
            Write("INSERT INTO snapshots (game_id, seq, state, created_at) VALUES (?, 0, ?, ?)",
                  (game_id, _dumps(state), t)),
        )
        game = await self.get_game(game_id)
        assert game is not None
        return game

    async def set_status(self, game_id: int, status: GameStatus) -> None:
        t = now()
        await self.execute(
            "UPDATE games SET status = ?, finished_at = ?, updated_at = ? WHERE id = ?",
            status.value, None if status.is_open else t, t, game_id)

    async def set_options(self, game_id: int, options: dict[str, Any]) -> None:
        await self.execute("UPDATE games SET options = ?, updated_at = ? WHERE id = ?",
                           _dumps(checked_options(options)), now(), game_id)

    async def set_seating(self, game_id: int, players: Sequence[Seat],
                          options: dict[str, Any]) -> None:
        """A game's seats (with their standing) and options, in one statement."""
        await self.execute("UPDATE games SET players = ?, options = ?, updated_at = ?"
                           " WHERE id = ?", _dumps([s.to_json() for s in players]),
                           _dumps(checked_options(options)), now(), game_id)

    async def active_games(self) -> list[GameRow]:
        """Every game being played (the scheduler re-arms their deadlines at start)."""
        rows = await self.fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' ORDER BY id")
        return [game_row(r) for r in rows]

