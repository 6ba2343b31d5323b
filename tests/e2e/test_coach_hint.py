"""/sw hint through the fake Discord: the AI's suggestion for the member's own turn, privately,
in her words; refused with one sentence off her turn, when the lobby turned hints off, and
for someone not seated; the channel hears nothing of it. The lobby's AI menu offers expert."""

from __future__ import annotations

import re
from pathlib import Path

from fakediscord import MANAGE_GUILD, FakeDiscord, Message
from setups import make_bot


async def _start(fake: FakeDiscord, ann, bob, **options) -> tuple[Message, Message]:
    ch = fake.channel
    inter = await fake.slash(ann, ch, "sw new", options={"players": 2, "seed": 4, **options})
    lobby = await fake.wait_for_reply(inter)
    menu = next(c for c in lobby.custom_ids() if c.startswith("sw:la:"))
    assert "expert" in [o["value"] for o in lobby.component(menu)["options"]]
    await fake.wait_for_reply(await fake.click(bob, lobby, label="Join"))
    await fake.wait_for_ack(await fake.click(ann, lobby, label="Start"))
    panel = await fake.wait_for_message(ch, lambda m: "it is your turn" in m.content, timeout=10)
    return lobby, panel


async def test_hint_is_private_and_for_her_own_turn(fake_discord: FakeDiscord,
                                                    tmp_path: Path) -> None:
    fake = fake_discord
    ann, bob, eve = fake.add_user("ann"), fake.add_user("bob"), fake.add_user("eve")
    ch = fake.channel
    async with fake.running(make_bot(fake, tmp_path / "e2e.db")) as bot:
        await bot.wait_until_ready()
        _, panel = await _start(fake, ann, bob)
        first_id = re.search(r"<@(\d+)>, it is your turn", panel.content).group(1)
        first, other = (ann, bob) if ann["id"] == first_id else (bob, ann)
        public_before = [m.id for m in fake.messages_in(ch)]
        content_before = panel.content

        told = await fake.wait_for_reply(await fake.slash(first, ch, "sw hint"), timeout=30)
        assert told.ephemeral
        head, reason = told.content.split("\n", 1)
        assert head.startswith("**Hint:**") and re.search(r"(?i)pick|take", head)
        assert reason.strip().endswith((".", "!")) and len(reason) > 20
        # the suggestion is one the rules allow now: a pick of the row
        assert re.search(r"slot \d", reason) or "combo" in reason.lower()

        nope = await fake.wait_for_reply(await fake.slash(other, ch, "sw hint"))
        assert nope.ephemeral and "your own turn" in nope.content
        stranger = await fake.wait_for_reply(await fake.slash(eve, ch, "sw hint"))
        assert stranger.ephemeral and "not playing" in stranger.content.lower()

        await fake.drain(bot)
        assert [m.id for m in fake.messages_in(ch)] == public_before  # nothing public
        assert panel.content == content_before
        async with bot.service.session(ch["id"]) as s:  # and the game did not move
            assert s.state.round == 1 and s.state.actor is not None


async def test_hints_off_in_the_lobby(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    ch = fake.channel
    async with fake.running(make_bot(fake, tmp_path / "e2e.db")) as bot:
        await bot.wait_until_ready()
        _, panel = await _start(fake, ann, bob, hints=False)
        first_id = re.search(r"<@(\d+)>, it is your turn", panel.content).group(1)
        first = ann if ann["id"] == first_id else bob
        off = await fake.wait_for_reply(await fake.slash(first, ch, "sw hint"))
        assert off.ephemeral and "Hints are off in this game" in off.content

        # in a DM, and once the game is over: one sentence each, nothing suggested
        dm = await fake.wait_for_reply(await fake.slash(first, fake.dm_channel(first), "sw hint"))
        assert dm.ephemeral and "server" in dm.content.lower() and "Hint:" not in dm.content
        mia = fake.add_user("mia", permissions=MANAGE_GUILD)
        await fake.wait_for_reply(await fake.slash(mia, ch, "sw-mod end", force=True))
        over = await fake.wait_for_reply(await fake.slash(first, ch, "sw hint"))
        assert over.ephemeral and "There is no game in this channel" in over.content
