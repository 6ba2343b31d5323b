"""The REST side of the fake: the route table and dispatch, request bodies, users, guilds,
channels, application commands and channel messages (interaction callbacks and webhooks
are in callbacks.py)."""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .common import (
    DIRECT_MESSAGES_INTENT,
    GUILD_MESSAGES_INTENT,
    DiscordAPIError,
    json_reply,
)
from .models import (
    APPLICATION_COMMAND,
    EPHEMERAL,
    LOADING,
    Attachment,
    Interaction,
    Message,
    iso_now,
)


@dataclass
class RequestRecord:
    method: str
    path: str
    status: int
    at: float
    body: Any = None


class RestMixin:
    """REST API handlers for FakeDiscord."""

    def _route_table(self) -> list[tuple[str, re.Pattern[str], Callable[..., Any], bool]]:
        table = [
            ("GET", r"/gateway", self._r_gateway, False),
            ("GET", r"/gateway/bot", self._r_gateway_bot, True),
            ("GET", r"/users/@me", self._r_me, False),  # the bot's token, or a member's
            ("POST", r"/oauth2/token", self._r_oauth_token, False),
            ("GET", r"/oauth2/applications/@me", self._r_app, True),
            ("GET", r"/applications/@me", self._r_app, True),
            ("POST", r"/users/@me/channels", self._r_create_dm, True),
            ("GET", r"/users/(?P<uid>\d+)", self._r_user, True),
            ("GET", r"/applications/(?P<app>\d+)/commands", self._r_get_cmds, True),
            ("PUT", r"/applications/(?P<app>\d+)/commands", self._r_put_cmds, True),
            ("POST", r"/applications/(?P<app>\d+)/commands", self._r_post_cmd, True),
            ("GET", r"/applications/(?P<app>\d+)/guilds/(?P<gid>\d+)/commands",
             self._r_get_cmds, True),
            ("PUT", r"/applications/(?P<app>\d+)/guilds/(?P<gid>\d+)/commands",
             self._r_put_cmds, True),
            ("POST", r"/applications/(?P<app>\d+)/guilds/(?P<gid>\d+)/commands",
             self._r_post_cmd, True),
            ("GET", r"/channels/(?P<cid>\d+)", self._r_channel, True),
            ("POST", r"/channels/(?P<cid>\d+)/typing", self._r_typing, True),
            ("GET", r"/channels/(?P<cid>\d+)/messages", self._r_history, True),
            ("POST", r"/channels/(?P<cid>\d+)/messages", self._r_send, True),
            ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._r_get_msg, True),
            ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._r_edit_msg, True),
            ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._r_del_msg, True),
            ("PUT", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/reactions/(?P<emoji>[^/]+)/@me",
             self._r_react, True),
            ("DELETE",
             r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/reactions/(?P<emoji>[^/]+)/@me",
             self._r_unreact, True),
            ("GET", r"/guilds/(?P<gid>\d+)", self._r_guild, True),
            ("GET", r"/guilds/(?P<gid>\d+)/channels", self._r_guild_channels, True),
            ("GET", r"/guilds/(?P<gid>\d+)/members/(?P<uid>\d+)", self._r_member, True),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._r_callback,
             False),
            ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._r_followup, False),
            ("GET", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._r_webhook, False),
            ("PATCH", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._r_webhook, False),
            ("GET", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
             self._r_wh_get, False),
            ("PATCH", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
             self._r_wh_edit, False),
            ("DELETE", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
             self._r_wh_delete, False),
        ]
        return [(m, re.compile(p + r"/?"), h, auth) for m, p, h, auth in table]

    async def _api_handler(self, request: web.Request) -> web.StreamResponse:
        self._inflight += 1
        self._last_activity = time.perf_counter()
        try:
            return await self._route(request)
        finally:
            self._inflight -= 1
            self._last_activity = time.perf_counter()
            self._notify()

    async def _route(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        for route_method, pattern, handler, auth in self._routes:
            match = pattern.fullmatch(path)
            if match is None or route_method != method:
                continue
            try:
                if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                    raise DiscordAPIError(401, 0, "401: Unauthorized")
                response = await handler(request, **match.groupdict())
            except DiscordAPIError as err:
                response = json_reply({"code": err.code, "message": err.message}, err.status)
            except Exception as exc:
                self.errors.append(exc)
                response = json_reply({"code": 0, "message": f"fake discord bug: {exc!r}"}, 400)
            self.requests.append(RequestRecord(method, path, response.status, time.perf_counter()))
            self._notify()
            return response
        self.unhandled.append((method, path))
        self.requests.append(RequestRecord(method, path, 404, time.perf_counter()))
        self._notify()
        return json_reply({"code": 0, "message": f"404: Not Found (fake discord has no {method} {path})"},
                     404)

    async def _attachment_handler(self, request: web.Request) -> web.Response:
        att = self.attachments.get(request.match_info["aid"])
        if att is None:
            return web.Response(status=404)
        return web.Response(body=att.data,
                            content_type=att.content_type or "application/octet-stream")

    async def _read_body(self, request: web.Request) -> tuple[dict[str, Any], dict[int, tuple]]:
        """JSON body or multipart (payload_json + files[n]); files keyed by index."""
        files: dict[int, tuple[str, bytes, str | None]] = {}
        if request.content_type.startswith("multipart/"):
            body: dict[str, Any] = {}
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                name = part.name or ""
                if name == "payload_json":
                    body = json.loads(await part.text())
                    continue
                match = re.fullmatch(r"files\[(\d+)\]|file(\d*)", name)
                if match is None:
                    continue
                index = int(match.group(1) or match.group(2) or 0)
                data = bytes(await part.read(decode=False))
                files[index] = (part.filename or f"file{index}", data,
                                part.headers.get("Content-Type"))
            return body, files
        raw = await request.read()
        return (json.loads(raw) if raw else {}), files

    # --- simple resources

    async def _r_gateway(self, request: web.Request) -> web.Response:
        return json_reply({"url": self.gateway_url})

    async def _r_gateway_bot(self, request: web.Request) -> web.Response:
        return json_reply({"url": self.gateway_url, "shards": 1, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}})

    async def _r_app(self, request: web.Request) -> web.Response:
        return json_reply({
            "id": self.application_id, "name": self.bot_user["username"], "description": "",
            "icon": None, "bot_public": True, "bot_require_code_grant": False,
            "owner": self.owner, "verify_key": "0" * 64, "flags": 0, "team": None,
            "summary": "", "bot": self.bot_user,
        })

    async def _r_user(self, request: web.Request, uid: str) -> web.Response:
        if uid == self.bot_user["id"]:
            return json_reply(self.bot_user)
        if uid not in self.users:
            raise DiscordAPIError(404, 10013, "Unknown User")
        return json_reply(self.users[uid])

    async def _r_create_dm(self, request: web.Request) -> web.Response:
        body = await request.json()
        uid = str(body.get("recipient_id"))
        if uid not in self.users:
            raise DiscordAPIError(400, 50035, "Invalid Form Body (unknown recipient_id)")
        return json_reply(self._dm_channel(uid))

    async def _r_channel(self, request: web.Request, cid: str) -> web.Response:
        return json_reply(self._channel_or_404(cid))

    async def _r_typing(self, request: web.Request, cid: str) -> web.Response:
        self._channel_or_404(cid)
        return web.Response(status=204)

    async def _r_guild(self, request: web.Request, gid: str) -> web.Response:
        if gid not in self.guilds:
            raise DiscordAPIError(404, 10004, "Unknown Guild")
        payload = self._guild_payload(self.guilds[gid])
        payload.pop("members")
        payload.pop("channels")
        return json_reply(payload)

    async def _r_guild_channels(self, request: web.Request, gid: str) -> web.Response:
        if gid not in self.guilds:
            raise DiscordAPIError(404, 10004, "Unknown Guild")
        return json_reply([self.channels[c] for c in self.guilds[gid]["channel_ids"]])

    async def _r_member(self, request: web.Request, gid: str, uid: str) -> web.Response:
        guild = self.guilds.get(gid)
        if guild is None or uid not in guild["members"]:
            raise DiscordAPIError(404, 10007, "Unknown Member")
        return json_reply(self._member_payload(guild, guild["members"][uid]))

    # --- application commands

    def _check_app(self, app: str) -> None:
        if app != self.application_id:
            raise DiscordAPIError(403, 50001, "Missing Access (wrong application id)")

    async def _r_get_cmds(self, request: web.Request, app: str, gid: str | None = None) -> web.Response:
        self._check_app(app)
        return json_reply(list(self.commands.get(gid, {}).values()))

    def _register(self, scope: str | None, body: dict[str, Any],
                  previous: dict[str, dict[str, Any]]) -> dict[str, Any]:
        if "name" not in body or not re.fullmatch(r"[-_\w]{1,32}", body["name"]):
            raise DiscordAPIError(400, 50035, f"Invalid Form Body (name {body.get('name')!r})")
        old = previous.get(body["name"])
        cmd = {
            "type": 1, "description": "", "options": [], "default_member_permissions": None,
            "dm_permission": True, "nsfw": False, **body,
            "id": old["id"] if old else self.snowflake(),
            "application_id": self.application_id,
            "version": self.snowflake(),
        }
        if scope is not None:
            cmd["guild_id"] = scope
        return cmd

    async def _r_put_cmds(self, request: web.Request, app: str, gid: str | None = None) -> web.Response:
        self._check_app(app)
        if gid is not None and gid not in self.guilds:
            raise DiscordAPIError(404, 10004, "Unknown Guild")
        body = await request.json()
        self.check_bulk_keeps_entry_point(gid, body)
        previous = self.commands.get(gid, {})
        new = {}
        for entry in body:
            cmd = self._register(gid, entry, previous)
            new[cmd["name"]] = cmd
        self.commands[gid] = new
        self.syncs.append((gid, sorted(new), time.perf_counter()))
        return json_reply(list(new.values()))

    async def _r_post_cmd(self, request: web.Request, app: str, gid: str | None = None) -> web.Response:
        self._check_app(app)
        body = await request.json()
        scope = self.commands.setdefault(gid, {})
        cmd = self._register(gid, body, scope)
        scope[cmd["name"]] = cmd
        self.syncs.append((gid, [cmd["name"]], time.perf_counter()))
        return json_reply(cmd, 201)

    # --- messages

    def _channel_or_404(self, cid: str) -> dict[str, Any]:
        if cid not in self.channels:
            raise DiscordAPIError(404, 10003, "Unknown Channel")
        return self.channels[cid]

    def _store_attachment(self, filename: str, data: bytes, content_type: str | None,
                          description: str | None) -> Attachment:
        aid = self.snowflake()
        if not content_type or content_type == "application/octet-stream":
            content_type = _guess_type(filename, data)
        att = Attachment(id=aid, filename=filename, data=data, content_type=content_type,
                         description=description,
                         url=f"{self.base_url}/attachments/{aid}/{urllib.parse.quote(filename)}")
        self.attachments[aid] = att
        return att

    def _attachments(self, body: dict[str, Any], files: dict[int, tuple],
                     existing: list[Attachment]) -> list[Attachment]:
        meta = body.get("attachments")
        if meta is None:
            keep = list(existing)
            meta = [{"id": i} for i in sorted(files)]
        else:
            known = {a.id: a for a in existing}
            keep = [known[str(m["id"])] for m in meta if str(m.get("id")) in known]
        new = []
        for m in meta:
            index = m.get("id")
            if isinstance(index, str) and index.isdigit() and index in {a.id for a in existing}:
                continue
            try:
                index = int(index)
            except (TypeError, ValueError):
                continue
            if index not in files:
                continue
            filename, data, ctype = files[index]
            new.append(self._store_attachment(m.get("filename") or filename, data, ctype,
                                              m.get("description")))
        return keep + new

    def _new_message(self, channel: dict[str, Any], body: dict[str, Any], files: dict[int, tuple], *,
                     source: str, interaction: Interaction | None = None,
                     flags: int | None = None) -> Message:
        if not body.get("content") and not body.get("embeds") and not files \
                and not body.get("components") and not body.get("attachments") \
                and not (flags or 0) & LOADING:
            raise DiscordAPIError(400, 50006, "Cannot send an empty message")
        msg = Message(
            id=self.snowflake(),
            channel_id=channel["id"],
            guild_id=channel.get("guild_id"),
            author=self.bot_user,
            content=body.get("content") or "",
            embeds=body.get("embeds") or [],
            components=body.get("components") or [],
            attachments=self._attachments(body, files, []),
            flags=int(body.get("flags") or 0) if flags is None else flags,
            interaction_id=interaction.id if interaction else None,
            source=source,
            type=19 if body.get("message_reference") else 0,
        )
        if interaction is not None:
            msg.webhook_id = self.application_id
            msg.application_id = self.application_id
            msg.interaction_metadata = {
                "id": interaction.id, "type": interaction.type, "user": interaction.user,
                "authorizing_integration_owners": {},
            }
            if interaction.type == APPLICATION_COMMAND and source == "callback":
                msg.type = 20
        msg.history.append(msg.snapshot())
        self.messages[msg.id] = msg
        channel["last_message_id"] = msg.id
        if not msg.ephemeral and not msg.loading:
            self._announce(msg)
        return msg

    def _message_event(self, msg: Message) -> dict[str, Any]:
        payload = msg.to_payload()
        if msg.guild_id is not None:
            guild = self.guilds[msg.guild_id]
            member = guild["members"].get(msg.author["id"])
            if member is not None:
                payload["member"] = {k: v for k, v in self._member_payload(guild, member).items()
                                     if k != "user"}
        return payload

    def _announce(self, msg: Message) -> None:
        """MESSAGE_CREATE to clients whose intents ask for it, as Discord does."""
        need = GUILD_MESSAGES_INTENT if msg.guild_id else DIRECT_MESSAGES_INTENT
        for session in self.sessions:
            if (session.ready and not session.ended and session.intents & need
                    and session.serves(msg.guild_id)):
                self._keep(asyncio.get_running_loop().create_task(
                    self._send_dispatch(session, "MESSAGE_CREATE", self._message_event(msg))))

    def _edit(self, msg: Message, body: dict[str, Any], files: dict[int, tuple]) -> Message:
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = body["embeds"] or []
        if "components" in body:
            msg.components = body["components"] or []
        if "attachments" in body or files:
            msg.attachments = self._attachments(body, files, msg.attachments)
        if msg.loading:
            msg.flags &= ~LOADING
        elif "flags" in body and body["flags"] is not None:
            # Only presentation flags change on edit; ephemeral-ness is fixed at creation.
            msg.flags = (int(body["flags"]) & ~EPHEMERAL) | (msg.flags & EPHEMERAL)
        msg.edited_at = time.perf_counter()
        msg.edited_timestamp = iso_now()
        msg.history.append(msg.snapshot())
        return msg

    async def _r_send(self, request: web.Request, cid: str) -> web.Response:
        channel = self._channel_or_404(cid)
        if channel["type"] == 1:
            recipient = channel["recipients"][0]["id"]
            if recipient in self.closed_dms:
                raise DiscordAPIError(403, 50007, "Cannot send messages to this user")
        body, files = await self._read_body(request)
        # like Discord: with enforce_nonce, a second message with the same nonce from the same
        # author in the channel returns the first one instead of posting again
        nonces: dict[tuple[str, str], str] = self.__dict__.setdefault("_sent_nonces", {})
        key = (cid, str(body.get("nonce")))
        if body.get("enforce_nonce") and body.get("nonce") is not None:
            earlier = self.messages.get(nonces.get(key, ""))
            if earlier is not None:
                return json_reply(earlier.to_payload())
        msg = self._new_message(channel, body, files, source="channel")
        if body.get("enforce_nonce") and body.get("nonce") is not None:
            nonces[key] = msg.id
        return json_reply(msg.to_payload())

    async def _r_history(self, request: web.Request, cid: str) -> web.Response:
        self._channel_or_404(cid)
        limit = int(request.query.get("limit", 50))
        msgs = [m for m in self.messages.values()
                if m.channel_id == cid and not m.deleted and not m.ephemeral and not m.loading]
        return json_reply([m.to_payload() for m in reversed(msgs)][:limit])

    def _channel_message(self, cid: str, mid: str) -> Message:
        self._channel_or_404(cid)
        msg = self.messages.get(mid)
        if msg is None or msg.channel_id != cid or msg.deleted or msg.ephemeral:
            raise DiscordAPIError(404, 10008, "Unknown Message")
        return msg

    async def _r_get_msg(self, request: web.Request, cid: str, mid: str) -> web.Response:
        return json_reply(self._channel_message(cid, mid).to_payload())

    async def _r_edit_msg(self, request: web.Request, cid: str, mid: str) -> web.Response:
        msg = self._channel_message(cid, mid)
        if msg.author["id"] != self.bot_user["id"]:
            raise DiscordAPIError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await self._read_body(request)
        return json_reply(self._edit(msg, body, files).to_payload())

    async def _r_del_msg(self, request: web.Request, cid: str, mid: str) -> web.Response:
        self._channel_message(cid, mid).deleted = True
        return web.Response(status=204)

    async def _r_react(self, request: web.Request, cid: str, mid: str, emoji: str) -> web.Response:
        msg = self._channel_message(cid, mid)
        name = urllib.parse.unquote(emoji)
        if name not in msg.reactions:
            msg.reactions.append(name)
        return web.Response(status=204)

    async def _r_unreact(self, request: web.Request, cid: str, mid: str, emoji: str) -> web.Response:
        msg = self._channel_message(cid, mid)
        name = urllib.parse.unquote(emoji)
        if name in msg.reactions:
            msg.reactions.remove(name)
        return web.Response(status=204)




def _guess_type(filename: str, data: bytes) -> str:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data[:3] == b"\xff\xd8\xff":
        return "image/jpeg"
    if filename.endswith((".txt", ".log")):
        return "text/plain"
    if filename.endswith(".json"):
        return "application/json"
    return "application/octet-stream"
