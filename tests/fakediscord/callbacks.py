"""The interaction side of the fake's REST API: the initial interaction callback and
the interaction webhook (followups, the original response, edits and deletes)."""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from .common import DiscordAPIError, json_reply
from .models import (
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    LOADING,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    PING,
    PONG,
    UPDATE_MESSAGE,
    Interaction,
    Message,
)
from .oauth import LAUNCH_ACTIVITY


class CallbacksMixin:
    """Interaction callback and webhook handlers for FakeDiscord (routed by rest.py)."""

    async def _r_callback(self, request: web.Request, iid: str, token: str) -> web.Response:
        inter = self.interactions.get(iid)
        if inter is None or inter.token != token:
            raise DiscordAPIError(404, 10062, "Unknown interaction")
        if inter.acknowledged:
            raise DiscordAPIError(400, 40060, "Interaction has already been acknowledged.")
        now = time.perf_counter()
        if self.interaction_timeout is not None and now - inter.sent_at > self.interaction_timeout:
            inter.expired = True
            raise DiscordAPIError(404, 10062, "Unknown interaction (answered after the "
                                  f"{self.interaction_timeout}s window)")
        body, files = await self._read_body(request)
        kind = body.get("type")
        data = body.get("data") or {}
        channel = self._channel_or_404(inter.channel_id)
        message: Message | None = None
        if kind == PONG:
            pass
        elif kind == CHANNEL_MESSAGE:
            if inter.type == AUTOCOMPLETE:
                raise DiscordAPIError(400, 50035, "Invalid callback type for autocomplete")
            message = self._new_message(channel, data, files, source="callback", interaction=inter)
            inter.original_id = message.id
            inter.reply, inter.replied_at = message, message.created_at
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            message = self._new_message(channel, {}, {}, source="callback", interaction=inter,
                                        flags=flags)
            inter.original_id = message.id
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            if inter.type not in (MESSAGE_COMPONENT, MODAL_SUBMIT) or inter.message_id is None:
                raise DiscordAPIError(400, 50035, f"Callback type {kind} needs a component "
                                      "interaction")
            inter.original_id = inter.message_id
            if kind == UPDATE_MESSAGE:
                message = self._edit(self.messages[inter.message_id], data, files)
                inter.reply, inter.replied_at = message, message.edited_at
        elif kind == AUTOCOMPLETE_RESULT:
            if inter.type != AUTOCOMPLETE:
                raise DiscordAPIError(400, 50035, "Autocomplete result for a non-autocomplete "
                                      "interaction")
            choices = data.get("choices", [])
            if len(choices) > 25:
                raise DiscordAPIError(400, 50035, "Invalid Form Body (more than 25 choices)")
            inter.choices = choices
        elif kind == LAUNCH_ACTIVITY:
            if not self.activities:
                raise DiscordAPIError(400, 50035, "This application has no Activity to launch")
            if inter.type in (AUTOCOMPLETE, PING):
                raise DiscordAPIError(400, 50035, "LAUNCH_ACTIVITY cannot answer that")
            self.activity_launches.append(inter)
        elif kind == MODAL:
            if inter.type in (AUTOCOMPLETE, MODAL_SUBMIT):
                raise DiscordAPIError(400, 50035, "A modal cannot answer autocomplete or a "
                                      "modal submission")
            inter.modal = data
        else:
            raise DiscordAPIError(400, 50035, f"Invalid Form Body (callback type {kind!r})")
        inter.callback_type, inter.callback_data, inter.callback_at = kind, data, now
        for hook in self.callback_hooks:
            hook(inter)
        info: dict[str, Any] = {"id": inter.id, "type": inter.type}
        result: dict[str, Any] = {"interaction": info}
        if message is not None:
            info.update(response_message_id=message.id,
                        response_message_loading=message.loading,
                        response_message_ephemeral=message.ephemeral)
            result["resource"] = {"type": kind, "message": message.to_payload()}
        return json_reply(result)

    def _webhook_interaction(self, app: str, token: str) -> Interaction:
        inter = self._interactions_by_token.get(token)
        if app != self.application_id or inter is None or not inter.acknowledged:
            raise DiscordAPIError(404, 10015, "Unknown Webhook")
        return inter

    def _webhook_message(self, inter: Interaction, mid: str) -> Message:
        if mid == "@original":
            if inter.original_id is None:
                raise DiscordAPIError(404, 10008, "Unknown Message")
            mid = inter.original_id
        msg = self.messages.get(mid)
        if msg is None or msg.deleted:
            raise DiscordAPIError(404, 10008, "Unknown Message")
        if msg.id != inter.original_id and msg.interaction_id != inter.id:
            raise DiscordAPIError(404, 10008, "Unknown Message (not from this interaction)")
        return msg

    async def _r_webhook(self, request: web.Request, app: str, token: str) -> web.Response:
        self._webhook_interaction(app, token)
        return json_reply({"id": app, "type": 3, "name": self.bot_user["username"], "avatar": None,
                      "channel_id": None, "guild_id": None, "application_id": app,
                      "token": token})

    def _mark_reply(self, inter: Interaction, msg: Message, at: float | None) -> None:
        if inter.reply is None:
            inter.reply, inter.replied_at = msg, at

    async def _r_followup(self, request: web.Request, app: str, token: str) -> web.Response:
        inter = self._webhook_interaction(app, token)
        body, files = await self._read_body(request)
        original = self.messages.get(inter.original_id or "")
        if original is not None and original.loading and original.interaction_id == inter.id:
            # The first followup after a "thinking" defer replaces the loading message.
            msg = self._edit(original, {**body, "flags": None}, files)
            self._mark_reply(inter, msg, msg.edited_at)
            if not msg.ephemeral:
                self._announce(msg)
        else:
            channel = self._channel_or_404(inter.channel_id)
            msg = self._new_message(channel, body, files, source="followup", interaction=inter,
                                    flags=int(body.get("flags") or 0) & EPHEMERAL)
            inter.followups.append(msg)
            self._mark_reply(inter, msg, msg.created_at)
        if request.query.get("wait", "false").lower() in ("true", "1"):
            return json_reply(msg.to_payload())
        return web.Response(status=204)

    async def _r_wh_get(self, request: web.Request, app: str, token: str, mid: str) -> web.Response:
        inter = self._webhook_interaction(app, token)
        return json_reply(self._webhook_message(inter, mid).to_payload())

    async def _r_wh_edit(self, request: web.Request, app: str, token: str, mid: str) -> web.Response:
        inter = self._webhook_interaction(app, token)
        msg = self._webhook_message(inter, mid)
        was_loading = msg.loading
        body, files = await self._read_body(request)
        self._edit(msg, body, files)
        self._mark_reply(inter, msg, msg.edited_at)
        if was_loading and not msg.ephemeral:
            self._announce(msg)
        return json_reply(msg.to_payload())

    async def _r_wh_delete(self, request: web.Request, app: str, token: str, mid: str) -> web.Response:
        inter = self._webhook_interaction(app, token)
        self._webhook_message(inter, mid).deleted = True
        return web.Response(status=204)
