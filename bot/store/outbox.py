"""The DM outbox: direct messages an action owes, written in the action's transaction and
claimed, sent and marked once (see bot.flow's send_owed)."""

from __future__ import annotations

import json
from typing import Any

from bot.store.base import Driver, now
from bot.store.rows import OwedDM

OUTBOX_STALE = 60.0  # seconds after which another sender may take over a claimed DM
OUTBOX_ATTEMPTS = 5  # a DM that failed this often is given up
OWN_ANSWER = 30.0  # seconds a DM owed by its reader's own action is left to her own answer


class OutboxSQL(Driver):
    """The DMs actions owe, until each is sent once."""

    async def owed_dms(self, game_id: int | None = None, *,
                       stale_after: float = OUTBOX_STALE) -> list[OwedDM]:
        """Unsent direct messages nobody is sending right now (of one game, or all), oldest
        first; each says whether it is `hers` (owed by its reader's own action, written
        less than OWN_ANSWER seconds ago)."""
        where = " AND o.game_id = ?" if game_id is not None else ""
        params: list[Any] = [now(OWN_ANSWER), now(stale_after), OUTBOX_ATTEMPTS]
        if game_id is not None:
            params.append(game_id)
        rows = await self.fetchall(
            "SELECT o.id, o.game_id, g.channel_id, o.user_id, o.lines, o.attempts,"
            " CASE WHEN a.actor_id = o.user_id AND o.created_at > ? THEN 1 ELSE 0 END"
            " FROM outbox o JOIN games g ON g.id = o.game_id"
            " LEFT JOIN actions a ON a.game_id = o.game_id AND a.seq = o.seq"
            " WHERE o.sent_at IS NULL"
            " AND (o.claimed_at IS NULL OR o.claimed_at < ?) AND o.attempts < ?"
            f"{where} ORDER BY o.id", params)
        return [OwedDM(r[0], r[1], r[2], r[3], tuple(json.loads(r[4])), r[5], bool(r[6]))
                for r in rows]

    async def claim_dm(self, dm_id: int, *, stale_after: float = OUTBOX_STALE) -> bool:
        """Take a DM to send it; False when it was sent, or another sender holds it (a claim
        `stale_after` seconds old or older is taken over: 0 takes over any claim, even one made
        in the same millisecond)."""
        changed = await self.execute(
            "UPDATE outbox SET claimed_at = ?, attempts = attempts + 1 WHERE id = ?"
            " AND sent_at IS NULL AND (claimed_at IS NULL OR claimed_at <= ?)",
            now(), dm_id, now(stale_after))
        return changed == 1

    async def dm_done(self, dm_id: int, result: str = "sent") -> None:
        """The DM was delivered (or given up for good: 'dm_closed', 'failed')."""
        await self.execute("UPDATE outbox SET sent_at = ?, result = ? WHERE id = ?",
                           now(), result, dm_id)

    async def dm_release(self, dm_id: int) -> None:
        """Sending failed for now: another attempt may take it (until OUTBOX_ATTEMPTS)."""
        await self.execute(
            "UPDATE outbox SET claimed_at = NULL, result = 'retry' WHERE id = ?"
            " AND sent_at IS NULL", dm_id)

