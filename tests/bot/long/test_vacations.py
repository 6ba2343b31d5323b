"""Vacations and the away-day bank in the game service: a vacation covers every running game
of the member in the server, her turn clock waits for her return (or the AI plays at once
where the game says so), her survivors do not keep the attacker waiting, the bank counts
whole days in any 30, coming back early gives unused days back, and a turn of hers that runs
out spends a day before the AI takes over."""

from __future__ import annotations

import random

import pytest
from long_scenarios import spec, start_scenario

from bot.clock import ClockRules
from bot.game.ai_worker import plan_stint
from bot.game.autoplay import stint_levels
from bot.game.service import GameService
from bot.game.stints import stint_key
from bot.game.vacations import DAY, VacationError, away_seconds
from bot.store import GuildOptions, Store

ANN, BOB, CID = 11, 22, 33
CLOCK = {"clock": {"limit": 3600, "remind": "dm"}}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, t: float = 1_800_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def service_on(store: Store, clock: Clock) -> GameService:
    service = GameService(store, rng=random.Random(0), clock=ClockRules(min_limit=60))
    service.now = clock
    return service


def test_durations() -> None:
    assert away_seconds("3d") == 3 * DAY and away_seconds("1d12h") == 36 * 3600
    assert away_seconds(" 90m ") == 5400
    for bad, key in (("soon", "away.bad_duration"), ("30m", "away.too_short"),
                     ("31d", "away.too_long"), ("", "away.bad_duration")):
        with pytest.raises(VacationError) as err:
            away_seconds(bad)
        assert err.value.key == key


async def test_a_vacation_covers_her_games_of_the_server(store: Store) -> None:
    clock = Clock()
    service = service_on(store, clock)
    one = await start_scenario(service, spec(), {"ann": ANN, "bob": BOB}, channel=901,
                               options=CLOCK)
    two = await start_scenario(service, spec(), {"ann": CID, "bob": BOB}, channel=902,
                               options=CLOCK)
    other = await start_scenario(service, spec(), {"ann": ANN, "bob": BOB}, channel=903,
                                 guild=2, options=CLOCK)
    news = await service.go_away(1, BOB, 2 * DAY, reason="a wedding", share=True)
    assert news.vacation is not None and news.vacation.until == clock.t + 2 * DAY
    assert (news.bank.cap, news.bank.spent, news.bank.left) == (7, 2, 5)
    assert sorted(o.game.id for o in news.outcomes) == [one.game.id, two.game.id]
    line = news.outcomes[0].headline[0]
    assert "**bob** is away until <t:" in line and "clock waits" in line
    assert "(“a wedding”)" in line  # shared
    for loaded in (await service.view(901), await service.view(902)):
        assert loaded.game.seat_named("bob").until == clock.t + 2 * DAY
    assert (await service.view(903)).game.seat_named("bob").until is None  # other server
    # refusals change nothing
    with pytest.raises(VacationError) as err:
        await service.go_away(1, BOB, DAY)
    assert err.value.key == "away.already"
    # /sw status tells the table
    _, lines = await service.status(901)
    assert any("**bob** is away until <t:" in line for line in lines)
    # back after half a day: one day spent, the seats are his again
    clock.t += DAY / 2
    back = await service.come_back(1, BOB)
    assert back is not None and (back.bank.spent, back.bank.left) == (1, 6)
    assert [o.headline for o in back.outcomes][0] == ["🏠 **bob** is back."]
    assert (await service.view(901)).game.seat_named("bob").until is None
    assert await service.come_back(1, BOB) is None  # nothing to come back from
    assert other.game.id


async def test_the_bank_is_whole_days_in_any_thirty(store: Store) -> None:
    clock = Clock()
    service = service_on(store, clock)
    await store.set_guild_options(1, GuildOptions(away_days=4))
    await service.go_away(1, ANN, 3 * DAY + 3600)  # four days: the whole bank
    clock.t += 5 * DAY
    with pytest.raises(VacationError) as err:
        await service.go_away(1, ANN, 3600)
    assert err.value.key == "away.bank_short" and err.value.params["left"] == 0
    clock.t += 26 * DAY  # the first vacation is more than 30 days old now
    news = await service.go_away(1, ANN, 2 * DAY)
    assert (news.bank.spent, news.bank.left) == (2, 2)


async def test_her_clock_waits_and_her_survivors_do_not(store: Store) -> None:
    clock = Clock()
    service = service_on(store, clock)
    loaded = await start_scenario(service, spec(), {"ann": ANN, "bob": BOB}, channel=904,
                                  options=CLOCK)
    game_id = loaded.game.id
    await service.go_away(1, BOB, DAY)
    until = clock.t + DAY
    # ann attacks him: bob's survivors cannot wait a day, the AI places them at once
    await service.act(904, ANN, {"do": "conquer", "region": 7})
    out = await service.act(904, ANN, {"do": "end"})
    assert out.actor == "bob" and not out.turn_started
    assert stint_key(out.game, out.state, clock.t).startswith("ai:bob:")
    (row,) = await store.deadlines(game_id)
    assert row.kind == "ai" and row.due_at == clock.t
    # once they are placed it is his turn: its limit counts from his return
    placed = await service.view(904)
    moves = await plan_stint(placed.state, placed.game.seed, placed.version,
                             stint_levels(placed.game, None, placed.state), [])
    assert moves and all(m.seat == "bob" for m in moves)
    await service.play_stint(904, moves, version=placed.version)
    turn = await service.view(904)
    assert turn.state.actor == "bob" and str(turn.state.stage.value) != "survivors"
    kinds = {d.kind: d.due_at for d in await store.deadlines(game_id)}
    assert kinds["turn"] == until + 3600 and kinds["half"] == until + 1800
    # back early: a fresh limit from now
    clock.t += 3600
    await service.come_back(1, BOB)
    kinds = {d.kind: d.due_at for d in await store.deadlines(game_id)}
    assert kinds["turn"] == clock.t + 3600


async def test_where_the_game_says_so_the_ai_plays_her_turns(store: Store) -> None:
    clock = Clock()
    service = service_on(store, clock)
    loaded = await start_scenario(service, spec(current="bob"), {"ann": ANN, "bob": BOB},
                                  channel=905, options={**CLOCK, "vacation": "ai"})
    assert loaded.state.actor == "bob"
    await service.go_away(1, BOB, DAY)
    (row,) = await store.deadlines(loaded.game.id)
    assert row.kind == "ai" and row.seat == "bob"
    panel = await service.panel(905)
    assert panel.auto == "normal"


async def test_a_game_that_starts_during_her_vacation_knows(store: Store,
                                                           service: GameService) -> None:
    await service.go_away(1, BOB, DAY)
    await service.open_lobby(guild_id=1, channel_id=906, user_id=ANN, name="ann", players=2)
    await service.join(906, BOB, "bob")
    out = await service.start(906, ANN)
    assert out.game.seat_named("bob").until is not None
    assert out.game.seat_named("ann").until is None
