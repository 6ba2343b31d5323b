"""Answering an interaction inside Discord's window.

Discord shows a member "This interaction failed" unless the bot acknowledges her command or
click within ANSWER_WINDOW seconds of its creation, and refuses any answer after that
(error 10062). Most answers go out at once; some wait a moment on purpose (for the turn's
pictures, for the living message's edit), and on a loaded host the work before them (the
channel's lock, the commit, the store) can take seconds too. So:

- A planned wait never runs past ANSWER_BY seconds after the interaction was created:
  `time_left` is what remains of it.
- `watch` (the bot's on_interaction listener) arms a guard for every command and click: if
  nothing has answered it GUARD_AT seconds after its creation, the guard defers it (a click:
  an invisible "deferred update"; a command: a private "thinking…"), and the answer that
  comes later goes out as a followup or an edit of the deferred message.
- The first answer goes through `answer`, `defer` and `edit_clicked`, under the interaction's
  own lock: the guard's deferral and the handler's answer never both acknowledge it (Discord
  refuses a second acknowledgement). A public answer that comes after a private "thinking…"
  is posted in the channel, and the member is told so in one sentence.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import discord

import i18n
from bot.language import reply_language

log = logging.getLogger(__name__)

ANSWER_WINDOW = 3.0  # Discord's: an interaction not acknowledged by then has failed
ANSWER_BY = 2.0  # a planned wait (pictures, an edit) ends by then at the latest
GUARD_AT = 2.3  # the guard defers what is still unanswered then (the loop may run late)
GUARDED = (discord.InteractionType.application_command, discord.InteractionType.component)
EXPIRED = (10062, 10015)  # unknown interaction (too late), unknown webhook (never answered)

_CREATED, _LOCK, _THINKING, _OWED = "sw.created", "sw.answer_lock", "sw.thinking", "sw.owed"
_guards: set[asyncio.Task[None]] = set()


def created(interaction: discord.Interaction) -> float:
    """When Discord created the interaction, on this process's monotonic clock. Read from
    its id (a snowflake holds its creation time); with clocks too far apart to trust that,
    the moment it was first asked (`watch` asks as the interaction arrives)."""
    found = interaction.extras.get(_CREATED)
    if found is None:
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        if not 0.0 <= age <= 4 * ANSWER_WINDOW:
            age = 0.0
        found = interaction.extras[_CREATED] = time.monotonic() - age
    return float(found)


def time_left(interaction: discord.Interaction) -> float:
    """Seconds left before the interaction should be answered (ANSWER_BY); 0 when past."""
    return max(0.0, created(interaction) + ANSWER_BY - time.monotonic())


def unanswered(interaction: discord.Interaction) -> bool:
    """Nothing has answered the interaction yet: not acknowledged, or only deferred."""
    return not interaction.response.is_done() or bool(interaction.extras.get(_OWED))


def lost(interaction: discord.Interaction) -> bool:
    """Unanswered, and its window has passed: nothing can answer it any more."""
    return (not interaction.response.is_done()
            and time.monotonic() - created(interaction) > ANSWER_WINDOW)


def expired(exc: BaseException) -> bool:
    """Discord refused an answer because the interaction's window had passed."""
    return isinstance(exc, discord.HTTPException) and exc.code in EXPIRED


def _lock(interaction: discord.Interaction) -> asyncio.Lock:
    found = interaction.extras.get(_LOCK)
    if found is None:
        found = interaction.extras[_LOCK] = asyncio.Lock()
    return found


async def watch(interaction: discord.Interaction) -> None:
    """Arm the guard of a command or a click (the bot's on_interaction listener)."""
    if interaction.type not in GUARDED:
        return
    delay = created(interaction) + GUARD_AT - time.monotonic()
    asyncio.get_running_loop().call_later(max(0.0, delay), _due, interaction)


def _due(interaction: discord.Interaction) -> None:
    if interaction.response.is_done():
        return
    task = asyncio.ensure_future(_guard(interaction))
    _guards.add(task)
    task.add_done_callback(_guards.discard)


async def _guard(interaction: discord.Interaction) -> None:
    """Still unanswered: defer it now (a command privately: its answer is not known yet)."""
    command = interaction.type is discord.InteractionType.application_command
    try:
        if await defer(interaction, ephemeral=command, thinking=command):
            log.info("%s %s not answered %.1f s after it was made: deferred",
                     "command" if command else "click", interaction.id,
                     time.monotonic() - created(interaction))
    except discord.HTTPException as exc:
        # too late already (the loop was held up), or answered by another path of the bot
        log.warning("could not defer interaction %s in time: %s", interaction.id, exc)


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False,
                thinking: bool = False) -> bool:
    """Acknowledge the interaction now, unless something answered it already; True when
    this call did. With `thinking` (always, for a command) the first followup takes the
    "thinking…" message's place, public or private as deferred here."""
    async with _lock(interaction):
        if interaction.response.is_done():
            return False
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
        interaction.extras[_OWED] = True
        response = interaction.response.type
        if response is discord.InteractionResponseType.deferred_channel_message:
            interaction.extras[_THINKING] = "private" if ephemeral else "public"
        return True


async def answer(interaction: discord.Interaction, content: str | None = None, *,
                 ephemeral: bool = False, **kwargs: Any) -> int | None:
    """Answer the interaction, or follow up if it was answered or deferred already; the id
    of the message sent (None when Discord did not say). A public answer after a private
    "thinking…" goes to the channel, and the "thinking…" becomes one sentence saying so."""
    async with _lock(interaction):
        if not interaction.response.is_done():
            result = await interaction.response.send_message(content, ephemeral=ephemeral,
                                                             **kwargs)
            return getattr(result, "message_id", None)
        interaction.extras.pop(_OWED, None)
        thinking = interaction.extras.pop(_THINKING, None)
        if thinking == "private" and not ephemeral:
            channel = interaction.client.get_partial_messageable(interaction.channel_id or 0)
            message = await channel.send(content, **kwargs)
            note = i18n.t("ack.posted", await reply_language(interaction))
            await interaction.followup.send(note, ephemeral=True)
            return message.id
        sent = await interaction.followup.send(content or discord.utils.MISSING,
                                               ephemeral=ephemeral, wait=True, **kwargs)
        return sent.id


async def edit_clicked(interaction: discord.Interaction, **kwargs: Any) -> bool:
    """A click answered by editing the message clicked: at once, or, when the click was
    deferred as an update (by the guard, or while pictures were drawn), through its
    original. False when it was answered some other way (that answer is not the clicked
    message: edit it through the channel)."""
    async with _lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.edit_message(**kwargs)
            return True
        if interaction.response.type is not discord.InteractionResponseType.deferred_message_update:
            return False
        await interaction.edit_original_response(**kwargs)
        interaction.extras.pop(_OWED, None)
        return True
