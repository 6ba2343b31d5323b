"""Finished games' results per seat (any game, not only league games) and the combos each
seat picked: written once when a game finishes, read by the members' stats (aggregated in
SQL: a member of a busy server may have thousands of games) and history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.base import Driver, NotChanged, Write
from bot.store.rows import GAME_COLUMNS, GameRow, game_row

TOP = 3  # favourite races and powers shown


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of one finished game."""

    game_id: int
    seat: str
    user_id: int  # 0: an AI or a vacant seat
    board: str
    players: int
    rank: int
    coins: int
    combos: tuple[tuple[str, str], ...]  # (race, power) in picking order
    finished_at: str


@dataclass(frozen=True, slots=True)
class BestCombo:
    race: str
    power: str
    coins: float  # average final coins of the games it was played in
    games: int


@dataclass(frozen=True, slots=True)
class MemberStats:
    """A member's record over a server's finished games."""

    games: int
    wins: int
    avg_rank: float | None
    avg_players: float | None
    races: tuple[tuple[str, int], ...]  # most picked first
    powers: tuple[tuple[str, int], ...]
    best: BestCombo | None  # best average coins, among combos played twice when any was
    streak: int  # the longest run of wins in a row


_COLUMNS = "game_id, seat, user_id, board, players, rank, coins, finished_at"
_MEMBER = "guild_id = ? AND user_id = ?"


def _bigger(a: str, b: str) -> str:
    """The larger of two SQL expressions (SQLite's MAX and PostgreSQL's GREATEST differ)."""
    return f"CASE WHEN {a} > {b} THEN {a} ELSE {b} END"


class ResultsSQL(Driver):
    """Seat results of finished games, and what they add up to per member."""

    async def record_results(self, guild_id: int | None, results: Sequence[SeatResult]) -> bool:
        """A finished game's seats, and its members' records and combos moved on by it, in
        one transaction; False (nothing written) when the game was recorded before."""
        if not results:
            return False
        steps = []
        for k, r in enumerate(results):
            steps.append(Write(
                f"INSERT INTO game_results ({_COLUMNS}, guild_id) VALUES (?, ?, ?, ?, ?, ?, ?,"
                " ?, ?) ON CONFLICT (game_id, seat) DO NOTHING",
                (r.game_id, r.seat, r.user_id, r.board, r.players, r.rank, r.coins,
                 r.finished_at, guild_id), need=1 if k == 0 else None))
            if r.user_id <= 0 or guild_id is None or not r.seat:
                continue
            won = int(r.rank == 1)
            run = f"(CASE WHEN {won} = 1 THEN m.run + 1 ELSE 0 END)"
            steps.append(Write(
                "INSERT INTO member_records AS m (guild_id, user_id, games, wins, rank_sum,"
                " players_sum, run, best_run) VALUES (?, ?, 1, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET games = m.games + 1,"
                " wins = m.wins + excluded.wins, rank_sum = m.rank_sum + excluded.rank_sum,"
                f" players_sum = m.players_sum + excluded.players_sum, run = {run},"
                f" best_run = {_bigger('m.best_run', run)}",
                (guild_id, r.user_id, won, r.rank, r.players, won, won)))
            picks: dict[tuple[str, str], int] = {}
            for combo in r.combos:
                picks[combo] = picks.get(combo, 0) + 1
            steps += [Write(
                "INSERT INTO member_combos AS c (guild_id, user_id, race, power, games, picks,"
                " coins_sum) VALUES (?, ?, ?, ?, 1, ?, ?) ON CONFLICT (guild_id, user_id, race,"
                " power) DO UPDATE SET games = c.games + 1, picks = c.picks + excluded.picks,"
                " coins_sum = c.coins_sum + excluded.coins_sum",
                (guild_id, r.user_id, race, power, n, r.coins))
                for (race, power), n in picks.items()]
        try:
            await self.write(*steps)
        except NotChanged:
            return False
        return True

    async def unrecorded_games(self, limit: int = 100) -> list[GameRow]:
        """Finished games whose results are not recorded yet (older than the table), in the
        order they finished."""
        cols = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        rows = await self.fetchall(
            f"SELECT {cols} FROM games g WHERE g.status = 'finished' AND NOT EXISTS"
            " (SELECT 1 FROM game_results r WHERE r.game_id = g.id)"
            " ORDER BY g.finished_at, g.id LIMIT ?", (limit,))
        return [game_row(r) for r in rows]

    async def member_stats(self, guild_id: int, user_id: int) -> MemberStats:
        """Games, wins, average rank, favourite races and powers, the best combo and the
        longest winning streak of a member in a server (their record and combos: a read of
        a row and a few dozen, however many games they played)."""
        who = (guild_id, user_id)
        row = await self.fetchone(
            "SELECT games, wins, rank_sum, players_sum, best_run FROM member_records"
            " WHERE guild_id = ? AND user_id = ?", who)
        if row is None or not row[0]:
            return MemberStats(0, 0, None, None, (), (), None, 0)
        games, wins, rank_sum, players_sum, best_run = (int(x) for x in row)
        combos = [(str(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]))
                  for r in await self.fetchall(
                      "SELECT race, power, games, picks, coins_sum FROM member_combos"
                      " WHERE guild_id = ? AND user_id = ?", who)]
        races: dict[str, int] = {}
        powers: dict[str, int] = {}
        for race, power, _, picks, _ in combos:
            races[race] = races.get(race, 0) + picks
            powers[power] = powers.get(power, 0) + picks
        pool = [c for c in combos if c[2] >= 2] or combos
        best = None
        if pool:
            race, power, n, _, coins = max(pool, key=lambda c: (c[4] / c[2], c[2],
                                                                (c[0], c[1])))
            best = BestCombo(race, power, coins / n, n)

        def top(counts: dict[str, int]) -> tuple[tuple[str, int], ...]:
            return tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP])

        return MemberStats(games, wins, rank_sum / games, players_sum / games,
                           top(races), top(powers), best, best_run)

    async def member_games(self, guild_id: int, user_id: int, *, limit: int,
                           offset: int = 0) -> tuple[int, list[list[SeatResult]]]:
        """(how many finished games the member played in the server, one page of them,
        newest first, each with every seat's result by rank)."""
        row = await self.fetchone(
            "SELECT games FROM member_records WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id))
        total = int(row[0]) if row else 0
        ids = [int(r[0]) for r in await self.fetchall(
            f"SELECT game_id FROM game_results WHERE {_MEMBER} AND seat != ''"
            " ORDER BY finished_at DESC, game_id DESC LIMIT ? OFFSET ?",
            (guild_id, user_id, limit, offset))]
        if not ids:
            return total, []
        marks = ", ".join("?" for _ in ids)
        rows = await self.fetchall(
            f"SELECT {_COLUMNS} FROM game_results WHERE game_id IN ({marks})"
            " ORDER BY game_id, rank, seat", ids)
        by_game: dict[int, list[SeatResult]] = {i: [] for i in ids}
        for r in rows:
            res = SeatResult(int(r[0]), str(r[1]), int(r[2]), str(r[3]), int(r[4]), int(r[5]),
                             int(r[6]), (), str(r[7]))
            by_game[res.game_id].append(res)
        return total, [by_game[i] for i in ids]
