"""The living-message post lock belongs to one event loop: a lock a stopped bot left held
must not block (or break) the next bot in the same process, as it did in the fuzz proof."""

from __future__ import annotations

import asyncio

from bot import flow


def test_a_post_lock_left_held_by_a_finished_loop_does_not_block_the_next_one() -> None:
    async def hold() -> asyncio.Lock:
        lock = flow._post_lock(1)
        await lock.acquire()  # the bot stops mid-post: never released
        return lock

    async def post() -> bool:
        async def take() -> bool:
            async with flow._post_lock(1):
                return True
        return await asyncio.wait_for(take(), timeout=2)

    held = asyncio.run(hold())
    assert held.locked()
    assert asyncio.run(post())


def test_one_loop_gets_one_lock_per_game() -> None:
    async def locks() -> tuple[asyncio.Lock, asyncio.Lock, asyncio.Lock]:
        return flow._post_lock(7), flow._post_lock(7), flow._post_lock(8)

    a, b, c = asyncio.run(locks())
    assert a is b and a is not c
