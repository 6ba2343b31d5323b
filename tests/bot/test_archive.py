"""Finished games' results and what they add up to per member, on SQLite and PostgreSQL:
the records kept as games are recorded give the same stats as counting every game, a game
recorded twice counts once, and a real game's results come from its story when it ends."""

from __future__ import annotations

import random

import engine
from bot.archive.results import Results
from bot.archive.stories import Stories
from bot.chat.archive import history_page, stats_text
from bot.game.moves import dump, plain_action
from bot.game.service import GameService
from bot.store import GameStatus, SeatResult, Store

GUILD = 7
ANN, BOB = 11, 12


async def _games(store: Store, n: int) -> list[int]:
    ids = []
    for k in range(n):
        game = await store.create_game(guild_id=GUILD, channel_id=100 + k, seed=k)
        await store.set_status(game.id, GameStatus.ENDED)  # the channel is free again
        ids.append(game.id)
    return ids


def _expected(rows: list[tuple[int, tuple[tuple[str, str], ...], int]]):
    """games, wins, average rank, races by picks, best combo and streak counted by hand."""
    wins = sum(r == 1 for r, _, _ in rows)
    streak = run = 0
    for rank, _, _ in rows:
        run = run + 1 if rank == 1 else 0
        streak = max(streak, run)
    games_of: dict[tuple[str, str], list[int]] = {}
    races: dict[str, int] = {}
    for _, combos, coins in rows:
        for race, _ in combos:
            races[race] = races.get(race, 0) + 1
        for combo in dict.fromkeys(combos):
            games_of.setdefault(combo, []).append(coins)
    pool = {c: v for c, v in games_of.items() if len(v) >= 2} or games_of
    best = max(pool.items(), key=lambda kv: (sum(kv[1]) / len(kv[1]), len(kv[1]), kv[0]))
    return (len(rows), wins, sum(r for r, _, _ in rows) / len(rows), races, best[0], streak)


async def test_member_records_add_up_to_what_every_game_says(store: Store) -> None:
    rng = random.Random(3)
    combos = [("Ratmen", "Merchant"), ("Elves", "Hill"), ("Orcs", "Flying"),
              ("Trolls", "Forest"), ("Giants", "Wealthy")]
    ids = await _games(store, 40)
    mine: list[tuple[int, tuple[tuple[str, str], ...], int]] = []
    for k, gid in enumerate(ids):
        rank = rng.choice((1, 1, 2, 3))
        picked = tuple(rng.sample(combos, rng.choice((1, 2, 3))))
        if rng.random() < 0.2:
            picked += (picked[0],)  # the same combo picked twice in one game
        coins = rng.randrange(20, 90)
        mine.append((rank, picked, coins))
        other = 1 if rank != 1 else 2
        assert await store.record_results(GUILD, [
            SeatResult(gid, "ann", ANN, "official-2p", 2, rank, coins, picked,
                       f"2026-11-{1 + k // 10:02d}T10:{k % 60:02d}:00.000Z"),
            SeatResult(gid, "bob", BOB, "official-2p", 2, other, 10, (combos[0],),
                       f"2026-11-{1 + k // 10:02d}T10:{k % 60:02d}:00.000Z")])
    # recorded again (a restart's backfill racing the finish listener): counted once
    assert not await store.record_results(GUILD, [
        SeatResult(ids[0], "ann", ANN, "official-2p", 2, 1, 99, (combos[0],), "x")])
    games, wins, avg, races, best, streak = _expected(mine)
    st = await store.member_stats(GUILD, ANN)
    assert (st.games, st.wins, st.streak) == (games, wins, streak)
    assert abs(st.avg_rank - avg) < 1e-9 and st.avg_players == 2
    top = sorted(races.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    assert st.races == tuple(top)
    assert st.best is not None and (st.best.race, st.best.power) == best
    assert (await store.member_stats(GUILD, 999)).games == 0
    total, page = await store.member_games(GUILD, ANN, limit=8, offset=8)
    assert total == 40 and len(page) == 8
    assert [g[0].game_id for g in page] == list(reversed(ids))[8:16]  # newest first
    assert all([s.rank for s in g] == sorted(s.rank for s in g) for g in page)
    # the words: one sentence per fact, in the reader's language; a page with its menus
    words = await stats_text(store, GUILD, ANN, "hu")
    assert f"{games} befejezett játék" in words
    content, view = await history_page(store, GUILD, ANN, 1, "en")
    assert "page 2 of 5" in content and view is not None
    assert {type(i).__name__ for i in view.children} == {"HistoryButton", "ReplaySelect"}
    lonely, none = await history_page(store, GUILD, 999, 0, "en")
    assert "has no finished game" in lonely and none is None


async def test_a_finished_game_records_its_seats(store: Store) -> None:
    """A game played to its end through the service: the finish listener records every
    seat's rank, coins and combos as the game's story tells them."""
    service = GameService(store, rng=random.Random(4))
    stories = Stories(store)
    results = Results(store, stories)
    service.finish_listeners.append(results.record)
    await service.open_lobby(guild_id=GUILD, channel_id=1, user_id=ANN, name="ann", players=2,
                             seed=9)
    await service.join(1, BOB, "bob")
    out = await service.start(1, ANN)
    users = {s.name: s.user_id for s in out.game.players}
    for _ in range(600):
        loaded = await service.last_view(1)
        if loaded.state.finished:
            break
        await service.act(1, users[loaded.state.actor], dump(plain_action(loaded.state)))
    assert loaded.state.finished
    told = await stories.of(loaded.game)
    truth = engine.observe(loaded.state, None, reveal_all=True)
    for place in told.ranking:
        st = await store.member_stats(GUILD, users[place.player])
        assert st.games == 1 and st.wins == (place.rank == 1)
        assert place.coins == truth["players"][place.player]["coins"]
        picked = {s.race for s in told.stints[place.player]}
        assert {race for race, _ in st.races} <= picked and st.races
    # nothing to backfill: the listener recorded it
    assert await results.backfill() == 0
