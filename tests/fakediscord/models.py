"""Records kept by the fake Discord: messages, attachments and interactions."""

from __future__ import annotations

import copy
import datetime as dt
import itertools
import re
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Interaction types (what the fake sends).
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# Interaction callback types (what the bot answers).
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE = 1, 4, 5, 6
UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 7, 8, 9


class SnowflakeFactory:
    """Unique, increasing snowflakes whose timestamp part is the creation time."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def __call__(self) -> str:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = max((ms << 22) | (next(self._counter) & 0xFFF), self._last + 1)
        self._last = value
        return str(value)


def iso_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


def object_id(obj: Any) -> str:
    """The snowflake of a user/channel/guild/message given as a dict, record, int or str."""
    if isinstance(obj, dict):
        return str(obj["id"])
    if isinstance(obj, Message | Interaction):
        return obj.id
    return str(obj)


@dataclass
class Attachment:
    """A file the bot uploaded, with its bytes."""

    id: str
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": self.id,
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            payload["content_type"] = self.content_type
        if self.description is not None:
            payload["description"] = self.description
        return payload


@dataclass
class Message:
    """A message the bot created (channel post, DM, interaction reply or followup).

    The record is updated in place when the bot edits it; `history` keeps every revision.
    `created_at`/`edited_at` are `time.perf_counter()` values, `timestamp` is wall-clock ISO.
    """

    id: str
    channel_id: str
    guild_id: str | None
    author: dict[str, Any]
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    interaction_id: str | None = None
    source: str = "channel"  # channel | callback | followup | user
    type: int = 0
    webhook_id: str | None = None
    application_id: str | None = None
    timestamp: str = field(default_factory=iso_now)
    created_at: float = field(default_factory=time.perf_counter)
    edited_at: float | None = None
    edited_timestamp: str | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)
    interaction_metadata: dict[str, Any] | None = None
    reactions: list[str] = field(default_factory=list)  # emoji the bot added

    @property
    def mentions(self) -> list[str]:
        """User ids mentioned as <@id> in the content, in order."""
        return re.findall(r"<@!?(\d+)>", self.content or "")

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred reply still showing "Bot is thinking..."."""
        return bool(self.flags & LOADING)

    @property
    def files(self) -> dict[str, bytes]:
        """Attachment bytes by filename."""
        return {a.filename: a.data for a in self.attachments}

    @property
    def text(self) -> str:
        """Content plus every embed's title, description and fields, for text assertions."""
        parts = [self.content or ""]
        for embed in self.embeds:
            parts += [str(embed.get(k, "")) for k in ("title", "description")]
            for fld in embed.get("fields", []):
                parts += [str(fld.get("name", "")), str(fld.get("value", ""))]
            if "footer" in embed:
                parts.append(str(embed["footer"].get("text", "")))
        return "\n".join(p for p in parts if p)

    def custom_ids(self) -> list[str]:
        """Every component custom_id on the message, in display order."""
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next(
            (c for c in iter_components(self.components) if c.get("custom_id") == custom_id), None
        )

    def find_component(self, label: str) -> dict[str, Any] | None:
        """The first button whose label equals `label`."""
        return next((c for c in iter_components(self.components) if c.get("label") == label), None)

    def snapshot(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "attachments": [a.filename for a in self.attachments],
            "files": {a.filename: a.data for a in self.attachments},  # bytes as they were then
            "flags": self.flags,
            "at": time.perf_counter(),
        }

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": self.id,
            "channel_id": self.channel_id,
            "author": self.author,
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.to_payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            payload["guild_id"] = self.guild_id
        if self.webhook_id is not None:
            payload["webhook_id"] = self.webhook_id
        if self.application_id is not None:
            payload["application_id"] = self.application_id
        if self.interaction_metadata is not None:
            payload["interaction_metadata"] = self.interaction_metadata
        return payload

    def __repr__(self) -> str:
        text = (self.content or "")[:40]
        return (
            f"<Message id={self.id} channel={self.channel_id} source={self.source} "
            f"flags={self.flags} content={text!r} files={[a.filename for a in self.attachments]}>"
        )


@dataclass
class Interaction:
    """An interaction the fake sent to the bot, and everything the bot answered.

    Times are `time.perf_counter()` values: `sent_at` when the INTERACTION_CREATE frame was
    written to the gateway, `callback_at` when the initial response arrived, `replied_at`
    when the first visible reply (message, update, followup or edit) arrived.
    """

    id: str
    token: str
    type: int
    user: dict[str, Any]
    channel_id: str
    guild_id: str | None
    payload: dict[str, Any]
    sent_at: float = 0.0
    seq: int | None = None
    callback_type: int | None = None
    callback_data: dict[str, Any] | None = None
    callback_at: float | None = None
    original_id: str | None = None
    message_id: str | None = None  # the message a component/modal came from
    reply: Message | None = None
    replied_at: float | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    expired: bool = False  # the bot answered after the window: Discord says "interaction failed"
    shard: tuple[int, int] | None = None  # the gateway session's shard it was dispatched to

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def deferred(self) -> bool:
        return self.callback_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE)

    @property
    def ack_latency(self) -> float | None:
        """Seconds from dispatch to the initial callback."""
        return None if self.callback_at is None else self.callback_at - self.sent_at

    @property
    def reply_latency(self) -> float | None:
        """Seconds from dispatch to the first visible reply."""
        return None if self.replied_at is None else self.replied_at - self.sent_at

    @property
    def name(self) -> str:
        """Full command path ("sw conquer") or the component custom_id."""
        data = self.payload.get("data", {})
        if "custom_id" in data:
            return data["custom_id"]
        parts = [data.get("name", "")]
        options = data.get("options", [])
        while options and options[0].get("type") in (1, 2):
            parts.append(options[0]["name"])
            options = options[0].get("options", [])
        return " ".join(parts)

    def __repr__(self) -> str:
        return (
            f"<Interaction id={self.id} type={self.type} name={self.name!r} "
            f"callback={self.callback_type} reply={self.reply!r}>"
        )


def iter_components(components: list[dict[str, Any]]):
    """Walk a component tree (action rows, containers, sections, accessories)."""
    for comp in components:
        yield comp
        yield from iter_components(comp.get("components", []))
        if isinstance(comp.get("accessory"), dict):
            yield from iter_components([comp["accessory"]])
