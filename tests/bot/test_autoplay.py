"""AI seats and the clock in the game service, with the real engine, the real AI, a real SQLite
file and the real scheduler (no Discord: `post` collects what the bot would post)."""

from __future__ import annotations

import asyncio
import logging
import random
import re
import time
from pathlib import Path

import pytest

import engine
from bot.clock import ClockConfig, ClockRules, Dispatch, Scheduler
from bot.errors import LobbyError, NotAllowed, NotYourTurn
from bot.game.autoplay import AutoPlayer
from bot.game.results import Outcome
from bot.game.service import GameService
from bot.store import GameStatus, GuildOptions, Store, open_store

CH = 2000
ANN, BOB, MOD = 1, 2, 500
COINS = re.compile(r"\d+\**\s*coins?\b(?! on it)|you now have|income", re.IGNORECASE)


@pytest.fixture
async def store(tmp_path: Path):
    s = await open_store(str(tmp_path / "ai.db"))
    yield s
    await s.close()


class Table:
    """A service, an AutoPlayer and the scheduler, as bot.app wires them."""

    def __init__(self, store: Store, rules: ClockRules, *, away_days: int = 0) -> None:
        self.away_days = away_days
        self.service = GameService(store, rng=random.Random(0), clock=rules)
        self.posts: list[Outcome] = []
        self.reminders: list[tuple[int, str]] = []
        self.player = AutoPlayer(self.service, self._post, self._remind)
        self.dispatch = Dispatch(store)
        self.player.register(self.dispatch)
        self.scheduler = Scheduler(store, self.dispatch)
        self.service.deadlines_changed = self.scheduler.wake

    async def _post(self, outcome: Outcome) -> None:
        self.posts.append(outcome)

    async def _remind(self, channel_id: int, game_id: int, user_id: int, line: str) -> None:
        self.reminders.append((user_id, line))

    async def __aenter__(self) -> Table:
        # the server's away-day bank (bot.game.vacations): empty unless a test asks, so a
        # turn that runs out goes to the AI at once
        await self.service.store.set_guild_options(1, GuildOptions(away_days=self.away_days))
        await self.service.sync_all()
        self.scheduler.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.scheduler.stop()

    async def until(self, predicate, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > end:
                raise AssertionError("timed out waiting")
            await asyncio.sleep(0.02)


async def test_lobby_ai_seats(store: Store) -> None:
    service = GameService(store, rng=random.Random(0))
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann", players=4)
    game = await service.add_ai(CH, ANN, "hard")
    game = await service.add_ai(CH, ANN, "easy")
    assert [s.name for s in game.players] == ["ann", "AI (hard) 1", "AI (easy) 2"]
    assert [s.ai for s in game.players] == [None, "hard", "easy"]
    with pytest.raises(NotAllowed):
        await service.add_ai(CH, BOB, "normal")  # not the opener, not a moderator
    with pytest.raises(LobbyError, match="no AI level"):
        await service.add_ai(CH, ANN, "godlike")
    game = await service.add_ai(CH, MOD, "normal", is_mod=True)
    with pytest.raises(LobbyError, match="full"):
        await service.add_ai(CH, ANN, "normal")
    game = await service.remove_ai(CH, ANN)
    assert [s.name for s in game.players] == ["ann", "AI (hard) 1", "AI (easy) 2"]
    # nobody but the members' seats answers to a user id: an AI seat is nobody's
    assert game.seat_of(0) is None
    # the last member leaving closes the lobby; a moderator may leave AIs to a showcase
    closed = await service.leave(CH, ANN)
    assert closed.status is GameStatus.ENDED
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=MOD, name="mod", players=4)
    await service.add_ai(CH, MOD, "easy", is_mod=True)
    await service.add_ai(CH, MOD, "normal", is_mod=True)
    await service.add_ai(CH, MOD, "normal", is_mod=True)
    game = await service.leave(CH, MOD, is_mod=True)
    assert game.status is GameStatus.LOBBY and len(game.players) == 3
    with pytest.raises(NotAllowed, match="showcase"):
        await service.start(CH, MOD)  # the opener, no longer a moderator
    out = await service.start(CH, MOD, is_mod=True)
    assert out.actor is not None and out.actor_id is None


async def test_clock_in_the_lobby(store: Store) -> None:
    service = GameService(store, rng=random.Random(0), clock=ClockRules(min_limit=60))
    await store.set_guild_clock(1, ClockConfig(limit=7200, remind="mention").to_json())
    game = await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann")
    assert game.options["clock"] == {"limit": 7200, "remind": "mention"}  # the server default
    with pytest.raises(LobbyError, match="at least 1m"):
        await service.set_clock(CH, ANN, ClockConfig(limit=5))
    with pytest.raises(NotAllowed):
        await service.set_clock(CH, BOB, ClockConfig(limit=600))
    game = await service.set_clock(CH, ANN, ClockConfig(limit=600, remind="dm"))
    await service.join(CH, BOB, "bob")
    out = await service.start(CH, ANN)
    assert "Clock: turn time limit 10m, reminders by DM." in out.public
    left = await service.time_left(game.id)
    assert len(left) == 1 and left[0][0] == out.actor and 590 < left[0][2] <= 600
    _, lines = await service.status(CH)
    assert any(line.startswith(f"⏳ **{out.actor}**: 10m left") or
               line.startswith(f"⏳ **{out.actor}**: 9m") for line in lines), lines


async def test_a_whole_ai_game_through_the_scheduler(store: Store,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    """Three AIs of mixed levels play a game to the end: one post per turn, each with the
    turn's summary, nothing public about coins, nor in the logs."""
    caplog.set_level(logging.DEBUG)
    async with Table(store, ClockRules(ai_delay=0)) as t:
        service = t.service
        await service.open_lobby(guild_id=1, channel_id=CH, user_id=MOD, name="mod",
                                 players=4, seed=11)
        for level in ("easy", "normal", "hard"):
            await service.add_ai(CH, MOD, level, is_mod=True)
        await service.leave(CH, MOD, is_mod=True)
        await service.start(CH, MOD, is_mod=True)
        await t.until(lambda: t.posts and t.posts[-1].finished, timeout=120)
        loaded = await service.last_view(CH)
        assert loaded.state.finished
        turns = [p for p in t.posts if p.turn_ended]
        assert len(turns) == len(t.posts)  # one summary per AI turn
        assert len(turns) >= 3 * loaded.state.round - 2
        for post in t.posts[:-1]:
            assert all(not COINS.search(line) for line in post.public), post.public
            assert not post.private  # AI seats have nobody to DM
        rows = await store.actions(loaded.game.id)
        assert all(r.actor_id is None for r in rows) and len(rows) == loaded.version
        assert await store.deadlines(loaded.game.id) == []
        ai_lines = [r.getMessage() for r in caplog.records if r.name.startswith("bot")]
        # each AI decision is logged (the bot itself places survivors with one way to go)
        assert sum("AI (" in line for line in ai_lines) >= 0.9 * loaded.version
        assert not [line for line in ai_lines if COINS.search(line)]


async def _human_and_ai(t: Table, limit: int = 1, seed: int = 3) -> Outcome:
    service = t.service
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann", players=2,
                             seed=seed, options={"clock": {"limit": limit, "remind": "dm"}})
    await service.add_ai(CH, ANN, "normal")
    return await service.start(CH, ANN)


async def test_timeouts_hand_the_turn_to_the_ai_then_the_seat_until_back(store: Store) -> None:
    rules = ClockRules(ai_delay=0, min_limit=1, away_after=2, survivor_limit=1)
    async with Table(store, rules) as t:
        out = await _human_and_ai(t, limit=1)
        service = t.service
        game_id = out.game.id
        # ann never moves: each of her turns times out and the AI (normal) plays it
        await t.until(lambda: sum("ran out of time" in " ".join(p.public)
                                  for p in t.posts) >= 2, timeout=30)
        loaded = await service.view(CH)
        seat = loaded.game.seat_named("ann")
        assert seat is not None and seat.away and seat.timeouts == 2
        timeouts = [p for p in t.posts if "ran out of time" in " ".join(p.public)]
        assert "AI (normal) plays this turn" in timeouts[0].public[0]
        assert "`/sw back`" in " ".join(timeouts[1].public)
        assert any(uid == ANN for uid, _ in t.reminders)  # half time / near the end
        assert all("left" in line for _, line in t.reminders)
        # her coins reached only her (the post's private part), never the public lines
        assert ANN in timeouts[0].private and not COINS.search(" ".join(timeouts[0].public))
        # away: the AI keeps her seat, her commands are refused with the way back
        await t.until(lambda: len([p for p in t.posts if p.turn_ended]) >= 6, timeout=30)
        with pytest.raises(NotYourTurn, match="/sw back"):
            await service.act(CH, ANN, {"do": "end"})
        # /sw back: the seat is hers again and her turn waits for her (no more AI turns)
        await t.scheduler.stop()
        await t.scheduler.idle()
        back, seat = await service.back(CH, ANN)
        assert seat == "ann"
        loaded = await service.view(CH)
        seat = loaded.game.seat_named("ann")
        assert seat is not None and not seat.away and seat.timeouts == 0
        with pytest.raises(NotAllowed):
            await service.back(CH, ANN)
        kinds = {d.kind for d in await store.deadlines(game_id)}
        assert kinds in ({"ai"}, {"turn", "half", "near"}, {"survivors"})


async def test_a_deadline_that_passed_while_down_fires_at_start(store: Store,
                                                                tmp_path: Path) -> None:
    rules = ClockRules(ai_delay=0, min_limit=1)
    async with Table(store, rules) as t:
        service = t.service
        await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann", players=2,
                                 seed=5, options={"clock": {"limit": 4, "remind": "off"}})
        await service.join(CH, BOB, "bob")
        out = await service.start(CH, ANN)
    # the bot is down now; the limit passes
    await asyncio.sleep(4.2)
    again = await open_store(str(tmp_path / "ai.db"))
    try:
        t2 = Table(again, rules)
        started = time.monotonic()
        async with t2:
            await t2.until(lambda: t2.posts, timeout=10)
        assert time.monotonic() - started < 4.0  # at once, not after a limit given again
        assert f"**{out.actor}** ran out of time" in t2.posts[0].public[0]
        loaded = await t2.service.view(CH)
        assert loaded.state.actor != out.actor or loaded.state.round > 1
        assert engine.observe(loaded.state, None)["round"] >= 1
    finally:
        await again.close()


async def test_kick_hands_the_seat_to_an_ai(store: Store) -> None:
    async with Table(store, ClockRules(ai_delay=0)) as t:
        service = t.service
        await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann", players=2,
                                 seed=9)
        await service.join(CH, BOB, "bob")
        out = await service.start(CH, ANN)
        first = out.actor
        uid = out.game.seat_named(first).user_id
        res = await service.kick(CH, MOD, uid, ai="easy")
        assert f"The AI (easy) plays the seat **{first}**" in res.public[0]
        await t.until(lambda: t.posts, timeout=20)  # the AI played the kicked seat's turn
        loaded = await service.view(CH)
        assert loaded.state.actor != first
        seat = loaded.game.seat_named(first)
        assert seat.ai == "easy" and seat.user_id == 0


async def test_a_league_season_can_require_a_clock(store: Store) -> None:
    from bot.league import LeagueService

    service = GameService(store, rng=random.Random(0), clock=ClockRules(min_limit=60))
    leagues = LeagueService(store, service)
    lg = await leagues.create_league(1, "Tuesday", by=MOD)
    await leagues.start_season(lg, "Spring", by=MOD)
    for uid, name in ((ANN, "ann"), (BOB, "bob")):
        await leagues.register(lg, uid, name)
    line = await leagues.require_clock(1, "Tuesday", 43200)
    assert "Spring" in line and "12h" in line
    game, _ = await leagues.open_game(lg, guild_id=1, channel_id=CH, opener_id=ANN,
                                      opener_name="ann", is_mod=False,
                                      members=[(BOB, "bob")], seed=4)
    with pytest.raises(LobbyError, match="requires a turn limit"):
        await service.set_clock(CH, ANN, ClockConfig(limit=None))
    with pytest.raises(LobbyError, match="registered members only"):
        await service.add_ai(CH, ANN, "easy")
    out = await service.start(CH, ANN)
    assert out.game.options["clock"]["limit"] == 43200
    assert [k for _, k, _ in await service.time_left(game.id)] == ["turn"]
    # off lifts the requirement for the next games
    assert "no longer" in await leagues.require_clock(1, "Tuesday", None)


async def test_a_defender_who_does_not_place_survivors_gets_the_ai(store: Store) -> None:
    """Survivor placement has its own short limit; then the AI places them."""
    rules = ClockRules(ai_delay=0, min_limit=1, away_after=1000, survivor_limit=0.3)
    async with Table(store, rules) as t:
        await _human_and_ai(t, limit=1, seed=8)
        service = t.service

        def placed() -> bool:
            return any("did not place their survivors in time" in " ".join(p.public)
                       for p in t.posts) or bool(t.posts and t.posts[-1].finished)

        await t.until(placed, timeout=90)
        post = next(p for p in t.posts if "survivors in time" in " ".join(p.public))
        assert post.public[0].startswith("⏰ **ann** did not place their survivors in time")
        assert any(e.get("type") == "deployed" and e.get("player") == "ann"
                   for e in post.events)
        loaded = await service.last_view(CH)
        assert loaded.state.finished or loaded.state.actor is not None


async def test_a_deadline_cut_short_by_a_stop_is_given_back(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopping the bot while the AI thinks leaves the deadline due, not claimed for minutes."""
    from bot.game import ai_worker

    service = GameService(store, rng=random.Random(0), clock=ClockRules(ai_delay=0))
    thinking = asyncio.Event()

    async def slow_plan(*args, **kwargs):
        thinking.set()
        await asyncio.Event().wait()  # never returns: the stop comes first

    monkeypatch.setattr(ai_worker, "plan_stint", slow_plan)
    player = AutoPlayer(service, Table._post)  # (never reached)
    dispatch = Dispatch(store)
    player.register(dispatch)
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=MOD, name="mod", players=2,
                             seed=2, seated=False)
    await service.add_ai(CH, MOD, "easy", is_mod=True)
    await service.add_ai(CH, MOD, "easy", is_mod=True)
    await service.start(CH, MOD, is_mod=True)
    [row] = await store.claim_due(time.time() + 1, 300)
    assert row.kind == "ai" and await store.claim_due(time.time() + 1, 300) == []
    task = asyncio.create_task(dispatch(row))
    await asyncio.wait_for(thinking.wait(), 30)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    again = await store.claim_due(time.time() + 1, 300)
    assert [(d.kind, d.key) for d in again] == [("ai", row.key)]  # due again for the next start


async def test_the_ai_runs_in_a_niced_worker_process() -> None:
    """Under `python -m bot` the AI decides in its own process, at a lower CPU priority than
    the event loop, and a dead worker is replaced."""
    import os

    from bot.game import ai_worker as autoplay

    autoplay.use_ai_process(1)
    try:
        state = engine.new_game("official-3p", ["a", "b", "c"], 5)
        action = await autoplay.decide(state, "normal", 1)
        legal = [a.model_dump(mode="json") for a in engine.legal_actions(state)]
        assert action in legal
        assert action == await autoplay.decide(state, "normal", 1)  # same seed, same choice
        loop = asyncio.get_running_loop()
        worker_pid = await loop.run_in_executor(autoplay.pool(), os.getpid)
        assert worker_pid != os.getpid()
        assert await loop.run_in_executor(autoplay.pool(), os.nice, 0) >= os.nice(0) + 1
        os.kill(worker_pid, 9)  # killed (for memory?): the next decision gets a new worker
        await asyncio.sleep(0.2)
        assert await autoplay.decide(state, "normal", 1) == action
    finally:
        autoplay.use_ai_thread()


@pytest.mark.parametrize("remind", ["dm", "mention"])
async def test_clock_lines_speak_the_games_language_and_dms_the_readers(
        store: Store, remind: str) -> None:
    """A Hungarian game: the timeout and away lines are public, so Hungarian; a reminder by DM
    reaches ann in her own language (Thai), a reminder in the channel speaks Hungarian."""
    import i18n

    rules = ClockRules(ai_delay=0, min_limit=1, away_after=2, survivor_limit=1)
    async with Table(store, rules) as t:
        asked: list[int] = []

        async def dm_language(user_id: int, game: object) -> str:
            asked.append(user_id)
            return "th"

        t.service.dm_language = dm_language
        await t.service.open_lobby(
            guild_id=1, channel_id=CH, user_id=ANN, name="ann", players=2, seed=3,
            options={"clock": {"limit": 2, "remind": remind}, "language": "hu"})
        await t.service.add_ai(CH, ANN, "normal")
        await t.service.start(CH, ANN)
        timed_out = i18n.t("clock.timed_out", "hu", seat="ann", limit="2s",
                           level=i18n.t("svc.ai_level.normal", "hu"))
        await t.until(lambda: sum(timed_out in " ".join(p.public) for p in t.posts) >= 2,
                      timeout=30)
        public = " ".join(line for p in t.posts for line in p.public)
        assert "ideje lejárt" in public and "ran out of time" not in public
        assert "`/sw back`" in public and "After 2 missed" not in public
        assert t.reminders, "no reminder at half time"
        for uid, line in t.reminders:
            assert uid == ANN and "left" not in line
            if remind == "dm":
                assert "ถึงตาคุณแล้ว" in line and ANN in asked
            else:
                assert "te következel" in line


async def test_an_ai_move_that_ends_the_game_carries_the_finish_lines(store: Store) -> None:
    """What a finished game's listeners say (a league's result) is posted after the reveal
    whoever made the last move: here an AI seat, whose stint's post must carry it too."""
    service = GameService(store, rng=random.Random(0), clock=ClockRules(ai_delay=0))
    finished: list[int] = []

    async def result_line(game) -> str:
        finished.append(game.id)
        return f"League result for game {game.id}"

    service.finish_listeners.append(result_line)
    posts: list[Outcome] = []

    async def post(outcome: Outcome) -> None:
        posts.append(outcome)

    player = AutoPlayer(service, post)
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=MOD, name="mod", players=2,
                             seed=6, seated=False)
    await service.add_ai(CH, MOD, "easy", is_mod=True)
    await service.add_ai(CH, MOD, "easy", is_mod=True)
    await service.start(CH, MOD, is_mod=True)
    for _ in range(100):
        loaded = await service.last_view(CH)
        if loaded.state.finished:
            break
        assert await player.play(CH, loaded.state.actor) is not None
    last = posts[-1]
    assert last.finished and finished == [last.game.id]
    assert last.notices == [f"League result for game {last.game.id}"]
    assert all(not p.notices for p in posts[:-1])  # said once, with the reveal
