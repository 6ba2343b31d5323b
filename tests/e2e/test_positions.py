"""Set positions played through the real client: a game is opened in Discord, then started
from a scenario (engine.load_scenario) instead of the seeded setup, so rare moments can be
reached on purpose. Here: `/sw move` with autocomplete during redeployment, and a Bivouacking
defender re-placing one of two displaced encampments from their prompt, then pressing **Done**
to leave the other off the map; and a click on the living message whose new map is slow."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord, Message
from test_full_games import make_bot

import engine
from bot import pictures
from bot.store import Seat

ROW = [{"race": r, "power": p, "coins": 0} for r, p in (
    ("Elves", "Heroic"), ("Skeletons", "Merchant"), ("Dwarves", "Flying"),
    ("Humans", "Swamp"), ("Wizards", "Hill"), ("Giants", "Commando"))]


def _spec() -> dict[str, Any]:
    """Round 3, ann to play: Ratmen with 12 in hand beside bob's Bivouacking Orcs, whose
    region 10 holds one token and two encampments, region 22 two tokens and two encampments."""
    return {
        "board": "official-2p", "players": ["ann", "bob"], "seed": 5, "round": 3,
        "current": "ann", "row": ROW,
        "seats": {"ann": {"coins": 5, "active": {"race": "Ratmen", "power": "Spirit",
                                                 "hand": 12}},
                  "bob": {"coins": 5, "active": {"race": "Orcs", "power": "Bivouacking",
                                                 "hand": 0}}},
        "regions": {"6": {"owner": "ann", "race": "Ratmen", "tokens": 1},
                    "2": {"owner": "bob", "race": "Orcs", "tokens": 3},
                    "10": {"owner": "bob", "race": "Orcs", "tokens": 1,
                           "pieces": ["encampment", "encampment"]},
                    "22": {"owner": "bob", "race": "Orcs", "tokens": 2,
                           "pieces": ["encampment", "encampment"]},
                    "3": {"lost_tribe": True}},
    }


def _camps(state: Any) -> dict[int, int]:
    obs = engine.observe(state, None)
    return {int(r): reg.get("pieces", []).count("encampment")
            for r, reg in obs["regions"].items() if "encampment" in reg.get("pieces", [])}


def _runner(fake: FakeDiscord, ch: dict) -> Any:
    async def run(user: dict, command: str, **options: Any) -> Message:
        return await fake.wait_for_reply(await fake.slash(user, ch, command, options=options),
                                         timeout=10)
    return run


async def _start_from(fake: FakeDiscord, bot: Any, ann: dict, bob: dict,
                      spec: dict[str, Any]) -> None:
    """ann opens a 2p game in the channel, bob joins; the game starts from `spec`."""
    lobby = await _runner(fake, fake.channel)(ann, "sw new", players=2)
    await fake.wait_for_reply(await fake.click(bob, lobby, label="Join"))
    game = await bot.service.lobby(int(fake.channel["id"]))
    assert [s.name for s in game.players] == ["ann", "bob"]
    await bot.service.store.start_game(
        game.id, board="official-2p",
        players=[Seat(int(ann["id"]), "ann"), Seat(int(bob["id"]), "bob")],
        state=engine.dump_state(engine.load_scenario(spec)))


async def test_move_and_encampment_replacement(fake_discord: FakeDiscord,
                                               tmp_path: Path) -> None:
    fake = fake_discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    ch = fake.channel
    run = _runner(fake, ch)

    async with fake.running(make_bot(fake, tmp_path / "positions.db")) as bot:
        await bot.wait_until_ready()
        await _start_from(fake, bot, ann, bob, _spec())
        service, channel_id = bot.service, int(ch["id"])

        # ann takes region 10: 2 + 1 token + 2 for the encampments = 5 tokens
        took = await run(ann, "sw conquer", region=10)  # answered privately, panel edited
        assert took.ephemeral and "conquer region 10" in took.content
        obs = engine.observe((await service.last_view(channel_id)).state, None)
        assert (obs["regions"]["10"]["owner"], obs["regions"]["10"]["tokens"]) == ("ann", 5)

        # /sw move: autocomplete offers the regions that can spare a token (not region 6,
        # whose one token must stay), then the places they can go
        sources = await fake.autocomplete(ann, ch, "sw move", focused="from",
                                          options={"to": 6, "count": 1})
        assert [c["value"] for c in sources] == [10]
        targets = await fake.autocomplete(ann, ch, "sw move", focused="to",
                                          options={"from": 10, "count": 1})
        assert [c["value"] for c in targets] == [6]
        # moving more tokens than the region can spare is refused, nothing changes
        version = (await service.last_view(channel_id)).version
        refused = await run(ann, "sw move", **{"from": 10, "to": 6, "count": 5})
        assert refused.ephemeral
        assert (await service.last_view(channel_id)).version == version
        moved = await run(ann, "sw move", **{"from": 10, "to": 6, "count": 2})
        assert "moves 2 tokens from region 10 to region 6" in moved.content
        assert (await service.last_view(channel_id)).version == version + 1
        obs = engine.observe((await service.last_view(channel_id)).state, None)
        assert (obs["regions"]["10"]["tokens"], obs["regions"]["6"]["tokens"]) == (3, 3)

        # ann ends; bob lost region 10 and its two encampments: his prompt asks him to
        # re-place them, with a menu of places and a Done button
        question = await run(ann, "sw end")  # ann still holds tokens: End asks first
        assert question.ephemeral and "in hand" in question.content
        yes = await fake.click(ann, question, label="Yes, end turn")
        await fake.wait_until(lambda: yes.followups, timeout=10)
        ended = yes.followups[0]
        assert "map.png" in ended.files
        assert f"<@{bob['id']}>: re-place your encampments, then press **Done**." in (
            ended.content)
        assert _camps((await service.last_view(channel_id)).state) == {22: 2}
        menu = next(c for c in ended.custom_ids() if c.startswith("sw:s:") and c.endswith(":x"))
        options = ended.component(menu)["options"]
        place_2 = next(o for o in options if '"region":2' in o["value"].replace(" ", ""))

        # ann may not place bob's encampment nor press his Done
        nope = await fake.wait_for_reply(await fake.select(ann, ended, menu, [place_2["value"]]))
        assert nope.ephemeral
        nope = await fake.wait_for_reply(await fake.click(ann, ended, label="Done"))
        assert nope.ephemeral
        assert _camps((await service.last_view(channel_id)).state) == {22: 2}

        placed = await fake.wait_for_reply(await fake.select(bob, ended, menu,
                                                             [place_2["value"]]))
        assert not placed.ephemeral
        assert _camps((await service.last_view(channel_id)).state) == {2: 1, 22: 2}
        assert "re-place your encampments, then press **Done**." in placed.content
        # bob keeps the second one off the map: Done ends the placement, his turn begins
        done = await fake.wait_for_reply(await fake.click(bob, placed, label="Done"))
        assert _camps((await service.last_view(channel_id)).state) == {2: 1, 22: 2}
        assert f"<@{bob['id']}>, it is your turn" in done.content
        final = (await service.last_view(channel_id)).state
        assert final.actor == "bob" and engine.observe(final, None)["current"] == "bob"


def _survivor_spec() -> dict[str, Any]:
    """Round 3, ann to play beside bob's Orcs, who hold region 10 with two tokens and regions
    2 and 22 besides: losing 10 leaves him one survivor and two places for it."""
    spec = _spec()
    spec["seats"]["bob"]["active"]["power"] = "Alchemist"
    spec["regions"]["10"] = {"owner": "bob", "race": "Orcs", "tokens": 2}
    spec["regions"]["22"] = {"owner": "bob", "race": "Orcs", "tokens": 2}
    return spec


async def test_slow_map_after_a_click_on_the_living_message(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bob places his last survivor from the menu on the living message and his turn begins:
    the answer needs a new map. When the map is slow the click is deferred (no "thinking"
    message for a click), and the edit of the deferred original is its answer, with the map
    and bob's prompt. (It used to be edited through the channel: the click's own webhook
    never carried an answer.)"""
    from bot.chat import announce

    fake = fake_discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    ch = fake.channel
    monkeypatch.setattr(announce, "DEFER_AFTER", 0.2)
    real = pictures._render

    async def slow(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "map_png":
            await asyncio.sleep(0.6)
        return await real(name, *args, **kwargs)

    monkeypatch.setattr(pictures, "_render", slow)
    run = _runner(fake, ch)

    async with fake.running(make_bot(fake, tmp_path / "survivor.db")) as bot:
        await bot.wait_until_ready()
        await _start_from(fake, bot, ann, bob, _survivor_spec())
        service, channel_id = bot.service, int(ch["id"])
        took = await run(ann, "sw conquer", region=10)
        assert "conquer region 10" in took.content
        question = await run(ann, "sw end")  # tokens still in hand: End asks first
        yes = await fake.click(ann, question, label="Yes, end turn")
        await fake.wait_until(lambda: yes.followups, timeout=10)
        ended = yes.followups[0]
        assert f"<@{bob['id']}>" in ended.content
        menu = next(c for c in ended.custom_ids() if c.startswith("sw:s:") and c.endswith(":d"))
        values = [o["value"] for o in ended.component(menu)["options"]]
        assert len(values) == 2  # region 2 or region 22: the bot cannot place it for him
        pictures._MAPS.clear()  # nothing drawn ahead: the map is drawn after the click
        click = await fake.select(bob, ended, menu, [values[0]])
        placed = await fake.wait_for_reply(click, timeout=10)
        assert click.callback_type == 6  # DEFERRED_UPDATE_MESSAGE, inside the 3 s
        assert click.callback_at - click.sent_at < 3
        assert placed.id == ended.id and not placed.ephemeral
        assert "map.png" in placed.files
        assert f"<@{bob['id']}>, it is your turn" in placed.content
        state = (await service.last_view(channel_id)).state
        assert state.actor == "bob" and engine.observe(state, None)["current"] == "bob"
    assert not fake.client_errors


async def test_a_turn_the_bot_follows_with_forced_survivors_shows_its_end(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """ann conquers bob's region 10 and ends her turn; bob's survivor can go only to region
    2, so the bot places it in the same unit of work and bob's turn begins. ann's turn post
    first shows her turn's end, her conquest outlined (the replay's frame of that turn, as
    when bob places his survivors himself), and is then edited to show the position now."""
    import render

    fake = fake_discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    ch = fake.channel
    run = _runner(fake, ch)
    spec = _spec()
    spec["seats"]["ann"]["active"]["hand"] = 4
    spec["regions"] = {"6": {"owner": "ann", "race": "Ratmen", "tokens": 1},
                       "2": {"owner": "bob", "race": "Orcs", "tokens": 3},
                       "10": {"owner": "bob", "race": "Orcs", "tokens": 2}}
    async with fake.running(make_bot(fake, tmp_path / "forced.db")) as bot:
        await bot.wait_until_ready()
        await _start_from(fake, bot, ann, bob, spec)
        service, channel_id = bot.service, int(ch["id"])
        took = await run(ann, "sw conquer", region=10)
        assert "conquer region 10" in took.content
        hand = engine.observe((await service.last_view(channel_id)).state, None)
        assert hand["players"]["ann"]["hand"] == 0  # all four on region 10: End asks nothing
        at_end = engine.apply((await service.last_view(channel_id)).state,
                              engine.parse_action({"do": "end", "player": "ann"})).state
        ended = await run(ann, "sw end")
        assert f"<@{bob['id']}>, it is your turn" in ended.content
        now = await service.last_view(channel_id)
        assert now.version == 3 and now.state.actor == "bob"  # end, then bob's survivor
        await fake.wait_until(lambda: len(ended.history) >= 2, timeout=10,
                              what="the edit with the position now")
        first = next(rev["files"]["map.png"] for rev in ended.history if "map.png" in
                     rev["files"])
        assert first == render.map_png(at_end, highlight=(10,))
        assert ended.files["map.png"] == render.map_png(now.state)
    assert not fake.client_errors
