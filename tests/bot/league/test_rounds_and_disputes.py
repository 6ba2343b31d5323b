"""League rounds and disputes on a real SQLite file and a real PostgreSQL server, with the
real GameService: tables and lobbies, the start window, no-shows replaced by substitutes or
AI seats, a kicked member recorded last, void / award / re-open with the audit log,
organiser role, the timers of round windows and weekly summaries."""

from __future__ import annotations

import csv
import io
import random
from datetime import UTC, datetime, timedelta

import pytest

import i18n
from bot.errors import NoGameHere
from bot.game.service import GameService
from bot.league import LeagueError, LeagueService, NotRegistered
from bot.store import GameStatus

GUILD = 10
CHANNELS = [3001, 3002, 3003]
MOD = 500
PLAYERS = list(range(1, 8))  # seven members
SUB = 50


async def _league(leagues: LeagueService, players=PLAYERS, *, channels=CHANNELS, sub=True,
                  **settings):
    lg = await leagues.create_league(GUILD, "Friday League", MOD)
    await leagues.start_season(lg, "Spring", MOD, rounds=3)
    for uid in players:
        await leagues.register(lg, uid, f"user{uid}")
    if sub:
        await leagues.register(lg, SUB, "subby", substitute=True)
    for ch in channels:
        await leagues.set_channel(lg, MOD, ch, True)
    if settings:
        await leagues.configure(lg, MOD, settings)
    return lg


seeds = iter(range(1, 10_000))


async def test_round_start_opens_a_lobby_per_table(store, leagues, clock) -> None:
    lg = await _league(leagues)
    r = await leagues.start_round(lg, MOD, guild_id=GUILD, seed=lambda: next(seeds))
    assert r.number == 1 and sorted(len(t.players) for t in r.tables) == [3, 4]
    assert sorted(u for t in r.tables for u in t.players) == PLAYERS  # the sub is not drawn
    assert r.start_by == "2026-11-23T18:30:00.000Z" and r.deadline.startswith("2026-11-30T18")
    for t in r.tables:
        game = await store.get_game(t.game_id)
        assert game.status is GameStatus.LOBBY and game.channel_id == t.channel_id
        assert game.players == () and game.options["league"]["table"] == list(t.players)
        assert game.options["league"]["deadline"] == r.deadline
    with pytest.raises(LeagueError, match="has not begun yet"):
        await leagues.start_round(lg, MOD, guild_id=GUILD, seed=lambda: 1)
    audit = await leagues.audit_log(lg)
    assert audit[0].action == "round start" and audit[0].actor_id == MOD
    said = {lang: audit[0].detail_in(lang) for lang in ("en", "hu")}
    assert said["en"].startswith(f"round {r.number}: table 1 <#")
    assert said["hu"].startswith(f"{r.number}. forduló: 1. asztal <#")


async def test_round_needs_enough_channels_and_players(store, leagues) -> None:
    lg = await _league(leagues, channels=CHANNELS[:1])
    with pytest.raises(LeagueError, match="needs 2 table channels"):
        await leagues.start_round(lg, MOD, guild_id=GUILD, seed=lambda: 1)
    assert await store.league_rounds(1) == []  # nothing half-written
    lg2 = await leagues.create_league(GUILD, "Tiny", MOD)
    await leagues.start_season(lg2, "S", MOD)
    for uid in (1, 2):
        await leagues.register(lg2, uid, "x")
    await leagues.set_channel(lg2, MOD, 4000, True)
    with pytest.raises(LeagueError, match="Only 2 registered players are available"):
        await leagues.start_round(lg2, MOD, guild_id=GUILD, seed=lambda: 1)
    await leagues.configure(lg2, MOD, {"allow_ai": True, "table_size": 3})
    r = await leagues.start_round(lg2, MOD, guild_id=GUILD, seed=lambda: 1)
    assert r.tables[0].ai_seats == 1


async def test_sit_out_and_availability_are_respected(store, leagues, clock) -> None:
    lg = await _league(leagues)
    await leagues.set_sit_out(lg, 1, True)
    await leagues.set_days(lg, 2, "sat sun")
    await leagues.configure(lg, MOD, {"round_days": 2})  # Monday and Tuesday
    r = await leagues.start_round(lg, MOD, guild_id=GUILD, seed=lambda: 1)
    drawn = {u for t in r.tables for u in t.players}
    assert r.sitting_out == (1,) and r.unavailable == (2,) and drawn == set(PLAYERS) - {1, 2}
    with pytest.raises(LeagueError, match="I don't know the day 'funday'"):
        await leagues.set_days(lg, 3, "funday")
    with pytest.raises(NotRegistered):
        await leagues.set_sit_out(lg, 99, True)


async def test_no_show_replaced_by_substitute_and_only_the_table_joins(
        store, leagues, games, clock) -> None:
    lg = await _league(leagues)
    r = await leagues.start_round(lg, MOD, guild_id=GUILD, seed=lambda: next(seeds))
    small = next(t for t in r.tables if len(t.players) == 3)
    big = next(t for t in r.tables if len(t.players) == 4)
    for uid in big.players:
        await games.join(big.channel_id, uid, f"user{uid}")
    absent = small.players[-1]
    for uid in small.players[:-1]:
        await games.join(small.channel_id, uid, f"user{uid}")
    with pytest.raises(LeagueError, match="not drawn for this table"):
        await games.join(small.channel_id, big.players[0], "intruder")
    with pytest.raises(LeagueError, match="start window of round 1 is open until 18:30"):
        await leagues.begin_round(lg, MOD)
    clock.t += timedelta(minutes=31)
    number, begun = await leagues.begin_round(lg, None)
    assert number == 1
    by_table = {t.table: t for t in begun}
    small_begun = by_table[small.number]
    assert small_begun.no_shows == ((absent, SUB),) and not small_begun.cancelled
    assert {s.user_id for s in small_begun.game.players} == {*small.players[:-1], SUB}
    assert by_table[big.number].no_shows == ()
    # the round's deadline is on the game's clock: a turn limit that fits the whole game
    from bot.league import round_turn_limit
    left = (datetime(2026, 11, 30, 18, 0, tzinfo=UTC) - clock.t).total_seconds()
    assert small_begun.game.options["clock"]["limit"] == round_turn_limit(left, 3)
    out = small_begun.outcome  # begin_round started the game: its start, for the Announcer
    assert out is not None and out.turn_started and out.game.status is GameStatus.ACTIVE
    assert len(out.game.players) == 3 and out.panel is not None
    assert out.game.options["clock"]["limit"] == round_turn_limit(left, 3)
    assert (await store.get_game(big.game_id)).status is GameStatus.ACTIVE
    with pytest.raises(LeagueError, match="No round is waiting"):
        await leagues.begin_round(lg, MOD, force=True)
    noshow = [e for e in await leagues.audit_log(lg) if e.action == "no-show"]
    said = noshow[0].detail_in("en")
    assert len(noshow) == 1 and f"<@{absent}>" in said and noshow[0].actor_id is None
    assert f"replaced by <@{SUB}>" in said
    assert f"helyére lépett: <@{SUB}>" in noshow[0].detail_in("hu")  # each moderator's words


async def test_no_show_without_substitute_gets_an_ai_seat_or_shrinks(store, leagues, clock
                                                                      ) -> None:
    lg = await _league(leagues, PLAYERS[:3], sub=False, allow_ai=True, table_size=3)
    r = await leagues.start_round(lg, MOD, guild_id=GUILD, seed=lambda: 5)
    (t,) = r.tables
    (_, begun) = await leagues.begin_round(lg, MOD, force=True)
    assert begun[0].ai_seats == ("AI 1", "AI 2", "AI 3")
    game = begun[0].game
    assert {s.user_id for s in game.players} == {0} and begun[0].cancelled
    assert begun[0].outcome is None and game.status is GameStatus.ENDED
    assert {s.ai for s in game.players} == {"normal"}  # played by the clock's AI
    assert (await store.get_game(game.id)).status is GameStatus.ENDED
    # without AI fill, a table with two players left still plays, one player is cancelled
    lg2 = await leagues.create_league(GUILD, "No AI", MOD)
    await leagues.start_season(lg2, "S", MOD)
    for uid in (11, 12, 13):
        await leagues.register(lg2, uid, f"u{uid}")
    await leagues.set_channel(lg2, MOD, 4100, True)
    r2 = await leagues.start_round(lg2, MOD, guild_id=GUILD, seed=lambda: 6)
    svc = GameService(store, rng=random.Random(1))
    svc.seat_checks.append(leagues.check_seat)
    for uid in r2.tables[0].players[:2]:
        await svc.join(4100, uid, f"u{uid}")
    (_, begun2) = await leagues.begin_round(lg2, MOD, force=True)
    assert not begun2[0].cancelled and len(begun2[0].game.players) == 2
    assert begun2[0].no_shows == ((r2.tables[0].players[2], None),)


async def _play_out(games: GameService, channel: int):
    for _ in range(300):
        out = await games.skip(channel, MOD)
        if out.finished:
            return out
    raise AssertionError("the game did not finish")


async def test_a_kicked_member_is_recorded_last(store, leagues, games) -> None:
    lg = await _league(leagues, [1, 2, 3], sub=False)
    game, _ = await leagues.open_game(lg, guild_id=GUILD, channel_id=CHANNELS[0], opener_id=1,
                                      opener_name="user1", is_mod=False, seed=21)
    await games.join(CHANNELS[0], 2, "user2")
    await games.join(CHANNELS[0], 3, "user3")
    await games.start(CHANNELS[0], 1)
    await games.kick(CHANNELS[0], MOD, 3)
    out = await _play_out(games, CHANNELS[0])
    st = await leagues.standings(lg)
    by = {r.user_id: r for r in st.rows}
    assert by[3].played == 1 and by[3].ranks == [3] and by[3].points == 0
    assert {by[1].ranks[0], by[2].ranks[0]} <= {1, 2}
    assert len(out.state.ranking) == 3  # the seat played on, vacant, but its member is last


async def test_void_award_reopen_with_audit(store, leagues, games, clock) -> None:
    lg = await _league(leagues, [1, 2, 3], sub=False)
    game, _ = await leagues.open_game(lg, guild_id=GUILD, channel_id=CHANNELS[0], opener_id=1,
                                      opener_name="user1", is_mod=False, seed=8)
    await games.join(CHANNELS[0], 2, "user2")
    await games.join(CHANNELS[0], 3, "user3")
    await games.start(CHANNELS[0], 1)
    with pytest.raises(LeagueError) as running:  # not yet over: its state is worded
        await leagues.void(lg, MOD, game.id, "too early")
    assert "still being played" in running.value.message and "/sw-mod end" in running.value.message
    assert "folyamatban van" in i18n.t(running.value.key, "hu", **running.value.params)
    await _play_out(games, CHANNELS[0])
    played = await leagues.standings(lg)
    assert played.games == 1
    with pytest.raises(LeagueError, match="Say why"):
        await leagues.void(lg, MOD, game.id, "  ")
    await leagues.void(lg, MOD, game.id, "played with wrong board")
    st = await leagues.standings(lg)
    assert st.games == 0 and st.voided == 1 and all(r.played == 0 for r in st.rows)
    with pytest.raises(LeagueError, match="already void"):
        await leagues.void(lg, MOD, game.id, "again")
    assert await leagues.reopen(lg, MOD, game.id, "mistake") == "counts again"
    again = await leagues.standings(lg)
    assert [(r.user_id, r.points, r.rating) for r in again.rows] == [
        (r.user_id, r.points, r.rating) for r in played.rows]
    with pytest.raises(LeagueError, match="Name every member"):
        await leagues.award(lg, MOD, game.id, [1, 2], "dispute")
    rec = await leagues.award(lg, MOD, game.id, [3, 2, 1], "dispute settled")
    assert [(p.user_id, p.rank) for p in rec.placings] == [(3, 1), (2, 2), (1, 3)]
    st = await leagues.standings(lg)
    assert [r.user_id for r in st.rows] == [3, 2, 1]
    what = await leagues.reopen(lg, MOD, game.id, "award was wrong")
    assert what == "counts again with the result it was played to"
    restored = await leagues.standings(lg)
    assert [(r.user_id, r.points) for r in restored.rows] == [
        (r.user_id, r.points) for r in played.rows]
    log = await leagues.audit_log(lg)
    assert [e.action for e in log[:4]] == ["reopen", "award", "reopen", "void"]
    assert log[3].reason == "played with wrong board" and log[3].actor_id == MOD
    assert log[3].game_id == game.id
    other = await leagues.create_league(GUILD, "Other", MOD)
    with pytest.raises(LeagueError, match="not a game of Other"):
        await leagues.void(other, MOD, game.id, "x")


async def test_award_an_open_game_stops_it(store, leagues, games) -> None:
    lg = await _league(leagues, [1, 2], sub=False)
    game, _ = await leagues.open_game(lg, guild_id=GUILD, channel_id=CHANNELS[0], opener_id=1,
                                      opener_name="user1", is_mod=False, seed=3)
    await games.join(CHANNELS[0], 2, "user2")
    await games.start(CHANNELS[0], 1)
    await games.peek(CHANNELS[0])  # the game service has the running game cached
    await leagues.award(lg, MOD, game.id, [2, 1], "stalled")
    assert (await store.get_game(game.id)).status is GameStatus.ENDED
    with pytest.raises(NoGameHere):  # stopped through the game service: its cache knows
        await games.peek(CHANNELS[0])
    st = await leagues.standings(lg)
    assert st.games == 1 and st.rows[0].user_id == 2 and st.open_games == 0
    assert await leagues.reopen(lg, MOD, game.id, "oops") == "has no result again"
    assert (await leagues.standings(lg)).games == 0


async def test_organiser_role_and_settings(store, leagues) -> None:
    lg = await _league(leagues, [1], sub=False)
    assert not await leagues.is_organiser(lg, [77])
    conf = await leagues.configure(lg, MOD, {"organiser_role_id": 77, "table_size": 5})
    assert conf.organiser_role_id == 77 and conf.table_size == 5
    assert await leagues.is_organiser(lg, [5, 77]) and not await leagues.is_organiser(lg, [5])
    with pytest.raises(LeagueError, match="3 to 5 seats"):
        await leagues.configure(lg, MOD, {"table_size": 6})
    assert (await leagues.settings(lg)).table_size == 5
    log = await leagues.audit_log(lg)
    assert log[0].action == "settings" and "table_size: 4 → 5" in log[0].detail


async def test_the_weekly_summary_is_due_once_a_week(store, leagues, clock) -> None:
    """The summary's timer (bot.league.timers): armed when a summary channel is set for an
    open season, due at once when none was posted, then a week after the last one; a claim
    marks it posted once; no channel or no open season, no timer."""
    lg = await _league(leagues, [1], sub=False)
    assert await store.league_timers(lg.id) == []
    await leagues.configure(lg, MOD, {"summary_channel": 999})
    (timer,) = await store.league_timers(lg.id)
    assert (timer.kind, timer.due_at) == ("summary", clock.t.timestamp())
    assert await leagues.claim_summary(lg) == 999
    assert await leagues.claim_summary(lg) is None  # posted: not again this week
    (timer,) = await store.league_timers(lg.id)
    assert timer.due_at == (clock.t + timedelta(days=7)).timestamp()
    clock.t += timedelta(days=3)
    await leagues.configure(lg, MOD, {"table_size": 3})  # a re-arm keeps the due time
    assert await store.league_timers(lg.id) == [timer]
    assert await leagues.claim_summary(lg) is None
    clock.t += timedelta(days=4)
    assert await leagues.claim_summary(lg) == 999
    await leagues.configure(lg, MOD, {"summary_channel": None})
    assert await store.league_timers(lg.id) == []
    assert await leagues.claim_summary(lg) is None
    await leagues.configure(lg, MOD, {"summary_channel": 998})
    (timer,) = await store.league_timers(lg.id)
    assert timer.due_at == (clock.t + timedelta(days=7)).timestamp()  # a week after the last
    await leagues.end_season(lg, MOD)
    assert await store.league_timers(lg.id) == []


async def test_a_round_window_is_a_timer_until_the_round_begins(store, leagues, clock) -> None:
    lg = await _league(leagues)
    await leagues.start_round(lg, MOD, guild_id=GUILD, seed=lambda: next(seeds))
    (timer,) = await store.league_timers(lg.id)
    assert timer.kind == "round"
    assert timer.due_at == datetime(2026, 11, 23, 18, 30, tzinfo=UTC).timestamp()
    clock.t += timedelta(minutes=31)
    await leagues.begin_round(lg, None)
    assert await store.league_timers(lg.id) == []


def test_round_turn_limit_fits_the_game_into_the_deadline() -> None:
    from bot.league import round_turn_limit

    week = 7 * 86400
    # 4 players on the 4-player board: 9 rounds of 4 turns
    assert round_turn_limit(week, 4) == week // 36
    assert round_turn_limit(week, 3) == week // 30 and round_turn_limit(week, 5) == week // 40
    assert round_turn_limit(10, 4) == 60  # never under the clock's shortest limit
    assert round_turn_limit(10**9, 2) == 14 * 86400


async def test_ai_seats_fill_a_table_and_never_earn_anything(store, leagues, games) -> None:
    lg = await _league(leagues, [1, 2], sub=False, allow_ai=True, table_size=3)
    r = await leagues.start_round(lg, MOD, guild_id=GUILD, seed=lambda: 9)
    (t,) = r.tables
    assert t.ai_seats == 1
    for uid in t.players:
        await games.join(t.channel_id, uid, f"user{uid}")
    (_, begun) = await leagues.begin_round(lg, MOD, force=True)
    assert begun[0].ai_seats == ("AI 1",) and begun[0].no_shows == ()
    assert begun[0].game.status is GameStatus.ACTIVE  # begin_round started it
    out = await _play_out(games, t.channel_id)
    assert len(out.state.ranking) == 3
    st = await leagues.standings(lg)
    assert {r.user_id for r in st.rows} == {1, 2}  # the AI is in no row
    assert sorted(r.ranks[0] for r in st.rows) in ([1, 2], [1, 1])  # re-ranked among members
    assert sum(r.points for r in st.rows) in (12, 12.0)
    _, csv_text, _ = await leagues.export(lg)
    assert "AI 1" not in csv_text


async def test_sit_out_lasts_only_the_next_round(store, leagues) -> None:
    """`/league sitout` answers "You'll sit out the next round": the round formed next leaves
    the member out, the one after draws them again."""
    lg = await _league(leagues)
    await leagues.set_sit_out(lg, 1, True)
    r1 = await leagues.start_round(lg, MOD, guild_id=GUILD, seed=lambda: next(seeds))
    assert r1.sitting_out == (1,) and 1 not in {u for t in r1.tables for u in t.players}
    _, begun = await leagues.begin_round(lg, MOD, force=True)  # nobody came: all cancelled
    assert all(t.cancelled for t in begun)
    r2 = await leagues.start_round(lg, MOD, guild_id=GUILD, seed=lambda: next(seeds))
    assert r2.sitting_out == () and 1 in {u for t in r2.tables for u in t.players}


def _csv_rows(csv_text: str) -> dict[int, dict[str, str]]:
    """user id -> the export's row (one game in the season)."""
    return {int(r["user_id"]): r for r in csv.DictReader(io.StringIO(csv_text))}


async def _kicked_seat_with_races(leagues, games, seed: int) -> tuple[object, object, tuple]:
    """A league game of members 1-3 in which member 3's seat picked races, then member 3 was
    kicked (the seat plays on vacant); -> (league, game, the seat's races)."""
    lg = await _league(leagues, [1, 2, 3], sub=False)
    game, _ = await leagues.open_game(lg, guild_id=GUILD, channel_id=CHANNELS[0], opener_id=1,
                                      opener_name="user1", is_mod=False, seed=seed)
    for uid in (2, 3):
        await games.join(CHANNELS[0], uid, f"user{uid}")
    await games.start(CHANNELS[0], 1)
    for _ in range(60):  # the seats pick their first races
        if "user3" in await games.store.game_races(game.id):
            break
        await games.skip(CHANNELS[0], MOD)
    races = tuple((await games.store.game_races(game.id))["user3"])
    assert races
    await games.kick(CHANNELS[0], MOD, 3)
    return lg, game, races


async def test_an_award_keeps_a_kicked_members_seat_and_races(store, leagues, games) -> None:
    lg, game, races = await _kicked_seat_with_races(leagues, games, seed=21)
    rec = await leagues.award(lg, MOD, game.id, [3, 1, 2], "dispute")
    kicked = next(p for p in rec.placings if p.user_id == 3)
    assert (kicked.seat, kicked.races, kicked.rank) == ("user3", races, 1)
    _, csv_text, _ = await leagues.export(lg)
    row = _csv_rows(csv_text)[3]
    assert (row["seat"], row["races"], row["status"]) == ("user3", " ".join(races), "awarded")
    card = await leagues.player(lg, 3)
    (played, rank, _n), = card.games
    assert rank == 1 and next(p for p in played.placings if p.user_id == 3).races == races


async def test_an_award_of_a_finished_game_keeps_the_coins_it_was_played_to(
        store, leagues, games) -> None:
    lg = await _league(leagues, [1, 2, 3], sub=False)
    game, _ = await leagues.open_game(lg, guild_id=GUILD, channel_id=CHANNELS[0], opener_id=1,
                                      opener_name="user1", is_mod=False, seed=5)
    for uid in (2, 3):
        await games.join(CHANNELS[0], uid, f"user{uid}")
    await games.start(CHANNELS[0], 1)
    await _play_out(games, CHANNELS[0])
    played = {p.user_id: p for p in (await leagues.player(lg, 1)).games[0][0].placings}
    assert len({p.coins for p in played.values()}) > 1  # (seed 5: 12, 5 and 5 coins)
    order = sorted(played, key=lambda u: played[u].rank, reverse=True)  # the last one wins
    rec = await leagues.award(lg, MOD, game.id, order, "dispute settled")
    assert [(p.user_id, p.rank, p.coins) for p in rec.placings] == [
        (u, i, played[u].coins) for i, u in enumerate(order, 1)]
    _, csv_text, _ = await leagues.export(lg)
    rows = _csv_rows(csv_text)
    assert {u: int(rows[u]["coins"]) for u in order} == {u: played[u].coins for u in order}


async def test_a_table_ended_before_the_round_begins_is_left_out(store, leagues, games, clock
                                                                 ) -> None:
    """A moderator ended one table's lobby (/sw-mod end): the round begins the other
    tables, and that one stays ended."""
    lg = await _league(leagues)
    r = await leagues.start_round(lg, MOD, guild_id=GUILD, seed=lambda: next(seeds))
    gone, kept = r.tables
    for t in r.tables:
        for uid in t.players:
            await games.join(t.channel_id, uid, f"user{uid}")
    await games.end(gone.channel_id, MOD)
    _, begun = await leagues.begin_round(lg, MOD, force=True)
    assert [(t.table, t.game.status) for t in begun] == [(kept.number, GameStatus.ACTIVE)]
    assert (await store.get_game(gone.game_id)).status is GameStatus.ENDED
