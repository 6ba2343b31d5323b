"""Building the fake's world: guilds, channels, roles, users, members, DM channels,
and the payloads Discord sends for them."""

from __future__ import annotations

from typing import Any

from .common import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    FakeDiscordError,
)
from .models import iso_now, object_id


class WorldMixin:
    """Set-up of the Discord a test plays in (FakeDiscord's world-building half)."""

    def _make_user(self, name: str, *, bot: bool = False) -> dict[str, Any]:
        return {
            "id": self.snowflake(),
            "username": name,
            "global_name": name,
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
            "public_flags": 0,
        }

    def add_guild(self, name: str, *, channel_name: str | None = "general") -> dict[str, Any]:
        """A guild with an @everyone role, the bot as member and optionally one text channel."""
        gid = self.snowflake()
        guild = {
            "id": gid,
            "name": name,
            "owner_id": self.owner["id"],
            "roles": {gid: self._role_payload(gid, "@everyone", DEFAULT_MEMBER_PERMISSIONS, 0)},
            "members": {},
            "channel_ids": [],
        }
        self.guilds[gid] = guild
        self._add_member(guild, self.bot_user, permissions=ALL_PERMISSIONS)
        self._add_member(guild, self.owner, permissions=ALL_PERMISSIONS)
        if channel_name:
            self.add_channel(channel_name, guild=guild, notify=False)
        self._schedule_dispatch("GUILD_CREATE", lambda: self._guild_payload(guild))
        return guild

    def add_channel(self, name: str, *, guild: Any = None, notify: bool = True) -> dict[str, Any]:
        """A text channel in `guild` (default: the first guild). Returns its payload."""
        guild = self._guild(guild)
        cid = self.snowflake()
        channel = {
            "id": cid,
            "type": 0,
            "guild_id": guild["id"],
            "name": name,
            "position": len(guild["channel_ids"]),
            "permission_overwrites": [],
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }
        self.channels[cid] = channel
        guild["channel_ids"].append(cid)
        if notify:
            self._schedule_dispatch("CHANNEL_CREATE", lambda: channel)
        return channel

    def add_role(self, name: str, *, permissions: int = 0, guild: Any = None) -> dict[str, Any]:
        guild = self._guild(guild)
        role = self._role_payload(self.snowflake(), name, permissions, len(guild["roles"]))
        guild["roles"][role["id"]] = role
        self._schedule_dispatch("GUILD_ROLE_CREATE", lambda: {"guild_id": guild["id"], "role": role})
        return role

    def add_user(self, name: str, *, guild: Any = None, permissions: int = 0,
                 roles: tuple[Any, ...] | list[Any] = ()) -> dict[str, Any]:
        """A human user who is a member of `guild` (default: the first guild).

        `permissions` are added to @everyone's; pass `MANAGE_GUILD` for a moderator.
        """
        guild = self._guild(guild)
        for role in roles:
            if object_id(role) not in guild["roles"]:
                raise FakeDiscordError(f"role {object_id(role)} is not in guild {guild['name']}")
        user = self._make_user(name)
        self.users[user["id"]] = user
        member = self._add_member(guild, user, permissions=permissions,
                                  roles=[object_id(r) for r in roles])
        self._schedule_dispatch(
            "GUILD_MEMBER_ADD",
            lambda: {**self._member_payload(guild, member), "guild_id": guild["id"]},
        )
        return user

    def join(self, user: Any, guild: Any, *, permissions: int = 0) -> None:
        """Make an existing user a member of another guild."""
        guild = self._guild(guild)
        member = self._add_member(guild, self.users[object_id(user)], permissions=permissions)
        self._schedule_dispatch(
            "GUILD_MEMBER_ADD",
            lambda: {**self._member_payload(guild, member), "guild_id": guild["id"]},
        )

    def close_dms(self, user: Any) -> None:
        """From now on, sending to this user's DMs fails with 403 / code 50007."""
        self.closed_dms.add(object_id(user))

    def open_dms(self, user: Any) -> None:
        self.closed_dms.discard(object_id(user))

    def _role_payload(self, rid: str, name: str, permissions: int, position: int) -> dict[str, Any]:
        return {
            "id": rid, "name": name, "permissions": str(permissions), "position": position,
            "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0,
            "icon": None, "unicode_emoji": None,
        }

    def _add_member(self, guild: dict[str, Any], user: dict[str, Any], *, permissions: int = 0,
                    roles: list[str] | None = None) -> dict[str, Any]:
        member = {"user_id": user["id"], "roles": roles or [], "permissions": permissions,
                  "joined_at": iso_now()}
        guild["members"][user["id"]] = member
        return member

    def _guild(self, guild: Any) -> dict[str, Any]:
        if guild is None:
            return next(iter(self.guilds.values()))
        gid = object_id(guild)
        if gid not in self.guilds:
            raise FakeDiscordError(f"unknown guild {gid}")
        return self.guilds[gid]

    def member_permissions(self, guild: Any, user: Any) -> int:
        guild = self._guild(guild)
        uid = object_id(user)
        member = guild["members"].get(uid)
        if member is None:
            raise FakeDiscordError(f"user {uid} is not a member of guild {guild['name']}")
        if uid == guild["owner_id"]:
            return ALL_PERMISSIONS
        perms = int(guild["roles"][guild["id"]]["permissions"]) | member["permissions"]
        for rid in member["roles"]:
            perms |= int(guild["roles"][rid]["permissions"])
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def _member_payload(self, guild: dict[str, Any], member: dict[str, Any]) -> dict[str, Any]:
        return {
            "user": self.bot_user if member["user_id"] == self.bot_user["id"]
            else self.users[member["user_id"]],
            "roles": list(member["roles"]),
            "joined_at": member["joined_at"],
            "nick": None,
            "avatar": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
        }

    def _guild_payload(self, guild: dict[str, Any]) -> dict[str, Any]:
        members = [self._member_payload(guild, m) for m in guild["members"].values()]
        return {
            "id": guild["id"],
            "name": guild["name"],
            "icon": None,
            "owner_id": guild["owner_id"],
            "roles": list(guild["roles"].values()),
            "channels": [self.channels[c] for c in guild["channel_ids"]],
            "members": members,
            "member_count": len(members),
            "large": False,
            "unavailable": False,
            "features": [],
            "emojis": [],
            "stickers": [],
            "presences": [],
            "voice_states": [],
            "threads": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "joined_at": iso_now(),
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "preferred_locale": "en-US",
            "afk_timeout": 300,
        }

    def _dm_channel(self, user_id: str) -> dict[str, Any]:
        if user_id not in self._dm_channels:
            cid = self.snowflake()
            self.channels[cid] = {
                "id": cid, "type": 1, "last_message_id": None,
                "recipients": [self.users[user_id]],
            }
            self._dm_channels[user_id] = cid
        return self.channels[self._dm_channels[user_id]]

    def dm_channel(self, user: Any) -> dict[str, Any]:
        """The DM channel between the bot and `user` (created on first use)."""
        return self._dm_channel(object_id(user))
