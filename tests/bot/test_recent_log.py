"""The latest actions of each game, kept parsed (bot/game/recent.py): the undo count, the turn's
conquests, the turn story and the targets answer exactly as a reader that keeps nothing.

- Another process (a second service on its own connection) acts, undoes, or undoes and acts
  again so the game is back at the same version with another log: its writes are seen.
- An own undo is seen at once.
- Looking back over the turn reads the last few actions first; the answers are those of
  reading far back.
- The turn story splits the finished turn from the live one.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from game_setup import CH, started

import engine
from bot.game import recent as service_mod
from bot.game.service import GameService
from bot.store import open_store

USERS = {"ann": 1, "bob": 2, "cid": 3}


@pytest.fixture
async def store(tmp_path: Path):
    """A SQLite file only (the shared `service` fixture runs on it)."""
    s = await open_store(str(tmp_path / "recent.db"))
    yield s
    await s.close()


async def _game(svc: GameService, channel: int = 1, seed: int = 11) -> int:
    await svc.open_lobby(guild_id=1, channel_id=channel, user_id=1, name="ann", seed=seed)
    await svc.join(channel, 2, "bob")
    await svc.join(channel, 3, "cid")
    return (await svc.start(channel, 1)).game.id


async def _answers(svc: GameService, game_id: int, since: int) -> tuple:
    """Everything the service answers from the latest actions or keeps per version (the
    targets), and the state it holds."""
    loaded = await svc.view(1)
    actor = loaded.state.actor
    undo = await svc.undoable(1, USERS[actor]) if actor else 0
    panel = await svc.panel(1)
    targets = await svc.targets(1, USERS[actor]) if actor else ()
    return (loaded.version, engine.dump_state(loaded.state), undo, panel.can_undo, targets,
            await svc.turn_conquests(game_id), await svc.turn_story(game_id, since),
            await svc.turn_story(game_id), await svc.turn_story(game_id, since, lang="da"))


def _pick(state: object, rng: random.Random, avoid: dict | None = None) -> dict:
    legal = [a.model_dump(mode="json") for a in engine.legal_actions(state)]
    if avoid is not None and len(legal) > 1:
        legal = [a for a in legal if a != avoid] or legal
    busy = [a for a in legal if a["do"] in ("conquer", "pick", "deploy", "move")]
    return rng.choice(busy if busy and rng.random() < 0.85 else legal)


async def test_undo_count_and_turn_story_see_another_process_writes(tmp_path: Path) -> None:
    """Two services on two connections to one file take turns acting; after every action
    each answers exactly as a service that keeps nothing."""
    db = str(tmp_path / "two.db")
    stores = [await open_store(db) for _ in range(3)]
    a, b, fresh_store = stores
    svcs = [GameService(a, rng=random.Random(1)), GameService(b, rng=random.Random(1))]
    try:
        game_id = await _game(svcs[0])
        rng = random.Random(5)
        checked = 0
        for step in range(140):
            svc = svcs[rng.random() < 0.5]
            loaded = await svc.view(1)
            if loaded.state.finished:
                break
            out = await svc.act(1, USERS[loaded.state.actor], _pick(loaded.state, rng))
            since = max(1, out.version - rng.randrange(6))
            truth = await _answers(GameService(fresh_store), game_id, since)
            for other in svcs:
                assert await _answers(other, game_id, since) == truth, f"step {step}"
            checked += 1
        assert checked > 100
        assert all(s.recent._tails for s in svcs)  # the tails were in use, not bypassed
    finally:
        for s in stores:
            await s.close()


async def _undoable_actions(svc: GameService, rng: random.Random, tries: int):
    """Random legal actions in channel 1; yields (actor, action, outcome) after each one that
    its actor may take back."""
    for _ in range(tries):
        loaded = await svc.view(1)
        if loaded.state.finished:
            return
        actor = loaded.state.actor
        done = _pick(loaded.state, rng)
        out = await svc.act(1, USERS[actor], done)
        if out.actor == actor and await svc.undoable(1, USERS[actor]):
            yield actor, done, out


async def test_another_process_undo_and_new_actions_at_the_same_version_are_seen(
        tmp_path: Path) -> None:
    """Service A keeps the tail at version v; service B takes A's last action back and makes a
    different one, so the game is at version v again with another log: A must see B's."""
    db = str(tmp_path / "undo.db")
    a_store, b_store, fresh_store = [await open_store(db) for _ in range(3)]
    a, b = GameService(a_store), GameService(b_store)
    try:
        game_id = await _game(a)
        rng = random.Random(3)
        replays = 0
        async for actor, done, out in _undoable_actions(a, rng, 200):
            if replays >= 5:
                break
            before = await _answers(a, game_id, out.version)  # A keeps the tail at v
            await b.undo(1, USERS[actor])
            again = await b.view(1)
            other = _pick(again.state, rng, avoid={**done, "player": actor})
            redo = await b.act(1, USERS[actor], other)
            if redo.version != out.version or redo.actor != actor:
                continue
            truth = await _answers(GameService(fresh_store), game_id, out.version)
            assert await _answers(a, game_id, out.version) == truth
            replays += other != done and truth != before
        assert replays >= 3, "the scenario was not played: no undo brought the version back"
    finally:
        for s in (a_store, b_store, fresh_store):
            await s.close()


async def test_answers_after_an_own_undo_are_those_of_a_fresh_reader(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path / "own.db"))
    svc = GameService(store)
    try:
        game_id = await _game(svc)
        undone = 0
        async for actor, _, out in _undoable_actions(svc, random.Random(8), 150):
            if undone >= 5:
                break
            await svc.undo(1, USERS[actor])
            undone += 1
            truth = await _answers(GameService(store), game_id, out.version - 1)
            assert await _answers(svc, game_id, out.version - 1) == truth
        assert undone >= 3
    finally:
        await store.close()


async def _turn_answers(svc: GameService, game_id: int, user_of: dict[str, int],
                        since: int) -> tuple:
    loaded = await svc.view(1)
    actor = loaded.state.actor
    undo = await svc.undoable(1, user_of[actor]) if actor else 0
    return (undo, await svc.turn_conquests(game_id),
            await svc.turn_story(game_id, since), await svc.turn_story(game_id))


async def test_reading_a_few_actions_first_answers_like_reading_far_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    store = await open_store(":memory:")
    svc = GameService(store, rng=random.Random(1))
    try:
        await svc.open_lobby(guild_id=1, channel_id=1, user_id=1, name="ann", seed=11)
        await svc.join(1, 2, "bob")
        await svc.join(1, 3, "cid")
        await svc.start(1, 1)
        user_of = {"ann": 1, "bob": 2, "cid": 3}
        rng = random.Random(4)
        longer, checked = 0, 0
        for _ in range(160):
            loaded = await svc.view(1)
            if loaded.state.finished:
                break
            legal = [a.model_dump(mode="json") for a in engine.legal_actions(loaded.state)]
            busy = [a for a in legal if a["do"] in ("conquer", "pick", "deploy", "move")]
            action = rng.choice(busy if busy and rng.random() < 0.85 else legal)
            out = await svc.act(1, user_of[loaded.state.actor], action)
            game_id = out.game.id
            since = max(1, out.version - rng.randrange(8))
            monkeypatch.setattr(service_mod, "RECENT_FIRST", 3)  # most questions need more
            short = await _turn_answers(svc, game_id, user_of, since)
            monkeypatch.setattr(service_mod, "RECENT_FIRST", 10_000)
            full = await _turn_answers(svc, game_id, user_of, since)
            assert short == full, f"after action {out.version}"
            checked += 1
            longer += out.version > 3
        assert checked > 100 and longer > 90
    finally:
        await store.close()


async def test_turn_story_splits_the_finished_turn_from_the_live_one(
        service: GameService) -> None:
    out = await started(service, n=2)
    first = out.actor_id
    picked = await service.act(CH, first, {"do": "pick", "slot": 0})
    finished, live = await service.turn_story(out.game.id)
    assert finished == [] and live and "picks the" in live[0]
    ended = await service.act(CH, first, {"do": "end"})
    finished, live = await service.turn_story(out.game.id, ended.first_seq)
    assert "picks the" in finished[0] and finished[-1].endswith("turn ends.")
    assert not any("picks the" in line for line in live)
    assert picked.stamp < ended.stamp  # the living message shows the newest change
