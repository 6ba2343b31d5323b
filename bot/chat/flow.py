"""What a member's command or click does: one call to the game service, then the Announcer.

`Flow` is shared by the slash commands (bot/cogs) and the components (bot/chat/views.py,
which reach it as `client.components`). Every refusal ends as an ephemeral sentence in the
member's language (bot/ui.py); a stale click on an old panel also loses its buttons.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

import engine
import i18n
from bot import answering, text
from bot.chat.announce import Announcer, lobby_content
from bot.chat.archive import history_page
from bot.chat.review_words import review_lines
from bot.chat.views import asked_combo, confirm_view, lobby_view, read_ask
from bot.clock import ClockConfig, duration
from bot.errors import LobbyError, NotAllowed, StaleVersion
from bot.game import ai_worker
from bot.game.play import Ask
from bot.game.results import Outcome
from bot.game.service import GameService
from bot.language import Languages, of_game
from bot.pictures import map_file
from bot.store import GameRow, GameStatus
from bot.ui import NO_MENTIONS, display_name, report_error, send

log = logging.getLogger(__name__)

IsMod = Callable[[discord.Interaction], bool]
REVIEW_WAIT = 120.0  # seconds /sw-game review waits for a review it has to make


class Flow:
    """The handlers of members' commands and clicks."""

    def __init__(self, service: GameService, announcer: Announcer, languages: Languages,
                 is_mod: IsMod) -> None:
        self.service = service
        self.announcer = announcer
        self.languages = languages
        self.is_mod = is_mod

    async def _lang(self, interaction: discord.Interaction) -> str:
        return await self.languages.for_interaction(interaction)

    # -- lobby ----------------------------------------------------------------------------

    async def lobby_click(self, interaction: discord.Interaction, game_id: int, op: str,
                          value: str = "") -> None:
        service = self.service
        channel_id = interaction.channel_id or 0
        user = interaction.user
        is_mod = self.is_mod(interaction)
        try:
            game = await service.lobby(channel_id)
            if game.id != game_id or game.status is not GameStatus.LOBBY:
                raise StaleVersion.said("svc.lobby_closed")
            if op == "join":
                game = await service.join(channel_id, user.id, display_name(user))
            elif op == "leave":
                game = await service.leave(channel_id, user.id, is_mod=is_mod)
            elif op == "ai":
                game = await service.add_ai(channel_id, user.id, value, is_mod=is_mod)
            elif op == "noai":
                game = await service.remove_ai(channel_id, user.id, is_mod=is_mod)
            elif op == "clock":
                game = await self._lobby_clock(interaction, value, is_mod)
            else:
                await self.start_game(interaction)
                return
        except Exception as exc:  # noqa: BLE001 - refusals and bugs both end in report_error
            await self._refused(interaction, exc)
            return
        lang = of_game(game)
        if game.status is GameStatus.LOBBY:
            await answering.edit_clicked(interaction, content=lobby_content(game),
                                         view=lobby_view(game), allowed_mentions=NO_MENTIONS)
        else:
            await answering.edit_clicked(interaction, content=i18n.t("lobby.closed", lang),
                                         view=None)
        clicked = interaction.message.id if interaction.message else None
        await self.announcer.refresh_lobby(game, skip=clicked)

    async def _lobby_clock(self, interaction: discord.Interaction, value: str,
                           is_mod: bool) -> GameRow:
        channel_id = interaction.channel_id or 0
        old = await self.service.lobby_clock(channel_id)
        try:
            clock = ClockConfig(limit=duration(value), remind=old.remind)
        except ValueError as exc:
            raise LobbyError.said("svc.bad_clock", error=str(exc)) from None
        return await self.service.set_clock(channel_id, interaction.user.id, clock,
                                            is_mod=is_mod)

    async def start_game(self, interaction: discord.Interaction) -> None:
        outcome = await self.service.start(interaction.channel_id or 0, interaction.user.id,
                                           is_mod=self.is_mod(interaction))
        await self.announcer.announce(outcome, interaction, picture=True)

    # -- actions ----------------------------------------------------------------------------

    async def run_action(self, interaction: discord.Interaction, action: dict[str, Any], *,
                         game_id: int | None = None, version: int | None = None,
                         ask: bool = True, confirmed: bool = False) -> None:
        """Apply one action for the interaction's user and announce what happened. With
        `ask`, an End or Decline that wants her yes first asks (one load of the game either
        way); `confirmed`: this click is the yes, on the question's own message."""
        result = await self.service.act(interaction.channel_id or 0, interaction.user.id,
                                        action, game_id=game_id, version=version,
                                        ask=ask and not confirmed)
        if isinstance(result, Ask):
            await self._ask(interaction, result.game_id, result.version, result.verb,
                            result.hand, asked=result.active and i18n.Msg(
                                "combo", race=result.active[0], power=result.active[1]))
            return
        if confirmed:  # the question goes away; the answer comes in the channel
            try:
                await answering.edit_clicked(
                    interaction, content=i18n.t("confirm.done", await self._lang(interaction)),
                    view=None)
            except discord.HTTPException as exc:  # committed: it is announced all the same
                if not answering.expired(exc):
                    raise
                log.warning("interaction %s expired before its answer", interaction.id)
        await self.announcer.announce(result, interaction)

    async def _ask(self, interaction: discord.Interaction, game_id: int, version: int,
                   verb: str, hand: int, asked: Any = "") -> None:
        lang = await self._lang(interaction)
        question = (i18n.t("confirm.decline", lang, race=asked or "") if verb == "decline"
                    else i18n.t("confirm.end", lang, tokens=hand))
        await send(interaction, question, ephemeral=True,
                   view=confirm_view(game_id, version, verb, lang))

    async def run_undo(self, interaction: discord.Interaction, *,
                       version: int | None = None) -> None:
        outcome = await self.service.undo(interaction.channel_id or 0, interaction.user.id,
                                          version=version)
        await self.announcer.announce(outcome, interaction)

    async def announce(self, interaction: discord.Interaction, outcome: Outcome, *,
                       fresh: bool | None = None) -> None:
        await self.announcer.announce(outcome, interaction, fresh=fresh)

    # -- components -------------------------------------------------------------------------

    async def _retire_clicked(self, interaction: discord.Interaction) -> None:
        """A stale click on a public message that still shows components: edit them away."""
        msg = interaction.message
        if msg is None or msg.flags.ephemeral or not msg.components:
            return
        stored = None
        try:
            game = await self.service.store.last_game(interaction.channel_id or 0)
            stored = await self.service.store.game_message(game.id) if game else None
        except Exception:  # noqa: BLE001 - best effort
            log.debug("no living message to compare with", exc_info=True)
        if stored and stored[0] == msg.id:
            return  # the living message: the next update redraws it
        await self.announcer.edit(msg.channel.id, msg.id, view=None)

    async def _refused(self, interaction: discord.Interaction, exc: BaseException, *,
                       panel: bool = False) -> None:
        """The one tail of every click: a refusal's sentence (or an apology for a bug); a
        stale click also loses its components."""
        if isinstance(exc, StaleVersion) and panel:
            exc = StaleVersion.said("svc.stale_panel")
        await report_error(interaction, exc)
        if isinstance(exc, StaleVersion):
            await self._retire_clicked(interaction)

    async def button_click(self, interaction: discord.Interaction, game_id: int,
                           version: int, verb: str, arg: str = "") -> None:
        handlers: dict[str, Callable[[], Awaitable[None]]] = {
            "map": lambda: self.show_map(interaction, ephemeral=True),
            "board": lambda: self.open_board(interaction),
            "undo": lambda: self.run_undo(interaction, version=version),
            "cancel": lambda: self._cancelled(interaction),
            "endask": lambda: self._asked(interaction, game_id, version, "end", arg),
            "declineask": lambda: self._asked(interaction, game_id, version, "decline", arg),
        }
        try:
            if verb in handlers:
                await handlers[verb]()
            elif verb in ("declineok", "endok"):
                await self.run_action(interaction, {"do": verb[:-2]}, game_id=game_id,
                                      version=version, confirmed=True)
            elif verb in ("roll", "decline", "end"):
                # a panel's End that needs no yes says so; a Decline always asks (a panel
                # drawn before asking buttons had plain "decline")
                await self.run_action(interaction, {"do": verb}, game_id=game_id,
                                      version=version, ask=verb == "decline")
            else:
                raise StaleVersion.said("svc.stale_panel")
        except Exception as exc:  # noqa: BLE001 - everything ends in report_error
            await self._refused(interaction, exc, panel=True)

    async def open_board(self, interaction: discord.Interaction) -> None:
        """The living message's "Open the board": Discord launches the Activity, which opens
        the game of the channel it is launched from."""
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as exc:  # Activities off for the application after all
            log.warning("launching the board failed: %s", exc)
            await send(interaction, i18n.t("ui.no_activity", await self._lang(interaction)),
                       ephemeral=True)

    async def _cancelled(self, interaction: discord.Interaction) -> None:
        await answering.edit_clicked(
            interaction, content=i18n.t("confirm.gone", await self._lang(interaction)),
            view=None)

    async def _asked(self, interaction: discord.Interaction, game_id: int, version: int,
                     verb: str, arg: str) -> None:
        """An End or Decline button that asks first: its own player gets the question at
        once; anybody else's click goes to the service, which says whose turn it is."""
        who, numbers = read_ask(arg)
        if who and who == interaction.user.id:
            hand = numbers[0] if verb == "end" and numbers else 0
            await self._ask(interaction, game_id, version, verb, hand,
                            asked=asked_combo(numbers) if verb == "decline" else "")
            return
        await self.run_action(interaction, {"do": verb}, game_id=game_id, version=version,
                              ask=False)

    async def select_click(self, interaction: discord.Interaction, game_id: int,
                           version: int, action: dict[str, Any]) -> None:
        try:
            await self.run_action(interaction, action, game_id=game_id, version=version,
                                  ask=False)
        except Exception as exc:  # noqa: BLE001
            await self._refused(interaction, exc, panel=True)

    # -- the AI as a coach ------------------------------------------------------------------

    async def hint(self, interaction: discord.Interaction) -> None:
        """The AI's suggestion for the member's next step, with its reason, privately (the
        AI reads only what her seat may see; the channel never hears of it)."""
        loaded = await self.service.hint_position(interaction.channel_id or 0,
                                                  interaction.user.id)
        await answering.defer(interaction, ephemeral=True, thinking=True)
        told = await ai_worker.hint(loaded.state, ai_worker.ai_seed(loaded.game.seed,
                                                                    loaded.version))
        lines = text.hint_lines(told, await self._lang(interaction))
        await send(interaction, "\n".join(lines), ephemeral=True, allowed_mentions=NO_MENTIONS)

    # -- finished games -----------------------------------------------------------------------

    async def post_story(self, interaction: discord.Interaction, game_id: int | None, *,
                         public: bool = False, replay: bool) -> None:
        """A finished game's end card or replay (`game_id` None: the channel's last game)."""
        found = await self.service.finished_game(interaction.guild_id or 0,
                                                 interaction.channel_id or 0, game_id)
        lang = of_game(found) if public else await self._lang(interaction)
        await answering.defer(interaction, ephemeral=not public, thinking=True)
        jobs = await self.announcer.story_pictures(found, lang, replay=replay, card=not replay)
        files = [f for f in [await job for job in jobs] if f is not None]
        caption = i18n.t("archive.replay" if replay else "archive.final", lang, game=found.id)
        if not files:
            caption += " " + i18n.t("svc.no_picture", lang)
        await send(interaction, caption, files=files, ephemeral=not public,
                   allowed_mentions=NO_MENTIONS)

    async def post_review(self, interaction: discord.Interaction, game_id: int | None
                          ) -> None:
        """A finished game's key moments, privately: its swings and the member's better
        turn. A running game is refused; a review not made yet is made now (deferred), or
        the member is told it is being made."""
        store = self.service.store
        asked = await store.get_game(game_id) if game_id is not None else \
            await store.last_game(interaction.channel_id or 0, started=True)
        if asked is not None and asked.guild_id == (interaction.guild_id or 0) and \
                asked.status is GameStatus.ACTIVE:
            raise NotAllowed.said("review.not_finished", game=asked.id)
        found = await self.service.finished_game(interaction.guild_id or 0,
                                                 interaction.channel_id or 0, game_id)
        lang = await self._lang(interaction)
        reviews = self.announcer.reviews
        review = None if reviews is None else await reviews.stored(found.id)
        if review is None and reviews is not None:
            await answering.defer(interaction, ephemeral=True, thinking=True)
            task = reviews.start(found)
            try:
                review = await asyncio.wait_for(asyncio.shield(task), REVIEW_WAIT)
            except TimeoutError:
                review = None
            if review is None:
                key = "review.computing" if not task.done() else "review.failed"
                await send(interaction, i18n.t(key, lang, game=found.id), ephemeral=True)
                return
        if review is None:
            await send(interaction, i18n.t("review.computing", lang, game=found.id),
                       ephemeral=True)
            return
        seat = found.seat_of(interaction.user.id)
        lines = review_lines(review, found.id, None if seat is None else seat.name, lang)
        await send(interaction, text.clip("\n".join(lines)), ephemeral=True,
                   allowed_mentions=NO_MENTIONS)

    async def history_click(self, interaction: discord.Interaction, member_id: int,
                            page: int) -> None:
        try:
            content, view = await history_page(self.service.store, interaction.guild_id or 0,
                                               member_id, page, await self._lang(interaction))
            await answering.edit_clicked(interaction, content=content, view=view,
                                         allowed_mentions=NO_MENTIONS)
        except Exception as exc:  # noqa: BLE001
            await self._refused(interaction, exc)

    async def replay_pick(self, interaction: discord.Interaction, game_id: int) -> None:
        try:
            await self.post_story(interaction, game_id, replay=True)
        except Exception as exc:  # noqa: BLE001
            await self._refused(interaction, exc)

    async def show_map(self, interaction: discord.Interaction, *,
                       ephemeral: bool = False) -> None:
        loaded = await self.service.last_view(interaction.channel_id or 0)
        await answering.defer(interaction, ephemeral=ephemeral, thinking=True)
        obs = engine.observe(loaded.state, None)
        lang = of_game(loaded.game)
        picture = await map_file(loaded.state, observation=obs,
                                 description=text.map_alt(obs, lang), lang=lang)
        caption = i18n.t("map.caption", lang, game=loaded.game.id, round=obs.get("round", "?"))
        if picture is None:
            caption += " " + i18n.t("svc.no_picture", lang)
        await send(interaction, caption, file=picture, ephemeral=ephemeral)

