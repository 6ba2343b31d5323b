"""The Announcer: the one owner of every game's living message, and the one path that posts
a turn — a member's, an AI stint's, a league table's start.

A quiet channel: each game keeps ONE living public message (the lobby, then the turn
panel), edited in place while a turn goes on. A finished turn posts one new message — the
turn's summary, the map and the next player's panel — and the previous living message is
retired: its buttons and menus are edited away and it keeps only the summary it was posted
with. The living message's id, summary and the game version it shows are in the store, so
a restart retires it too, and a post the bot owed when it died is made at the next start
(`recover`). Slash commands used mid-turn answer their user privately and edit the living
message. Coins reach their owner by DM (bot.chat.dms); nothing public shows them.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord
from discord.http import handle_message_parameters

import i18n
import render
from ai.moments import GameReview
from bot import answering, pictures, text
from bot.archive.reviews import Reviews, chances_of
from bot.archive.stories import Stories
from bot.chat.dms import Dms
from bot.chat.views import BoardLink, lobby_view, panel_prompt, turn_view
from bot.game.panel import Panel
from bot.game.results import Outcome
from bot.game.service import GameService
from bot.language import of_game
from bot.store import GameRow, GameStatus, Shards
from bot.ui import NO_MENTIONS, send

log = logging.getLogger(__name__)

# (both end sooner when the interaction's time to be answered runs out: bot.answering)
DEFER_AFTER = 1.0  # seconds to wait for pictures before deferring the interaction
ACK_AFTER = 1.5  # seconds a private "done" waits for the living message's edit at most
CONTENT_LIMIT = 1900
SUMMARY_LIMIT = 1100  # the finished turn's lines in a turn message
LIVE_LIMIT = 550  # the running turn's lines under it
Files = list[discord.File]


def _fresh_files(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The same post's arguments with new File objects (a failed send has read the old)."""
    files = kwargs.get("files")
    if not files:
        return kwargs
    fresh = []
    for old in files:
        old.reset()  # back to the start of its bytes (an in-memory picture: still open)
        fresh.append(discord.File(io.BytesIO(old.fp.read()), filename=old.filename,
                                  description=old.description))
    return {**kwargs, "files": fresh}


def clip(lines: list[str], *, newest: bool = False, lang: str = "en") -> str:
    """Lines joined and cut under Discord's limit (the first ones, or the newest)."""
    return "\n".join(text.clip_lines(lines, CONTENT_LIMIT, newest=newest, lang=lang))


def lobby_content(game: GameRow, note: str | None = None) -> str:
    lines = text.lobby_lines(game)
    if note:
        lines.insert(0, note)
    return "\n".join(lines)


def compose(summary: str, live: list[str], prompt: str, lang: str = "en") -> str:
    parts = [summary] if summary else []
    body = text.clip_lines(live, LIVE_LIMIT, newest=True, lang=lang) if live else []
    if prompt:
        body.append(prompt)
    if body:
        parts.append("\n".join(body))
    return text.clip("\n\n".join(parts) or "…")


def retired_text(game: GameRow, kept: str | None, lang: str) -> str:
    """What a retired living message keeps: its turn's summary (the lobby's start line if it
    was the lobby)."""
    return kept or i18n.t(
        "lobby.started", lang, game=game.id,
        players=i18n.t("list.sep", lang).join(f"<@{s.user_id}>" for s in game.players
                                              if s.user_id))


def ack(lang: str, lines: list[str]) -> str:
    """The private "done" for a command whose answer is the living message's edit."""
    return clip([i18n.t("ack.done", lang), *lines])


class Announcer:
    """Every game's living message and turn posts (one instance per bot)."""

    def __init__(self, client: discord.Client, service: GameService, dms: Dms,
                 stories: Stories) -> None:
        self.client = client
        self.service = service
        self.store = service.store
        self.dms = dms
        self.stories = stories
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._shown: dict[int, int] = {}  # game id -> stamp of the newest change shown
        self.reviews: Reviews | None = None  # finished games' reviews (the end card's chances)
        # how a living message opens the game's board page (None: there is no board page)
        self.board_link: Callable[[GameRow], BoardLink] | None = None
        self._early: set[asyncio.Future[bytes | None]] = set()  # maps begun before their post

    def _board(self, game: GameRow) -> BoardLink | None:
        return None if self.board_link is None else self.board_link(game)

    # -- editing and sending --------------------------------------------------------------

    async def edit(self, channel_id: int, message_id: int, **kwargs: Any) -> bool | None:
        """Edit a message of the bot's by id (no fetch); False when Discord refused, None
        when the message is gone."""
        try:
            # straight to the HTTP call: PartialMessage.edit would build a whole Message from
            # the answer, which nobody reads (~0.15 ms of the event loop per edit)
            with handle_message_parameters(
                    previous_allowed_mentions=self.client.allowed_mentions, **kwargs) as params:
                await self.client.http.edit_message(channel_id, message_id, params=params)
        except discord.NotFound:
            log.info("message %s in %s is gone", message_id, channel_id)
            return None
        except discord.HTTPException as exc:
            log.info("could not edit message %s in %s: %s", message_id, channel_id, exc)
            return False
        return True

    async def _fetch(self, channel_id: int, message_id: int) -> discord.Message | None:
        try:
            return await self.client.get_partial_messageable(channel_id).fetch_message(
                message_id)
        except discord.HTTPException:
            return None

    async def _send(self, interaction: discord.Interaction | None, channel_id: int,
                    content: str, **kwargs: Any) -> int | None:
        """A public post: the interaction's answer if there is one, else a channel message.
        An interaction whose window passed unanswered (the host held the bot up past the
        guard) can carry nothing any more: the post goes to the channel all the same."""
        if interaction is not None and not answering.lost(interaction):
            try:
                return await send(interaction, content, **kwargs)
            except discord.HTTPException as exc:
                if not answering.expired(exc):
                    raise
                log.warning("interaction %s expired before its answer: posted in the channel",
                            interaction.id)
                kwargs = _fresh_files(kwargs)
        kwargs = {k: v for k, v in kwargs.items() if v is not None}
        message = await self.client.get_partial_messageable(channel_id).send(content, **kwargs)
        return message.id

    async def _private(self, interaction: discord.Interaction, content: str) -> None:
        """A private answer to the member (her "done"); one that comes after the window
        passed unanswered is dropped: the living message or the channel tells what happened."""
        try:
            await send(interaction, content, ephemeral=True, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            if not answering.expired(exc):
                raise
            log.warning("interaction %s expired before its private answer", interaction.id)

    # -- the lobby --------------------------------------------------------------------------

    async def post_lobby(self, interaction: discord.Interaction | None, game: GameRow,
                         note: str | None = None, *,
                         mentions: discord.AllowedMentions = NO_MENTIONS) -> int | None:
        """Post the lobby message (`note` first); it is the game's living message until the
        start. Without an interaction (a league round's table) it goes to the channel."""
        old = await self.store.game_message(game.id)
        message_id = await self._send(interaction, game.channel_id, lobby_content(game, note),
                                      view=lobby_view(game), allowed_mentions=mentions)
        if message_id:
            await self.store.set_game_message(game.id, message_id)
        if old and old[0] != message_id:
            await self.edit(game.channel_id, old[0], view=None)
        return message_id

    async def refresh_lobby(self, game: GameRow, *, skip: int | None = None) -> bool:
        """Bring the lobby message up to date (or close it); False when there is none."""
        stored = await self.store.game_message(game.id)
        if stored is None:
            return False
        if stored[0] == skip:
            return True
        if game.status is GameStatus.LOBBY:
            return bool(await self.edit(game.channel_id, stored[0],
                                        content=lobby_content(game), view=lobby_view(game),
                                        allowed_mentions=NO_MENTIONS))
        return bool(await self.edit(game.channel_id, stored[0],
                                    content=i18n.t("lobby.closed", of_game(game)), view=None))

    async def lobby_changed(self, interaction: discord.Interaction, game: GameRow,
                            private: str) -> None:
        """/sw join, /sw-table leave, a kick: the lobby message is edited; the user hears
        privately. Without a lobby message on record (an older game), a new one is posted."""
        if await self.refresh_lobby(game):
            await send(interaction, private, ephemeral=True, allowed_mentions=NO_MENTIONS)
        elif game.status is GameStatus.LOBBY:
            await self.post_lobby(interaction, game, private)
        else:
            await send(interaction, i18n.t("lobby.closed", of_game(game)))

    async def retire(self, game: GameRow, content: str) -> None:
        """The game is over without a result (moderator end): its living message says so."""
        stored = await self.store.game_message(game.id)
        if stored is not None:
            await self.edit(game.channel_id, stored[0], content=content, view=None,
                            allowed_mentions=NO_MENTIONS)

    # -- posts the channel is owed -----------------------------------------------------------

    async def recover(self, shards: Shards | None = None) -> int:
        """At start: every game (on `shards`) whose living message shows an older version than
        the game — the bot died between a commit and its post — gets that post now: the turn
        post if a turn ended or the game began or ended since, else an edit of its panel.
        Returns how many games were caught up."""
        done = 0
        for game, shown in await self.store.owed_posts(shards):
            try:
                outcome = await self.service.catch_up(game, shown)
                await self.announce(outcome, fresh=outcome.turn_ended or outcome.finished
                                    or shown < 0)
                done += 1
            except Exception:  # noqa: BLE001 - one game must not keep the others waiting
                log.exception("could not post what game %s was owed", game.id)
        return done

    # -- turns ------------------------------------------------------------------------------

    async def announce(self, outcome: Outcome, interaction: discord.Interaction | None = None,
                       *, picture: bool = False, fresh: bool | None = None) -> int | None:
        """Show what happened: edit the living message, or (a turn ended, the game started
        or ended, a moderator stepped in) post the next one and retire the old. Then the
        private DMs. `interaction`: the member's command or click it answers (None: the AI,
        the clock, a league round)."""
        panel = outcome.panel
        if fresh is None:
            fresh = picture or outcome.turn_ended or outcome.finished
        # queued first: a guess waits for the drawers to be idle (this reply's pictures first)
        self._draw_ahead(outcome, panel)
        async with self._locks[outcome.game.id]:
            if fresh:
                message_id = await self._post_turn(outcome, panel, interaction)
            else:
                message_id = await self._update(outcome, panel, interaction)
        if outcome.finished:
            self._shown.pop(outcome.game.id, None)
            self._locks.pop(outcome.game.id, None)
        await self.dms.send_owed(game_id=outcome.game.id, interaction=interaction)
        await self.dms.notify_turn(outcome, panel, message_id,
                                   interaction.user.id if interaction else None)
        return message_id

    def _draw_ahead(self, outcome: Outcome, panel: Panel | None) -> None:
        if panel is not None and panel.auto:
            return  # the AI plays next: nobody's end of turn to draw ahead
        if (panel is not None and panel.can_end and not panel.is_defender and not panel.hand
                and (panel.stage == "redeploy" or not panel.targets)):
            # little else to do but end: draw the map (and row) that `end` would post.
            # Guessing after every conquest too was measured worse (bench/bot.py): twice the
            # CPU, and the right guesses waited behind the wrong ones. With tokens in hand the
            # player deploys them first (End asks before leaving them), so no guess then.
            pictures.draw_ahead(self.service, outcome)
        elif any(e.get("type") == "picked" for e in outcome.events):
            pictures.draw_ahead(self.service, outcome, "row")  # shown at the next pick
        # while the player can still conquer, no guess: measured, 1 in 40 was ever posted

    async def _update(self, outcome: Outcome, panel: Panel | None,
                      interaction: discord.Interaction | None) -> int | None:
        """Mid-turn: the living message is edited in place; a slash command's user is
        answered privately. Without a living message on record, a new one is posted."""
        game = outcome.game
        lang = of_game(game)
        stored = await self.store.game_message(game.id)
        if stored is None:
            return await self._post_turn(outcome, panel, interaction)
        message_id, summary = stored
        reply = lang if interaction is None else await self._reply_language(interaction)
        if self._shown.get(game.id, -1) > outcome.stamp:  # a newer change got there first
            if interaction is not None:
                await self._private(interaction, ack(reply, outcome.public))
            return message_id
        self._shown[game.id] = outcome.stamp
        _, live = await self.service.turn_story(game.id, lang=lang)
        live += outcome.headline  # e.g. "ann took back: ..." until the next action
        content = compose(summary, live, panel_prompt(panel, lang) if panel else "", lang)
        view = turn_view(panel, lang, self._board(game)) if panel is not None else None
        clicked = interaction.message if interaction is not None else None
        on_living = clicked is not None and clicked.id == message_id
        extra: dict[str, Any] = {}
        if outcome.turn_started:
            # survivors were placed and the next turn began: the pictures show the new
            # position (and the combo row, if the next player must pick)
            if interaction is not None and not on_living:
                await self._private(interaction, await self._ack(interaction, outcome, reply,
                                                                 outcome.public))
            files = await self._pictures(outcome, panel, interaction)
            if files:
                extra["attachments"] = files
        elif any(e.get("type") == "picked" for e in outcome.events):
            # the combo row picture is out of date once a combo is taken: keep only the map
            shown = clicked if on_living else await self._fetch(game.channel_id, message_id)
            if shown is not None and any(a.filename == "combos.png" for a in shown.attachments):
                extra["attachments"] = [a for a in shown.attachments
                                        if a.filename != "combos.png"]
        if interaction is not None and on_living and await self._answer_on_living(
                interaction, content=content, view=view, allowed_mentions=NO_MENTIONS,
                **extra):
            await self.store.set_shown(game.id, outcome.version)
            return message_id
        # the living message first, then the private "done": a member who reads it and clicks
        # finds the new panel (unless Discord is slow to take the edit: then the answer goes
        # first, inside the interaction's 3 seconds)
        edit = asyncio.ensure_future(self.edit(game.channel_id, message_id, content=content,
                                               view=view, allowed_mentions=NO_MENTIONS, **extra))
        if interaction is not None and answering.unanswered(interaction):
            await asyncio.wait({edit}, timeout=min(ACK_AFTER, answering.time_left(interaction)))
            await self._private(interaction, await self._ack(
                interaction, outcome, reply, outcome.headline or outcome.public))
        edited = await edit
        if edited is None:
            # the living message is gone (deleted by someone): the game gets a new one
            return await self._post_turn(outcome, panel, interaction)
        if edited:
            await self.store.set_shown(game.id, outcome.version)
        if clicked is not None and clicked.id != message_id and not clicked.flags.ephemeral:
            await self.edit(game.channel_id, clicked.id, view=None)
        return message_id

    @staticmethod
    async def _answer_on_living(interaction: discord.Interaction, **kwargs: Any) -> bool:
        """A click on the living message is answered by editing that message. If slow pictures
        (or the bot's guard, bot.answering) deferred the click first, the edit goes to the
        deferred "original", as the deferral promised (through the channel the message
        changes, but the click's own webhook never carries an answer). False: not done
        (answered some other way, or the window passed): edit it through the channel."""
        if answering.lost(interaction):
            return False
        try:
            return await answering.edit_clicked(interaction, **kwargs)
        except discord.HTTPException as exc:
            log.info("could not edit the clicked message as the answer: %s", exc)
            return False

    async def _ack(self, interaction: discord.Interaction, outcome: Outcome, reply: str,
                   lines: list[str]) -> str:
        """The private "done" for her action; the first of her turn also tells her what
        happened since her last action (unless her turn DM did)."""
        user = interaction.user.id
        told: list[str] = []
        if outcome.first_seq and outcome.previous_actor_id == user and \
                outcome.game.seat_of(user) is not None:
            try:
                told = await self.dms.catch_up_once(outcome.game, user, reply,
                                                    outcome.first_seq)
            except Exception:  # noqa: BLE001 - the answer must go out anyway
                log.exception("no catch-up for %s in game %s", user, outcome.game.id)
        text_ = ack(reply, lines)
        return text.clip(text_ + "\n\n" + "\n".join(told)) if told else text_

    async def say(self, game: GameRow, content: str) -> int | None:
        """A line of the game's own in its channel (a vote's outcome), outside the turns."""
        try:
            message = await self.client.get_partial_messageable(game.channel_id).send(
                content, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.warning("could not post in %s for game %s: %s", game.channel_id, game.id, exc)
            return None
        return message.id

    async def _reply_language(self, interaction: discord.Interaction) -> str:
        return await self.dms.languages.for_interaction(interaction)

    async def _turn_pictures(self, outcome: Outcome, panel: Panel | None, lang: str, *,
                             row: bool, now: bool = False
                             ) -> list[asyncio.Future[discord.File | None]]:
        """Start drawing a turn post's pictures in the workers, in the game's language: the
        map (this turn's conquests marked; at the turn's end when the outcome went on past
        it, unless `now`), the combo row if `row`; at the end the end card (the coin race,
        told only now) and, where the server has them on, the replay."""
        shown, obs, highlight = _turn_map(outcome, now)
        jobs: list[Awaitable[discord.File | None]] = [
            pictures.map_file(shown, highlight, observation=obs,
                              description=text.map_alt(obs, lang), lang=lang)]
        if row:
            jobs.append(pictures.row_file(outcome.state, description=text.row_alt(obs, lang),
                                          lang=lang))
        if outcome.finished:
            jobs += await self.story_pictures(outcome.game, lang, replay=None)
        return [asyncio.ensure_future(job) for job in jobs]

    def map_early(self, outcome: Outcome) -> None:
        """The service's word that a turn (or the game) ended: start drawing its turn post's
        map now, while the session still writes the game's deadlines; the post asks for the
        same picture and gets this drawing (bot.pictures caches pictures being drawn)."""
        shown, obs, highlight = _turn_map(outcome, False)
        task = asyncio.ensure_future(pictures.map_png(shown, highlight, observation=obs,
                                                      lang=of_game(outcome.game)))
        self._early.add(task)
        task.add_done_callback(self._early.discard)

    async def story_pictures(self, game: GameRow, lang: str, *, replay: bool | None,
                             card: bool = True) -> list[Awaitable[discord.File | None]]:
        """The end card (and the replay: `replay` None follows the server's choice) of a
        finished game, to be drawn in the game's drawer."""
        told = await self.stories.of(game)
        route = hash((told.board.id, told.players, game.seed))
        jobs: list[Awaitable[discord.File | None]] = []
        if card:  # with the win chances once the game's review is made
            review = None if self.reviews is None else await self.reviews.stored(game.id)
            jobs.append(pictures.end_card_file(
                told, lang=lang, route=route, description=render.end_card_alt(told, lang),
                chances=chances_of(review, len(told.frames))))
        if replay is None:
            replay = (await self.store.guild_options(game.guild_id)).replays
        if replay:
            jobs.append(pictures.replay_file(told, lang=lang, route=route,
                                             description=render.replay_alt(told, lang)))
        return jobs

    async def show_review(self, game: GameRow, review: GameReview,
                          wait: float = 1.0, tries: int = 60) -> bool:
        """A finished game's review is stored: its final message (the end post) gets the
        end card redrawn with the win chances in place of the one it had; the other pictures
        stay. Waits (up to `tries` x `wait` s) for the end post to be on record. -> edited."""
        for _ in range(tries):
            message_id = await self.store.final_message(game.id)
            if message_id is not None:
                break
            await asyncio.sleep(wait)
        else:
            return False
        message = await self._fetch(game.channel_id, message_id)
        if message is None or not any(a.filename == "final.png" for a in message.attachments):
            return False
        lang = of_game(game)
        told = await self.stories.of(game)
        card = await pictures.end_card_file(
            told, lang=lang, route=hash((told.board.id, told.players, game.seed)),
            description=render.end_card_alt(told, lang),
            chances=chances_of(review, len(told.frames)))
        if card is None:
            return False
        kept: list[Any] = [a for a in message.attachments if a.filename != "final.png"]
        return bool(await self.edit(game.channel_id, message.id, attachments=[*kept, card]))

    async def _gather(self, tasks: list[asyncio.Future[discord.File | None]],
                      interaction: discord.Interaction | None) -> Files:
        """The pictures; an interaction not yet answered is deferred if they take long (its
        time to be answered counted: bot.answering)."""
        try:
            if interaction is not None and not answering.lost(interaction):
                wait = min(DEFER_AFTER, answering.time_left(interaction))
                _, pending = await asyncio.wait(tasks, timeout=wait)
                if pending:
                    try:
                        await answering.defer(interaction, thinking=interaction.message is None)
                    except discord.HTTPException as exc:
                        if not answering.expired(exc):
                            raise
                        log.warning("interaction %s expired before its deferral",
                                    interaction.id)
            return [f for f in await asyncio.gather(*tasks) if f is not None]
        finally:
            for task in tasks:
                if not task.done():
                    task.cancel()

    async def _pictures(self, outcome: Outcome, panel: Panel | None,
                        interaction: discord.Interaction | None) -> Files:
        """The pictures of the position now (a living message's edit)."""
        row = panel is not None and bool(panel.picks)
        return await self._gather(await self._turn_pictures(
            outcome, panel, of_game(outcome.game), row=row, now=True), interaction)

    def _turn_text(self, outcome: Outcome, panel: Panel | None, finished: list[str],
                   live: list[str], lang: str
                   ) -> tuple[str, str, discord.ui.View | None, discord.AllowedMentions]:
        """A turn post's words in the game's language: (summary kept when the post is
        retired, the whole content, the next player's panel, who is pinged). At the end the
        ranking joins the summary and nothing is live any more."""
        summary_lines = [*outcome.headline, *finished]
        if outcome.finished:
            truth = outcome.revealed()
            summary_lines += text.ranking_lines(truth.get("ranking"), truth.get("players", {}),
                                                lang)
            live = []
        summary = "\n".join(text.clip_lines(summary_lines, SUMMARY_LIMIT, newest=True,
                                            lang=lang))
        has_actor = panel is not None and panel.actor
        prompt = panel_prompt(panel, lang) if panel is not None and has_actor else ""
        view = (turn_view(panel, lang, self._board(outcome.game))
                if panel is not None and has_actor else None)
        ping = [discord.Object(id=u) for u in
                ((panel.actor_id, panel.next_id) if panel is not None else ()) if u]
        mentions = discord.AllowedMentions(users=ping, everyone=False, roles=False)
        return summary, compose(summary, live, prompt, lang), view, mentions

    async def _post_turn(self, outcome: Outcome, panel: Panel | None,
                         interaction: discord.Interaction | None) -> int | None:
        """Post the game's next living message (summary + map + the next panel), then retire
        the previous one."""
        game = outcome.game
        lang = of_game(game)
        # pictures are drawn in a worker while the text is worked out here
        auto = panel is not None and panel.auto is not None and interaction is None
        row = bool(panel is not None and panel.picks and not auto)
        tasks = await self._turn_pictures(outcome, panel, lang, row=row)
        try:
            finished: list[str] = []
            live: list[str] = []
            if outcome.first_seq or outcome.finished:
                finished, live = await self.service.turn_story(game.id, outcome.first_seq,
                                                               lang=lang)
            elif outcome.version:
                _, live = await self.service.turn_story(game.id, lang=lang)
            summary, content, view, mentions = self._turn_text(outcome, panel, finished, live,
                                                               lang)
        except BaseException:
            for task in tasks:
                task.cancel()
            raise
        # most pictures are ready at once (drawn ahead, or quick): answer with them in one
        # message; only a slow one makes the bot defer ("thinking…") first
        files = await self._gather(tasks, interaction)
        previous = await self.store.game_message(game.id)
        message_id = await self._send(interaction, game.channel_id, content,
                                      files=files or None, view=view, allowed_mentions=mentions)
        self._shown[game.id] = outcome.stamp
        if message_id:
            await self.store.set_game_message(game.id, message_id, summary,
                                              shown=outcome.version)
        if previous and previous[0] != message_id:
            await self.edit(game.channel_id, previous[0],
                            content=retired_text(game, previous[1], lang), view=None,
                            allowed_mentions=NO_MENTIONS)
        clicked = interaction.message if interaction is not None else None
        if clicked is not None and not clicked.flags.ephemeral and clicked.id not in (
                message_id, previous[0] if previous else None):
            await self.edit(game.channel_id, clicked.id, view=None)
        for notice in outcome.notices:  # e.g. the league result, after the final reveal
            try:
                await self._send(interaction, game.channel_id, notice,
                                 allowed_mentions=NO_MENTIONS)
            except discord.HTTPException as exc:
                log.warning("could not post a notice for game %s: %s", game.id, exc)
        if outcome.turn_map is not None and message_id:
            # it went on past the turn's end (survivors placed, the next turn begun): the
            # post showed that turn's end, its edit shows the position now, as when a
            # member places them
            now = await self._gather(await self._turn_pictures(outcome, panel, lang, row=row,
                                                               now=True), None)
            if now:
                await self.edit(game.channel_id, message_id, attachments=now)
        return message_id


def _turn_map(outcome: Outcome, now: bool) -> tuple[Any, Mapping[str, Any], tuple[int, ...]]:
    """What a turn post's map shows: the state, its public observation and the regions
    outlined; the turn's end when the outcome went on past it (unless `now`)."""
    if outcome.turn_map is not None and not now:
        at_end = outcome.turn_map
        return at_end.state, at_end.observation, at_end.highlight
    return outcome.state, outcome.observation, outcome.highlight
