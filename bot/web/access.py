"""Who may open a channel's board: a member who can see the channel in Discord.

Asked of Discord through the bot's own client: the channel from the gateway's guild cache
(or fetched), the member fetched by id (the bot has no members intent), then the channel's
permissions for her (roles and overwrites) must include View Channel. Answers are kept for a
minute per member and channel, so a board's reconnects and a busy page cost one lookup.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable

import discord

log = logging.getLogger(__name__)

KEEP_S = 60.0
KEPT = 4096


class Access:
    """Channel visibility checks, cached."""

    def __init__(self, client: discord.Client, *, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.client = client
        self.now = clock
        self._seen: OrderedDict[tuple[int, int], tuple[float, bool]] = OrderedDict()

    async def can_view(self, user_id: int, channel_id: int) -> bool:
        key = (user_id, channel_id)
        hit = self._seen.get(key)
        if hit is not None and self.now() - hit[0] < KEEP_S:
            return hit[1]
        allowed = await self._ask(user_id, channel_id)
        if allowed is None:  # Discord could not say: no, for now, and ask again next time
            return False
        self._seen[key] = (self.now(), allowed)
        self._seen.move_to_end(key)
        while len(self._seen) > KEPT:
            self._seen.popitem(last=False)
        return allowed

    async def _ask(self, user_id: int, channel_id: int) -> bool | None:
        channel = self.client.get_channel(channel_id)
        try:
            if channel is None:
                channel = await self.client.fetch_channel(channel_id)
            guild = getattr(channel, "guild", None)
            if guild is None:
                return False  # a DM or a channel the bot cannot place: no boards there
            member = guild.get_member(user_id) or await guild.fetch_member(user_id)
        except discord.NotFound:
            return False
        except discord.HTTPException as exc:
            log.info("could not check channel %s for member %s: %s", channel_id, user_id, exc)
            return None
        if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            return False
        return bool(channel.permissions_for(member).view_channel)
