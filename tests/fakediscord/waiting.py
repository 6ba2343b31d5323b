"""Reading what the bot did (messages, DMs, ephemerals, commands, unanswered
interactions) and waiting for it, with diagnostics when a wait times out."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from . import commands as cmds
from .common import FakeDiscordError
from .gateway import Session
from .models import AUTOCOMPLETE_RESULT, MODAL, PONG, Interaction, Message, object_id


class WaitingMixin:
    """Queries over the fake's records and waits on them (FakeDiscord's inspection half)."""

    def messages_in(self, channel: Any, *, ephemeral: bool | None = False,
                    include_deleted: bool = False) -> list[Message]:
        """Messages in a channel, oldest first.

        `ephemeral=False` (default): what everyone sees; True: only ephemeral ones;
        None: all. Deferred replies still "thinking" are left out unless ephemeral=None.
        """
        cid = object_id(channel)
        out = []
        for msg in self.messages.values():
            if msg.channel_id != cid or (msg.deleted and not include_deleted):
                continue
            if ephemeral is not None and (msg.ephemeral != ephemeral or msg.loading):
                continue
            out.append(msg)
        return out

    def dms_to(self, user: Any) -> list[Message]:
        """Messages the bot delivered to a user's DMs, oldest first."""
        uid = object_id(user)
        cid = self._dm_channels.get(uid)
        return [] if cid is None else self.messages_in(cid)

    def ephemerals_for(self, user: Any, channel: Any | None = None) -> list[Message]:
        """Ephemeral messages that only `user` could see (replies to their interactions)."""
        uid = object_id(user)
        out = []
        for msg in self.messages.values():
            inter = self.interactions.get(msg.interaction_id or "")
            if not msg.ephemeral or msg.deleted or msg.loading or inter is None:
                continue
            if inter.user["id"] == uid and (channel is None or msg.channel_id == object_id(channel)):
                out.append(msg)
        return out

    def unanswered(self) -> list[Interaction]:
        """Interactions Discord would show as failed: never acknowledged within the window
        (or at all, when the window is disabled), or acknowledged too late."""
        now = time.perf_counter()
        window = self.interaction_timeout
        return [
            i for i in self.interactions.values()
            if i.expired or (not i.acknowledged
                             and (window is None or now - i.sent_at > window))
        ]

    def last_message(self, channel: Any) -> Message:
        msgs = self.messages_in(channel)
        if not msgs:
            raise FakeDiscordError(f"no public message in channel {object_id(channel)}")
        return msgs[-1]

    def command(self, name: str, *, guild: Any = None) -> dict[str, Any]:
        """The synced definition of a top-level command (guild commands shadow global)."""
        scopes = ([object_id(guild)] if guild is not None else []) + [None]
        for scope in scopes:
            if name in self.commands.get(scope, {}):
                return self.commands[scope][name]
        known = sorted({n for scope in self.commands.values() for n in scope})
        raise cmds.CommandError(f"/{name} is not registered; synced commands: {known}")

    # ------------------------------------------------------------------ waiting

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5.0, *,
                         what: str | Callable[[], str] | None = None) -> Any:
        """Wait until `predicate()` is truthy (re-checked on every change); return its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                label = what() if callable(what) else what
                raise TimeoutError(f"timed out after {timeout}s waiting for {label or predicate}"
                                   + self._diagnostics())
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, 0.02))

    def _diagnostics(self) -> str:
        notes = []
        if self.errors:
            notes.append(f"fake errors: {self.errors[-3:]!r}")
        if self.unhandled:
            notes.append(f"unhandled requests: {self.unhandled[-5:]}")
        if self.requests:
            last = [f"{r.method} {r.path} -> {r.status}" for r in self.requests[-4:]]
            notes.append(f"last REST calls: {last}")
        if self._inflight:
            notes.append(f"REST calls in flight: {self._inflight}")
        pending = [i.name for i in self.interactions.values() if not i.acknowledged]
        if pending:
            notes.append(f"unacknowledged interactions: {pending[-4:]}")
        if self.client_errors:
            notes.append("logged errors:\n" + "\n".join(self.client_errors[-2:]))
        return ("; " + "; ".join(notes)) if notes else ""

    async def wait_for_message(self, channel: Any, predicate: Callable[[Message], bool] | None = None,
                               *, timeout: float = 5.0, after: Any = None,
                               ephemeral: bool | None = False) -> Message:
        """The first message in `channel` matching `predicate`, created after `after`
        (a `time.perf_counter()` value, a Message, or an Interaction's dispatch)."""
        since = _since(after)

        def find() -> Message | None:
            for msg in self.messages_in(channel, ephemeral=ephemeral):
                if since is not None and msg.created_at <= since:
                    continue
                if predicate is None or predicate(msg):
                    return msg
            return None

        return await self.wait_until(find, timeout, what=f"a message in {object_id(channel)}")

    async def wait_for_dm(self, user: Any, predicate: Callable[[Message], bool] | None = None,
                          *, timeout: float = 5.0, after: Any = None) -> Message:
        since = _since(after)

        def find() -> Message | None:
            for msg in self.dms_to(user):
                if (since is None or msg.created_at > since) and (predicate is None or predicate(msg)):
                    return msg
            return None

        return await self.wait_until(find, timeout, what=f"a DM to {object_id(user)}")

    async def wait_for_reply(self, interaction: Interaction, *, timeout: float = 5.0) -> Message:
        """The message that answers `interaction`.

        Initial reply (type 4), the updated message (type 7), or after a defer (5/6) the
        first followup or edit of the original. Raises if the bot answered with
        autocomplete choices or a modal, or not at all within `timeout`.
        """
        def done() -> Message | None:
            if interaction.callback_type in (AUTOCOMPLETE_RESULT, MODAL, PONG):
                raise FakeDiscordError(
                    f"{interaction!r} was answered with callback type {interaction.callback_type}, "
                    "not a message")
            return interaction.reply

        return await self.wait_until(done, timeout, what=f"a reply to {interaction.name!r}")

    async def wait_for_ack(self, interaction: Interaction, *, timeout: float = 5.0) -> int:
        """Wait for the initial callback; return its type."""
        await self.wait_until(lambda: interaction.acknowledged, timeout,
                              what=f"an ack of {interaction.name}")
        assert interaction.callback_type is not None
        return interaction.callback_type

    async def wait_for_modal(self, interaction: Interaction, *, timeout: float = 5.0) -> dict[str, Any]:
        await self.wait_until(lambda: interaction.acknowledged, timeout,
                              what=f"a modal for {interaction.name}")
        if interaction.modal is None:
            raise FakeDiscordError(f"{interaction!r} was not answered with a modal")
        return interaction.modal

    async def wait_for_client(self, timeout: float = 5.0) -> Session:
        """Wait until a client session is ready and has processed everything sent so far."""
        await self.wait_until(self._live_session, timeout, what="a connected client")
        return await self.gateway_sync(timeout=timeout)

    async def wait_for_sync(self, n: int = 1, timeout: float = 5.0) -> None:
        """Wait until the bot has synced (PUT) its commands at least `n` times."""
        await self.wait_until(lambda: len(self.syncs) >= n, timeout, what="a command sync")


def _since(after: Any) -> float | None:
    if isinstance(after, Message):
        return after.created_at
    if isinstance(after, Interaction):
        return after.sent_at
    return after


