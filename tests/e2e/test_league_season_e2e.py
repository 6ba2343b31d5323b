"""A whole league season through the fake Discord (issue #12).

Seven registered members and one substitute; a moderator creates the league and gives an
organiser role the running of it; the organiser runs three rounds. Each round the bot forms
tables in two table channels and pings the players, who press Join; in round 1 one player
misses the start and the substitute takes the seat. Games are finished quickly by the
organiser's `/league award` (a real finish is covered by test_league_e2e.py). One game of
round 2 is voided and the ratings follow. The standings embed and picture and the CSV export
are checked against a table computed by hand (points, wins, games, ranks), with ratings
folded by the openskill library in the test.
"""

from __future__ import annotations

import csv
import io
import re
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fakediscord import MANAGE_GUILD, FakeDiscord
from openskill.models import PlackettLuce
from PIL import Image, ImageChops
from setups import make_bot, speaker

from bot.app import SmallWorldBot
from bot.chat.league_texts import FOOTER
from render.standings import StandingsLine, standings_png

NAMES = ("ann", "bob", "cid", "dan", "eve", "fay", "gus")

# Tables the bot forms (ratings equal in round 1, so by user id; later rounds by rating, then
# swapped to avoid rematches) and the finishing order the organiser awards, best first.
# Round 1: equal ratings, so by user id: the first four, the last three. Round 2: the four of
# table 1 all met, so two pairs must meet again; the search keeps it to ann-bob and cid-dan and
# separates eve and fay. Round 3 follows the ratings after round 2 (the void comes later).
ROUNDS = [
    {1: ["ann", "bob", "cid", "dan"], 2: ["eve", "fay", "sam"]},  # gus missed: sam sits in
    {1: ["eve", "ann", "bob"], 2: ["fay", "cid", "gus", "dan"]},
    {1: ["eve", "ann", "cid", "gus"], 2: ["fay", "bob", "dan"]},
]
VOID = (2, 1)  # round 2, table 1 is voided


async def test_a_season_of_three_rounds(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    organisers = fake.add_role("League organisers")
    users = {n: fake.add_user(n) for n in NAMES}
    users["sam"] = fake.add_user("sam")
    mia = fake.add_user("mia", permissions=MANAGE_GUILD)
    olga = fake.add_user("olga", roles=[organisers])
    ch = fake.channel
    tables = {1: fake.add_channel("table-1"), 2: fake.add_channel("table-2")}
    by_id = {u["id"]: n for n, u in users.items()}

    say = speaker(fake, ch, timeout=15, force_prefix="league-mod")

    async with fake.running(make_bot(fake, tmp_path / "season.db")) as bot:
        await bot.wait_until_ready()
        await say(mia, "league-mod create", name="Friday League")
        refused = await say(olga, "league-mod season start", name="Autumn")
        assert refused.ephemeral and "Only organisers can start a season" in refused.content
        set_role = await say(mia, "league-mod settings", organiser_role=organisers)
        assert not set_role.ephemeral and f"<@&{organisers['id']}>" in set_role.content
        for t in tables.values():
            added = await say(olga, "league-mod channel add", channel=t)
            assert f"<#{t['id']}> is now a table channel" in added.content
        started = await say(olga, "league-mod season start", name="Autumn", rounds=3)
        assert "(3 rounds)" in started.content
        nope = await say(users["ann"], "league-mod round start")
        assert nope.ephemeral and "Only organisers can start a round" in nope.content
        for n in NAMES:
            await say(users[n], "league join")
        sub = await say(users["sam"], "league join", substitute=True)
        assert "as a substitute" in sub.content

        game_of: dict[tuple[int, int], int] = {}
        for rnd, plan in enumerate(ROUNDS, 1):
            announced = await say(olga, "league-mod round start")
            assert f"round {rnd}**: 2 tables" in announced.content
            for t_no, t in tables.items():
                lobby = await fake.wait_for_message(
                    t, lambda m, rnd=rnd: f"round {rnd}**" in m.content, timeout=10)
                drawn = [by_id[u] for u in re.findall(
                    r"table \d+: ((?:<@\d+>(?:, )?)+)", lobby.content)[0].replace(
                        "<@", "").replace(">", "").split(", ")]
                expected = [n for n in plan[t_no] if n != "sam"] + (
                    ["gus"] if "sam" in plan[t_no] else [])
                assert drawn == expected, (rnd, t_no, drawn)  # best rated first
                assert all(f"<@{users[n]['id']}>" in lobby.content for n in drawn)  # pinged
                for n in drawn:
                    if rnd == 1 and n == "gus":
                        continue  # misses the start
                    click = await fake.click(users[n], lobby, label="Join")
                    await fake.wait_for_reply(click, timeout=10)
                game_of[(rnd, t_no)] = (await bot.store.open_game(int(t["id"]))).id
            early = await say(olga, "league-mod round begin")
            assert early.ephemeral and "start window" in early.content
            begun = await say(olga, "league-mod round begin", force=True)
            assert "the round has begun" in begun.content
            for t_no, t in tables.items():
                post = await fake.wait_for_message(
                    t, lambda m, rnd=rnd: f"**Round {rnd}, table" in m.content, timeout=15)
                assert "it is your turn" in post.content and "map.png" in post.files
                if rnd == 1 and "sam" in plan[t_no]:
                    assert (f"<@{users['gus']['id']}> missed the start; "
                            f"<@{users['sam']['id']}> takes the seat.") in post.content
            for t_no, order in plan.items():
                gid = game_of[(rnd, t_no)]
                places = dict(zip(("first", "second", "third", "fourth"),
                                  (users[n] for n in order), strict=False))
                awarded = await say(olga, "league-mod award", game=gid, reason="quick finish",
                                    **places)
                assert "League result (awarded)" in awarded.content, awarded.content
        voided = await say(olga, "league-mod void", game=game_of[VOID], reason="wrong board")
        assert "is **void**" in voided.content

        # the hand-computed table: points 12*(n-p)/(n-1): 4 players 12/8/4/0, 3 players 12/6/0
        # R1 T1 ann 12 bob 8 cid 4 dan 0 | R1 T2 eve 12 fay 6 sam 0
        # R2 T1 void                     | R2 T2 fay 12 cid 8 gus 4 dan 0
        # R3 T1 eve 12 ann 8 cid 4 gus 0 | R3 T2 fay 12 bob 6 dan 0
        hand = {  # name: (games, wins, points, average rank)
            "fay": (3, 2, 30, 4 / 3), "eve": (2, 2, 24, 1.0), "ann": (2, 1, 20, 1.5),
            "cid": (3, 0, 16, 8 / 3), "bob": (2, 0, 14, 2.0), "gus": (2, 0, 4, 3.5),
            "dan": (3, 0, 0, 11 / 3), "sam": (1, 0, 0, 3.0),
        }
        m = PlackettLuce()
        rating: dict[str, object] = {}
        history: dict[str, list[float]] = {}
        for rnd, plan in enumerate(ROUNDS, 1):
            for t_no, names in plan.items():
                if (rnd, t_no) == VOID:
                    continue
                out = m.rate([[rating.get(n) or m.rating()] for n in names],
                             ranks=list(range(1, len(names) + 1)))
                for n, team in zip(names, out, strict=True):
                    rating[n] = team[0]
                    history.setdefault(n, []).append(team[0].ordinal())
        # points, then wins, then rating (dan and sam tie on both)
        order = sorted(hand, key=lambda n: (-hand[n][2], -hand[n][1], -rating[n].ordinal()))
        assert order[:6] == ["fay", "eve", "ann", "cid", "bob", "gus"]

        table = await say(users["gus"], "league standings")
        assert not table.ephemeral and "standings.png" in table.files
        picture = Image.open(io.BytesIO(table.files["standings.png"]))
        assert picture.format == "PNG" and picture.height > 8 * 56
        # the picture is exactly the hand-computed table drawn
        start = m.rating().ordinal()
        lines = [StandingsLine(i, n, hand[n][0], 0, str(hand[n][1]), hand[n][3],
                               str(hand[n][2]), rating[n].ordinal(),
                               history[n][-1] - (history[n][-2] if len(history[n]) > 1
                                                 else start), tuple(history[n]))
                 for i, n in enumerate(order, 1)]
        drawn = Image.open(io.BytesIO(standings_png(
            "Friday League standings", "Autumn (running) · 3 rounds of 3 · 5 finished games",
            lines, FOOTER)))
        assert picture.size == drawn.size
        assert ImageChops.difference(picture.convert("RGB"),
                                     drawn.convert("RGB")).getbbox() is None
        embed = table.embeds[0]
        rows = [line.split() for line in embed["description"].splitlines()
                if re.match(r"^\s*\d+ ", line)]
        assert [r[1] for r in rows] == order
        for r in rows:
            games, wins, points, avg = hand[r[1]]
            # place, player, games, left, wins, avg rank, points, rating, trend
            assert r[2:8] == [str(games), "0", str(wins), f"{avg:.1f}", str(points),
                              f"{rating[r[1]].ordinal():.1f}"], r
        assert "Rounds" in table.text and "3 of 3" in table.text and "1 void" in table.text

        export = await say(users["ann"], "league export")
        files = export.files
        csv_name = next(f for f in files if f.endswith(".csv"))
        assert any(f.endswith(".json") for f in files)
        rows = list(csv.DictReader(io.StringIO(files[csv_name].decode())))
        assert len(rows) == 3 * 7  # every seat of the six games (the void one included)
        totals: dict[str, list[float]] = {}
        for row in rows:
            if row["status"] == "voided":
                assert int(row["round"]) == VOID[0]
                continue
            t = totals.setdefault(row["name"], [0, 0, 0.0])
            t[0] += 1
            t[1] += row["counted_rank"] == "1"
            t[2] += float(row["points"])
        assert {n: (g, w, p) for n, (g, w, p) in totals.items()} == {
            n: (g, w, p) for n, (g, w, p, _) in hand.items()}

        player = await say(users["cid"], "league player")
        assert "Place 4: 16 points" in player.content and "Rating history:" in player.content
        assert "2nd of 4" in player.content and "3rd of 4" in player.content

        audit = await say(users["bob"], "league audit")
        assert audit.ephemeral and len(audit.content) <= 2000
        assert "**void**" in audit.content and "why: wrong board" in audit.content
        assert f"<@{olga['id']}> **void** game #{game_of[VOID]}" in audit.content
        noshow = await say(users["bob"], "league audit", action="no-show")
        assert noshow.content.count("**no-show**") == 1
        assert (f"<@{users['gus']['id']}> (gus) replaced by <@{users['sam']['id']}>"
                in noshow.content)
        one = await say(users["bob"], "league audit", game=game_of[VOID])
        assert [line.split("**")[1] for line in one.content.splitlines()[1:]] == [
            "void", "award"]
    assert not fake.client_errors


async def _clock_started(fake: FakeDiscord, bot: SmallWorldBot) -> None:
    """The bot's scheduler runs (it starts once the bot is ready)."""
    await fake.wait_until(lambda: getattr(bot, "scheduler", None) is not None, timeout=10,
                          what="the clock to start")


async def test_the_clock_begins_a_round_and_posts_the_weekly_summary(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """The round's start window and the weekly summary are timers of the bot's one clock:
    when the window closes the scheduler begins the round by itself (the lone no-show's
    table plays on without AI), and a summary channel gets the weekly standings, once."""
    fake = fake_discord
    mia = fake.add_user("mia", permissions=MANAGE_GUILD)
    players = [fake.add_user(n) for n in ("ann", "bob", "cid")]
    ch, table, news = fake.channel, fake.add_channel("table"), fake.add_channel("news")

    say = speaker(fake, ch, timeout=15, force_prefix="league-mod")

    async with fake.running(make_bot(fake, tmp_path / "tick.db")) as bot:
        await bot.wait_until_ready()
        await _clock_started(fake, bot)
        await say(mia, "league-mod create", name="Tick")
        await say(mia, "league-mod settings", start_minutes=1, summary_channel=news)
        await say(mia, "league-mod channel add", channel=table)
        await say(mia, "league-mod season start", name="S")
        for p in players:
            await say(p, "league join")
        await say(mia, "league-mod round start")
        lobby = await fake.wait_for_message(table, lambda m: "round 1**" in m.content, timeout=10)
        for p in players[:2]:
            await fake.wait_for_reply(await fake.click(p, lobby, label="Join"), timeout=10)
        assert not [m for m in fake.messages_in(table) if "**Round 1, table 1**" in m.content]
        # the minute's window closes: the bot's two clocks (the league's and the scheduler's)
        # move on 61 s, and the scheduler, woken as by any new deadline, fires the timer
        bot.leagues.now = lambda: datetime.now(UTC) + timedelta(seconds=61)
        bot.scheduler.now = lambda: time.time() + 61
        bot.scheduler.wake()
        post = await fake.wait_for_message(table, lambda m: "**Round 1, table 1**" in m.content,
                                           timeout=10)
        assert f"<@{players[2]['id']}> missed the start; the table plays without them." in (
            post.content)
        summary = await fake.wait_for_message(news, lambda m: "Weekly summary" in m.content,
                                              timeout=10)
        assert "standings.png" in summary.files and summary.embeds
        await bot.scheduler.idle()
        (league,) = await bot.store.leagues(int(fake.guild["id"]))
        (timer,) = await bot.store.league_timers(league.id)  # the round's went with its begin
        assert timer.kind == "summary" and timer.due_at > time.time() + 6 * 86400
        assert bot.league_clock.begun == 1 and bot.league_clock.summaries == 1
        assert len([m for m in fake.messages_in(news) if "Weekly summary" in m.content]) == 1
        audit = await say(mia, "league audit")
        assert "**no-show**" in audit.content and "the bot" in audit.content
    assert not fake.client_errors


async def test_a_window_that_closed_while_the_bot_was_down_begins_at_start(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """The bot is down when a round's start window closes, and its timer row is missing
    (as in a database from before the one clock): at the next start the bot arms the
    league's timers and the scheduler begins the round at once."""
    fake = fake_discord
    mia = fake.add_user("mia", permissions=MANAGE_GUILD)
    players = [fake.add_user(n) for n in ("ann", "bob", "cid")]
    ch, table = fake.channel, fake.add_channel("table")
    db = tmp_path / "down.db"

    say = speaker(fake, ch, timeout=15, force_prefix="league-mod")

    async with fake.running(make_bot(fake, db)) as bot:
        await bot.wait_until_ready()
        await say(mia, "league-mod create", name="Down")
        await say(mia, "league-mod settings", start_minutes=30)
        await say(mia, "league-mod channel add", channel=table)
        await say(mia, "league-mod season start", name="S")
        for p in players:
            await say(p, "league join")
        await say(mia, "league-mod round start")
        lobby = await fake.wait_for_message(table, lambda m: "round 1**" in m.content, timeout=10)
        for p in players:
            await fake.wait_for_reply(await fake.click(p, lobby, label="Join"), timeout=10)
    # while the bot is down: the window closes, and the timer row is gone
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE league_rounds SET start_by = '2020-01-01T00:00:00.000Z'")
        assert conn.execute("DELETE FROM league_timers").rowcount == 1
    conn.close()
    async with fake.running(make_bot(fake, db)) as bot:
        post = await fake.wait_for_message(table, lambda m: "**Round 1, table 1**" in m.content,
                                           timeout=15)
        assert "missed the start" not in post.content
        await bot.scheduler.idle()
        (league,) = await bot.store.leagues(int(fake.guild["id"]))
        assert await bot.store.league_timers(league.id) == []
        assert bot.league_clock.begun == 1
    assert not fake.client_errors
