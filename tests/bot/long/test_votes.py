"""Seat votes in the game service: one open vote per game, a majority of the seated members
decides (and a vote nobody can win fails at once), an expiry, moderators decide alone, and
what a vote decides is made in the same transaction that closes it (once)."""

from __future__ import annotations

import random

import pytest
from long_scenarios import spec, start_scenario

import engine
from bot.errors import NotSeated, ServiceError
from bot.game.service import GameService
from bot.game.votes import VoteError, ranking_now
from bot.store import GameStatus, Store

CH = 960
ANN, BOB, CID, MOD, OUT = 11, 22, 33, 90, 99
THREE = spec(players=["ann", "bob", "cid"], board="official-3p",
             seats={"ann": {"coins": 5, "active": {"race": "Orcs", "power": "Hill", "hand": 6}},
                    "bob": {"coins": 9, "active": {"race": "Ratmen", "power": "Forest",
                                                    "hand": 0}},
                    "cid": {"coins": 9}},
             regions={"2": {"owner": "ann", "race": "Orcs", "tokens": 3},
                      "7": {"owner": "bob", "race": "Ratmen", "tokens": 3}})
CLOCK = {"clock": {"limit": 7200, "remind": "dm"}}


async def three(store: Store, **options) -> tuple[GameService, int]:
    service = GameService(store, rng=random.Random(0))
    loaded = await start_scenario(service, THREE, {"ann": ANN, "bob": BOB, "cid": CID},
                                  channel=CH, options={**CLOCK, **options})
    return service, loaded.game.id


async def test_pause_and_resume_by_majority(store: Store) -> None:
    service, game_id = await three(store)
    news = await service.call_vote(CH, ANN, "pause")
    vote = news.vote
    assert not news.settled and vote.yes == (ANN,) and vote.voters == 3 and vote.needed == 2
    assert {d.kind for d in await store.deadlines(game_id)} == {"turn", "half", "near", "vote"}
    # a second vote, a stranger, a vote out of place: one sentence each, nothing changes
    with pytest.raises(VoteError) as err:
        await service.call_vote(CH, BOB, "end")
    assert err.value.key == "vote.one_open"
    with pytest.raises(NotSeated):
        await service.ballot(CH, vote.id, OUT, True)
    news = await service.ballot(CH, vote.id, BOB, False)  # bob says no (1-1)
    assert not news.settled and news.vote.no == (BOB,)
    news = await service.ballot(CH, vote.id, BOB, True)  # ... and changes his mind: 2 of 3
    assert news.settled and news.vote.outcome == "passed"
    assert news.game.options["paused"] is True
    # the turn's clock is gone (the game's vote deadline stays, settled: it does nothing)
    assert {d.kind for d in await store.deadlines(game_id)} <= {"vote"}
    with pytest.raises(VoteError) as err:
        await service.ballot(CH, vote.id, CID, True)
    assert err.value.key == "vote.closed"
    with pytest.raises(VoteError) as err:
        await service.call_vote(CH, CID, "pause")
    assert err.value.key == "vote.already_paused"
    _, lines = await service.status(CH)
    assert any("paused" in line for line in lines)
    news = await service.call_vote(CH, CID, "resume")
    news = await service.ballot(CH, news.vote.id, ANN, True)
    assert news.settled and not news.game.options["paused"]
    assert {"turn", "half", "near"} <= {d.kind for d in await store.deadlines(game_id)}
    # the game's history tells both votes where they closed
    log = await service.history(CH)
    assert sum("🗳️ Vote: pause the game's turn clock — passed (yes 2, no 0)" in line
               for line in log) == 1
    assert any("resume the game's turn clock — passed" in line for line in log)


async def test_a_vote_nobody_can_win_fails_at_once_and_expiry(store: Store) -> None:
    service, game_id = await three(store)
    news = await service.call_vote(CH, ANN, "time", seconds=3600)
    await service.ballot(CH, news.vote.id, BOB, False)
    news = await service.ballot(CH, news.vote.id, CID, False)
    assert news.settled and news.vote.outcome == "failed"
    turn = next(d for d in await store.deadlines(game_id) if d.kind == "turn")
    news = await service.call_vote(CH, BOB, "time", seconds=3600)
    assert await service.expire(game_id, news.vote.id + 1000) is None  # not a vote
    expired = await service.expire(game_id, news.vote.id)
    assert expired is not None and expired.vote.outcome == "expired"
    assert await service.expire(game_id, news.vote.id) is None  # once
    again = next(d for d in await store.deadlines(game_id) if d.kind == "turn")
    assert again.due_at == turn.due_at  # nothing was added


async def test_more_time_moves_the_running_turns_deadlines(store: Store) -> None:
    service, game_id = await three(store)
    before = {d.kind: d.due_at for d in await store.deadlines(game_id) if d.kind != "vote"}
    news = await service.call_vote(CH, BOB, "time", seconds=3600)
    news = await service.ballot(CH, news.vote.id, CID, True)
    assert news.settled and news.vote.outcome == "passed"
    after = {d.kind: d.due_at for d in await store.deadlines(game_id) if d.kind != "vote"}
    assert after == {k: v + 3600 for k, v in before.items()}


async def test_a_seat_to_the_ai_and_a_moderator_alone(store: Store) -> None:
    service, game_id = await three(store)
    with pytest.raises(VoteError) as err:
        await service.call_vote(CH, BOB, "ai", member=OUT)
    assert err.value.key == "vote.ai_whom"
    news = await service.call_vote(CH, BOB, "ai", member=ANN)
    # a moderator outside the table decides alone
    news = await service.ballot(CH, news.vote.id, MOD, True, is_mod=True)
    assert news.settled and news.vote.outcome == "passed"
    assert news.game.seat_named("ann").away
    assert news.outcome is not None and news.outcome.panel is not None
    assert news.outcome.panel.auto == "normal"  # ann was to act: the AI plays her now
    with pytest.raises(VoteError) as err:
        await service.call_vote(CH, BOB, "ai", member=ANN)
    assert err.value.key == "vote.ai_already"
    # a moderator's call settles at once
    news = await service.call_vote(CH, MOD, "pause", is_mod=True)
    assert news.settled and news.vote.outcome == "passed"


async def test_end_now_scores_the_game_as_it_stands(store: Store) -> None:
    service, game_id = await three(store)
    state = (await service.view(CH)).state
    expected = ranking_now(state)
    # bob and cid have 9 coins each; the tie is broken by race tokens on the board
    assert [r["player"] for r in expected] == ["bob", "cid", "ann"]
    assert [r["rank"] for r in expected] == [1, 2, 3]
    news = await service.call_vote(CH, CID, "end")
    news = await service.ballot(CH, news.vote.id, ANN, True)
    assert news.settled and news.game.status is GameStatus.ENDED
    assert news.ranking == expected
    assert news.game.options["ended"]["ranking"] == expected
    assert await store.open_game(CH) is None
    assert not [d for d in await store.deadlines(game_id) if d.kind != "vote"]
    with pytest.raises(ServiceError):
        await service.call_vote(CH, ANN, "pause")
    # coins are told only now, to everyone: the engine's own reading of the same position
    truth = engine.observe(state, None, reveal_all=True)["players"]
    assert {r["player"]: r["total"] for r in expected} == {p: truth[p]["coins"] for p in truth}


async def test_a_league_game_is_not_ended_by_a_vote(store: Store) -> None:
    service, _ = await three(store, league={"season_id": 1})
    with pytest.raises(VoteError) as err:
        await service.call_vote(CH, ANN, "end")
    assert err.value.key == "vote.league_end"
    assert await store.open_vote_of((await service.view(CH)).game.id) is None
