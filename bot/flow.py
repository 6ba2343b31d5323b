"""What the bot posts after the service accepted something. Shared by slash commands and
components.

A quiet channel: each game keeps ONE living public message (the lobby, then the turn
panel), edited in place while a turn goes on. A finished turn posts one new message — the
turn's summary, the map, and the next player's panel — and the previous living message is
retired: its buttons and menus are edited away and it keeps only the summary it was posted
with. The living message's id and summary are in the store, so a restart retires it too.
Slash commands used mid-turn answer their user privately and edit the living message.
Coins reach their owner by DM (or an ephemeral fallback); nothing public shows them.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import defaultdict
from typing import Any

import discord

import engine
import i18n
from bot import text
from bot.errors import LobbyError, ServiceError, StaleVersion
from bot.language import of_game, reply_language
from bot.pictures import draw_ahead, final_file, map_file, row_file
from bot.service import GameService, Outcome, Panel
from bot.store import GameRow, GameStatus, OwedDM, Store, StoreError
from bot.ui import NO_MENTIONS, display_name, report_error, send
from bot.views import confirm_view, lobby_view, panel_prompt, turn_view

log = logging.getLogger(__name__)

DM_CLOSED = 50007
DEFER_AFTER = 1.0  # seconds to wait for pictures before deferring the interaction
CONTENT_LIMIT = 1900
SUMMARY_LIMIT = 1100  # the finished turn's lines in a turn message
LIVE_LIMIT = 550  # the running turn's lines under it

# Per event loop: an asyncio.Lock belongs to the loop it first waited in, and a lock left held
# when a loop ended (a bot stopped mid-post) must not block the next bot in the same process.
_post_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop,
                                       defaultdict[int, asyncio.Lock]] = weakref.WeakKeyDictionary()


def _post_lock(game_id: int) -> asyncio.Lock:
    """The lock that keeps one game's living-message posts in order (this loop's)."""
    loop = asyncio.get_running_loop()
    locks = _post_locks.get(loop)
    if locks is None:
        locks = _post_locks[loop] = defaultdict(asyncio.Lock)
    return locks[game_id]
_shown: dict[int, int] = {}  # game id -> stamp of the newest change its living message shows


def service_of(interaction: discord.Interaction) -> GameService:
    return interaction.client.service  # type: ignore[attr-defined]


def _clip(lines: list[str], *, newest: bool = False, lang: str = "en") -> str:
    """Lines joined and cut under Discord's limit (the first ones, or the newest)."""
    return "\n".join(text.clip_lines(lines, CONTENT_LIMIT, newest=newest, lang=lang))


async def _edit(client: discord.Client, channel_id: int, message_id: int,
                **kwargs: Any) -> bool | None:
    """Edit a message of the bot's by id (no fetch); False when Discord refused, None when
    the message is gone."""
    try:
        partial = client.get_partial_messageable(channel_id).get_partial_message(message_id)
        await partial.edit(**kwargs)
    except discord.NotFound:
        log.info("message %s in %s is gone", message_id, channel_id)
        return None
    except discord.HTTPException as exc:
        log.info("could not edit message %s in %s: %s", message_id, channel_id, exc)
        return False
    return True


async def _fetch(client: discord.Client, channel_id: int,
                 message_id: int) -> discord.Message | None:
    try:
        return await client.get_partial_messageable(channel_id).fetch_message(message_id)
    except discord.HTTPException:
        return None


def _jump(guild_id: int | None, channel_id: int, message_id: int | None) -> str | None:
    if not message_id:
        return None
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


# -- lobby ----------------------------------------------------------------------------------


def lobby_content(game: GameRow, note: str | None = None) -> str:
    lines = text.lobby_lines(game)
    if note:
        lines.insert(0, note)
    return "\n".join(lines)


async def post_lobby(interaction: discord.Interaction, game: GameRow,
                     note: str | None = None) -> None:
    """Post the lobby message; it is the game's living message until the start."""
    store = service_of(interaction).store
    old = await store.game_message(game.id)
    message_id = await send(interaction, lobby_content(game, note), view=lobby_view(game),
                            allowed_mentions=NO_MENTIONS)
    if message_id:
        await store.set_game_message(game.id, message_id)
    if old and old[0] != message_id:
        await _edit(interaction.client, game.channel_id, old[0], view=None)


async def refresh_lobby(client: discord.Client, service: GameService, game: GameRow, *,
                        skip: int | None = None) -> bool:
    """Bring the lobby message up to date (or close it); False when there is none."""
    stored = await service.store.game_message(game.id)
    if stored is None:
        return False
    if stored[0] == skip:
        return True
    if game.status is GameStatus.LOBBY:
        return await _edit(client, game.channel_id, stored[0], content=lobby_content(game),
                           view=lobby_view(game), allowed_mentions=NO_MENTIONS)
    return await _edit(client, game.channel_id, stored[0], content=i18n.t("lobby.closed", of_game(game)), view=None)


async def lobby_changed(interaction: discord.Interaction, game: GameRow, private: str) -> None:
    """/sw join, /sw leave, a kick: the lobby message is edited; the user hears privately.
    Without a lobby message on record (an older game), a new one is posted."""
    service = service_of(interaction)
    if await refresh_lobby(interaction.client, service, game):
        await send(interaction, private, ephemeral=True, allowed_mentions=NO_MENTIONS)
    elif game.status is GameStatus.LOBBY:
        await post_lobby(interaction, game, private)
    else:
        await send(interaction, i18n.t("lobby.closed", of_game(game)))


async def lobby_click(interaction: discord.Interaction, game_id: int, op: str,
                      value: str = "") -> None:
    from bot.clock import ClockConfig, duration
    from bot.ui import is_moderator

    service = service_of(interaction)
    channel_id = interaction.channel_id or 0
    user = interaction.user
    settings = interaction.client.settings  # type: ignore[attr-defined]
    is_mod = is_moderator(interaction, settings.mod_role_id)
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
            old = await service.lobby_clock(channel_id)
            try:
                clock = ClockConfig(limit=duration(value), remind=old.remind)
            except ValueError as exc:
                raise LobbyError.said("svc.bad_clock", error=str(exc)) from None
            game = await service.set_clock(channel_id, user.id, clock, is_mod=is_mod)
        else:
            await start_game(interaction, component=True)
            return
    except Exception as exc:  # noqa: BLE001 - refusals and bugs both end in report_error
        await report_error(interaction, exc)
        if isinstance(exc, StaleVersion):
            await _retire_clicked(interaction)
        return
    if game.status is GameStatus.LOBBY:
        await interaction.response.edit_message(content=lobby_content(game), view=lobby_view(game),
                                                allowed_mentions=NO_MENTIONS)
    else:
        await interaction.response.edit_message(content=i18n.t("lobby.closed", of_game(game)), view=None)
    clicked = interaction.message.id if interaction.message else None
    await refresh_lobby(interaction.client, service, game, skip=clicked)


async def start_game(interaction: discord.Interaction, *, component: bool = False) -> None:
    from bot.ui import is_moderator

    service = service_of(interaction)
    settings = interaction.client.settings  # type: ignore[attr-defined]
    outcome = await service.start(
        interaction.channel_id or 0,
        interaction.user.id,
        is_mod=is_moderator(interaction, settings.mod_role_id),
    )
    await announce(interaction, outcome, picture=True)


# -- actions --------------------------------------------------------------------------------


def _needs_confirmation(panel: Panel, user_id: int, verb: str) -> bool:
    """Decline always asks; End asks while tokens are still in hand. Nothing is asked while
    the AI plays the seat (the action is refused: the member takes the seat back first)."""
    if panel.actor_id != user_id or panel.is_defender or panel.auto:
        return False
    if verb == "decline":
        return panel.can_decline
    return verb == "end" and panel.can_end and panel.hand > 0 and not panel.picks


async def run_action(
    interaction: discord.Interaction,
    action: dict[str, Any],
    *,
    game_id: int | None = None,
    version: int | None = None,
    confirmed: bool = False,
) -> None:
    """Apply one action for the interaction's user and announce what happened."""
    service = service_of(interaction)
    channel_id = interaction.channel_id or 0
    verb = action.get("do")
    if not confirmed and verb in ("decline", "end"):
        panel = await service.panel(channel_id)
        if (game_id is None or game_id == panel.game_id) and (
                version is None or version == panel.version) and \
                _needs_confirmation(panel, interaction.user.id, str(verb)):
            lang = await reply_language(interaction)
            question = (i18n.t("confirm.decline", lang, race=panel.active)
                        if verb == "decline" else
                        i18n.t("confirm.end", lang, tokens=panel.hand))
            await send(interaction, question, ephemeral=True,
                       view=confirm_view(panel.game_id, panel.version, str(verb), lang))
            return
    outcome = await service.act(channel_id, interaction.user.id, action, game_id=game_id,
                                version=version)
    if confirmed:  # the question goes away; the answer comes in the channel
        await interaction.response.edit_message(
            content=i18n.t("confirm.done", await reply_language(interaction)), view=None)
    await announce(interaction, outcome)


async def run_undo(interaction: discord.Interaction, *, version: int | None = None) -> None:
    outcome = await service_of(interaction).undo(
        interaction.channel_id or 0, interaction.user.id, version=version
    )
    await announce(interaction, outcome)


async def _retire_clicked(interaction: discord.Interaction) -> None:
    """A stale click on a public message that still shows components: edit them away."""
    msg = interaction.message
    if msg is None or msg.flags.ephemeral or not msg.components:
        return
    stored = None
    try:
        game = await service_of(interaction).store.last_game(interaction.channel_id or 0)
        stored = await service_of(interaction).store.game_message(game.id) if game else None
    except Exception:  # noqa: BLE001 - best effort
        log.debug("no living message to compare with", exc_info=True)
    if stored and stored[0] == msg.id:
        return  # the living message: the next update redraws it
    await _edit(interaction.client, msg.channel.id, msg.id, view=None)


async def button_click(
    interaction: discord.Interaction, game_id: int, version: int, verb: str
) -> None:
    try:
        if verb == "map":
            await show_map(interaction, ephemeral=True)
        elif verb == "undo":
            await run_undo(interaction, version=version)
        elif verb == "cancel":
            await interaction.response.edit_message(
                content=i18n.t("confirm.gone", await reply_language(interaction)), view=None)
        elif verb in ("declineok", "endok"):
            await run_action(interaction, {"do": verb[:-2]}, game_id=game_id, version=version,
                             confirmed=True)
        elif verb in ("roll", "decline", "end"):
            await run_action(interaction, {"do": verb}, game_id=game_id, version=version)
        else:
            raise StaleVersion.said("svc.stale_panel")
    except Exception as exc:  # noqa: BLE001 - everything ends in report_error
        if isinstance(exc, StaleVersion):
            exc = StaleVersion.said("svc.stale_panel")
        await report_error(interaction, exc)
        if isinstance(exc, StaleVersion):
            await _retire_clicked(interaction)


async def select_click(
    interaction: discord.Interaction, game_id: int, version: int, action: dict[str, Any]
) -> None:
    try:
        await run_action(interaction, action, game_id=game_id, version=version)
    except Exception as exc:  # noqa: BLE001
        if isinstance(exc, StaleVersion):
            exc = StaleVersion.said("svc.stale_panel")
        await report_error(interaction, exc)
        if isinstance(exc, StaleVersion):
            await _retire_clicked(interaction)


async def show_map(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    loaded = await service_of(interaction).last_view(interaction.channel_id or 0)
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    obs = engine.observe(loaded.state, None)
    lang = of_game(loaded.game)
    picture = await map_file(loaded.state, description=text.map_alt(obs, lang), lang=lang)
    caption = i18n.t("map.caption", lang, game=loaded.game.id, round=obs.get("round", "?"))
    if picture is None:
        caption += " " + i18n.t("svc.no_picture", lang)
    await interaction.followup.send(caption, file=picture or discord.utils.MISSING,
                                    ephemeral=ephemeral)


def _highlight(events: list[dict[str, Any]]) -> tuple[int, ...]:
    regions = [e["region"] for e in events
               if e.get("type") == "conquered" and isinstance(e.get("region"), int)]
    return tuple(dict.fromkeys(regions))


def _compose(summary: str, live: list[str], prompt: str, lang: str = "en") -> str:
    parts = [summary] if summary else []
    body = text.clip_lines(live, LIVE_LIMIT, newest=True, lang=lang) if live else []
    if prompt:
        body.append(prompt)
    if body:
        parts.append("\n".join(body))
    return text.clip("\n\n".join(parts) or "…")


async def announce(
    interaction: discord.Interaction,
    outcome: Outcome,
    *,
    picture: bool = False,
    fresh: bool | None = None,
) -> None:
    """Show what happened: edit the living message, or (a turn ended, the game started or a
    moderator stepped in) post the next one and retire the old. Then the private DMs."""
    service = service_of(interaction)
    panel = outcome.panel
    if panel is None and not outcome.finished:
        try:
            panel = await service.panel(outcome.game.channel_id)
        except ServiceError:
            panel = None
    if fresh is None:
        fresh = picture or outcome.turn_ended or outcome.finished
    async with _post_lock(outcome.game.id):
        if fresh:
            message_id = await _post_turn(interaction, outcome, panel)
        else:
            message_id = await _update_panel(interaction, outcome, panel)
    if outcome.finished:
        _shown.pop(outcome.game.id, None)
    if panel is not None and panel.auto:
        pass  # the AI plays next: nobody's end of turn to draw ahead
    elif (panel is not None and panel.can_end and not panel.is_defender and not panel.hand
            and (panel.stage == "redeploy" or not panel.targets)):
        # little else to do but end: draw the map (and row) that `end` would post. Guessing
        # after every conquest too was measured worse (bench/bot.py): twice the CPU, and the
        # right guesses waited behind the wrong ones. With tokens in hand the player deploys
        # them first (End asks before leaving them), so no guess then.
        draw_ahead(service, outcome)
    elif any(e.get("type") == "picked" for e in outcome.events):
        draw_ahead(service, outcome, "row")  # shown again when someone next must pick
    # while the player can still conquer, no guess: measured, 1 in 40 was ever posted
    await deliver_private(interaction, outcome)
    await notify_turn(interaction, outcome, panel, message_id)


async def _update_panel(interaction: discord.Interaction, outcome: Outcome,
                        panel: Panel | None) -> int | None:
    """Mid-turn: the living message is edited in place; a slash command's user is answered
    privately. Without a living message on record, a new one is posted."""
    service = service_of(interaction)
    game = outcome.game
    stored = await service.store.game_message(game.id)
    if stored is None:
        return await _post_turn(interaction, outcome, panel)
    message_id, summary = stored
    if _shown.get(game.id, -1) > outcome.stamp:  # a newer change got there first
        await send(interaction, _clip([i18n.t("ack.done", await reply_language(interaction)), *outcome.public]), ephemeral=True,
                   allowed_mentions=NO_MENTIONS)
        return message_id
    _shown[game.id] = outcome.stamp
    _, live = await service.turn_story(game.id, lang=of_game(game))
    live += outcome.headline  # e.g. "ann took back: ..." until the next action
    content = _compose(summary, live, panel_prompt(panel, of_game(game)) if panel else "",
                       of_game(game))
    view = turn_view(panel, of_game(game)) if panel is not None else None
    clicked = interaction.message
    on_living = clicked is not None and clicked.id == message_id
    extra: dict[str, Any] = {}
    if outcome.turn_started:
        # survivors were placed and the next turn began: the pictures show the new position
        # (and the combo row, if the next player must pick)
        if not on_living:
            await send(interaction, _clip([i18n.t("ack.done", await reply_language(interaction)), *outcome.public]),
                       ephemeral=True, allowed_mentions=NO_MENTIONS)
        files = await _pictures(interaction, outcome, panel)
        if files:
            extra["attachments"] = files
    elif any(e.get("type") == "picked" for e in outcome.events):
        # the combo row picture is out of date once a combo is taken: keep only the map
        shown = clicked if on_living else await _fetch(interaction.client, game.channel_id,
                                                       message_id)
        if shown is not None and any(a.filename == "combos.png" for a in shown.attachments):
            extra["attachments"] = [a for a in shown.attachments if a.filename != "combos.png"]
    if on_living and not interaction.response.is_done():
        await interaction.response.edit_message(content=content, view=view,
                                                allowed_mentions=NO_MENTIONS, **extra)
        return message_id
    if not interaction.response.is_done():
        await send(interaction, _clip([i18n.t("ack.done", await reply_language(interaction)), *(outcome.headline or outcome.public)]),
                   ephemeral=True, allowed_mentions=NO_MENTIONS)
    if await _edit(interaction.client, game.channel_id, message_id, content=content,
                   view=view, allowed_mentions=NO_MENTIONS, **extra) is None:
        # the living message is gone (deleted by someone): the game gets a new one
        return await _post_turn(interaction, outcome, panel)
    if clicked is not None and clicked.id != message_id and not clicked.flags.ephemeral:
        await _edit(interaction.client, game.channel_id, clicked.id, view=None)
    return message_id


async def _pictures(interaction: discord.Interaction, outcome: Outcome,
                    panel: Panel | None) -> list[discord.File]:
    """The map (and the combo row when the next player must pick), with their alt text;
    an interaction not yet answered is deferred if they take long."""
    obs = engine.observe(outcome.state, None)
    lang = of_game(outcome.game)
    tasks = [asyncio.ensure_future(map_file(outcome.state, outcome.highlight,
                                            description=text.map_alt(obs, lang), lang=lang))]
    if panel is not None and panel.picks:
        tasks.append(asyncio.ensure_future(row_file(outcome.state,
                                                    description=text.row_alt(obs, lang),
                                                    lang=lang)))
    try:
        _, pending = await asyncio.wait(tasks, timeout=DEFER_AFTER)
        if pending and not interaction.response.is_done():
            await interaction.response.defer(thinking=interaction.message is None)
        return [f for f in [await t for t in tasks] if f is not None]
    finally:
        for task in tasks:
            if not task.done():
                task.cancel()


def _turn_pictures(outcome: Outcome, panel: Panel | None, lang: str, *,
                   row: bool) -> list[asyncio.Future[discord.File | None]]:
    """Start drawing a turn post's pictures in the workers, in the game's language: the map
    (this turn's conquests marked), the combo row if `row`, the final reveal at the end."""
    obs = engine.observe(outcome.state, None)
    jobs = [map_file(outcome.state, outcome.highlight or _highlight(outcome.events),
                     description=text.map_alt(obs, lang), lang=lang)]
    if row:
        jobs.append(row_file(outcome.state, description=text.row_alt(obs, lang), lang=lang))
    if outcome.finished:
        jobs.append(final_file(outcome.state, description=text.final_alt(
            engine.observe(outcome.state, None, reveal_all=True), lang), lang=lang))
    return [asyncio.ensure_future(job) for job in jobs]


def _turn_text(outcome: Outcome, panel: Panel | None, finished: list[str], live: list[str],
               lang: str) -> tuple[str, str, discord.ui.View | None, discord.AllowedMentions]:
    """A turn post's words in the game's language: (summary kept when the post is retired,
    the whole content, the next player's panel, who is pinged). At the end the ranking joins
    the summary and nothing is live any more."""
    summary_lines = [*outcome.headline, *finished]
    if outcome.finished:
        truth = engine.observe(outcome.state, None, reveal_all=True)
        summary_lines += text.ranking_lines(truth.get("ranking"), truth.get("players", {}),
                                            lang)
        live = []
    summary = "\n".join(text.clip_lines(summary_lines, SUMMARY_LIMIT, newest=True, lang=lang))
    prompt = panel_prompt(panel, lang) if panel is not None and panel.actor else ""
    view = turn_view(panel, lang) if panel is not None and panel.actor else None
    ping = [discord.Object(id=u) for u in
            ((panel.actor_id, panel.next_id) if panel is not None else ()) if u]
    mentions = discord.AllowedMentions(users=ping, everyone=False, roles=False)
    return summary, _compose(summary, live, prompt, lang), view, mentions


def _retired_text(game: GameRow, kept: str | None, lang: str) -> str:
    """What a retired living message keeps: its turn's summary (the lobby's start line if it
    was the lobby)."""
    return kept or i18n.t(
        "lobby.started", lang, game=game.id,
        players=i18n.t("list.sep", lang).join(f"<@{s.user_id}>" for s in game.players
                                              if s.user_id))


async def _post_turn(interaction: discord.Interaction, outcome: Outcome,
                     panel: Panel | None) -> int | None:
    """Post the game's next living message (summary + map + the next panel), then retire the
    previous one."""
    service = service_of(interaction)
    game = outcome.game
    lang = of_game(game)
    # pictures are drawn in a worker while the text is worked out here
    tasks = _turn_pictures(outcome, panel, lang, row=panel is not None and panel.picks)
    try:
        finished, live = ([], [])
        if outcome.first_seq or outcome.finished:
            finished, live = await service.turn_story(game.id, outcome.first_seq, lang=lang)
        elif outcome.version:
            _, live = await service.turn_story(game.id, lang=lang)
        summary, content, view, mentions = _turn_text(outcome, panel, finished, live, lang)
        # most pictures are ready at once (drawn ahead, or quick): answer with them in one
        # message; only a slow one makes the bot defer ("thinking…") first
        _, pending = await asyncio.wait(tasks, timeout=DEFER_AFTER)
        if pending and not interaction.response.is_done():
            await interaction.response.defer(thinking=interaction.message is None)
        files = [f for f in [await t for t in tasks] if f is not None]
    finally:
        for task in tasks:
            if not task.done():
                task.cancel()
    previous = await service.store.game_message(game.id)
    message_id = await send(interaction, content, files=files or None, view=view,
                            allowed_mentions=mentions)
    _shown[game.id] = outcome.stamp
    if message_id:
        await service.store.set_game_message(game.id, message_id, summary)
    if previous and previous[0] != message_id:
        await _edit(interaction.client, game.channel_id, previous[0],
                    content=_retired_text(game, previous[1], lang), view=None,
                    allowed_mentions=NO_MENTIONS)
    clicked = interaction.message
    if clicked is not None and not clicked.flags.ephemeral and clicked.id not in (
            message_id, previous[0] if previous else None):
        await _edit(interaction.client, game.channel_id, clicked.id, view=None)
    for notice in outcome.notices:  # e.g. the league result, after the final reveal
        try:
            await interaction.followup.send(notice, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.warning("could not post a notice for game %s: %s", game.id, exc)
    return message_id


async def notify_turn(interaction: discord.Interaction, outcome: Outcome, panel: Panel | None,
                      message_id: int | None) -> None:
    """A DM to the player who must act now, if they asked for it (`/sw notify`)."""
    if panel is None or not panel.actor_id or panel.actor_id == interaction.user.id:
        return
    if not (outcome.turn_started or outcome.turn_ended or outcome.headline):
        return  # the same player acts on
    store = service_of(interaction).store
    try:
        if not await store.turn_dm(panel.actor_id):
            return
        client = interaction.client
        user = await _dm_channel(client, panel.actor_id)
        link = _jump(outcome.game.guild_id, outcome.game.channel_id, message_id)
        lang = of_game(outcome.game)
        languages = getattr(client, "languages", None)
        if languages is not None:
            lang = await languages.for_user(panel.actor_id, fallback=lang,
                                            guild_id=outcome.game.guild_id)
        await user.send(i18n.t("dm.turn", lang, game=outcome.game.id,
                               channel=outcome.game.channel_id, round=panel.round,
                               defender=panel.is_defender, link=f" — {link}" if link else ""))
    except discord.HTTPException as exc:
        log.info("turn DM to %s failed: %s", panel.actor_id, exc)


async def retire_game_message(client: discord.Client, service: GameService, game: GameRow,
                              content: str) -> None:
    """The game is over without a result (moderator end): its living message says so."""
    stored = await service.store.game_message(game.id)
    if stored is not None:
        await _edit(client, game.channel_id, stored[0], content=content, view=None,
                    allowed_mentions=NO_MENTIONS)


def dm_body(dm: OwedDM, lang: str = i18n.DEFAULT) -> str:
    return (i18n.t("dm.header", lang, game=dm.game_id, channel=f"<#{dm.channel_id}>") + "\n"
            + "\n".join(dm.lines))


# -- posts nobody asked for: AI turns, timeouts, reminders ----------------------------------


async def post_outcome(client: discord.Client, outcome: Outcome) -> None:
    """What an AI stint did, the quiet-channel way: one new living message (the stint's
    summary, the map, the next member's panel) and the previous one retired; then the coin
    DMs of a member whose timed-out turn the AI played."""
    service: GameService = client.service  # type: ignore[attr-defined]
    game = outcome.game
    panel = outcome.panel
    lang = of_game(game)
    tasks = _turn_pictures(outcome, panel, lang,
                           row=panel is not None and panel.picks and panel.auto is None)
    async with _post_lock(game.id):
        try:
            finished, live = await service.turn_story(game.id, outcome.first_seq, lang=lang)
            summary, content, view, mentions = _turn_text(outcome, panel, finished, live, lang)
            files = [f for f in await asyncio.gather(*tasks) if f is not None]
        finally:
            for task in tasks:
                if not task.done():
                    task.cancel()
        previous = await service.store.game_message(game.id)
        channel = client.get_partial_messageable(game.channel_id)
        message = await channel.send(content, files=files, view=view,
                                     allowed_mentions=mentions)
        _shown[game.id] = outcome.stamp
        await service.store.set_game_message(game.id, message.id, summary)
        if previous and previous[0] != message.id:
            await _edit(client, game.channel_id, previous[0],
                        content=_retired_text(game, previous[1], lang), view=None,
                        allowed_mentions=NO_MENTIONS)
        for notice in outcome.notices:
            await channel.send(notice, allowed_mentions=NO_MENTIONS)
    if outcome.finished:
        _shown.pop(game.id, None)
    # the coin DMs of a member whose timed-out turn the AI played: owed by the commit
    await send_owed(client, service.store, game_id=game.id)
    if panel is not None and panel.auto is None and panel.picks:
        draw_ahead(service, outcome, "row")


async def _dm_channel(client: discord.Client, user_id: int) -> discord.DMChannel:
    """The DM channel with a user: kept by discord.py once opened, so a player's coins,
    turn and reminder DMs cost one request each (fetching the user first was one more, on
    a rate limit shared by the whole bot)."""
    return await client.create_dm(discord.Object(id=user_id))


async def post_reminder(client: discord.Client, channel_id: int, game_id: int, user_id: int,
                        line: str) -> None:
    """A turn reminder by DM (the game's choice) or, if DMs are closed, in the channel."""
    service: GameService = client.service  # type: ignore[attr-defined]
    game = await service.store.get_game(game_id)
    how = ((game.options.get("clock") or {}).get("remind") if game else None) or "dm"
    if how == "dm":
        try:
            user = await _dm_channel(client, user_id)
            await user.send(line)
            return
        except discord.HTTPException as exc:
            log.info("reminder DM to %s failed (%s); mentioning instead", user_id, exc)
    await client.get_partial_messageable(channel_id).send(
        line, allowed_mentions=discord.AllowedMentions(
            users=[discord.Object(id=user_id)], everyone=False, roles=False))


async def deliver_private(interaction: discord.Interaction, outcome: Outcome) -> None:
    """Send the coin DMs the game owes (this action's, and any a crash left unsent); closed
    DMs fall back to an ephemeral followup for the user who acted."""
    await send_owed(interaction.client, service_of(interaction).store,
                    game_id=outcome.game.id, interaction=interaction)


async def send_owed(client: discord.Client, store: Store, *, game_id: int | None = None,
                    interaction: discord.Interaction | None = None,
                    stale_after: float | None = None) -> int:
    """Send the owed DMs of one game (or of all games: after a restart) from the outbox;
    -> how many were delivered. Each is claimed first, so two senders never both send it,
    and carries a nonce, so a resend after a crash between sending and noting it is
    recognised by Discord as the same message."""
    delivered = 0
    try:
        stale = {} if stale_after is None else {"stale_after": stale_after}
        owed = await store.owed_dms(game_id, **stale)
        games: dict[int, GameRow] = {}
        for dm in owed:
            if not await store.claim_dm(dm.id, **stale):
                continue
            # the header in the language the lines were worded in at the commit
            game = games.get(dm.game_id) or await store.get_game(dm.game_id)
            lang = of_game(game) if game is not None else i18n.DEFAULT
            languages = getattr(client, "languages", None)
            if languages is not None and game is not None:
                games[dm.game_id] = game
                lang = await languages.for_user(dm.user_id, fallback=lang,
                                                guild_id=game.guild_id)
            body = dm_body(dm, lang)
            try:
                user = await _dm_channel(client, dm.user_id)
                await user.send(body, nonce=f"sw-dm-{dm.id}")
            except discord.Forbidden as exc:
                if (exc.code == DM_CLOSED and interaction is not None
                        and dm.user_id == interaction.user.id):
                    await interaction.followup.send(
                        body + "\n" + i18n.t("dm.closed", lang),
                        ephemeral=True)
                    await store.dm_done(dm.id, "ephemeral")
                else:
                    log.info("cannot DM coins to %s (code %s)", dm.user_id, exc.code)
                    await store.dm_done(dm.id, "dm_closed")
            except discord.HTTPException as exc:
                log.warning("DM to %s failed: %s", dm.user_id, exc)
                await store.dm_release(dm.id)
            else:
                await store.dm_done(dm.id, "sent")
                delivered += 1
    except StoreError as exc:  # the DMs stay owed: the next announcement or restart sends them
        log.warning("could not go through the DM outbox: %s", exc)
    return delivered
