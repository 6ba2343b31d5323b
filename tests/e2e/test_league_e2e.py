"""A league through the fake Discord: a moderator creates a league and starts a season, two
members register, /league game opens a lobby only registered members may join, the game is
played to its end, and /league standings shows the result."""

from __future__ import annotations

import re
from pathlib import Path

from fakediscord import MANAGE_GUILD, FakeDiscord
from openskill.models import PlackettLuce
from setups import make_bot, speaker


async def test_league_season_game_and_standings(fake_discord: FakeDiscord,
                                                tmp_path: Path) -> None:
    fake = fake_discord
    ann, bob, cid = fake.add_user("ann"), fake.add_user("bob"), fake.add_user("cid")
    mia = fake.add_user("mia", permissions=MANAGE_GUILD)
    ch = fake.channel

    say = speaker(fake, ch, timeout=10, force_prefix="league-mod")

    async with fake.running(make_bot(fake, tmp_path / "league.db")) as bot:
        await bot.wait_until_ready()
        # moderators only
        refused = await say(ann, "league-mod create", name="Friday League")
        assert refused.ephemeral
        assert "Only moderators can create a league: ask someone with Manage Server" in (
            refused.content)
        created = await say(mia, "league-mod create", name="Friday League")
        assert not created.ephemeral and "Friday League" in created.content
        refused = await say(bob, "league-mod season start", name="Spring 2026")
        assert refused.ephemeral and "Only organisers can start a season" in refused.content
        started = await say(mia, "league-mod season start", name="Spring 2026")
        assert "Spring 2026" in started.content and "/league join" in started.content
        choices = await fake.autocomplete(ann, ch, "league standings", focused="season")
        assert [c["value"] for c in choices] == ["Spring 2026"]

        # registration
        nope = await say(cid, "league game")
        assert nope.ephemeral and "You're not registered for Spring 2026; use `/league join`" in (
            nope.content)
        for user in (ann, bob):
            joined = await say(user, "league join")
            assert f"<@{user['id']}> registered for **Spring 2026**" in joined.content
        again = await say(bob, "league join")
        assert again.ephemeral and "already registered" in again.content
        listed = await say(cid, "league players")
        assert "2 registered players" in listed.content
        assert f"<@{ann['id']}>" in listed.content and f"<@{cid['id']}>" not in listed.content

        # a league lobby: ann opens it, cid may not join, bob joins with the button
        lobby = await say(ann, "league game", seats=2)
        assert "league game" in lobby.content and lobby.find_component("Join")
        click = await fake.click(cid, lobby, label="Join")
        refusal = await fake.wait_for_reply(click)
        assert refusal.ephemeral and "not registered for Spring 2026" in refusal.content
        click = await fake.click(bob, lobby, label="Join")
        await fake.wait_for_reply(click)
        assert f"<@{bob['id']}>" in lobby.content
        assert "A **league game** of Friday League, Spring 2026!" in lobby.content  # kept
        start = await say(ann, "sw start")
        assert "it is your turn" in start.content
        # no coaching in a league game: every member plays on their own
        first = ann if f"<@{ann['id']}>, it is your turn" in start.content else bob
        hint = await say(first, "sw hint")
        assert hint.ephemeral and "Hints are off in league games" in hint.content

        # standings while the game runs: nothing counted yet, one game in progress
        table = await say(cid, "league standings")
        assert "0 finished games, 1 in progress" in table.text

        # play it out quickly: ann conquers what she can (straight through the service), and
        # every other step goes by the moderator's `/sw-mod skip` through Discord, so the
        # action that ends the game is a real interaction and ann wins on coins
        service, channel_id = bot.service, int(ch["id"])
        ann_id = int(ann["id"])
        for _ in range(400):
            legal = [a.model_dump(mode="json") for a in await service.legal(channel_id, ann_id)]
            move = next((a for a in legal if a["do"] in ("conquer", "pick")), None)
            if move is not None:
                await service.act(channel_id, ann_id, move)
                continue
            last = await say(mia, "sw-mod skip")
            if (await service.last_view(channel_id)).state.finished:
                break
        else:
            raise AssertionError("the game did not finish")
        ranking = (await service.last_view(channel_id)).state.ranking
        assert [(r["player"], r["rank"]) for r in ranking] == [("ann", 1), ("bob", 2)]
        # the reveal answers the skip; the league result follows it, never before it
        assert "final.png" in last.files and "League result" not in last.content
        result = await fake.wait_for_message(ch, lambda m: "League result" in m.content,
                                             timeout=10, after=last)
        m = PlackettLuce()
        won, lost = (t[0].ordinal() for t in m.rate([[m.rating()], [m.rating()]], ranks=[1, 2]))
        start_ = m.rating().ordinal()
        assert (f"1. <@{ann['id']}> ({won - start_:+.1f}), "
                f"2. <@{bob['id']}> ({lost - start_:+.1f})") in result.content
        assert "Spring 2026" in result.content
        public = fake.messages_in(ch)
        assert public.index(last) < public.index(result)

        table = await say(cid, "league standings")
        assert not table.ephemeral and table.embeds
        embed = table.embeds[0]
        assert embed["title"] == "Friday League — Spring 2026 standings (running)"
        rows = [line.split() for line in embed["description"].splitlines()
                if re.match(r"^\s*\d+ ", line)]
        # place, player, games, left, wins, average rank, points, rating, trend
        assert rows == [["1", "ann", "1", "—", "1", "1.0", "12", f"{won:.1f}",
                         f"{won - start_:+.1f}"],
                        ["2", "bob", "1", "—", "0", "2.0", "0", f"{lost:.1f}",
                         f"{lost - start_:+.1f}"]]
        assert "standings.png" in table.files
        assert "1 finished game" in table.text and "12×(n−p)/(n−1)" in table.text

        card = await say(bob, "league rating")
        assert card.ephemeral and "rating **" in card.content and "1 game" in card.content
        help_ = await say(cid, "league help")
        assert help_.ephemeral and "OpenSkill" in help_.content

        # ending the season posts the final table
        ended = await say(mia, "league-mod season end")
        assert "is over" in ended.content and "(final)" in ended.embeds[0]["title"]
        closed = await say(ann, "league join")
        assert closed.ephemeral and "No season of Friday League is open" in closed.content
    assert not fake.client_errors
