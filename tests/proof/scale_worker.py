"""One bot-side process of the two-process proofs (tests/proof/test_two_processes.py): its own
GameService, Store pool and Scheduler over the shared PostgreSQL database, started by the
test as `python tests/proof/scale_worker.py MODE JSON-ARGS`; it prints one JSON report line.

Modes:
Each mode opens its store, prints {"ready": pid} and waits for a line on stdin ("go": the
test starts every process at once), then:
- `race`: for each channel click the same way the other
  process does (legal action 0 of the state it sees, with the version it saw, as a button
  would) `steps` times; report every click applied (game, seq, action) and every refusal.
- `deadlines`: run the clock's Scheduler with this process's shards for `seconds`, firing
  each claimed deadline by recording it and marking it done; report what it fired.
- `hold`: take the channel lock of `channel`, say so, and keep it until stdin closes (no "go").
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Any

import engine
from bot.clock import Deadline, Scheduler
from bot.errors import ServiceError, StaleVersion
from bot.game.service import GameService
from bot.store import Shards, StoreUnavailable, open_store


async def _go() -> None:
    print(json.dumps({"ready": os.getpid()}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)


async def race(args: dict[str, Any]) -> dict[str, Any]:
    store = await open_store(args["url"])
    service = GameService(store)
    applied: list[list[Any]] = []
    refused: dict[str, int] = {}

    async def clicks(channel: int) -> None:
        for _ in range(args["steps"]):
            loaded = await service.view(channel)
            if loaded.state.finished:
                return
            action = engine.legal_actions(loaded.state)[0].model_dump(mode="json")
            uid = loaded.game.seat_named(loaded.state.actor).user_id
            try:
                out = await service.act(channel, uid, action, game_id=loaded.game.id,
                                        version=loaded.version)
            except StaleVersion:
                refused["stale"] = refused.get("stale", 0) + 1
                continue
            except StoreUnavailable:
                refused["unavailable"] = refused.get("unavailable", 0) + 1
                continue
            except ServiceError as exc:
                refused[type(exc).__name__] = refused.get(type(exc).__name__, 0) + 1
                continue
            applied.append([loaded.game.id, loaded.version + 1, action, out.game.version])

    try:
        await _go()
        await asyncio.gather(*(clicks(ch) for ch in args["channels"]))
    finally:
        await store.close()
    return {"pid": os.getpid(), "applied": applied, "refused": refused}


async def deadlines(args: dict[str, Any]) -> dict[str, Any]:
    store = await open_store(args["url"])
    fired: list[list[Any]] = []

    async def fire(row: Deadline) -> None:
        if await store.finish_deadline(row):
            fired.append([row.game_id, row.kind, time.time()])

    shards = Shards(args["count"], tuple(args["ids"]))
    sched = Scheduler(store, fire, shards=shards)
    try:
        await _go()
        sched.start()
        await asyncio.sleep(args["seconds"])
        await sched.idle()
        await sched.stop()
    finally:
        await store.close()
    return {"pid": os.getpid(), "ids": args["ids"], "fired": fired}


async def hold(args: dict[str, Any]) -> dict[str, Any]:
    store = await open_store(args["url"])
    try:
        async with store.channel_lock(args["channel"]):
            print(json.dumps({"holding": args["channel"]}), flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    finally:
        await store.close()
    return {"released": args["channel"]}


def main() -> None:
    mode, raw = sys.argv[1], json.loads(sys.argv[2])
    report = asyncio.run({"race": race, "deadlines": deadlines, "hold": hold}[mode](raw))
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
