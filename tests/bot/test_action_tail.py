"""GameService keeps the latest actions of a game parsed (bot/service.py `_Tail`), keyed by the
game row's (version, revision). Whatever another service (another process on PostgreSQL)
wrote meanwhile must be seen: its actions, its undo, and an undo followed by new actions that
bring the version back to where the kept tail was."""

from __future__ import annotations

import random
from pathlib import Path

import engine
from bot.game.service import GameService
from bot.store import open_store

USERS = {"ann": 1, "bob": 2, "cid": 3}


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


async def test_what_another_service_wrote_is_seen(tmp_path: Path) -> None:
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


async def test_an_undo_and_new_actions_by_another_service_are_seen(tmp_path: Path) -> None:
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


async def test_an_own_undo_drops_the_kept_actions(tmp_path: Path) -> None:
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
