"""After the game: the final reveal carries the end card and the animated replay, the replay
is one frame per turn whose maps are the turn posts' maps, and `/sw-game final|replay`,
`/sw-me stats|history` answer for the game and its members. Before the end none of it exists:
a running game's replay is refused in one sentence."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import setups
from driver import COIN_NUMBER, StateReader
from fakediscord import FakeDiscord
from PIL import Image, ImageChops

from bot.app import SmallWorldBot

pytestmark = pytest.mark.slow


def make_bot(fake: FakeDiscord, db: Path) -> SmallWorldBot:
    return setups.make_bot(fake, db, ai_turn_delay=0)


def _frames(png: bytes) -> list[Image.Image]:
    im = Image.open(io.BytesIO(png))
    out = []
    for k in range(getattr(im, "n_frames", 1)):
        im.seek(k)
        out.append(im.convert("RGB"))
    return out


def _as_posted(message, name: str) -> bytes:
    """The bytes of attachment `name` in the first revision of `message` that had it."""
    return next(rev["files"][name] for rev in message.history if name in rev["files"])


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


async def test_a_finished_game_tells_its_story(fake_discord: FakeDiscord,
                                               tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "story.db"
    ann = fake.add_user("ann")
    bob = fake.add_user("bob")
    ch = fake.channel

    say = setups.speaker(fake, ch, timeout=30)

    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        driver, game_id = await setups.game_against_an_ai(fake, ch, ann, reader, seed=12)
        # before the end: no replay, one sentence each
        early = await say(bob, "sw-game replay")
        assert early.ephemeral and "end card and the replay come when a game ends" in \
            early.content
        running = await say(bob, "sw-game replay", game=game_id)
        assert running.ephemeral and f"Game {game_id} is still going" in running.content
        last = await driver.play()
        assert last.state.finished
        reveal = await fake.wait_for_message(ch, lambda m: "Final scores" in m.content,
                                             timeout=30)
        # the reveal: the end card in place of the ranking picture, and the replay
        assert {"map.png", "final.png", "replay.png"} <= set(reveal.files), reveal.files.keys()
        alts = {a.filename: a.description or "" for a in reveal.attachments}
        assert all(s.name in alts["final.png"] for s in last.game.players), alts
        # every turn post: its map is the replay's frame of that turn, caption strip below
        posts = [m for m in fake.messages_in(ch) if "map.png" in m.files
                 and "'s turn ends" in m.content and m.created_at <= reveal.created_at]
        frames = _frames(reveal.files["replay.png"])
        n_turns = await reader.n_turns(game_id)
        assert len(posts) == n_turns and n_turns <= len(frames) <= n_turns + 1, (
            len(posts), n_turns, len(frames))
        # each turn post's map as it was posted at the turn's end: when survivors are then
        # placed and the next turn begins (by the member, or by the bot in the same unit of
        # work), the bot edits that living message to show the new position, and the
        # replay's frame is the turn's end, not that later edit
        maps = [Image.open(io.BytesIO(_as_posted(p, "map.png"))).convert("RGB")
                for p in posts]
        width, height = maps[0].size
        # frames[k] is turn k's, every one of them; the reveal (the last turn's post, when
        # its end ended the game) shows the last frame: after the final turn's, when that
        # turn's survivors were placed after its end
        for k, (post, shown) in enumerate(zip(posts, maps, strict=True)):
            frame = frames[-1] if post is reveal else frames[k]
            assert frame.width == width and frame.height > height  # the caption strip
            assert _same(frame.crop((0, 0, width, height)), shown), f"frame {k}"
        # nothing public before the reveal told a coin total, alt texts included
        for m in fake.messages_in(ch):
            if m.created_at < reveal.created_at:
                told = m.content + " ".join(a.description or ""
                                            for a in m.attachments)
                assert not COIN_NUMBER.search(told), told
        # afterwards, for anyone: the end card and the replay again
        card = await say(bob, "sw-game final")
        assert card.ephemeral and "final.png" in card.files and f"Game {game_id}" in \
            card.content
        again = await say(bob, "sw-game replay", game=game_id, public=True)
        assert not again.ephemeral and "replay.png" in again.files
        unknown = await say(bob, "sw-game replay", game=99999)
        assert unknown.ephemeral and "There is no game 99999" in unknown.content
        # stats and history: ann's game counts; bob played none
        ranking = {r.player: r for r in (await bot.stories.of(last.game)).ranking}
        mine = ranking[next(s.name for s in last.game.players if s.user_id)]
        stats = await say(bob, "sw-me stats", member=ann)
        assert stats.ephemeral and "1 finished game" in stats.content, stats.content
        assert ("1 win" in stats.content) == (mine.rank == 1)
        assert "Best combo" in stats.content, stats.content
        none = await say(bob, "sw-me stats")
        assert none.ephemeral and "has no finished game" in none.content
        history = await say(ann, "sw-me history")
        assert history.ephemeral and f"Game {game_id}" in history.content, history.content
        picked = await fake.select(ann, history, "sw:hr", [str(game_id)])
        replay = await fake.wait_for_reply(picked, timeout=30)
        assert replay.ephemeral and "replay.png" in replay.files
    assert not fake.client_errors
