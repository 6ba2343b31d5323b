"""Seat votes: one open vote per game, its ballots, and its settling, which applies what the
vote decided in the same transaction as the compare-and-swap that closes it (so a vote is
settled, and its effect made, exactly once)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store.base import Driver, Duplicate, StoreError, Write, _dumps, now
from bot.store.options import checked_options
from bot.store.rows import GAME_COLUMNS, GameRow, GameStatus, Seat, Shards, Vote, game_row

VOTE_COLUMNS = ("id, game_id, kind, seat, seconds, caller_id, voters, message_id, opened_at,"
                " expires_at, outcome, closed_at, version, posted")
TURN_KINDS = ("turn", "half", "near")  # the deadlines that "add time" moves on


class VoteOpen(StoreError):
    """The game has an open vote already."""


class VotesSQL(Driver):
    """Votes of the tables and their ballots."""

    async def _vote(self, row: Sequence[Any] | None) -> Vote | None:
        if row is None:
            return None
        ballots = await self.fetchall(
            "SELECT user_id, yes FROM ballots WHERE vote_id = ? ORDER BY at, user_id", (row[0],))
        return Vote(int(row[0]), int(row[1]), str(row[2]), row[3],
                    None if row[4] is None else int(row[4]), int(row[5]), int(row[6]),
                    None if row[7] is None else int(row[7]), str(row[8]), float(row[9]),
                    row[10], row[11], None if row[12] is None else int(row[12]), bool(row[13]),
                    yes=tuple(int(u) for u, y in ballots if y),
                    no=tuple(int(u) for u, y in ballots if not y))

    async def open_vote(self, game_id: int, kind: str, *, caller_id: int, voters: int,
                        expires_at: float, seat: str | None = None,
                        seconds: int | None = None) -> Vote:
        """A new vote of the game, its caller's yes counted; VoteOpen when one is open."""
        t = now()
        try:
            async with self.transaction() as tx:
                vote_id = await tx.insert(
                    "INSERT INTO votes (game_id, kind, seat, seconds, caller_id, voters,"
                    " opened_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    game_id, kind, seat, seconds, caller_id, voters, t, float(expires_at))
                await tx.execute("INSERT INTO ballots (vote_id, user_id, yes, at)"
                                 " VALUES (?, ?, 1, ?)", vote_id, caller_id, t)
                # its expiry, on the one clock (the game's `vote` deadline)
                await tx.execute(
                    "INSERT INTO deadlines (game_id, kind, seat, key, due_at)"
                    " VALUES (?, 'vote', '', ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET"
                    " seat = excluded.seat, key = excluded.key, due_at = excluded.due_at,"
                    " claimed_at = NULL, fired = 0", game_id, f"vote:{vote_id}",
                    float(expires_at))
        except Duplicate:
            raise VoteOpen(f"game {game_id} has an open vote") from None
        found = await self.vote(vote_id)
        assert found is not None
        return found

    async def vote(self, vote_id: int) -> Vote | None:
        return await self._vote(await self.fetchone(
            f"SELECT {VOTE_COLUMNS} FROM votes WHERE id = ?", (vote_id,)))

    async def open_vote_of(self, game_id: int) -> Vote | None:
        return await self._vote(await self.fetchone(
            f"SELECT {VOTE_COLUMNS} FROM votes WHERE game_id = ? AND outcome IS NULL",
            (game_id,)))

    async def votes_of(self, game_id: int) -> list[Vote]:
        """The game's closed votes, in the order they closed (its history)."""
        rows = await self.fetchall(
            f"SELECT {VOTE_COLUMNS} FROM votes WHERE game_id = ? AND outcome IS NOT NULL"
            " ORDER BY closed_at, id", (game_id,))
        return [v for r in rows if (v := await self._vote(r)) is not None]

    async def set_vote_message(self, vote_id: int, message_id: int) -> None:
        await self.execute("UPDATE votes SET message_id = ? WHERE id = ?", message_id, vote_id)

    async def cast(self, vote_id: int, user_id: int, yes: bool) -> bool:
        """A member's ballot (a second one replaces her first); False: the vote is closed."""
        (changed,) = await self.write(Write(
            "INSERT INTO ballots (vote_id, user_id, yes, at) SELECT id, ?, ?, ? FROM votes"
            " WHERE id = ? AND outcome IS NULL ON CONFLICT (vote_id, user_id) DO UPDATE SET"
            " yes = excluded.yes, at = excluded.at", (user_id, int(yes), now(), vote_id)))
        return bool(changed)

    async def settle(self, vote: Vote, outcome: str, version: int, *,
                     players: Sequence[Seat] | None = None,
                     options: dict[str, Any] | None = None, status: GameStatus | None = None,
                     add_time: int | None = None) -> bool:
        """Close an open vote with `outcome` and, in the same transaction, make what it
        decided: the game's seats and options, its status, time added to the running turn's
        deadlines. False (nothing written): the vote was closed already."""
        t = now()
        steps = [Write("UPDATE votes SET outcome = ?, closed_at = ?, version = ? WHERE id = ?"
                       " AND outcome IS NULL", (outcome, t, version, vote.id), need=1,
                       refuse=VoteClosed(f"vote {vote.id} is closed"))]
        if players is not None or options is not None:
            sets, args = [], []
            if players is not None:
                sets.append("players = ?")
                args.append(_dumps([s.to_json() for s in players]))
            if options is not None:
                sets.append("options = ?")
                args.append(_dumps(checked_options(options)))
            steps.append(Write(f"UPDATE games SET {', '.join(sets)}, updated_at = ? WHERE id = ?",
                               (*args, t, vote.game_id)))
        if status is not None:
            steps.append(Write("UPDATE games SET status = ?, finished_at = ?, updated_at = ?"
                               " WHERE id = ? AND status = 'active'",
                               (status.value, None if status.is_open else t, t, vote.game_id)))
        if add_time:
            marks = ", ".join("?" for _ in TURN_KINDS)
            steps.append(Write(f"UPDATE deadlines SET due_at = due_at + ? WHERE game_id = ?"
                               f" AND kind IN ({marks}) AND fired = 0",
                               (float(add_time), vote.game_id, *TURN_KINDS)))
        try:
            await self.write(*steps)
        except VoteClosed:
            return False
        return True

    async def vote_posted(self, vote_id: int) -> None:
        await self.execute("UPDATE votes SET posted = 1 WHERE id = ?", vote_id)

    async def unposted_votes(self, shards: Shards | None = None) -> list[tuple[Vote, GameRow]]:
        """Settled votes whose outcome the channel was not told yet (the bot stopped between
        settling and posting), with their games (on `shards`)."""
        cond, params = ("1 = 1", []) if shards is None else shards.sql("g.guild_id")
        cols = ", ".join(f"v.{c.strip()}" for c in VOTE_COLUMNS.split(","))
        gcols = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        rows = await self.fetchall(
            f"SELECT {cols}, {gcols} FROM votes v JOIN games g ON g.id = v.game_id"
            f" WHERE v.outcome IS NOT NULL AND v.posted = 0 AND {cond} ORDER BY v.id", params)
        n = len(VOTE_COLUMNS.split(","))
        out = []
        for r in rows:
            vote = await self._vote(r[:n])
            if vote is not None:
                out.append((vote, game_row(r[n:])))
        return out

    async def rearm_turn(self, game_id: int, key: str, due: dict[str, float]) -> int:
        """Set the running stint's deadlines (kind -> due time) due again, unfired: a turn
        whose limit ran out gets more time. -> rows changed."""
        steps = [Write("UPDATE deadlines SET due_at = ?, claimed_at = NULL, fired = 0"
                       " WHERE game_id = ? AND kind = ? AND key = ?",
                       (float(at), game_id, kind, key)) for kind, at in sorted(due.items())]
        return sum(int(n) for n in await self.write(*steps)) if steps else 0


class VoteClosed(StoreError):
    """The vote was closed already."""
