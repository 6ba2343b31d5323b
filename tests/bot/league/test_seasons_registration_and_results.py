"""bot.league on a real SQLite file and a real PostgreSQL server: leagues and seasons,
registration, league lobbies, recording a finished game exactly once, standings numbers by hand
and OpenSkill ratings checked against the library folded by the test itself, and results
stored before OpenSkill rated by it after the migration."""

from __future__ import annotations

import sqlite3
from importlib import resources
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

import i18n
from bot.game.service import GameService
from bot.league import (
    League,
    LeagueError,
    LeagueService,
    NoLeague,
    NoSeason,
    NotRegistered,
    build_table,
    placement_points,
    win_shares,
)
from bot.store import GameStatus, Seat, Store, open_store

GUILD, OTHER_GUILD = 10, 11


def lib_ordinals(*games: list[tuple[int, int]]) -> dict[int, float]:
    """The library's own fold: each game is [(user id, rank)], applied in order."""
    m = PlackettLuce()
    ratings: dict[int, object] = {}
    for game in games:
        out = m.rate([[ratings.get(u) or m.rating()] for u, _ in game],
                     ranks=[r for _, r in game])
        for (u, _), team in zip(game, out, strict=True):
            ratings[u] = team[0]
    return {u: r.ordinal() for u, r in ratings.items()}

CH = 2000
ANN, BOB, CID, DAN, MOD = 1, 2, 3, 4, 500


async def _season(leagues: LeagueService, *members: int, name: str = "Spring 2026") -> League:
    lg = await leagues.create_league(GUILD, "Friday League", MOD)
    await leagues.start_season(lg, name, MOD)
    for uid in members:
        await leagues.register(lg, uid, f"user{uid}")
    return lg


async def _finished_game(store: Store, leagues: LeagueService, lg: League, channel: int,
                         ranking: list[tuple[int, int, int]]) -> int:
    """A league game that ended with the given (user id, rank, coins), written through the
    store like the service does (the final action carries the engine's game_over event)."""
    seats = [Seat(uid, f"user{uid}") for uid, _, _ in ranking]
    game, _ = await leagues.open_game(lg, guild_id=GUILD, channel_id=channel, opener_id=MOD,
                                      opener_name="mod", is_mod=True,
                                      members=[(s.user_id, s.name) for s in seats], seed=1)
    await store.start_game(game.id, board="official-3p", players=seats, state={})
    event = {"type": "game_over",
             "ranking": [{"player": f"user{uid}", "rank": rank, "total": coins, "tokens": 0}
                         for uid, rank, coins in ranking],
             "winners": [f"user{uid}" for uid, rank, _ in ranking if rank == 1]}
    await store.append(game.id, 1, {"do": "end", "player": seats[0].name}, actor_id=None,
                       player=seats[0].name, events=[event], ends_turn=True,
                       status=GameStatus.FINISHED)
    return game.id


# -- pure scoring ---------------------------------------------------------------------------


def test_points_by_place_and_ties() -> None:
    assert placement_points([1, 2]) == [12, 0]
    assert placement_points([1, 2, 3]) == [12, 6, 0]
    assert placement_points([3, 1, 2, 4]) == [4, 12, 8, 0]
    assert placement_points([1, 2, 3, 4, 5]) == [12, 9, 6, 3, 0]
    # two tied winners of three share places 1 and 2: (12 + 6) / 2
    assert placement_points([1, 1, 3]) == [9, 9, 0]
    # tied second and third of five share (9 + 6) / 2
    assert placement_points([1, 2, 2, 4, 5]) == [12, 7.5, 7.5, 3, 0]
    assert win_shares([1, 1, 3]) == [0.5, 0.5, 0]
    assert win_shares([1, 1, 1]) == pytest.approx([1 / 3] * 3)


# -- leagues, seasons, registration ---------------------------------------------------------


async def test_leagues_and_seasons(leagues: LeagueService) -> None:
    with pytest.raises(NoLeague, match="/league-mod create"):
        await leagues.league(GUILD)
    lg = await leagues.create_league(GUILD, "  Friday   League ", MOD)
    assert lg.name == "Friday League"
    with pytest.raises(LeagueError, match="already has a league"):
        await leagues.create_league(GUILD, "friday league")
    assert (await leagues.league(GUILD)).id == lg.id  # the only league is the default
    assert (await leagues.league(GUILD, "FRIDAY league")).id == lg.id
    other = await leagues.create_league(OTHER_GUILD, "Friday League")  # other server: fine
    assert other.id != lg.id
    await leagues.create_league(GUILD, "Sunday Cup")
    with pytest.raises(NoLeague, match="several leagues"):
        await leagues.league(GUILD)
    with pytest.raises(LeagueError, match="too long"):
        await leagues.create_league(GUILD, "x" * 41)

    with pytest.raises(NoSeason, match="/league-mod season start"):
        await leagues.register(lg, ANN, "ann")
    spring = await leagues.start_season(lg, "Spring 2026", MOD)
    assert spring.is_open
    with pytest.raises(LeagueError, match="Spring 2026 is still running"):
        await leagues.start_season(lg, "Summer 2026", MOD)
    ended = await leagues.end_season(lg, MOD)
    assert not ended.is_open and ended.id == spring.id
    with pytest.raises(NoSeason):
        await leagues.end_season(lg, MOD)
    with pytest.raises(LeagueError, match="already had a season"):
        await leagues.start_season(lg, "spring 2026", MOD)
    summer = await leagues.start_season(lg, "Summer 2026", MOD)
    assert (await leagues.season(lg)).id == summer.id  # default: the open season
    assert (await leagues.season(lg, "spring 2026")).id == spring.id
    await leagues.end_season(lg, MOD)
    assert (await leagues.season(lg)).id == summer.id  # else the latest


async def test_registration_rules(leagues: LeagueService) -> None:
    lg = await _season(leagues)
    season = await leagues.register(lg, ANN, "ann")
    assert season.name == "Spring 2026"
    with pytest.raises(LeagueError, match="already registered"):
        await leagues.register(lg, ANN, "ann")
    with pytest.raises(NotRegistered, match="not registered for Spring 2026"):
        await leagues.unregister(lg, BOB)
    await leagues.register(lg, BOB, "bob")
    assert [r.user_id for r in await leagues.registrations(season)] == [ANN, BOB]
    await leagues.unregister(lg, ANN)
    assert not await leagues.is_registered(season, ANN)
    assert [r.user_id for r in await leagues.registrations(season)] == [BOB]
    assert {r.user_id for r in await leagues.registrations(season, include_left=True)} == {
        ANN, BOB}
    await leagues.register(lg, ANN, "Ann again")  # rejoining is allowed
    assert await leagues.is_registered(season, ANN)
    assert (await leagues.registration(season, ANN)).name == "Ann again"


async def test_league_lobby_only_seats_registered_players(
    leagues: LeagueService, games: GameService
) -> None:
    lg = await _season(leagues, ANN, BOB, DAN)
    with pytest.raises(NotRegistered, match="You're not registered for Spring 2026; use "
                                            "`/league join`"):
        await leagues.open_game(lg, guild_id=GUILD, channel_id=CH, opener_id=CID,
                                opener_name="cid", is_mod=False, seed=1)
    with pytest.raises(NotRegistered, match=f"<@{CID}> is not registered"):
        await leagues.open_game(lg, guild_id=GUILD, channel_id=CH, opener_id=ANN,
                                opener_name="ann", is_mod=False, members=[(CID, "cid")], seed=1)
    # a moderator who is not registered opens it without taking a seat
    game, season = await leagues.open_game(lg, guild_id=GUILD, channel_id=CH, opener_id=MOD,
                                           opener_name="mod", is_mod=True, seats=2, seed=5)
    assert game.players == () and game.opener_id == MOD and season.name == "Spring 2026"
    assert game.options["max_players"] == 2
    with pytest.raises(LeagueError, match="already has a game"):
        await leagues.open_game(lg, guild_id=GUILD, channel_id=CH, opener_id=ANN,
                                opener_name="ann", is_mod=False, seed=1)
    await games.join(CH, ANN, "ann")
    with pytest.raises(NotRegistered, match="not registered for Spring 2026"):
        await games.join(CH, CID, "cid")
    assert [s.user_id for s in (await games.lobby(CH)).players] == [ANN]
    # an ordinary /sw game in another channel is not affected
    await games.open_lobby(guild_id=GUILD, channel_id=CH + 1, user_id=CID, name="cid")
    assert [s.user_id for s in (await games.join(CH + 1, DAN, "dan")).players] == [CID, DAN]
    # a registered player opens with named members seated at once
    game2, _ = await leagues.open_game(lg, guild_id=GUILD, channel_id=CH + 2, opener_id=BOB,
                                       opener_name="bob", is_mod=False,
                                       members=[(ANN, "ann"), (BOB, "bob")], seed=2)
    assert [s.user_id for s in game2.players] == [BOB, ANN]
    with pytest.raises(LeagueError, match="3 players for 2 seats"):
        await leagues.open_game(lg, guild_id=GUILD, channel_id=CH + 3, opener_id=MOD,
                                opener_name="mod", is_mod=True, seats=2, seed=1,
                                members=[(ANN, "a"), (BOB, "b"), (ANN, "a")] + [(DAN, "d")])


async def test_lobby_join_is_refused_after_leaving_the_season(
    leagues: LeagueService, games: GameService
) -> None:
    lg = await _season(leagues, ANN, BOB)
    await leagues.open_game(lg, guild_id=GUILD, channel_id=CH, opener_id=ANN, opener_name="ann",
                            is_mod=False, seed=3)
    await leagues.unregister(lg, BOB)
    with pytest.raises(NotRegistered):
        await games.join(CH, BOB, "bob")
    await leagues.register(lg, BOB, "bob")
    assert len((await games.join(CH, BOB, "bob")).players) == 2


# -- results and standings ------------------------------------------------------------------


async def test_three_player_standings_by_hand(store: Store, leagues: LeagueService) -> None:
    lg = await _season(leagues, ANN, BOB, CID)
    g1 = await _finished_game(store, leagues, lg, CH, [(ANN, 1, 30), (BOB, 2, 25), (CID, 3, 9)])
    rec = await leagues.record(g1)
    assert rec is not None and [p.user_id for p in rec.placings] == [ANN, BOB, CID]
    first = lib_ordinals([(ANN, 1), (BOB, 2), (CID, 3)])
    start = PlackettLuce().rating().ordinal()
    assert rec.changes == pytest.approx({u: o - start for u, o in first.items()})
    assert rec.changes[ANN] > 0 > rec.changes[CID]
    assert await leagues.record(g1) is None  # recorded once only
    assert await leagues.sync() == []
    # game 2: cid wins, ann and bob tie for second (same coins and tokens)
    g2 = await _finished_game(store, leagues, lg, CH + 1,
                              [(CID, 1, 40), (ANN, 2, 20), (BOB, 2, 20)])
    st = await leagues.standings(lg)  # standings record a missed result first (sync)
    assert st.games == 2 and st.open_games == 0
    assert await leagues.record(g2) is None
    by = {r.user_id: r for r in st.rows}
    # points: g1 12/6/0; g2 cid 12, ann and bob share places 2-3: (6 + 0) / 2 = 3
    assert [r.user_id for r in st.rows] == [ANN, CID, BOB]
    assert (by[ANN].points, by[CID].points, by[BOB].points) == (15, 12, 9)
    assert (by[ANN].wins, by[CID].wins, by[BOB].wins) == (1, 1, 0)
    assert (by[ANN].played, by[BOB].avg_rank, by[CID].avg_rank) == (2, 2.0, 2.0)
    assert by[ANN].avg_rank == 1.5
    # ratings: the library's fold of the two games (the tie shares rank 2)
    both = lib_ordinals([(ANN, 1), (BOB, 2), (CID, 3)], [(CID, 1), (ANN, 2), (BOB, 2)])
    for uid in (ANN, BOB, CID):
        assert by[uid].rating == pytest.approx(both[uid], abs=1e-9)
    assert by[CID].trend == pytest.approx(both[CID] - first[CID], abs=1e-9)
    assert all(r.registered for r in st.rows)

    card = await leagues.rating(lg, CID)
    assert card.season_place == 2 and card.season_size == 3
    assert card.season_row.rating == pytest.approx(both[CID], abs=1e-9)
    assert card.all_time.played == 2


async def test_shared_win_and_leaving_keeps_results(store: Store, leagues: LeagueService
                                                    ) -> None:
    lg = await _season(leagues, ANN, BOB, DAN)
    await _finished_game(store, leagues, lg, CH, [(ANN, 1, 20), (BOB, 1, 20)])
    await leagues.unregister(lg, BOB)
    st = await leagues.standings(lg)
    by = {r.user_id: r for r in st.rows}
    assert by[ANN].wins == by[BOB].wins == 0.5
    assert by[ANN].points == by[BOB].points == 6
    assert by[ANN].rating == by[BOB].rating == pytest.approx(
        lib_ordinals([(ANN, 1), (BOB, 1)])[ANN])
    assert not by[BOB].registered and by[BOB].played == 1  # left, but the game counts
    assert by[DAN].played == 0 and by[DAN].registered and by[DAN].avg_rank is None
    assert [r.user_id for r in st.rows][-1] == DAN


async def test_seasons_keep_separate_tables_and_ratings(store: Store, leagues: LeagueService
                                                        ) -> None:
    lg = await _season(leagues, ANN, BOB)
    await _finished_game(store, leagues, lg, CH, [(ANN, 1, 20), (BOB, 2, 10)])
    await leagues.end_season(lg, MOD)
    summer = await leagues.start_season(lg, "Summer 2026", MOD)
    with pytest.raises(NotRegistered):  # registration is per season
        await leagues.open_game(lg, guild_id=GUILD, channel_id=CH + 1, opener_id=ANN,
                                opener_name="ann", is_mod=False, seed=1)
    await leagues.register(lg, ANN, "ann")
    await leagues.register(lg, BOB, "bob")
    await _finished_game(store, leagues, lg, CH + 1, [(BOB, 1, 20), (ANN, 2, 10)])
    spring_st = await leagues.standings(lg, "Spring 2026")
    summer_st = await leagues.standings(lg)
    assert summer_st.season.id == summer.id
    assert [r.user_id for r in spring_st.rows] == [ANN, BOB]
    assert [r.user_id for r in summer_st.rows] == [BOB, ANN]
    # a new season starts everyone afresh
    fresh = lib_ordinals([(BOB, 1), (ANN, 2)])
    assert summer_st.rows[0].rating == pytest.approx(fresh[BOB])
    card = await leagues.rating(lg, ANN)
    # all-time: both games folded in order
    assert card.all_time.rating == pytest.approx(
        lib_ordinals([(ANN, 1), (BOB, 2)], [(BOB, 1), (ANN, 2)])[ANN])
    assert card.season_row.rating == pytest.approx(fresh[ANN])


async def test_a_real_game_is_recorded_when_it_finishes(
    store: Store, leagues: LeagueService, games: GameService
) -> None:
    lg = await _season(leagues, ANN, BOB)
    game, _ = await leagues.open_game(lg, guild_id=GUILD, channel_id=CH, opener_id=ANN,
                                      opener_name="ann", is_mod=False, seed=11)
    await games.join(CH, BOB, "bob")
    await games.start(CH, ANN)
    assert (await leagues.standings(lg)).open_games == 1
    for _ in range(80):
        out = await games.skip(CH, MOD)
        if out.finished:
            break
    else:
        raise AssertionError("the game did not finish")
    ranking = out.state.ranking
    st = await leagues.standings(lg)
    assert st.games == 1 and st.open_games == 0
    by = {r.user_id: r for r in st.rows}
    for entry in ranking:
        uid = out.game.seat_named(entry["player"]).user_id
        assert by[uid].played == 1 and by[uid].avg_rank == entry["rank"]
    winners = [r for r in st.rows if r.wins > 0]
    assert sum(r.wins for r in st.rows) == 1 and winners
    row = await store.fetchone("SELECT recorded_at FROM league_games WHERE game_id = ?",
                                (game.id,))
    assert row[0] is not None  # recorded by the finish listener, not by the standings sync
    assert await leagues.record(game.id) is None


async def test_unfinished_and_ended_games_do_not_count(
    store: Store, leagues: LeagueService, games: GameService
) -> None:
    lg = await _season(leagues, ANN, BOB)
    game, _ = await leagues.open_game(lg, guild_id=GUILD, channel_id=CH, opener_id=ANN,
                                      opener_name="ann", is_mod=False, seed=4)
    await games.join(CH, BOB, "bob")
    await games.start(CH, ANN)
    await games.skip(CH, MOD)
    assert await leagues.record(game.id) is None  # still running
    await games.end(CH, MOD)  # a moderator stops it: no result
    assert await leagues.record(game.id) is None
    st = await leagues.standings(lg)
    assert st.games == 0 and all(r.played == 0 for r in st.rows)


def test_table_ignores_vacant_seats_and_reranks() -> None:
    from bot.league import Placing, PlayedGame

    game = PlayedGame(1, 1, "t", (Placing(0, "gone", 1, 30), Placing(ANN, "ann", 2, 20),
                                  Placing(BOB, "bob", 3, 10)))
    rows = {r.user_id: r for r in build_table([game])}
    assert set(rows) == {ANN, BOB}
    assert rows[ANN].wins == 1 and rows[ANN].points == 12
    assert rows[ANN].rating == pytest.approx(lib_ordinals([(ANN, 1), (BOB, 2)])[ANN])


async def test_concurrent_recording_writes_once(store: Store, leagues: LeagueService) -> None:
    import asyncio

    lg = await _season(leagues, ANN, BOB)
    gid = await _finished_game(store, leagues, lg, CH, [(BOB, 1, 12), (ANN, 2, 7)])
    results = await asyncio.gather(leagues.record(gid), leagues.record(gid), leagues.sync())
    recorded = [r for r in results if r]
    assert len(recorded) == 1
    rows = await store.fetchall("SELECT user_id, rank, coins FROM league_results"
                                 " WHERE game_id = ? ORDER BY rank", (gid,))
    assert [tuple(r) for r in rows] == [(BOB, 1, 12), (ANN, 2, 7)]


async def test_embed_and_texts(store: Store, leagues: LeagueService) -> None:
    from types import SimpleNamespace

    from bot.chat.league_texts import rating_text, result_text, standings_embed

    lg = await _season(leagues, ANN, BOB, CID)
    gid = await _finished_game(store, leagues, lg, CH, [(ANN, 1, 30), (BOB, 2, 25), (CID, 3, 9)])
    rec = await leagues.record(gid)
    after = lib_ordinals([(ANN, 1), (BOB, 2), (CID, 3)])
    start = PlackettLuce().rating().ordinal()
    text = result_text(rec)
    assert text.count("<@") == 3
    for place, uid in enumerate((ANN, BOB, CID), 1):
        assert f"{place}. <@{uid}> ({after[uid] - start:+.1f})" in text
    await leagues.unregister(lg, CID)
    embed = standings_embed(await leagues.standings(lg)).to_dict()
    lines = embed["description"].splitlines()
    # place, player, games, left, wins, avg rank, points, rating, trend
    assert lines[2].split() == ["1", "user1", "1", "—", "1", "1.0", "12",
                                f"{after[ANN]:.1f}", f"{after[ANN] - start:+.1f}"]
    assert lines[4].split() == ["3", "user3*", "1", "—", "0", "3.0", "0",
                                f"{after[CID]:.1f}", f"{after[CID] - start:+.1f}"]
    assert "left the season" in embed["description"]
    assert "30" not in embed["description"]  # coins are never in the table
    member = SimpleNamespace(mention=f"<@{BOB}>")
    text = rating_text(await leagues.rating(lg, BOB), member)
    assert f"rating **{after[BOB]:.1f}**" in text and "place 2 of 3" in text
    assert "6 points" in text and "σ " in text
    nobody = rating_text(await leagues.rating(lg, DAN), SimpleNamespace(mention="<@4>"))
    assert "no finished game yet" in nobody


def test_weekday_names_of_every_language_are_read() -> None:
    from bot.league import day_names
    from bot.league.tables import parse_days
    for lang in i18n.LANGUAGES:
        names = day_names(lang)
        assert sorted(names.values()) == list(range(7)), lang  # seven distinct names
        said = " ".join(i18n.t(f"league.day.{d}", lang) for d in ("mon", "sat"))
        assert parse_days(said, names) == frozenset({0, 5}), lang
    assert parse_days("จ. ส.", day_names("th")) == frozenset({0, 5})


async def test_results_from_before_the_migration_are_rated(tmp_path: Path) -> None:
    """A database at migration 2 (the Elo version) with results: opening it migrates, and the
    standings rate those results with OpenSkill."""
    db = tmp_path / "old.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                 " applied_at TEXT NOT NULL DEFAULT 'x')")
    for n, name in ((1, "0001_init.sql"), (2, "0002_leagues.sql")):
        conn.executescript(resources.files("bot.migrations").joinpath(name).read_text())
        conn.execute("INSERT INTO schema_version (version, name) VALUES (?, ?)", (n, name))
    conn.execute("INSERT INTO leagues (guild_id, name) VALUES (1, 'Old')")
    conn.execute("INSERT INTO seasons (league_id, name) VALUES (1, 'S1')")
    conn.execute("INSERT INTO games (channel_id, seed, status, finished_at) VALUES"
                 " (5, 1, 'finished', '2026-01-01T00:00:00Z')")
    conn.execute("INSERT INTO league_games (game_id, season_id, recorded_at) VALUES (1, 1, 'x')")
    conn.executemany("INSERT INTO league_results (game_id, user_id, seat, rank, coins) VALUES"
                     " (1, ?, ?, ?, ?)", [(7, "ann", 1, 30), (8, "bob", 2, 20)])
    conn.commit()
    conn.close()
    store = await open_store(str(db))
    try:
        assert await store.schema_version() >= 5
        lg_service = LeagueService(store, GameService(store))
        lg = await lg_service.league(1)
        st = await lg_service.standings(lg, "S1")
        from bot.league.standings import Placing, PlayedGame
        expected = build_table([PlayedGame(1, 1, "t", (Placing(7, "ann", 1, 30),
                                                       Placing(8, "bob", 2, 20)))])
        assert [(r.user_id, r.rating) for r in st.rows] == [(r.user_id, r.rating)
                                                            for r in expected]
        assert st.rows[0].rating > st.rows[1].rating
    finally:
        await store.close()
