"""Open boards follow the game whatever moves it: a member's slash command, an AI seat's turn,
the clock; and they come back after a restart with nothing lost or doubled."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import aiohttp
from board_setup import BoardSocket, sign_in, web_bot
from fakediscord import FakeDiscord


async def _game_against_ai(fake: FakeDiscord, ann: dict, bob: dict) -> None:
    ch = fake.channel
    inter = await fake.slash(ann, ch, "sw new", options={"players": 2, "seed": 5})
    lobby = await fake.wait_for_reply(inter)
    cid = next(c for c in lobby.custom_ids() if c.startswith("sw:la:"))
    await fake.wait_for_reply(await fake.select(ann, lobby, cid, ["easy"]))
    await fake.wait_for_ack(await fake.click(ann, lobby, label="Start"))


async def test_boards_follow_slash_commands_and_the_ai(fake_discord: FakeDiscord,
                                                       tmp_path: Path) -> None:
    fake = fake_discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    bot, base = web_bot(fake, tmp_path / "board.db", ai_turn_delay=0)
    ch = fake.channel
    async with fake.running(bot), aiohttp.ClientSession() as http:
        await bot.wait_until_ready()
        await _game_against_ai(fake, ann, bob)
        mine = await BoardSocket.open(http, base, await sign_in(fake, http, base, ann), ch,
                                      who="ann")
        watch = await BoardSocket.open(http, base, await sign_in(fake, http, base, bob), ch,
                                       who="bob")
        snap = await mine.snap_where(lambda m: m["d"]["actor"] == "ann", timeout=60)
        game_id = snap["d"]["game"]["id"]

        # her turn by slash commands: each reply's change reaches both boards (how fast:
        # bench/board.py measures it; this test must not need a quiet machine)
        inter = await fake.slash(ann, ch, "sw pick", options={"slot": 1})
        await fake.wait_for_reply(inter)
        replied = time.perf_counter()
        game = await bot.store.get_game(game_id)
        for board in (mine, watch):
            await board.snap_where(lambda m: m["v"] >= game.revision)
        picked = await mine.snap_where(lambda m: m["v"] >= game.revision)
        target = next(t for t in picked["d"]["moves"]["targets"] if t["verb"] == "conquer")
        inter = await fake.slash(ann, ch, "sw conquer", options={"region": target["region"]})
        await fake.wait_for_reply(inter)
        game = await bot.store.get_game(game_id)
        conquered = await watch.snap_where(lambda m: m["v"] >= game.revision)
        assert conquered["d"]["regions"][str(target["region"])]["owner"] == "ann"
        latest = await mine.snap_where(lambda m: m["v"] >= game.revision)
        assert (await mine.act({"do": "end"}, snap=latest))["t"] == "ack"
        replied = time.perf_counter()

        # the AI's turns: the version it leaves reaches the boards; her turns meanwhile by the
        # board
        for _ in range(2):
            await fake.wait_for_message(
                ch, lambda m: f"<@{ann['id']}>, it is your turn" in m.content, timeout=60,
                after=replied)
            now = await bot.store.get_game(game_id)
            assert now is not None
            at = now.revision
            await watch.snap_where(lambda m, at=at: m["v"] >= at)
            mine_now = await mine.snap_where(lambda m, at=at: m["v"] >= at)
            assert mine_now["d"]["actor"] == "ann" and mine_now["d"]["moves"]["end"]
            assert (await mine.act({"do": "end"}, snap=mine_now))["t"] == "ack"
            replied = time.perf_counter()
        # the watcher's board saw every version the player's board saw, in order
        seen = [m["v"] for m in watch.snaps()]
        assert seen == sorted(seen)
        assert {m["v"] for m in mine.snaps()} <= set(seen) | {mine.snaps()[0]["v"]}
        await mine.close()
        await watch.close()
    assert not fake.client_errors, fake.client_errors


async def test_open_boards_come_back_after_a_restart(fake_discord: FakeDiscord,
                                                     tmp_path: Path) -> None:
    fake = fake_discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    db = tmp_path / "board.db"
    bot, base = web_bot(fake, db)
    port = int(base.rsplit(":", 1)[1])
    ch = fake.channel
    async with aiohttp.ClientSession() as http:
        async with fake.running(bot):
            await bot.wait_until_ready()
            inter = await fake.slash(ann, ch, "sw new", options={"players": 2, "seed": 4})
            lobby = await fake.wait_for_reply(inter)
            await fake.wait_for_reply(await fake.click(bob, lobby, label="Join"))
            await fake.wait_for_ack(await fake.click(ann, lobby, label="Start"))
            sessions = {"ann": await sign_in(fake, http, base, ann),
                        "bob": await sign_in(fake, http, base, bob)}
            first = await (await BoardSocket.open(http, base, sessions["ann"], ch)).snap_where(
                lambda m: True)
            actor = first["d"]["actor"]
            board = await BoardSocket.open(http, base, sessions[actor], ch, who=actor)
            shown = await board.snap_where(lambda m: True)
            applied = await board.act({"do": "pick", "slot": 0}, msg_id="pick-1")
            assert applied["t"] == "ack"
        # the bot stopped, and the socket under the board with it
        bot2, _ = web_bot(fake, db, port=port)
        async with fake.running(bot2):
            await bot2.wait_until_ready()
            # the page reconnects with the session it had (no new sign-in): the whole truth
            again = await BoardSocket.open(http, base, sessions[actor], ch, who=actor)
            now = await again.snap_where(lambda m: True)
            assert now["v"] == applied["v"] and now["d"]["turn"]["picked"]
            # the pick the page never heard an answer for is sent again, aimed at the board it
            # showed: it was applied before the restart, so it is stale, not applied twice
            resent = await again.act({"do": "pick", "slot": 0}, snap=shown, msg_id="pick-1")
            assert resent["t"] == "err" and resent["code"] == "stale"
            game = await bot2.store.get_game(now["d"]["game"]["id"])
            assert game is not None and game.revision == applied["v"]
            await again.close()


async def test_a_board_opened_while_the_game_moves_never_goes_back(fake_discord: FakeDiscord,
                                                                    tmp_path: Path) -> None:
    """A board's first snapshot is built, then a slash command commits a new version before
    that snapshot has gone out. The board must get the old one first and the new one after,
    never the new one overtaken by the old (which would leave it showing a past version until
    the game moves again)."""
    fake = fake_discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    bot, base = web_bot(fake, tmp_path / "board.db")
    ch = fake.channel
    async with fake.running(bot), aiohttp.ClientSession() as http:
        await bot.wait_until_ready()
        inter = await fake.slash(ann, ch, "sw new", options={"players": 2, "seed": 4})
        lobby = await fake.wait_for_reply(inter)
        await fake.wait_for_reply(await fake.click(bob, lobby, label="Join"))
        await fake.wait_for_ack(await fake.click(ann, lobby, label="Start"))
        first = await (await BoardSocket.open(http, base, await sign_in(fake, http, base, ann),
                                              ch, who="ann")).snap_where(lambda m: True)
        actor = ann if first["d"]["actor"] == "ann" else bob
        hub = bot.web.hub if bot.web is not None else None
        assert hub is not None
        building, release = asyncio.Event(), asyncio.Event()
        built = hub.snapshot_text

        async def held(view: Any, board: Any) -> str:
            text_ = await built(view, board)
            if board.viewer.name == "bob" and not building.is_set():  # bob's hello only
                building.set()
                await release.wait()
            return text_

        hub.snapshot_text = held  # type: ignore[method-assign]
        watch = await BoardSocket.open(http, base, await sign_in(fake, http, base, bob), ch,
                                       who="bob")
        await asyncio.wait_for(building.wait(), 10)
        await fake.wait_for_reply(await fake.slash(actor, ch, "sw pick", options={"slot": 1}))
        game = await bot.store.get_game(first["d"]["game"]["id"])
        assert game is not None and game.revision == first["v"] + 1
        release.set()
        newest = await watch.snap_where(lambda m: m["v"] == game.revision)
        assert newest["d"]["turn"]["picked"]
        seen = [m["v"] for m in watch.snaps()]
        assert seen == [first["v"], game.revision], seen
        await watch.close()
    assert not fake.client_errors, fake.client_errors
