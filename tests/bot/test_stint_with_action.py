"""An action that begins a new stint writes the stint's deadlines in its own transaction:
one commit per end of turn (one wait for the disk), where a sync after the session was a
second one (bench/bot.py's probe: under load that second commit took 20-40 ms of an end
turn's reply). Within a stint nothing more is written."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from game_setup import act_as_actor

from bot.clock import ClockConfig
from bot.errors import RuleBroken
from bot.game.service import GameService
from bot.store import Store, open_store


@pytest.fixture
async def clocked() -> AsyncIterator[GameService]:
    """ann (user 1) and bob (user 2) in a started game in channel 1 with a 1-hour turn clock."""
    store = await open_store(":memory:")
    svc = GameService(store, rng=random.Random(1))
    await svc.open_lobby(guild_id=1, channel_id=1, user_id=1, name="ann", seed=5)
    await svc.join(1, 2, "bob")
    await svc.set_clock(1, 1, ClockConfig(limit=3600))
    await svc.start(1, 1)
    try:
        yield svc
    finally:
        await store.close()


def _count_writes(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Per write transaction of the store from now on, its statements' first words."""
    seen: list[list[str]] = []
    real = store.write

    async def counting(*steps: Any) -> list[Any]:
        seen.append([" ".join(step.sql.split()[:3]) for step in steps])
        return await real(*steps)

    monkeypatch.setattr(store, "write", counting)
    return seen


async def test_an_end_of_turn_commits_once_with_the_next_turns_deadlines(
        clocked: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    svc = clocked
    game_id = (await svc.view(1)).game.id
    first = {d.key for d in await svc.store.deadlines(game_id)}
    assert first and all(key.startswith("turn:") for key in first)  # the first turn's clock
    writes = _count_writes(svc.store, monkeypatch)

    await act_as_actor(svc, {"do": "pick", "slot": 0})
    assert len(writes) == 1  # the pick: same stint, its action only
    assert not any("deadlines" in sql for sql in writes[0])

    writes.clear()
    ended = await act_as_actor(svc, {"do": "end"})
    assert ended.turn_ended
    assert len(writes) == 1, writes  # one commit: the End and the next turn's deadlines
    assert any(sql.startswith("INSERT INTO actions") for sql in writes[0])
    assert any("deadlines" in sql for sql in writes[0])
    now = await svc.store.deadlines(game_id)
    assert {d.seat for d in now} == {ended.state.actor} and {d.key for d in now} != first
    assert any(d.kind == "turn" for d in now)


async def test_a_refused_action_writes_no_deadlines(
        clocked: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan is made before the commit; an action refused by the rules commits nothing,
    deadlines included (and the next real action still writes them)."""
    svc = clocked
    game_id = (await svc.view(1)).game.id
    before = await svc.store.deadlines(game_id)
    writes = _count_writes(svc.store, monkeypatch)
    with pytest.raises(RuleBroken):
        await act_as_actor(svc, {"do": "conquer", "region": 1})  # no race yet: refused
    assert writes == []
    assert await svc.store.deadlines(game_id) == before


async def test_an_ai_stint_is_written_when_the_session_ends_not_with_the_action(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An AI's stint is due at once and its key changes with each of its actions: written
    with each action, the scheduler would fire it while the AI's session still plays (the
    whole-AI-game test of test_autoplay took 62 s instead of 10 s). The End that hands the
    turn to an AI commits alone; the AI's deadline follows in one write of its own."""
    store = await open_store(":memory:")
    try:
        svc = GameService(store, rng=random.Random(1))
        await svc.open_lobby(guild_id=1, channel_id=1, user_id=1, name="ann", seed=5,
                             players=2, options={"clock": {"limit": 3600, "remind": "dm"}})
        await svc.add_ai(1, 1, "normal")
        await svc.start(1, 1)
        loaded = await svc.view(1)
        assert loaded.game.seat_named(loaded.state.actor).user_id == 1  # ann begins
        writes = _count_writes(store, monkeypatch)
        await act_as_actor(svc, {"do": "pick", "slot": 0})
        writes.clear()
        ended = await act_as_actor(svc, {"do": "end"})
        assert ended.turn_ended
        assert len(writes) == 2, writes
        assert not any("deadlines" in sql for sql in writes[0])  # the End
        assert all("deadlines" in sql for sql in writes[1])  # then the AI's stint
        due = await store.deadlines(loaded.game.id)
        assert [d.kind for d in due] == ["ai"] and due[0].seat == ended.state.actor
    finally:
        await store.close()
