"""Private messages: coin DMs from the outbox, the "your turn" DM, clock reminders.

Coins reach their owner only: the DMs an action owes are written to the outbox in the same
transaction as the action (bot.game.session) and sent from here after the commit, and again
after a restart if the bot died in between. A member with closed DMs who acted gets them as
an ephemeral followup instead: a DM her own action owes is left to the answer to that action
for a while (another post of the game, e.g. an AI's turn right after hers, may come first).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

import engine
import i18n
from bot import pictures, text
from bot.game.panel import Panel
from bot.game.quiet import QuietHours
from bot.game.results import Outcome
from bot.game.service import GameService
from bot.language import Languages, of_game
from bot.store import GameRow, OwedDM, StoreError
from bot.ui import send

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

    def __init__(self, client: discord.Client, service: GameService,
                 languages: Languages) -> None:
        self.client = client
        self.service = service
        self.store = service.store
        self.languages = languages
        # (game id, member) -> the version her catch-up was told up to (in this process)
        self.told: dict[tuple[int, int], int] = {}

    def now(self) -> float:
        return self.service.now()

    async def _channel(self, user_id: int) -> discord.DMChannel:
        """The DM channel with a user: kept by discord.py once opened, so a player's coins,
        turn and reminder DMs cost one request each (fetching the user first was one more,
        on a rate limit shared by the whole bot)."""
        return await self.client.create_dm(discord.Object(id=user_id))

    async def send_owed(self, *, game_id: int | None = None,
                        interaction: discord.Interaction | None = None,
                        stale_after: float | None = None) -> int:
        """Send the owed DMs of one game (or of all games: after a restart, when no answer to
        an action of before is coming) from the outbox; -> how many were delivered. Each is claimed first, so two senders never both send
        it, and carries a nonce, so a resend after a crash between sending and noting it is
        recognised by Discord as the same message."""
        delivered = 0
        try:
            stale = {} if stale_after is None else {"stale_after": stale_after}
            games: dict[int, GameRow | None] = {}
            for dm in await self.store.owed_dms(game_id, **stale):
                mine = interaction is not None and dm.user_id == interaction.user.id
                if dm.hers and not mine and game_id is not None:
                    continue  # the answer to her own action brings it (see the module)
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
                try:
                    await send(interaction, body + "\n" + i18n.t("dm.closed", lang),
                               ephemeral=True)
                except discord.HTTPException as failed:  # her answer came too late for it
                    log.info("could not tell %s her coins privately: %s", dm.user_id, failed)
                    await self.store.dm_release(dm.id)  # the next answer to her tries again
                    return False
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
        """A DM to the player who must act now, if they asked for it (`/sw-me notify`),
        with her catch-up; held through her quiet hours (the game's `wake` deadline sends
        it when they end)."""
        if panel is None or not panel.actor_id or panel.actor_id == acting:
            return
        if not (outcome.turn_started or outcome.turn_ended or outcome.headline) or \
                not outcome.nudge:
            return  # the same player acts on (or the table was told something)
        settings = await self.store.member_settings(panel.actor_id)
        if not settings.turn_dm:
            return
        quiet = QuietHours.stored(settings.quiet, settings.zone)
        if quiet is not None and quiet.contains(self.now()):
            return
        await self.turn_dm(outcome.game, panel.actor_id, round_no=panel.round,
                           defender=panel.is_defender, message_id=message_id)

    async def wake(self, game: GameRow, state: Any) -> None:
        """Her quiet hours ended during her turn: the turn DM they held back."""
        seat = game.seat_named(state.actor) if state.actor else None
        if seat is None or not seat.user_id or not await self.store.turn_dm(seat.user_id):
            return
        stored = await self.store.game_message(game.id)
        await self.turn_dm(game, seat.user_id, round_no=state.round,
                           defender=state.actor != state.players[state.current],
                           message_id=stored[0] if stored else None)

    async def turn_dm(self, game: GameRow, user_id: int, *, round_no: int, defender: bool,
                      message_id: int | None) -> None:
        """"It is your turn", her catch-up since her last action and its map."""
        try:
            user = await self._channel(user_id)
            link = jump(game.guild_id, game.channel_id, message_id)
            lang = await self.languages.for_user(user_id, fallback=of_game(game),
                                                 guild_id=game.guild_id)
            lines = [i18n.t("dm.turn", lang, game=game.id, channel=game.channel_id,
                            round=round_no, defender=defender, link=f" — {link}" if link else "")]
            told, files = await self.catch_up(game, user_id, lang, head=False)
            if told:
                lines += ["", *told]
            await user.send(text.clip("\n".join(lines)), files=files)
        except discord.HTTPException as exc:
            log.info("turn DM to %s failed: %s", user_id, exc)

    async def catch_up(self, game: GameRow, user_id: int, lang: str, *,
                       before: int | None = None, head: bool = True,
                       picture: bool = True) -> tuple[list[str], list[discord.File]]:
        """Her catch-up in `lang` and its map (the regions she lost outlined); remembered
        as told, so the first private reply of her turn does not tell it again."""
        caught = await self.service.member_catch_up(game, user_id, before=before)
        self.told[(game.id, user_id)] = max(self.told.get((game.id, user_id), 0), caught.upto)
        if caught.is_empty:
            return [], []
        files: list[discord.File] = []
        if picture:
            lost = caught.lost_regions
            obs = engine.observe(caught.state, None)
            found = await pictures.map_file(
                caught.state, lost, observation=obs, lang=lang,
                description=i18n.t("catchup.map_alt", lang, regions=", ".join(map(str, lost)),
                                   n=len(lost)) + " " + text.map_alt(obs, lang))
            if found is not None:
                files.append(found)
        return caught.lines(lang, head=head), files

    async def catch_up_once(self, game: GameRow, user_id: int, lang: str,
                            before: int) -> list[str]:
        """The catch-up for the first private reply of her turn (`before`: her action it
        answers), unless her turn DM (or an earlier reply) told it already."""
        key = (game.id, user_id)
        if self.told.get(key, 0) >= before - 1:
            return []
        lines, _ = await self.catch_up(game, user_id, lang, before=before, picture=False)
        self.told[key] = max(self.told.get(key, 0), before)  # her later replies: nothing new
        return lines

    async def remind(self, channel_id: int, game_id: int, user_id: int, line: str) -> None:
        """A turn reminder by DM (the game's choice) or, if DMs are closed, in the channel."""
        game = await self.store.get_game(game_id)
        how = game.opts.turn_clock.remind if game and game.opts.clock else "dm"
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
