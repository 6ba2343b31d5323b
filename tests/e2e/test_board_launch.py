"""Getting to the board: the browser's OAuth2 code flow (state checked, cookie session), and
inside Discord the Activity: the synced commands keep the Entry Point command, and the living
message's "Open the board" launches the Activity."""

from __future__ import annotations

import logging
from pathlib import Path

import aiohttp
import pytest
from board_setup import web_bot
from fakediscord import FakeDiscord

from bot.web.signin import SESSION_COOKIE


async def test_the_browser_signs_in_with_the_code_flow(fake_discord: FakeDiscord,
                                                       tmp_path: Path,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    for name in ("bot", "discord", "aiohttp"):  # the bot, its client and its web server
        caplog.set_level(logging.DEBUG, logger=name)
    fake = fake_discord
    ann = fake.add_user("ann")
    bot, base = web_bot(fake, tmp_path / "board.db")
    channel = fake.channel["id"]
    browser = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))  # IP cookies
    async with fake.running(bot), browser as http:
        await bot.wait_until_ready()
        async with http.get(f"{base}/api/session") as resp:
            assert resp.status == 401  # not signed in yet
        # signed in to Discord in this browser, she follows the board's sign-in link
        await (await http.get(f"{fake.base_url}/fake/login", params={"user": ann["id"]})).read()
        async with http.get(f"{base}/auth/login", params={"channel": channel}) as resp:
            assert resp.status in (200, 503)  # the page (503: not built) at /c/<channel>
            assert resp.url.path == f"/c/{channel}"
            hops = [str(h.url) for h in resp.history]
        assert hops[1].startswith(f"{fake.base_url}/oauth2/authorize?")
        assert "state=" in hops[1] and "redirect_uri=" in hops[1]
        exchange = fake.token_exchanges[-1]
        assert exchange["redirect_uri"] == f"{base}/auth/callback"
        async with http.get(f"{base}/api/session") as resp:
            body = await resp.json()
        assert resp.status == 200 and body["user"] == {"id": ann["id"], "name": "ann"}
        cookie = next(c for c in http.cookie_jar if c.key == SESSION_COOKIE)
        assert cookie["httponly"] and body["session"] == cookie.value
        # nothing secret reached the log: not the session, the code, the access token or the
        # client secret (the whole sign-in logged at DEBUG)
        secrets_ = [body["session"], fake.client_secret, *fake.access_tokens,
                    hops[2].split("code=")[1].split("&")[0]]
        logged = "\n".join(r.getMessage() for r in caplog.records)
        assert logged and not [s for s in secrets_ if s in logged]

        fresh = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        async with fresh as other:  # another browser, no cookies
            # a callback whose state this browser did not start is refused, no session made
            async with other.get(f"{base}/auth/callback",
                                 params={"code": fake.grant_code(ann), "state": "x.y"}) as resp:
                assert resp.status == 400
                assert (await resp.json())["error"]["code"] == "bad_state"
            assert not any(c.key == SESSION_COOKIE for c in other.cookie_jar)
            # a denied authorization comes back without a code: the page says so
            async with other.get(f"{base}/auth/login", params={"channel": channel},
                                 allow_redirects=False) as resp:
                state = resp.headers["Location"].split("state=")[1].split("&")[0]
            async with other.get(f"{base}/auth/callback", params={"state": state},
                                 allow_redirects=False) as resp:
                assert resp.status == 302
                assert resp.headers["Location"].endswith("signin=denied")
            async with other.get(f"{base}/auth/login", params={"channel": "abc"}) as resp:
                assert resp.status == 400


async def test_activities_keep_the_entry_point_and_the_panel_launches_it(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    bot, _ = web_bot(fake, tmp_path / "board.db", activity=True)
    ch = fake.channel
    async with fake.running(bot):
        await bot.wait_until_ready()
        synced = fake.commands[None]
        assert synced["launch"]["type"] == 4 and synced["launch"]["handler"] == 2
        assert {"sw", "league"} <= set(synced)  # and the bot's own commands beside it
        inter = await fake.slash(ann, ch, "sw new", options={"players": 2, "seed": 4})
        lobby = await fake.wait_for_reply(inter)
        await fake.wait_for_reply(await fake.click(bob, lobby, label="Join"))
        await fake.wait_for_ack(await fake.click(ann, lobby, label="Start"))
        panel = await fake.wait_for_message(ch, lambda m: "it is your turn" in m.content)
        assert panel.find_component("Open the board") and not panel.find_component("Map")
        launch = await fake.click(bob, panel, label="Open the board")  # anyone may watch
        await fake.wait_for_ack(launch)
        assert launch.callback_type == 12 and fake.activity_launches == [launch]
    assert not fake.unanswered()


async def test_the_fake_refuses_a_bulk_overwrite_that_drops_the_entry_point(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """What the bot must avoid (its sync sends the Entry Point command along)."""
    fake = fake_discord
    fake.activities = True
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as http:
        url = f"{fake.api_base}/applications/{fake.application_id}/commands"
        async with http.put(url, json=[{"name": "sw", "description": "x"}],
                            headers=headers) as resp:
            body = await resp.json()
        assert resp.status == 400 and "Entry Point" in body["message"]
        keep = [{"name": "sw", "description": "x"},
                {"name": "launch", "type": 4, "handler": 2, "description": ""}]
        async with http.put(url, json=keep, headers=headers) as resp:
            assert resp.status == 200
