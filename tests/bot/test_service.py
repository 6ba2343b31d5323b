"""bot.game.service with the real engine and a real SQLite file: lobbies, turns, refusals, undo,
concurrency, persistence, secrets and moderation."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

import engine
from bot import text
from bot.errors import (
    LobbyError,
    NoGameHere,
    NotAllowed,
    NothingToUndo,
    NotSeated,
    NotYourTurn,
    RuleBroken,
    StaleVersion,
)
from bot.game.service import GameService
from bot.seats import engine_name
from bot.store import GameStatus, Store, open_store

CH = 1000
ANN, BOB, CID, OUTSIDER, MOD = 1, 2, 3, 99, 500


async def _started(service: GameService, seed: int = 7, channel: int = CH):
    await service.open_lobby(guild_id=1, channel_id=channel, user_id=ANN, name="ann",
                             players=2, seed=seed)
    await service.join(channel, BOB, "bob")
    return await service.start(channel, ANN)


def _uid(outcome_or_game, name: str) -> int:
    game = getattr(outcome_or_game, "game", outcome_or_game)
    return game.seat_named(name).user_id


async def _dump(service: GameService, channel: int = CH) -> dict:
    return engine.dump_state((await service.view(channel)).state)


def test_engine_name_is_unique_and_clean() -> None:
    assert engine_name("  Ann  the\tGreat ", ()) == "Ann the Great"
    assert engine_name("ann", ["Ann"]) == "ann 2"
    assert engine_name("ann", ["Ann", "ann 2"]) == "ann 3"
    assert engine_name("**<@1>**", ()) == "1"
    assert engine_name("", ()) == "player"
    assert len(engine_name("x" * 80, ())) <= 24


async def test_lobby_rules(service: GameService) -> None:
    game = await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann",
                                    players=2, seed=3)
    assert game.status is GameStatus.LOBBY and [s.user_id for s in game.players] == [ANN]
    with pytest.raises(LobbyError, match="already has a game"):
        await service.open_lobby(guild_id=1, channel_id=CH, user_id=BOB, name="bob")
    with pytest.raises(LobbyError, match="already in this game"):
        await service.join(CH, ANN, "ann")
    with pytest.raises(LobbyError, match="At least 2"):
        await service.start(CH, ANN)
    await service.join(CH, BOB, "bob")
    with pytest.raises(LobbyError, match="full"):
        await service.join(CH, CID, "cid")
    with pytest.raises(NotAllowed):
        await service.start(CH, BOB)
    with pytest.raises(NotSeated):
        await service.leave(CH, CID)
    game = await service.leave(CH, ANN)  # the opener leaves: bob may start now
    assert [s.user_id for s in game.players] == [BOB] and game.opener_id == BOB
    game = await service.leave(CH, BOB)
    assert game.status is GameStatus.ENDED
    with pytest.raises(NoGameHere):
        await service.join(CH, BOB, "bob")


async def test_lobby_rejects_bad_board_and_counts(service: GameService) -> None:
    with pytest.raises(LobbyError, match="2 to 5"):
        await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="a", players=6)
    with pytest.raises(LobbyError, match="no board"):
        await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="a", board="x")
    with pytest.raises(LobbyError, match="for 3 players"):
        await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="a",
                                 board="official-3p", players=2)


async def test_start_shuffles_seats_by_seed(service: GameService) -> None:
    orders = set()
    for seed in range(1, 9):
        ch = CH + seed
        await service.open_lobby(guild_id=1, channel_id=ch, user_id=ANN, name="ann", seed=seed)
        await service.join(ch, BOB, "bob")
        await service.join(ch, CID, "cid")
        out = await service.start(ch, ANN)
        names = ["ann", "bob", "cid"]
        random.Random(seed).shuffle(names)
        assert list(out.state.players) == names
        assert [s.name for s in out.game.players] == names
        assert out.game.board == "official-3p"
        assert out.actor == names[0] and out.actor_id == _uid(out, names[0])
        orders.add(tuple(names))
    assert len(orders) > 1  # the start player really varies


async def test_outsider_and_wrong_player_are_refused_without_change(
    service: GameService, store: Store
) -> None:
    out = await _started(service)
    first = out.actor
    other = "bob" if first == "ann" else "ann"
    before = await _dump(service)
    with pytest.raises(NotSeated):
        await service.act(CH, OUTSIDER, {"do": "pick", "slot": 0})
    with pytest.raises(NotYourTurn, match="not your turn"):
        await service.act(CH, _uid(out, other), {"do": "pick", "slot": 0})
    with pytest.raises(RuleBroken) as info:
        await service.act(CH, _uid(out, first), {"do": "conquer", "region": 1})
    assert info.value.rule_code and "/sw status" in info.value.message
    with pytest.raises(RuleBroken) as bad:
        await service.act(CH, _uid(out, first), {"do": "fly"})
    assert bad.value.rule_code == "invalid_action"
    assert (await store.get_game(out.game.id)).version == 0
    assert await store.actions(out.game.id) == []
    assert await _dump(service) == before


async def test_no_game_here(service: GameService) -> None:
    with pytest.raises(NoGameHere, match="/sw new"):
        await service.act(CH, ANN, {"do": "end"})
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann")
    with pytest.raises(NoGameHere, match="not started"):
        await service.act(CH, ANN, {"do": "end"})


async def _play_first_turn(service: GameService, out):
    """Pick the free combo, conquer the cheapest target, end the turn."""
    actor_id = out.actor_id
    picked = await service.act(CH, actor_id, {"do": "pick", "slot": 0})
    targets = await service.targets(CH, actor_id)
    conquer = [t for t in targets if t.verb == "conquer"]
    assert conquer, "a fresh race must have somewhere to go"
    target = conquer[0]
    conquered = await service.act(CH, actor_id, target.action)
    panel = await service.panel(CH)
    if panel.deploys:  # put the rest of the hand down before ending
        await service.act(CH, actor_id, panel.deploys[0].action)
    ended = await service.act(CH, actor_id, {"do": "end"})
    return picked, target, conquered, ended


async def test_scripted_turn(service: GameService, store: Store) -> None:
    out = await _started(service)
    first, actor_id = out.actor, out.actor_id
    picked, target, conquered, ended = await _play_first_turn(service, out)
    assert picked.version == 1 and any("picks the" in line for line in picked.public)
    assert not picked.turn_ended
    # the cost shown for the target is what the conquest used
    ev = next(e for e in conquered.events if e["type"] == "conquered")
    assert ev["region"] == target.region and ev["tokens"] == target.cost
    assert any(f"region {target.region}" in line for line in conquered.public)
    # the turn ends: next player, private coins only for the scorer
    assert ended.turn_ended and ended.turn_started and not ended.finished
    assert ended.actor != first and ended.actor_id == _uid(out, ended.actor)
    assert ended.previous_actor_id == actor_id
    assert ended.highlight == (target.region,)  # the map marks the turn's conquests
    coins = engine.observe(ended.state, first)["players"][first]["coins"]
    assert set(ended.private) == {actor_id}
    assert any(f"**{coins}**" in line for line in ended.private[actor_id])
    assert ended.scored[actor_id]["coins"] == coins
    # snapshot at the turn boundary, the log has every action
    seqs = await store.snapshot_seqs(out.game.id)
    assert seqs[0] == 0 and ended.version in seqs
    assert [a.action["do"] for a in await store.actions(out.game.id)] == [
        "pick", "conquer", "deploy", "end"]
    # the game row the outcome carries (not read back after each action) is the stored one
    assert ended.game == await store.get_game(out.game.id)


async def test_public_summaries_never_show_coins(service: GameService) -> None:
    out = await _started(service)
    rng = random.Random(5)
    for _ in range(60):
        loaded = await service.view(CH)
        if loaded.state.finished:
            break
        legal = engine.legal_actions(loaded.state)
        action = rng.choice(legal).model_dump(mode="json")
        uid = _uid(out, loaded.state.actor)
        step = await service.act(CH, uid, action)
        for ev in step.events:
            if ev.get("type") == "scored":
                amount = re.compile(rf"\b({ev['coins']}|{ev['income']})\b (coin|gold)")
                assert not any(amount.search(line) for line in step.public)
        joined = "\n".join(step.public)
        assert "you now have" not in joined and "income" not in joined
        # the private lines reach exactly the owners of the private events
        owners = {_uid(step, ev["player"]) for ev in step.events if ev.get("private")}
        assert set(step.private) == owners
        for uid2, lines in step.private.items():
            mine = [ev for ev in step.events
                    if ev.get("private") and _uid(step, ev["player"]) == uid2]
            assert lines == [text.describe_private(ev) for ev in mine]


async def test_concurrent_clicks_on_one_version_apply_once(
    service: GameService, store: Store
) -> None:
    out = await _started(service)
    v = out.version
    results = await asyncio.gather(
        service.act(CH, out.actor_id, {"do": "pick", "slot": 0}, version=v),
        service.act(CH, out.actor_id, {"do": "pick", "slot": 1}, version=v),
        return_exceptions=True,
    )
    ok = [r for r in results if not isinstance(r, BaseException)]
    stale = [r for r in results if isinstance(r, StaleVersion)]
    assert len(ok) == 1 and len(stale) == 1
    assert "out of date" in stale[0].message
    assert [a.seq for a in await store.actions(out.game.id)] == [1]


async def test_concurrent_commands_serialise(service: GameService, store: Store) -> None:
    """Without a version, the second command sees the first one's result."""
    out = await _started(service)
    results = await asyncio.gather(
        service.act(CH, out.actor_id, {"do": "pick", "slot": 0}),
        service.act(CH, out.actor_id, {"do": "pick", "slot": 0}),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert isinstance([r for r in results if isinstance(r, BaseException)][0], RuleBroken)
    assert (await store.get_game(out.game.id)).version == 1


async def test_stale_game_id_refused(service: GameService) -> None:
    out = await _started(service)
    with pytest.raises(StaleVersion):
        await service.act(CH, out.actor_id, {"do": "pick", "slot": 0}, game_id=out.game.id + 5)


async def test_undo_own_actions_but_not_past_a_draw(service: GameService, store: Store) -> None:
    out = await _started(service)
    uid = out.actor_id
    await service.act(CH, uid, {"do": "pick", "slot": 0})  # draws a new combo: a reveal
    with pytest.raises(NothingToUndo):
        await service.undo(CH, uid)
    before = await _dump(service)
    target = (await service.targets(CH, uid))[0]
    await service.act(CH, uid, target.action)
    assert await service.undoable(CH, uid) == 1
    other = BOB if uid == ANN else ANN
    with pytest.raises(NotYourTurn):
        await service.undo(CH, other)
    undone = await service.undo(CH, uid)
    assert undone.version == 1
    assert "took back" in undone.public[0] and f"region {target.region}" in undone.public[0]
    assert await _dump(service) == before
    assert [a.seq for a in await store.actions(out.game.id)] == [1]
    # a fresh service (cold cache) rebuilds the same state from the store
    cold = GameService(store)
    assert engine.dump_state((await cold.view(CH)).state) == before


async def test_undo_stops_at_turn_start(service: GameService) -> None:
    out = await _started(service)
    await _play_first_turn(service, out)
    second = (await service.view(CH)).state.actor
    uid = _uid(out, second)
    with pytest.raises(NothingToUndo):
        await service.undo(CH, uid)


async def test_restart_loads_the_same_game(db_url: str) -> None:
    db = db_url
    store = await open_store(db)
    service = GameService(store)
    out = await _started(service)
    await _play_first_turn(service, out)
    loaded = await service.view(CH)
    extra = engine.legal_actions(loaded.state)[0].model_dump(mode="json")
    await service.act(CH, _uid(out, loaded.state.actor), extra)
    expected = await _dump(service)
    await store.close()
    store2 = await open_store(db)
    try:
        again = GameService(store2)
        assert await _dump(again) == expected
        assert (await again.view(CH)).version == 5
    finally:
        await store2.close()


async def test_score_lists_every_game_of_the_user(service: GameService) -> None:
    await _started(service, channel=CH)
    await _started(service, seed=9, channel=CH + 1)
    rows = await service.score(ANN)
    assert sorted(r.game.channel_id for r in rows) == [CH, CH + 1]
    start = engine.data.components().start_coins
    assert all(r.coins == start and r.name == "ann" for r in rows)
    assert [r.game.channel_id for r in await service.score(ANN, CH + 1)] == [CH + 1]
    assert await service.score(OUTSIDER) == []


async def test_panel_and_combos(service: GameService) -> None:
    out = await _started(service)
    panel = await service.panel(CH)
    assert panel.actor == out.actor and panel.version == 0
    assert [c.slot for c in panel.picks] == list(range(6))
    assert panel.targets == () and not panel.can_undo
    combos = await service.combos(CH)
    assert combos[0].cost == 0 and combos[0].tokens > 0
    assert "free" in combos[0].label()
    await service.act(CH, out.actor_id, {"do": "pick", "slot": 0})
    panel = await service.panel(CH)
    assert panel.picks == () and panel.targets and panel.can_end
    assert all(t.cost is not None and t.cost >= 1 for t in panel.targets if t.verb == "conquer")


async def test_status_and_history(service: GameService) -> None:
    out = await _started(service)
    await service.act(CH, out.actor_id, {"do": "pick", "slot": 0})
    loaded, lines = await service.status(CH)
    assert any("round 1/" in line for line in lines)
    assert any(out.actor in line for line in lines)
    hist = await service.history(CH)
    assert len(hist) == 1 and "pick combo 1" in hist[0]


async def test_mod_skip_passes_the_turn(service: GameService) -> None:
    out = await _started(service)
    first = out.actor
    skipped = await service.skip(CH, MOD)
    assert skipped.actor != first
    assert "skipped" in skipped.public[0]
    assert skipped.turn_ended


async def test_mod_undo_any_action(service: GameService, store: Store) -> None:
    out = await _started(service)
    await service.act(CH, out.actor_id, {"do": "pick", "slot": 0})
    undone = await service.mod_undo(CH, MOD, 1)
    assert undone.version == 0 and undone.actor == out.actor
    with pytest.raises(NothingToUndo):
        await service.mod_undo(CH, MOD, 1)
    assert await store.actions(out.game.id) == []


async def test_kick_makes_the_seat_skip(service: GameService) -> None:
    out = await _started(service)
    second = [s for s in out.game.players if s.name != out.actor][0]
    res = await service.kick(CH, MOD, second.user_id)
    assert "removed" in res.public[0]
    await _play_first_turn(service, out)
    state = (await service.view(CH)).state
    assert state.actor == out.actor  # the vacant seat's turn was played out at once
    with pytest.raises(NotSeated):
        await service.act(CH, second.user_id, {"do": "end"})


async def test_kick_with_replacement(service: GameService) -> None:
    out = await _started(service)
    res = await service.kick(CH, MOD, out.actor_id, replacement=(CID, "cid"))
    assert res.actor_id == CID
    picked = await service.act(CH, CID, {"do": "pick", "slot": 0})
    assert picked.version == 1


async def test_mod_end(service: GameService, store: Store) -> None:
    out = await _started(service)
    game = await service.end(CH, MOD)
    assert game.status is GameStatus.ENDED
    with pytest.raises(NoGameHere):
        await service.act(CH, out.actor_id, {"do": "pick", "slot": 0})
    # a new lobby may open in the channel now
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=BOB, name="bob")


async def test_a_whole_game_to_the_end(service: GameService, store: Store) -> None:
    out = await _started(service, seed=11)
    rng = random.Random(11)
    last = None
    for _ in range(2000):
        if last is not None and last.finished:
            break
        loaded = await service.view(CH)
        legal = [a.model_dump(mode="json") for a in engine.legal_actions(loaded.state)]
        # prefer conquering so the game is not all "end"
        conquers = [a for a in legal if a["do"] in ("conquer", "pick", "deploy")]
        action = rng.choice(conquers if conquers and rng.random() < 0.7 else legal)
        last = await service.act(CH, _uid(out, loaded.state.actor), action)
    assert last is not None and last.finished
    game = await store.get_game(out.game.id)
    assert game.status is GameStatus.FINISHED
    assert await store.open_game(CH) is None
    loaded, obs = await service.final(CH)
    assert obs["ranking"] and all("coins" in p for p in obs["players"].values())
    lines = text.ranking_lines(obs["ranking"], obs["players"])
    winner = obs["ranking"][0]
    assert f"**{winner['player']}** — {winner['total']} coin" in lines[1]
    # replaying the whole log from scratch gives the same final state
    cold = GameService(store)
    assert engine.dump_state(await cold.rebuild(out.game.id)) == engine.dump_state(loaded.state)


async def test_targets_after_undo_are_recomputed(service: GameService) -> None:
    """Undo then a different action reaches the same version number with another position."""
    out = await _started(service)
    uid = out.actor_id
    await service.act(CH, uid, {"do": "pick", "slot": 0})
    first = (await service.targets(CH, uid))[0]
    await service.act(CH, uid, first.action)
    after_first = await service.targets(CH, uid)  # cached for version 2
    await service.undo(CH, uid)
    second = [t for t in await service.targets(CH, uid) if t.region != first.region][0]
    await service.act(CH, uid, second.action)
    fresh = await service.targets(CH, uid)
    expected = GameService(service.store)  # no cache at all
    assert [t.action for t in fresh] == [t.action for t in await expected.targets(CH, uid)]
    assert [t.action for t in fresh] != [t.action for t in after_first] or fresh == ()


async def test_last_view_skips_a_new_lobby(service: GameService) -> None:
    out = await _started(service)
    await service.end(CH, MOD)
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=BOB, name="bob")
    loaded = await service.last_view(CH)
    assert loaded.game.id == out.game.id and loaded.game.status is GameStatus.ENDED


async def test_defender_places_survivors(service: GameService) -> None:
    """An attacked player must place survivors at the end of the attacker's turn; they are
    the actor then, see a defender panel, and nobody else may act."""
    out = await _started(service, seed=4)
    rng = random.Random(4)
    found = None
    for _ in range(3000):
        loaded = await service.view(CH)
        state = loaded.state
        legal = [a.model_dump(mode="json") for a in engine.legal_actions(state)]
        obs = engine.observe(state, None)
        # prefer attacking the other player's regions, then any conquest, then the rest
        hostile = [a for a in legal if a["do"] == "conquer"
                   and obs["regions"].get(str(a["region"]), {}).get("owner") not in
                   (None, state.actor)]
        # (moves are left out: free since RULES §16 #34, a random walk would shuffle tokens)
        pool = (hostile or [a for a in legal if a["do"] in ("conquer", "pick", "deploy")]
                or [a for a in legal if a["do"] != "move"] or legal)
        step = await service.act(CH, _uid(out, state.actor), rng.choice(pool))
        # another player's survivors, before the last round (play goes on after them)
        attacker = step.state.players[step.state.current]
        if any(e["type"] == "must_place" and "tokens" in e and e["player"] != attacker
               for e in step.events) and step.state.round < step.state.board.rounds:
            found = step
            break
        if step.finished:
            break
    assert found is not None, "no attack on a player with survivors happened"
    defender = next(e["player"] for e in found.events if e["type"] == "must_place")
    attacker = found.state.players[found.state.current]
    assert found.actor == defender != attacker
    assert found.actor_id == _uid(found, defender)
    with pytest.raises(NotYourTurn):
        await service.act(CH, _uid(found, attacker), {"do": "end"})
    panel = await service.panel(CH)
    assert panel.is_defender and panel.deploys and not panel.picks
    placed = []
    while panel.is_defender and panel.deploys:
        step = await service.act(CH, _uid(found, defender), panel.deploys[0].action)
        placed += [e for e in step.events if e["type"] == "deployed"]
        panel = await service.panel(CH)
    assert placed and all(e.get("survivors") and e["player"] == defender for e in placed)
    assert not panel.is_defender  # the survivors are down; the next turn has begun
    assert step.turn_started


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_random_play_with_undo_matches_a_cold_rebuild(
    service: GameService, store: Store, seed: int
) -> None:
    """Whatever mix of actions, undos and moderator undos: the cached state equals the state
    rebuilt from the store alone, and the version equals the number of logged actions."""
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann", seed=seed)
    await service.join(CH, BOB, "bob")
    await service.join(CH, CID, "cid")
    out = await service.start(CH, ANN)
    rng = random.Random(seed)
    for _ in range(150):
        loaded = await service.view(CH)
        uid = _uid(out, loaded.state.actor)
        roll = rng.random()
        try:
            if roll < 0.12:
                await service.undo(CH, uid)
            elif roll < 0.16:
                await service.mod_undo(CH, MOD, rng.randint(1, 3))
            else:
                legal = [a.model_dump(mode="json") for a in engine.legal_actions(loaded.state)]
                busy = [a for a in legal if a["do"] in ("conquer", "pick", "deploy", "move")]
                step = await service.act(CH, uid, rng.choice(busy if busy and rng.random() < 0.7
                                                             else legal))
                if step.finished:
                    break
        except NothingToUndo:
            pass
        game = await store.get_game(out.game.id)
        assert game.version == len(await store.actions(out.game.id))
        snaps = await store.snapshot_seqs(out.game.id)
        assert max(snaps) <= game.version
        cold = engine.dump_state(await GameService(store).rebuild(out.game.id))
        assert cold == engine.dump_state(service._cache[CH].state)
        assert cold["version"] == game.version
