"""Key moments through the fake Discord: a finished game gets its review stored (made after
the end in the review worker) and its end post's card redrawn with the win-chance curve;
`/sw-game review` words the swings and the asking member's better turn; a running game is
refused in one sentence, and nothing of a review exists before the end."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
import setups
from driver import COIN_NUMBER, StateReader
from fakediscord import FakeDiscord
from PIL import Image

from ai.moments import GameReview
from bot.app import SmallWorldBot

pytestmark = pytest.mark.slow


def make_bot(fake: FakeDiscord, db: Path) -> SmallWorldBot:
    return setups.make_bot(fake, db, ai_turn_delay=0, review_work=2, review_level="easy")


def _height(png: bytes) -> int:
    return Image.open(io.BytesIO(png)).height


async def test_a_finished_game_is_reviewed_and_its_card_shows_the_chances(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "review.db"
    ann = fake.add_user("ann")
    bob = fake.add_user("bob")
    ch = fake.channel

    say = setups.speaker(fake, ch, timeout=60)

    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        driver, game_id = await setups.game_against_an_ai(fake, ch, ann, reader, seed=5)
        # before the end: refused in one sentence, no review kept, no coin told
        running = await say(ann, "sw-game review", game=game_id)
        assert running.ephemeral and running.content == \
            f"Game {game_id} is still going: its review comes when it ends."
        here = await say(ann, "sw-game review")
        assert here.ephemeral and "still going" in here.content
        await driver.play(until=lambda loaded: loaded.state.round >= 3, finish=False)
        assert await bot.store.game_review(game_id) is None
        assert not (await bot.store.unreviewed_games(5))  # only finished games are reviewed
        last = await driver.play()
        assert last.state.finished
        reveal = await fake.wait_for_message(ch, lambda m: "Final scores" in m.content,
                                             timeout=30)
        first_card = reveal.files["final.png"]
        # the review is made after the end, stored, and the end post's card redrawn taller
        # (the win-chance chart under the lanes); the map and the replay stay
        for _ in range(300):
            raw = await bot.store.game_review(game_id)
            if raw is not None and _height(reveal.files["final.png"]) > _height(first_card):
                break
            await asyncio.sleep(0.2)
        assert raw is not None, "the review was stored"
        review = GameReview.from_json(raw)
        told = await bot.stories.of(last.game)
        assert len(review.chances) == len(told.frames)
        assert _height(reveal.files["final.png"]) > _height(first_card), "card redrawn"
        assert {"map.png", "final.png"} <= set(reveal.files)
        # /sw-game final draws the stored chances too
        card = await say(bob, "sw-game final")
        assert _height(card.files["final.png"]) == _height(reveal.files["final.png"])
        # /sw-game review: the swings for anyone, the better turn for the seated member
        seat = next(s.name for s in last.game.players if s.user_id == int(ann["id"]))
        mine = await say(ann, "sw-game review", game=game_id)
        assert mine.ephemeral and f"**Game {game_id}**: the key moments" in mine.content
        lines = mine.content.splitlines()
        assert sum(line.startswith("Round ") for line in lines) == len(review.swings) == 3
        for swing in review.swings:
            word = "rose" if swing.delta >= 0 else "fell"
            assert any(line.startswith(f"Round {swing.round}: {swing.player} ") and
                       f"expected margin {word} by {round(abs(swing.delta))} coin" in line
                       for line in lines), (swing, lines)
        better = review.better[seat]
        if better is None:
            assert f"{seat}: no clearly better turn" in mine.content
        else:
            assert f"{seat}, round {better.round}: the AI would have " in mine.content
            assert f"+{round(better.gain)} coin" in mine.content
        other = await say(bob, "sw-game review", game=game_id)  # not seated: swings only
        assert other.ephemeral and "the AI would have" not in other.content and \
            "no clearly better turn" not in other.content
        unknown = await say(bob, "sw-game review", game=99999)
        assert unknown.ephemeral and "There is no game 99999" in unknown.content
        # nothing public before the reveal told a coin figure (alt texts included), and the
        # review's words went only to the members who asked, privately
        for m in fake.messages_in(ch):
            if m.created_at < reveal.created_at:
                said = m.content + " ".join(a.description or "" for a in m.attachments)
                assert not COIN_NUMBER.search(said), said
                assert "expected margin" not in said
    assert not fake.client_errors
