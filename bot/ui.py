"""Small discord helpers shared by cogs and views: replies, errors, moderator checks."""

from __future__ import annotations

import logging
import time
from typing import Any

import discord
from discord import app_commands

import i18n
from bot import answering, sentences
from bot.errors import RuleBroken, ServiceError
from bot.language import reply_language
from bot.store import StoreUnavailable
from bot.text import clip, echo

log = logging.getLogger(__name__)

STORE_BUSY = i18n.t("svc.store_busy", "en")
APOLOGY = i18n.t("ui.apology", "en")
NO_MENTIONS = discord.AllowedMentions.none()


class NotModerator(app_commands.CheckFailure):
    """The member lacks Manage Server and the moderator role."""


class Refused(app_commands.CheckFailure):
    """A check's refusal worded by the service (discord.py lets a check raise only a
    CheckFailure): answered with the ServiceError's sentence, as if the command had raised it."""

    def __init__(self, error: ServiceError) -> None:
        super().__init__(error.message)
        self.original = error


async def send(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool = False,
    **kwargs: Any,
) -> int | None:
    """Answer the interaction, or follow up if it was answered or deferred already; return
    the id of the message sent (None when Discord did not say). Content is cut to Discord's
    2000 characters, so an oversized answer never turns into an error (bot.answering: a
    deferral by the bot's guard is taken into account)."""
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    if content is not None:
        content = clip(content)
    return await answering.answer(interaction, content, ephemeral=ephemeral, **kwargs)


def _unwrap(error: BaseException) -> BaseException:
    while isinstance(error, app_commands.CommandInvokeError | Refused):
        inner = error.__cause__ or getattr(error, "original", None)
        if inner is None:
            break
        error = inner
    return error


def refusal_text(error: BaseException, lang: str = "en") -> str | None:
    """The sentence for an expected refusal in `lang`, None for a bug. An engine refusal is
    worded from its key and params, the service's from its catalog key."""
    error = _unwrap(error)
    if isinstance(error, RuleBroken) and lang != "en":
        worded = sentences.refusal(error.key, error.params, lang)
        if worded:
            return worded
    if isinstance(error, ServiceError):
        if error.key and lang != "en" and i18n.has(error.key):
            return i18n.t(error.key, lang, **error.params)
        return error.message
    if isinstance(error, StoreUnavailable):
        log.warning("database unavailable: %s", error)
        return i18n.t("svc.store_busy", lang)
    if isinstance(error, NotModerator):
        return i18n.t("ui.only_mods", lang)
    if isinstance(error, app_commands.NoPrivateMessage):
        return i18n.t("ui.server_only", lang)
    if isinstance(error, app_commands.TransformerError):
        return i18n.t("svc.bad_value", lang, value=echo(error.value))
    if isinstance(error, app_commands.CommandOnCooldown):
        return i18n.t("svc.cooldown", lang, seconds=f"{error.retry_after:.0f}")
    if isinstance(error, app_commands.CheckFailure):
        return i18n.t("svc.check_failed", lang)
    return None


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Refusals -> ephemeral sentence; anything else -> one log entry and an apology."""
    try:
        lang = await reply_language(interaction)
    except Exception:  # noqa: BLE001 - a settings lookup must not hide the refusal
        log.exception("language lookup failed for %s", interaction.user.id)
        lang = "en"
    message = refusal_text(error, lang)
    if message is None and answering.expired(_unwrap(error)):
        # Discord's window passed before the answer (a loaded host held the bot up longer
        # than the guard could help): nothing can reach her now; the change, if any, was
        # committed and announced in the channel
        log.warning("interaction %s of %s in channel %s expired before its answer (%.1f s)",
                    interaction.id, interaction.user.id, interaction.channel_id,
                    time.monotonic() - answering.created(interaction))
        return
    if message is None:
        original = _unwrap(error)
        command = interaction.command.qualified_name if interaction.command else "component"
        log.error("error in %s (user %s, channel %s)", command, interaction.user.id,
                  interaction.channel_id, exc_info=original)
        message = i18n.t("ui.apology", lang)
    try:
        await send(interaction, message, ephemeral=True, allowed_mentions=NO_MENTIONS)
    except discord.HTTPException:
        log.warning("could not deliver an error message to %s", interaction.user.id)


def is_moderator(interaction: discord.Interaction, mod_role_id: int | None) -> bool:
    """Manage Server permission or the configured moderator role."""
    user = interaction.user
    if not isinstance(user, discord.Member):
        return False
    if interaction.permissions.manage_guild or user.guild_permissions.manage_guild:
        return True
    return mod_role_id is not None and any(r.id == mod_role_id for r in user.roles)


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name
