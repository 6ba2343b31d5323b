"""`/sw log export`: a game's public log as a JSON file that `python -m engine run` replays to
the stored position, for a finished game and for a running one (which gives away no coin
total, no income, no seed: the seed would tell the future draws and die rolls)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from fakediscord import FakeDiscord

import engine
from bot.app import SmallWorldBot
from bot.export import export_game
from bot.game.service import GameService
from bot.settings import Settings
from bot.store import open_store

ROOT = Path(__file__).resolve().parents[2]
CH = 4000


async def _play(service: GameService, *, seed: int, until_finished: bool) -> int:
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=1, name="ann", seed=seed)
    await service.join(CH, 2, "bob")
    await service.join(CH, 3, "cid")
    out = await service.start(CH, 1)
    rng = random.Random(seed)
    rolled = drew = 0
    for _ in range(3000):
        loaded = await service.view(CH)
        legal = [a.model_dump(mode="json") for a in engine.legal_actions(loaded.state)]
        busy = [a for a in legal if a["do"] in ("conquer", "pick", "deploy", "reinforce")]
        action = rng.choice(busy if busy and rng.random() < 0.7 else legal)
        step = await service.act(CH, loaded.game.seat_named(loaded.state.actor).user_id, action)
        rolled += any(e["type"] == "rolled" for e in step.events)
        drew += any(e["type"] == "drew" for e in step.events)
        if step.finished or (not until_finished and rolled >= 2 and drew >= 3
                             and step.turn_ended):
            break
    return out.game.id


def _replay(doc: dict, tmp_path: Path) -> dict:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(doc))
    proc = subprocess.run([sys.executable, "-m", "engine", "run", str(path)], input="",
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert all(x.get("ok") for x in lines[:-1]), [x for x in lines[:-1] if not x.get("ok")][:1]
    assert len(lines) - 1 == len(doc["actions"])
    return lines[-1]["observation"]


def _keys(obj) -> set[str]:
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in _keys(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in _keys(v)}
    return set()


async def test_finished_game_export_replays_exactly(db_url: str, tmp_path: Path) -> None:
    store = await open_store(db_url)
    try:
        service = GameService(store, rng=random.Random(0))
        gid = await _play(service, seed=21, until_finished=True)
        stored = await GameService(store).rebuild(gid)
        assert stored.finished
        doc = await export_game(store, gid)
    finally:
        await store.close()
    assert doc["finished"] and doc["scenario"]["seed"] == 21
    assert _replay(doc, tmp_path) == engine.observe(stored, None, reveal_all=True)


async def test_running_game_export_replays_without_secrets(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path / "run.db"))
    try:
        service = GameService(store, rng=random.Random(0))
        gid = await _play(service, seed=8, until_finished=False)
        stored = await GameService(store).rebuild(gid)
        assert not stored.finished
        doc = await export_game(store, gid)
        game = await store.get_game(gid)
    finally:
        await store.close()
    scenario = doc["scenario"]
    assert not doc["finished"] and scenario["seed"] != game.seed
    assert scenario["dice"] and scenario["stack"]["races"]
    # no coin total, no income, no events anywhere in the file; the only "coins" are those
    # lying on the combos of the opening row, which everybody sees
    text = json.dumps(doc)
    assert {"income", "total", "events", "scored", "ranking"}.isdisjoint(_keys(doc))
    assert "scored" not in text and '"income"' not in text
    assert all(c["coins"] == 0 for c in scenario["row"])
    assert all("coins" not in a for a in doc["actions"])
    # replayed, it reaches the stored position (coins follow from the moves themselves)
    assert _replay(doc, tmp_path) == engine.observe(stored, None, reveal_all=True)


async def test_sw_log_export_through_discord(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    db = tmp_path / "e.db"
    settings = Settings(_env_file=None, discord_token=fake.token, database_url=str(db))
    async with fake.running(SmallWorldBot(settings, guild_ready_timeout=0.1)) as bot:
        await bot.wait_until_ready()
        none = await fake.wait_for_reply(await fake.slash(ann, fake.channel, "sw-game log",
                                                          options={"export": True}))
        assert none.ephemeral and "no game" in none.content.lower()
        await fake.wait_for_reply(await fake.slash(ann, fake.channel, "sw new",
                                                   options={"players": 2, "seed": 3}))
        await bot.service.join(int(fake.channel["id"]), int(bob["id"]), "bob")
        await bot.service.start(int(fake.channel["id"]), int(ann["id"]))
        loaded = await bot.service.view(int(fake.channel["id"]))
        first = engine.legal_actions(loaded.state)[0].model_dump(mode="json")
        await bot.service.act(int(fake.channel["id"]),
                              loaded.game.seat_named(loaded.state.actor).user_id, first)
        reply = await fake.wait_for_reply(await fake.slash(bob, fake.channel, "sw-game log",
                                                           options={"export": True}))
        state = (await bot.service.view(int(fake.channel["id"]))).state
    assert reply.ephemeral
    (name, data), = reply.files.items()
    doc = json.loads(data)
    assert name.endswith("-log.json") and doc["actions"] == [first]
    assert _replay(doc, tmp_path) == engine.observe(state, None, reveal_all=True)


def test_engine_cli_rejects_a_broken_log(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"scenario": {"board": "official-2p", "players": ["a", "b"]},
                                "actions": "not a list"}))
    proc = subprocess.run([sys.executable, "-m", "engine", "run", str(path)], input="",
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert proc.returncode == 1 and out[0]["ok"] is False and "Traceback" not in proc.stderr


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
