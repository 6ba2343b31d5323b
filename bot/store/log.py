"""The action log of a game: appends under the version compare-and-swap, turn-boundary
snapshots, reads of the log, and undo, which truncates its tail. The log is append and
truncate only: an accepted action is never changed, but undo deletes the latest ones (and
the snapshots after them) in one transaction."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from bot.clock import Deadline
from bot.store.base import GameNotFound, VersionConflict, Write, _dumps, now
from bot.store.deadlines import deadline_writes
from bot.store.games import GamesSQL
from bot.store.rows import (
    ACTION_COLUMNS,
    ActionRow,
    GameLog,
    GameStatus,
    MemberTurn,
    action_row,
)


class LogSQL(GamesSQL):
    """A game's action log and its snapshots (on GamesSQL: a log read needs its game)."""

    async def append(
        self,
        game_id: int,
        seq: int,
        action: dict[str, Any],
        *,
        actor_id: int | None,
        player: str | None,
        events: Sequence[dict[str, Any]] = (),
        reveals: bool = False,
        ends_turn: bool = False,
        snapshot: dict[str, Any] | None = None,
        status: GameStatus | None = None,
        dms: Sequence[tuple[int, Sequence[str]]] = (),
        turn: MemberTurn | None = None,
        deadlines: Sequence[Deadline] | None = None,
        keep_deadlines: Iterable[str] = (),
    ) -> tuple[ActionRow, int]:
        """Append action number `seq` (= previous version + 1) in one transaction, with the
        direct messages it owes (user id, lines) put in the outbox; -> the row as a read
        would return it, and the game's new revision.

        `turn`: this action ended a member's turn: it is recorded for her reliability, from
        the previous turn boundary of the log (or the game's start) to now.

        `deadlines`: the action begins a new stint; the game's deadlines become these (and
        the kinds in `keep_deadlines` stay), in the same transaction (sync_deadlines): one
        commit, so one wait for the disk, where a separate sync would be a second.

        Raises VersionConflict when the game is not at version seq - 1 (a concurrent writer
        won, or the caller's state is stale); nothing is written then.
        """
        t = now()
        action_text, events_text = _dumps(action), _dumps(list(events))
        steps = [
            Write("UPDATE games SET version = ?, updated_at = ?, revision = revision + 1"
                  " WHERE id = ? AND version = ? AND status = 'active' RETURNING revision",
                  (seq, t, game_id, seq - 1), rows=True, need=1,
                  refuse=VersionConflict(f"game {game_id} is not at version {seq - 1}")),
            Write(f"INSERT INTO actions ({ACTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (game_id, seq, action_text, actor_id, player, events_text, int(reveals),
                   int(ends_turn), t),
                  duplicate=VersionConflict(f"action {seq} of game {game_id} exists")),
        ]
        if snapshot is not None:
            steps.append(Write(
                "INSERT INTO snapshots (game_id, seq, state, created_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, seq) DO UPDATE SET state = excluded.state,"
                " created_at = excluded.created_at", (game_id, seq, _dumps(snapshot), t)))
        if status is not None:
            steps.append(Write("UPDATE games SET status = ?, finished_at = ? WHERE id = ?",
                               (status.value, None if status.is_open else t, game_id)))
        steps += [Write("INSERT INTO outbox (game_id, seq, user_id, lines, created_at)"
                        " VALUES (?, ?, ?, ?, ?)", (game_id, seq, user_id, _dumps(list(lines)), t))
                  for user_id, lines in dms]
        if turn is not None:
            steps.append(Write(
                "INSERT INTO member_turns (game_id, seat, round, guild_id, user_id, started_at,"
                " ended_at, kind) SELECT g.id, ?, ?, g.guild_id, ?, COALESCE((SELECT"
                " MAX(a.created_at) FROM actions a WHERE a.game_id = g.id AND a.seq < ? AND"
                " a.ends_turn = 1), g.started_at, ?), ?, ? FROM games g WHERE g.id = ?"
                " ON CONFLICT (game_id, seat, round) DO NOTHING",
                (turn.seat, turn.round, turn.user_id, seq, t, t, turn.kind, game_id)))
        if deadlines is not None:
            steps += deadline_writes(game_id, deadlines, keep_deadlines)
        changed, *_ = await self.write(*steps)
        row = action_row((game_id, seq, action_text, actor_id, player, events_text, reveals,
                       ends_turn, t))
        return row, int(changed[0][0])

    async def actions(
        self, game_id: int, *, after: int = 0, upto: int | None = None
    ) -> list[ActionRow]:
        """Actions with after < seq <= upto, in order."""
        if upto is None:
            rows = await self.fetchall(
                f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ?"
                " ORDER BY seq", (game_id, after))
        else:
            rows = await self.fetchall(
                f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ?"
                " AND seq <= ? ORDER BY seq", (game_id, after, upto))
        return [action_row(r) for r in rows]

    async def log_mark(self, game_id: int) -> tuple[int, int] | None:
        """(version, revision) of the game: which action log it has now, in one cheap read
        (a cache of its latest actions compares it before use); None: no such game."""
        row = await self.fetchone("SELECT version, revision FROM games WHERE id = ?",
                                  (game_id,))
        return (int(row[0]), int(row[1])) if row else None

    async def recent_actions(self, game_id: int, limit: int = 10) -> list[ActionRow]:
        rows = await self.fetchall(
            f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT ?",
            (game_id, limit),
        )
        return [action_row(r) for r in reversed(rows)]

    async def snapshot_seqs(self, game_id: int) -> list[int]:
        rows = await self.fetchall(
            "SELECT seq FROM snapshots WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [r[0] for r in rows]

    async def snapshot(self, game_id: int, seq: int) -> dict[str, Any] | None:
        row = await self.fetchone(
            "SELECT state FROM snapshots WHERE game_id = ? AND seq = ?", (game_id, seq))
        return json.loads(row[0]) if row else None

    async def log(self, game_id: int, upto: int | None = None) -> GameLog:
        """The latest snapshot at or before `upto` (default: the game version) and the rest."""
        game = await self.get_game(game_id)
        if game is None:
            raise GameNotFound(game_id)
        upto = game.version if upto is None else upto
        row = await self.fetchone(
            "SELECT seq, state FROM snapshots WHERE game_id = ? AND seq <= ?"
            " ORDER BY seq DESC LIMIT 1",
            (game_id, upto),
        )
        snap_seq, snap = (row[0], json.loads(row[1])) if row else (0, None)
        actions = await self.actions(game_id, after=snap_seq, upto=upto)
        return GameLog(game=game, snapshot_seq=snap_seq, snapshot=snap, actions=tuple(actions))

    async def truncate(self, game_id: int, keep: int, *, expected: int | None = None) -> int:
        """Undo: keep the first `keep` actions, drop the rest and later snapshots; -> removed.

        With `expected`, refuse (VersionConflict) unless the game is at that version.
        """
        if keep < 0:
            raise ValueError("keep must be >= 0")
        # the version update comes first: it locks the game row and, with `expected`, is
        # the compare-and-swap
        refuse = VersionConflict(f"game {game_id} is not at version {expected}")
        if expected is None:
            bump = Write("UPDATE games SET version = ?, updated_at = ?, revision = revision + 1"
                         " WHERE id = ?", (keep, now(), game_id), need=1, refuse=refuse)
        else:
            bump = Write("UPDATE games SET version = ?, updated_at = ?, revision = revision + 1"
                         " WHERE id = ? AND version = ?", (keep, now(), game_id, expected),
                         need=1, refuse=refuse)
        _, _, removed, _ = await self.write(
            bump,
            # turns recorded for reliability that the undo takes back (a moderator's undo may
            # reach over a turn's end)
            Write("DELETE FROM member_turns WHERE game_id = ? AND ended_at >= (SELECT"
                  " MIN(created_at) FROM actions WHERE game_id = ? AND seq > ?)",
                  (game_id, game_id, keep)),
            Write("DELETE FROM actions WHERE game_id = ? AND seq > ?", (game_id, keep)),
            Write("DELETE FROM snapshots WHERE game_id = ? AND seq > ?", (game_id, keep)))
        return int(removed)

    async def final_ranking(self, game_id: int) -> list[dict[str, Any]] | None:
        """The ranking a finished game announced: from its game_over event, else from the
        last snapshot; None when there is none."""
        rows = await self.fetchall(
            "SELECT events FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 5", (game_id,))
        for (events,) in rows:
            for ev in json.loads(events):
                if ev.get("type") == "game_over" and ev.get("ranking"):
                    return list(ev["ranking"])
        row = await self.fetchone(
            "SELECT state FROM snapshots WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,))
        if row is not None:
            ranking = json.loads(row[0]).get("ranking")
            if ranking:
                return list(ranking)
        return None

