"""Private messages: coin DMs from the outbox, the "your turn" DM, clock reminders.

Coins reach their owner only: the DMs an action owes are written to the outbox in the same
transaction as the action (bot.game.session) and sent from here after the commit, and again
after a restart if the bot died in between. A member with closed DMs who acted gets them as
an ephemeral followup instead.
"""

from __future__ import annotations

import logging

import discord

import i18n
from bot.game.panel import Panel
from bot.game.results import Outcome
from bot.language import Languages, of_game
from bot.store import GameRow, OwedDM, Store, StoreError

log = logging.getLogger(__name__)

DM_CLOSED = 50007


def dm_body(dm: OwedDM, lang: str = i18n.DEFAULT) -> str:
    return (i18n.t("dm.header", lang, game=dm.game_id, channel=f"<#{dm.channel_id}>") + "\n"
            + "\n".join(dm.lines))


def jump(guild_id: int | None, channel_id: int, message_id: int | None) -> str | None:
    if not message_id:
        return None
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


class Dms:
    """The bot's private messages to members."""

    def __init__(self, client: discord.Client, store: Store, languages: Languages) -> None:
        self.client = client
        self.store = store
        self.languages = languages

    async def _channel(self, user_id: int) -> discord.DMChannel:
        """The DM channel with a user: kept by discord.py once opened, so a player's coins,
        turn and reminder DMs cost one request each (fetching the user first was one more,
        on a rate limit shared by the whole bot)."""
        return await self.client.create_dm(discord.Object(id=user_id))

    async def send_owed(self, *, game_id: int | None = None,
                        interaction: discord.Interaction | None = None,
                        stale_after: float | None = None) -> int:
        """Send the owed DMs of one game (or of all games: after a restart) from the outbox;
        -> how many were delivered. Each is claimed first, so two senders never both send
        it, and carries a nonce, so a resend after a crash between sending and noting it is
        recognised by Discord as the same message."""
        delivered = 0
        try:
            stale = {} if stale_after is None else {"stale_after": stale_after}
            games: dict[int, GameRow | None] = {}
            for dm in await self.store.owed_dms(game_id, **stale):
                if not await self.store.claim_dm(dm.id, **stale):
                    continue
                if dm.game_id not in games:
                    games[dm.game_id] = await self.store.get_game(dm.game_id)
                game = games[dm.game_id]
                # the header in the language the lines were worded in at the commit
                lang = i18n.DEFAULT if game is None else await self.languages.for_user(
                    dm.user_id, fallback=of_game(game), guild_id=game.guild_id)
                if await self._deliver(dm, dm_body(dm, lang), lang, interaction):
                    delivered += 1
        except StoreError as exc:  # the DMs stay owed: the next announcement or restart
            log.warning("could not go through the DM outbox: %s", exc)
        return delivered

    async def _deliver(self, dm: OwedDM, body: str, lang: str,
                       interaction: discord.Interaction | None) -> bool:
        try:
            user = await self._channel(dm.user_id)
            await user.send(body, nonce=f"sw-dm-{dm.id}")
        except discord.Forbidden as exc:
            if (exc.code == DM_CLOSED and interaction is not None
                    and dm.user_id == interaction.user.id):
                await interaction.followup.send(body + "\n" + i18n.t("dm.closed", lang),
                                                ephemeral=True)
                await self.store.dm_done(dm.id, "ephemeral")
            else:
                log.info("cannot DM coins to %s (code %s)", dm.user_id, exc.code)
                await self.store.dm_done(dm.id, "dm_closed")
            return False
        except discord.HTTPException as exc:
            log.warning("DM to %s failed: %s", dm.user_id, exc)
            await self.store.dm_release(dm.id)
            return False
        await self.store.dm_done(dm.id, "sent")
        return True

    async def notify_turn(self, outcome: Outcome, panel: Panel | None,
                          message_id: int | None, acting: int | None) -> None:
        """A DM to the player who must act now, if they asked for it (`/sw-me notify`)."""
        if panel is None or not panel.actor_id or panel.actor_id == acting:
            return
        if not (outcome.turn_started or outcome.turn_ended or outcome.headline):
            return  # the same player acts on
        game = outcome.game
        try:
            if not await self.store.turn_dm(panel.actor_id):
                return
            user = await self._channel(panel.actor_id)
            link = jump(game.guild_id, game.channel_id, message_id)
            lang = await self.languages.for_user(panel.actor_id, fallback=of_game(game),
                                                 guild_id=game.guild_id)
            await user.send(i18n.t("dm.turn", lang, game=game.id, channel=game.channel_id,
                                   round=panel.round, defender=panel.is_defender,
                                   link=f" — {link}" if link else ""))
        except discord.HTTPException as exc:
            log.info("turn DM to %s failed: %s", panel.actor_id, exc)

    async def remind(self, channel_id: int, game_id: int, user_id: int, line: str) -> None:
        """A turn reminder by DM (the game's choice) or, if DMs are closed, in the channel."""
        game = await self.store.get_game(game_id)
        how = ((game.options.get("clock") or {}).get("remind") if game else None) or "dm"
        if how == "dm":
            try:
                user = await self._channel(user_id)
                await user.send(line)
                return
            except discord.HTTPException as exc:
                log.info("reminder DM to %s failed (%s); mentioning instead", user_id, exc)
        await self.client.get_partial_messageable(channel_id).send(
            line, allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(id=user_id)], everyone=False, roles=False))
