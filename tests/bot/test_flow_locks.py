"""The living-message post locks belong to one bot's Announcer: a lock a stopped bot left
held must not block (or break) the next bot in the same process, as a module-wide lock once
did in the fuzz proof."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.chat.announce import Announcer


class _Service:
    store: Any = None


def _announcer() -> Announcer:
    return Announcer(client=None, service=_Service(), dms=None, stories=None)  # type: ignore[arg-type]


def test_a_post_lock_left_held_by_a_stopped_bot_does_not_block_the_next_one() -> None:
    first, second = _announcer(), _announcer()

    async def hold() -> asyncio.Lock:
        lock = first._locks[1]
        await lock.acquire()  # the bot stops mid-post: never released
        return lock

    async def post() -> bool:
        async def take() -> bool:
            async with second._locks[1]:
                return True
        return await asyncio.wait_for(take(), timeout=2)

    held = asyncio.run(hold())
    assert held.locked()
    assert asyncio.run(post())


def test_one_announcer_has_one_lock_per_game() -> None:
    one = _announcer()
    assert one._locks[7] is one._locks[7] and one._locks[7] is not one._locks[8]
