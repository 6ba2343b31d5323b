"""Quiet hours through the fake Discord (issue 20): two members set theirs in two zones with
`/sw-me quiet` (zone autocomplete from zoneinfo); a deadline that would run out in them moves
to their end, on a daylight-saving night in each zone (Europe/Oslo springs forward on
2027-03-28 at 01:00 UTC, America/New_York on 2027-03-14 at 07:00 UTC); a turn DM is held
through them; bad input gets one sentence and changes nothing. The bot's game service runs on
a clock set to those nights (deadlines are armed from it; the scheduler's own real clock
never reaches 2027 during the test, so nothing fires)."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

from driver import GameDriver, StateReader
from fakediscord import FakeDiscord
from long_helpers import make_bot


def utc(*args: int) -> float:
    return datetime(*args, tzinfo=UTC).timestamp()


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


async def test_deadlines_leave_quiet_hours_on_dst_nights_in_two_zones(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    db = tmp_path / "quiet.db"
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    ch = fake.channel
    oslo_eve = utc(2027, 3, 27, 20, 30)  # 21:30 CET
    async with fake.running(make_bot(fake, db)) as bot, StateReader(db) as reader:
        await bot.wait_until_ready()
        clock = Clock(oslo_eve)
        bot.service.now = clock
        zones = await fake.autocomplete(ann, ch, "sw-me quiet", focused="timezone",
                                        value="oslo")
        assert zones[0]["value"] == "Europe/Oslo"
        set_ann = await fake.wait_for_reply(await fake.slash(
            ann, ch, "sw-me quiet", options={"hours": "23:00-07:00",
                                             "timezone": "Europe/Oslo"}))
        assert set_ann.ephemeral
        assert "Quiet hours 23:00-07:00 (Europe/Oslo; it is 21:30 there now)" in \
            set_ann.content
        for options in ({"hours": "22:00-06:00", "timezone": "America/New_York"},):
            await fake.wait_for_reply(await fake.slash(bob, ch, "sw-me quiet",
                                                       options=options))
        await fake.wait_for_reply(await fake.slash(bob, ch, "sw-me notify",
                                                   options={"on": True}))
        # bad input: one sentence each, nothing changes
        for options, said in (({"hours": "25:00-07:00"}, "has a time that does not exist"),
                              ({"hours": "soon"}, "is not a range of hours"),
                              ({"timezone": "Mars/Olympus_Mons"}, "is not a time zone"),
                              ({"hours": "07:00-07:00"}, "starts and ends at the same time")):
            refused = await fake.wait_for_reply(await fake.slash(ann, ch, "sw-me quiet",
                                                                 options=options))
            assert refused.ephemeral and said in refused.content, refused.content
            assert refused.content.count(".") <= 2  # one sentence (a time like 07:00 aside)
        mine = await reader.store.member_settings(int(ann["id"]))
        assert (mine.quiet, mine.zone) == ("23:00-07:00", "Europe/Oslo")
        # a 6h turn limit; seed 5 seats ann first
        driver = GameDriver(fake, ch, [ann, bob], reader, seed=5, mode="slash")
        await driver.open_game(new_options={"clock": "6h", "reminders": "dm"})
        loaded = await driver.loaded()
        assert loaded.state.actor == "ann"
        due = {d.kind: d.due_at for d in await reader.store.deadlines(loaded.game.id)}
        # 20:30 UTC + 6h = 02:30 UTC = 04:30 CEST, inside 23:00-07:00: moved to 07:00 CEST,
        # which is 05:00 UTC after the clocks sprang forward (06:00 at a fixed +01:00); the
        # reminders would come at or after it, so they go
        assert due == {"turn": utc(2027, 3, 28, 5, 0)}
        status = await fake.wait_for_reply(await fake.slash(ann, ch, "sw status"))
        assert "8h 30m left in this turn" in status.content
        # New York's night: bob's turn begins at 22:30 EST, inside his quiet hours
        clock.t = utc(2027, 3, 14, 3, 30)
        sent_before = len([m for m in fake.dms_to(bob) if "it is your turn" in m.content])
        while (await driver.loaded()).state.actor == "ann":
            await driver.step()
        bobs = await driver.loaded()
        assert bobs.state.actor == "bob"
        due = {d.kind: d.due_at for d in await reader.store.deadlines(bobs.game.id)}
        # 03:30 UTC + 6h = 09:30 UTC = 05:30 EDT (after the jump): moved to 06:00 EDT =
        # 10:00 UTC (11:00 at a fixed EST); his turn DM waits for the same moment
        assert due == {"turn": utc(2027, 3, 14, 10, 0), "wake": utc(2027, 3, 14, 10, 0)}
        await fake.drain(bot)
        held = [m for m in fake.dms_to(bob) if "it is your turn" in m.content]
        assert len(held) == sent_before == 0  # no turn DM in his quiet hours
        # his quiet hours end (the wake deadline is brought to now): the held DM comes
        wake = next(d for d in await reader.store.deadlines(bobs.game.id) if d.kind == "wake")
        await reader.store.rearm_turn(bobs.game.id, wake.key, {"wake": time.time()})
        bot.scheduler.wake()
        dm = await fake.wait_for_dm(bob, lambda m: "it is your turn" in m.content, timeout=20)
        assert f"game #{bobs.game.id}" in dm.content
        assert driver.public_leaks() == []
    assert not fake.client_errors
