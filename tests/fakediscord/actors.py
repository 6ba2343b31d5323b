"""Acting as users: slash commands, autocomplete, clicks, selects, modals, messages."""

from __future__ import annotations

import secrets
import time
from typing import Any

from . import commands as cmds
from .common import (
    ALL_PERMISSIONS,
    SELECT_TYPES,
    FakeDiscordError,
)
from .models import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Interaction,
    Message,
    iter_components,
    object_id,
)


class ActorsMixin:
    """Build and send interactions the way the Discord client would."""

    def _context(self, user: Any, channel: Any) -> dict[str, Any]:
        """The user/member/channel/guild part of an interaction payload."""
        uid = object_id(user)
        if uid not in self.users:
            raise FakeDiscordError(f"unknown user {uid}; create users with add_user()")
        cid = object_id(channel)
        if cid not in self.channels:
            raise FakeDiscordError(f"unknown channel {cid}; create channels with add_channel()")
        ch = self.channels[cid]
        base: dict[str, Any] = {"channel_id": cid, "app_permissions": str(ALL_PERMISSIONS),
                                "locale": self.user_locales.get(uid, "en-US"),
                                "entitlements": []}
        if ch["type"] == 1:
            return {**base, "user": self.users[uid], "channel": ch, "context": 1,
                    "authorizing_integration_owners": {"0": "0"}}
        guild = self.guilds[ch["guild_id"]]
        if uid not in guild["members"]:
            raise FakeDiscordError(f"user {self.users[uid]['username']} is not in {guild['name']}")
        perms = self.member_permissions(guild, uid)
        member = {**self._member_payload(guild, guild["members"][uid]), "permissions": str(perms)}
        return {
            **base,
            "guild_id": guild["id"],
            "guild": {"id": guild["id"], "locale": "en-US", "features": []},
            "guild_locale": "en-US",
            "member": member,
            "channel": {**ch, "permissions": str(perms)},
            "context": 0,
            "authorizing_integration_owners": {"0": guild["id"]},
        }

    def set_locale(self, user: Any, locale: str) -> None:
        """The language of `user`'s Discord client: what their interactions carry as `locale`."""
        self.user_locales[object_id(user)] = locale

    async def _send_interaction(self, kind: int, user: Any, channel: Any, data: dict[str, Any], *,
                                message: Message | None = None, timeout: float = 5.0) -> Interaction:
        ch = self.channels.get(object_id(channel))
        guild_id = ch.get("guild_id") if ch is not None else None
        session = await self.wait_until(lambda: self._live_session(guild_id), timeout,
                                        what="a connected client (of the guild's shard)")
        iid = self.snowflake()
        token = secrets.token_urlsafe(32)
        payload = {
            "id": iid,
            "application_id": self.application_id,
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "attachment_size_limit": 10 * 1024 * 1024,
            **self._context(user, channel),
        }
        if message is not None:
            payload["message"] = message.to_payload()
        record = Interaction(
            id=iid, token=token, type=kind, user=self.users[object_id(user)],
            channel_id=object_id(channel), guild_id=payload.get("guild_id"), payload=payload,
            message_id=message.id if message is not None else None,
        )
        self.interactions[iid] = record
        self._interactions_by_token[token] = record
        record.sent_at = time.perf_counter()
        record.shard = session.shard
        record.seq = await self._send_dispatch(session, "INTERACTION_CREATE", payload)
        return record

    def _leaf_options(self, user: Any, channel: Any, where: str, leaf: dict[str, Any],
                      options: dict[str, Any], resolved: dict[str, dict[str, Any]], *,
                      focused: str | None = None, partial: bool = False) -> list[dict[str, Any]]:
        declared = {o["name"]: o for o in leaf.get("options", [])}
        unknown = set(options) - set(declared)
        if unknown:
            raise cmds.CommandError(f"{where}: unknown options {sorted(unknown)}; "
                                    f"declared: {sorted(declared)}")
        if not partial:
            missing = [n for n, o in declared.items() if o.get("required") and n not in options]
            if missing:
                raise cmds.CommandError(f"{where}: missing required options {missing}")
        out = []
        for name, opt in declared.items():  # Discord sends options in declared order
            if name not in options:
                continue
            value = options[name]
            if name == focused:
                if not opt.get("autocomplete"):
                    raise cmds.CommandError(f"{where}: option {name!r} has no autocomplete")
                out.append({"type": opt["type"], "name": name, "value": str(value),
                            "focused": True})
                continue
            wire = self._wire_value(where, opt, value, channel, resolved)
            out.append({"type": opt["type"], "name": name, "value": wire})
        return out

    def _wire_value(self, where: str, opt: dict[str, Any], value: Any, channel: Any,
                    resolved: dict[str, dict[str, Any]]) -> Any:
        kind = opt["type"]
        uid = object_id(value) if isinstance(value, dict | int | str) else None
        if kind in (cmds.USER, cmds.MENTIONABLE) and uid in self.users:
            resolved.setdefault("users", {})[uid] = self.users[uid]
            ch = self.channels[object_id(channel)]
            if ch.get("guild_id"):
                guild = self.guilds[ch["guild_id"]]
                if uid in guild["members"]:
                    member = self._member_payload(guild, guild["members"][uid])
                    member.pop("user")
                    member["permissions"] = str(self.member_permissions(guild, uid))
                    resolved.setdefault("members", {})[uid] = member
            return uid
        if kind == cmds.CHANNEL:
            cid = object_id(value)
            if cid not in self.channels:
                raise cmds.CommandError(f"{where}: unknown channel {cid}")
            ch = self.channels[cid]
            resolved.setdefault("channels", {})[cid] = {
                "id": cid, "type": ch["type"], "name": ch.get("name"),
                "permissions": str(ALL_PERMISSIONS), "parent_id": ch.get("parent_id"),
            }
            return cid
        if kind in (cmds.ROLE, cmds.MENTIONABLE):
            rid = object_id(value)
            for guild in self.guilds.values():
                if rid in guild["roles"]:
                    resolved.setdefault("roles", {})[rid] = guild["roles"][rid]
                    return rid
            raise cmds.CommandError(f"{where}: unknown role or user {rid}")
        if kind == cmds.USER:
            raise cmds.CommandError(f"{where}: unknown user {value!r}")
        if kind == cmds.ATTACHMENT:
            if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes)):
                raise cmds.CommandError(f"{where}: attachment option {opt['name']!r} takes "
                                        "(filename, bytes)")
            filename, data = value
            att = self._store_attachment(filename, data, None, None)
            resolved.setdefault("attachments", {})[att.id] = att.to_payload()
            return att.id
        return cmds.check_value(where, opt, value)

    def _command_data(self, user: Any, channel: Any, command: str, group: str | None,
                      subcommand: str | None, options: dict[str, Any] | None,
                      focused: str | None, force: bool) -> dict[str, Any]:
        path = cmds.split_path(command, group, subcommand)
        ch = self.channels.get(object_id(channel))
        if ch is None:
            raise FakeDiscordError(f"unknown channel {object_id(channel)}")
        definition = self.command(path[0], guild=ch.get("guild_id"))
        where = "/" + " ".join(path)
        perms_needed = definition.get("default_member_permissions")
        if perms_needed is not None and ch.get("guild_id") and not force:
            have = self.member_permissions(ch["guild_id"], user)
            if int(perms_needed) & have != int(perms_needed):
                raise cmds.CommandError(
                    f"{where} is hidden from {self.users[object_id(user)]['username']}: "
                    f"needs permissions {perms_needed} (pass force=True to send anyway)")
        path, leaf = cmds.resolve_leaf(definition, path)
        resolved: dict[str, dict[str, Any]] = {}
        leaf_opts = self._leaf_options(user, channel, where, leaf, dict(options or {}), resolved,
                                       focused=focused, partial=focused is not None)
        data: dict[str, Any] = {
            "id": definition["id"],
            "name": definition["name"],
            "type": 1,
            "options": cmds.wrap_options(path, leaf, leaf_opts, definition),
        }
        if resolved:
            data["resolved"] = resolved
        if definition.get("guild_id"):
            data["guild_id"] = definition["guild_id"]
        return data

    async def slash(self, user: Any, channel: Any, command: str, subcommand: str | None = None,
                    options: dict[str, Any] | None = None, *, group: str | None = None,
                    force: bool = False, timeout: float = 5.0) -> Interaction:
        """Invoke a slash command as `user` in `channel`; returns the sent interaction.

        `command` may hold the whole path ("sw conquer", "league season create"), or use
        `group`/`subcommand`. Options are checked against the synced definition; user,
        channel and role options take the dicts from add_user/add_channel/add_role.
        """
        await self._wait_for_commands(timeout)
        data = self._command_data(user, channel, command, group, subcommand, options, None, force)
        return await self._send_interaction(APPLICATION_COMMAND, user, channel, data,
                                            timeout=timeout)

    async def autocomplete(self, user: Any, channel: Any, command: str, *, focused: str,
                           value: Any = "", options: dict[str, Any] | None = None,
                           subcommand: str | None = None, group: str | None = None,
                           timeout: float = 5.0) -> list[dict[str, Any]]:
        """Type `value` into option `focused`; return the bot's choices [{name, value}]."""
        await self._wait_for_commands(timeout)
        opts = {**(options or {}), focused: value}
        data = self._command_data(user, channel, command, group, subcommand, opts, focused, False)
        record = await self._send_interaction(AUTOCOMPLETE, user, channel, data, timeout=timeout)
        await self.wait_until(lambda: record.acknowledged, timeout,
                              what=f"autocomplete choices for /{record.name} {focused}")
        if record.choices is None:
            raise FakeDiscordError(f"autocomplete answered with callback {record.callback_type}")
        return record.choices

    async def _wait_for_commands(self, timeout: float) -> None:
        await self.wait_until(lambda: self.syncs or any(self.commands.values()), timeout,
                              what="the bot to sync its application commands")

    def _message(self, message: Any, user: Any) -> Message:
        """A live bot message that `user` can see (ephemerals and DMs are private)."""
        mid = object_id(message)
        if mid not in self.messages:
            raise FakeDiscordError(f"unknown message {mid}")
        msg = self.messages[mid]
        if msg.deleted:
            raise FakeDiscordError(f"message {mid} was deleted")
        uid = object_id(user)
        owner = self.interactions.get(msg.interaction_id or "")
        if msg.ephemeral and owner is not None and owner.user["id"] != uid:
            raise FakeDiscordError(f"{msg!r} is ephemeral to {owner.user['username']}")
        channel = self.channels[msg.channel_id]
        if channel["type"] == 1 and channel["recipients"][0]["id"] != uid:
            raise FakeDiscordError(f"{msg!r} is in someone else's DMs")
        return msg

    async def click(self, user: Any, message: Any, custom_id: str | None = None, *,
                    label: str | None = None, timeout: float = 5.0) -> Interaction:
        """Press the button `custom_id` (or the one labelled `label`) on a bot message."""
        msg = self._message(message, user)
        comp = msg.component(custom_id) if custom_id else msg.find_component(label or "")
        if comp is None or comp.get("type") != 2:
            raise FakeDiscordError(
                f"no button {custom_id or label!r} on {msg!r}; custom_ids: {msg.custom_ids()}")
        if comp.get("disabled"):
            raise FakeDiscordError(f"button {comp.get('custom_id')!r} is disabled")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        return await self._send_interaction(MESSAGE_COMPONENT, user, msg.channel_id, data,
                                            message=msg, timeout=timeout)

    async def select(self, user: Any, message: Any, custom_id: str, values: list[Any], *,
                     timeout: float = 5.0) -> Interaction:
        """Choose `values` in the select menu `custom_id` on a bot message."""
        msg = self._message(message, user)
        comp = msg.component(custom_id)
        if comp is None or comp.get("type") not in SELECT_TYPES:
            raise FakeDiscordError(f"no select menu {custom_id!r} on {msg!r}")
        if comp.get("disabled"):
            raise FakeDiscordError(f"select {custom_id!r} is disabled")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise FakeDiscordError(f"select {custom_id!r} takes {lo}..{hi} values, got {values}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"]}
        if comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise FakeDiscordError(f"select {custom_id!r} has no options {bad}; has {allowed}")
            data["values"] = list(values)
        else:
            resolved: dict[str, dict[str, Any]] = {}
            kind = {5: cmds.USER, 6: cmds.ROLE, 7: cmds.MENTIONABLE, 8: cmds.CHANNEL}[comp["type"]]
            data["values"] = [
                self._wire_value(custom_id, {"type": kind, "name": custom_id}, v,
                                 msg.channel_id, resolved) for v in values
            ]
            data["resolved"] = resolved
        return await self._send_interaction(MESSAGE_COMPONENT, user, msg.channel_id, data,
                                            message=msg, timeout=timeout)

    async def submit_modal(self, user: Any, interaction: Interaction, values: dict[str, Any], *,
                           timeout: float = 5.0) -> Interaction:
        """Fill and submit the modal the bot showed in answer to `interaction`."""
        modal = await self.wait_for_modal(interaction, timeout=timeout)

        def fill(comp: dict[str, Any]) -> dict[str, Any] | None:
            if comp["type"] == 1:
                inner = [c for c in (fill(x) for x in comp.get("components", [])) if c]
                return {"type": 1, "components": inner}
            if comp["type"] == 18:
                inner = fill(comp["component"])
                return {"type": 18, "component": inner} if inner else None
            if "custom_id" not in comp:
                return None
            cid = comp["custom_id"]
            if comp["type"] == 4:
                return {"type": 4, "custom_id": cid, "value": str(values.get(cid, ""))}
            return {"type": comp["type"], "custom_id": cid, "values": list(values.get(cid, []))}

        known = {c.get("custom_id") for c in iter_components(modal.get("components", []))}
        for comp in modal.get("components", []):
            if comp.get("type") == 18:
                known.add(comp["component"].get("custom_id"))
        unknown = set(values) - known
        if unknown:
            raise FakeDiscordError(f"modal has no inputs {sorted(unknown)}")
        components = [c for c in (fill(c) for c in modal.get("components", [])) if c]
        data = {"custom_id": modal["custom_id"], "components": components}
        source = self.messages.get(interaction.message_id or "")
        return await self._send_interaction(MODAL_SUBMIT, user, interaction.channel_id, data,
                                            message=source, timeout=timeout)

    async def say(self, user: Any, channel: Any, content: str) -> Message:
        """A user posts a plain message (dispatched as MESSAGE_CREATE)."""
        ch = self.channels[object_id(channel)]
        msg = Message(id=self.snowflake(), channel_id=ch["id"], guild_id=ch.get("guild_id"),
                      author=self.users[object_id(user)], content=content, source="user")
        self.messages[msg.id] = msg
        live = self._live_session(msg.guild_id)
        if live is not None:
            await self._send_dispatch(live, "MESSAGE_CREATE", self._message_event(msg))
        self._notify()
        return msg

