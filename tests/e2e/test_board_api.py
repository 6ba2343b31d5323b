"""The board server against the fake Discord, over its real HTTP and WebSocket: a member
plays a turn by the board and the channel gets the posts a chat turn gets; every open board
follows; refusals come with the chat's sentence; strangers, off-turn players and bad input
change nothing; no frame carries another seat's coins."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import aiohttp
from board_setup import BoardSocket, sign_in, web_bot
from fakediscord import FakeDiscord

import engine
from bot.store import Seat


async def _two_player_game(fake: FakeDiscord, ann: dict[str, Any], bob: dict[str, Any]
                           ) -> None:
    ch = fake.channel
    inter = await fake.slash(ann, ch, "sw new", options={"players": 2, "seed": 4})
    lobby = await fake.wait_for_reply(inter)
    await fake.wait_for_reply(await fake.click(bob, lobby, label="Join"))
    start = await fake.click(ann, lobby, label="Start")
    await fake.wait_for_ack(start)
    await fake.wait_for_message(ch, lambda m: "it is your turn" in m.content, timeout=10)


async def test_a_turn_by_taps_posts_what_a_chat_turn_posts(fake_discord: FakeDiscord,
                                                           tmp_path: Path) -> None:
    fake = fake_discord
    users = {"ann": fake.add_user("ann"), "bob": fake.add_user("bob")}
    watcher = fake.add_user("cid")  # a member of the server, not seated
    other = fake.add_guild("Elsewhere")
    stranger = fake.add_user("zed", guild=other)  # not a member of the game's server
    bot, base = web_bot(fake, tmp_path / "board.db")
    ch = fake.channel
    async with fake.running(bot), aiohttp.ClientSession() as http:
        await bot.wait_until_ready()
        await _two_player_game(fake, users["ann"], users["bob"])
        boards = {name: await BoardSocket.open(http, base, await sign_in(fake, http, base, u),
                                               ch, who=name)
                  for name, u in (*users.items(), ("cid", watcher))}
        firsts = {n: await b.snap_where(lambda m: True) for n, b in boards.items()}
        actor = firsts["ann"]["d"]["actor"]
        waiting = "bob" if actor == "ann" else "ann"
        me = boards[actor]
        assert firsts[actor]["d"]["me"]["acts"] and firsts[actor]["d"]["moves"]["pick"]
        assert firsts[waiting]["d"]["moves"] is None and firsts["cid"]["d"]["moves"] is None
        assert firsts["cid"]["d"]["me"]["seat"] is None and "coins" not in firsts["cid"]["d"]["me"]
        assert firsts[actor]["d"]["me"]["coins"] == 5  # her own, and only hers

        # a stranger to the server cannot open the board at all
        lost = await BoardSocket.open(http, base, await sign_in(fake, http, base, stranger), ch,
                                      who="zed")
        bye = await lost.next(lambda m: m.get("t") == "bye")
        assert bye["code"] == "not_allowed" and not lost.snaps()

        # the player who waits may not act: the chat's sentence, nothing changes
        v0 = firsts[waiting]["v"]
        refused = await boards[waiting].act({"do": "pick", "slot": 0})
        assert refused["t"] == "err" and refused["code"] == "not_your_turn"
        assert "not your turn" in refused["text"] and f"@{actor}" in refused["text"]

        # pick by tap: the living message is edited as for a menu pick, every board follows
        living = fake.messages_in(ch)[-1]
        picked = await me.act({"do": "pick", "slot": 0})
        assert picked["t"] == "ack" and picked["v"] > v0
        for b in boards.values():
            await b.snap_where(lambda m: m["v"] >= picked["v"])
        await fake.drain(bot)
        assert "picks the" in living.content

        # a conquest by tap, then redeploy and end: a new turn post with the map
        snap = await me.snap_where(lambda m: m["v"] >= picked["v"] and m["d"]["moves"])
        target = next(t for t in snap["d"]["moves"]["targets"] if t["verb"] == "conquer")
        conquered = await me.act(target["a"])
        assert conquered["t"] == "ack", conquered
        await fake.drain(bot)
        assert f"conquer region {target['region']}" in living.content
        snap = await me.snap_where(lambda m: m["v"] >= conquered["v"])
        assert target["region"] in snap["d"]["changed"]
        assert snap["d"]["regions"][str(target["region"])]["owner"] == actor

        # a resent action (same id) gets its first answer and is not applied twice
        deploy = snap["d"]["moves"]["deploy"]
        region, count = next(iter(deploy.items()))
        first = await me.act({"do": "deploy", "region": int(region), "count": count},
                             msg_id="dep-1")
        again = await me.act({"do": "deploy", "region": int(region), "count": count},
                             msg_id="dep-1", snap=snap)
        assert first == again and first["t"] == "ack"
        assert first["v"] == snap["v"] + 1
        # an action aimed at a board the player no longer sees is stale
        stale = await me.act({"do": "end"}, snap=snap)
        assert stale["t"] == "err" and stale["code"] == "stale"
        before_end = len(fake.messages_in(ch))
        await me.snap_where(lambda m: m["v"] >= first["v"])
        tapped = time.perf_counter()
        ended = await me.act({"do": "end"})
        assert ended["t"] == "ack", ended
        post = await fake.wait_for_message(ch, lambda m: "it is your turn" in m.content
                                           and "map.png" in m.files, timeout=10, after=tapped)
        assert len(fake.messages_in(ch)) == before_end + 1 and post.id != living.id
        turn2 = await boards[waiting].snap_where(lambda m: m["d"]["actor"] == waiting)
        assert turn2["d"]["me"]["acts"] and turn2["d"]["moves"]["pick"]

        # bad input: a clear error, nothing changes
        mark = len(me.received)
        await me.ws.send_str("not json")
        bad = await me.next(lambda m: m.get("t") == "err", after=mark)
        assert bad["code"] == "bad_message"
        odd = await boards[waiting].act({"do": "fly", "region": 1})
        assert odd["t"] == "err" and odd["text"]
        negative = await boards[waiting].act({"do": "pick", "slot": -3})
        assert negative["t"] == "err" and "combo" in negative["text"]

        # coins: a seat's own total reaches her board only; nobody else's ever does
        for name, b in boards.items():
            assert b.coin_leaks(name if name in users else None) == [], name
        for b in boards.values():
            await b.close()
        await lost.close()
    assert not fake.unanswered()
    assert not fake.client_errors, fake.client_errors


async def test_sign_in_answers_refuse_bad_codes_and_foreign_origins(fake_discord: FakeDiscord,
                                                                    tmp_path: Path) -> None:
    fake = fake_discord
    ann = fake.add_user("ann")
    bot, base = web_bot(fake, tmp_path / "board.db")
    async with fake.running(bot), aiohttp.ClientSession() as http:
        await bot.wait_until_ready()
        async with http.post(f"{base}/api/token", json={"code": "made-up"}) as resp:
            assert resp.status == 401 and (await resp.json())["error"]["code"] == "sign_in_failed"
        async with http.post(f"{base}/api/token", data=b"{") as resp:
            assert resp.status == 400 and (await resp.json())["error"]["code"] == "bad_request"
        session = await sign_in(fake, http, base, ann)
        # the exchange went with the secret and no redirect (the Activity's), never the code
        assert fake.token_exchanges[-1]["client_secret"] == "***"
        assert "redirect_uri" not in fake.token_exchanges[-1]
        try:
            await http.ws_connect(f"{base.replace('http', 'ws')}/ws",
                                  headers={"Origin": "https://evil.example"})
            raise AssertionError("a foreign origin opened a socket")
        except aiohttp.WSServerHandshakeError as exc:
            assert exc.status == 403
        board = await BoardSocket.open(http, base, session + "x", fake.channel, who="ann")
        bye = await board.next(lambda m: m.get("t") == "bye")
        assert bye["code"] == "session_expired"
        board = await BoardSocket.open(http, base, session, fake.channel, who="ann")
        empty = await board.next(lambda m: m.get("t") == "bye")
        assert empty["code"] == "no_game" and not board.snaps()  # no game in the channel yet
        async with http.get(f"{base}/api/board/official-3p") as resp:
            drawing = await resp.json()
        printed = engine.data.board("official-3p")
        assert [r["id"] for r in drawing["regions"]] == [r.id for r in printed.regions]
        assert drawing["regions"][0]["path"].startswith("M")
        async with http.get(f"{base}/api/board/nope") as resp:
            assert resp.status == 404 and (await resp.json())["error"]["code"] == "not_found"
        async with http.get(f"{base}/metrics") as resp:
            text = await resp.text()
        assert "smallworld_web_boards 0" in text  # the board without a game was closed and 'sign_ins_total{result="activity"} 1' in text
        assert 'sign_ins_total{result="failed"} 1' in text
        assert session not in text
        await board.close()
    assert json.dumps(fake.token_exchanges).count(fake.client_secret) == 0


async def test_a_member_who_loses_the_channel_loses_its_board(fake_discord: FakeDiscord,
                                                              tmp_path: Path) -> None:
    """Access is asked of Discord again (at most once a minute): once she is no longer a
    member, her next action is refused and her board closes."""
    fake = fake_discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    bot, base = web_bot(fake, tmp_path / "board.db")
    async with fake.running(bot), aiohttp.ClientSession() as http:
        await bot.wait_until_ready()
        await _two_player_game(fake, ann, bob)
        board = await BoardSocket.open(http, base, await sign_in(fake, http, base, bob),
                                       fake.channel, who="bob")
        snap = await board.snap_where(lambda m: True)
        assert bot.web is not None
        access = bot.web.sockets.access
        later = access.now() + 61
        access.now = lambda: later  # a minute on: the next action asks Discord again
        del fake.guild["members"][bob["id"]]  # she left the server
        mark = len(board.received)
        await board.send({"t": "act", "g": snap["d"]["game"]["id"], "v": snap["v"],
                          "a": {"do": "end"}})
        bye = await board.next(lambda m: m.get("t") == "bye", after=mark)
        assert bye["code"] == "not_allowed"
        game = await bot.store.get_game(snap["d"]["game"]["id"])
        assert game is not None and game.revision == snap["v"]  # nothing applied


async def test_hints_and_a_finished_games_reveal_and_story(fake_discord: FakeDiscord,
                                                           tmp_path: Path) -> None:
    """The last round, played by the board: a hint on the way (the AI coach's words), then
    the reveal (every seat's coins, public now) and the end card and replay behind a pass."""
    fake = fake_discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    spec = {"board": "official-2p", "players": ["ann", "bob"], "seed": 3, "round": 10,
            "current": "ann",
            "seats": {"ann": {"coins": 7, "active": {"race": "Orcs", "power": "Hill",
                                                     "hand": 0}},
                      "bob": {"coins": 9, "active": {"race": "Elves", "power": "Forest",
                                                     "hand": 0}}},
            "regions": {"1": {"owner": "ann", "race": "Orcs", "tokens": 5},
                        "20": {"owner": "bob", "race": "Elves", "tokens": 6}}}
    bot, base = web_bot(fake, tmp_path / "board.db")
    async with fake.running(bot), aiohttp.ClientSession() as http:
        await bot.wait_until_ready()
        inter = await fake.slash(ann, fake.channel, "sw new", options={"players": 2})
        lobby = await fake.wait_for_reply(inter)
        await fake.wait_for_reply(await fake.click(bob, lobby, label="Join"))
        game = await bot.service.lobby(int(fake.channel["id"]))
        await bot.service.store.start_game(
            game.id, board="official-2p",
            players=[Seat(int(ann["id"]), "ann"), Seat(int(bob["id"]), "bob")],
            state=engine.dump_state(engine.load_scenario(spec)))
        boards = {n: await BoardSocket.open(http, base, await sign_in(fake, http, base, u),
                                            fake.channel, who=n)
                  for n, u in (("ann", ann), ("bob", bob))}
        await boards["ann"].snap_where(lambda m: True)
        mark = len(boards["ann"].received)
        hint_id = await boards["ann"].send({"t": "hint"})
        hint = await boards["ann"].next(lambda m: m.get("id") == hint_id, after=mark,
                                        timeout=30)
        assert hint["t"] == "hint" and hint["text"] and hint["action"]["do"]
        refused = await boards["bob"].send({"t": "hint"})
        no = await boards["bob"].next(lambda m: m.get("id") == refused)
        assert no["t"] == "err"  # not his turn: no hint for him
        for name in ("ann", "bob"):
            latest = await boards[name].snap_where(lambda m, n=name: m["d"]["actor"] == n)
            assert (await boards[name].act({"do": "end"}, snap=latest))["t"] == "ack"
        final = await boards["ann"].snap_where(lambda m: m["d"]["finished"])
        players = final["d"]["players"]
        assert all(isinstance(p["coins"], int) for p in players)  # the reveal: public now
        assert final["d"]["ranking"] and final["d"]["moves"] is None
        story = final["d"]["story"]
        for link in story.values():
            async with http.get(base + link) as resp:
                body = await resp.read()
            assert resp.status == 200 and body.startswith(b"\x89PNG")
        forged = story["card"].split("?t=")[0] + "?t=" + story["card"].split("?t=")[1][::-1]
        async with http.get(base + forged) as resp:
            assert resp.status == 403
        for b in boards.values():
            await b.close()


async def test_the_page_names_what_it_will_ask_for_first(fake_discord: FakeDiscord,
                                                         tmp_path: Path) -> None:
    """The page's head preloads what its script asks for first, so none of it waits for the
    script to run: the board's drawing data and layer; inside Discord the SDK's chunk and the
    config (its client id); in a signed-in browser her session (never the session itself)."""
    fake = fake_discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    bot, base = web_bot(fake, tmp_path / "board.db", activity=True)
    ch = fake.channel
    async with fake.running(bot), aiohttp.ClientSession() as http:
        await bot.wait_until_ready()
        await _two_player_game(fake, ann, bob)
        session = await sign_in(fake, http, base, ann)

        async def head(path: str, cookie: str | None = None) -> str:
            cookies = {"sw_session": cookie} if cookie else None
            async with aiohttp.ClientSession(cookies=cookies) as client, \
                    client.get(f"{base}{path}") as resp:
                assert resp.status == 200
                return (await resp.text()).split("</head>", 1)[0]

        board = '<link rel="preload" as="fetch" crossorigin="anonymous" ' \
                'href="/api/board/official-2p">'
        signed_in = await head(f"/c/{ch['id']}", session)
        assert board in signed_in and 'href="/api/session"' in signed_in
        assert session not in signed_in and "modulepreload" not in signed_in
        signed_out = await head(f"/c/{ch['id']}")
        assert board in signed_out and "/api/session" not in signed_out
        activity = await head(f"/?frame_id=f1&channel_id={ch['id']}")
        assert board in activity and 'href="/api/config"' in activity
        assert '<link rel="modulepreload" href="/static/discord-' in activity
        assert "/api/session" not in activity
