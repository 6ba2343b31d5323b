"""A member's turn that runs out spends one of her away days before the AI takes over: the
turn's limit moves a day on and the channel is told until when; with her bank empty the AI
plays the turn as before. The real scheduler, AutoPlayer and deadlines (no Discord)."""

from __future__ import annotations

import asyncio
import random
import time

from bot.clock import ClockRules, Dispatch, Scheduler
from bot.game.autoplay import AutoPlayer
from bot.game.results import Outcome
from bot.game.service import GameService
from bot.store import GuildOptions, Store

CH = 950
ANN = 11


async def until(predicate, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out waiting"
        await asyncio.sleep(0.02)


async def test_a_turn_that_runs_out_spends_a_day_then_the_ai_plays(store: Store) -> None:
    rules = ClockRules(ai_delay=0, min_limit=1, away_after=5, survivor_limit=1)
    service = GameService(store, rng=random.Random(0), clock=rules)
    posts: list[Outcome] = []

    async def post(out: Outcome) -> None:
        posts.append(out)

    player = AutoPlayer(service, post)
    dispatch = Dispatch(store)
    player.register(dispatch)
    scheduler = Scheduler(store, dispatch)
    service.deadlines_changed = scheduler.wake
    await store.set_guild_options(1, GuildOptions(away_days=1))
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann", players=2,
                             seed=4, options={"clock": {"limit": 1, "remind": "off"}})
    await service.add_ai(CH, ANN, "normal")
    await service.start(CH, ANN)
    scheduler.start()
    try:
        await until(lambda: any("away days" in " ".join(p.public) for p in posts))
        spent = next(p for p in posts if "away days" in " ".join(p.public))
        assert "**ann** ran out of time: one of their away days gives <@11> until <t:" in \
            spent.public[0] and "0 days left in the bank" in spent.public[0]
        loaded = await service.view(CH)
        assert loaded.state.actor == "ann"  # nobody played her turn
        turn = next(d for d in await store.deadlines(loaded.game.id) if d.kind == "turn")
        assert 86000 < turn.due_at - time.time() <= 86400
        bank = await service.bank(1, ANN)
        assert (bank.spent, bank.left) == (1, 0)
        assert await service.vacation(1, ANN) is None  # a spent day is not a vacation
        # the day is up (moved here by hand): her bank is empty, the AI plays the turn
        await store.rearm_turn(loaded.game.id, turn.key, {"turn": time.time()})
        scheduler.wake()
        await until(lambda: any("ran out of time (1s)" in " ".join(p.public) for p in posts))
        after = await service.view(CH)
        assert after.version > loaded.version
        found = await store.reliability(1, ANN)
        assert found.missed == 1 and found.played == 0
    finally:
        await scheduler.stop()
