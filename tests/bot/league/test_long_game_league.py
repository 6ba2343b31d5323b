"""A league's own part in the long game (issue 20): its cap on away days for the members of
its running games, a reliability it may require to register, checked with the member's
figure, and the settings that hold them."""

from __future__ import annotations

import pytest

from bot.game.service import GameService
from bot.game.vacations import VacationError
from bot.league import LeagueService
from bot.league.models import LeagueError
from bot.store import Store

GUILD = 10
CH = 2100
ANN, BOB, CID, MOD = 1, 2, 3, 500


async def test_a_league_caps_away_days_and_asks_for_reliability(
        store: Store, leagues: LeagueService, games: GameService) -> None:
    lg = await leagues.create_league(GUILD, "Friday League", MOD)
    await leagues.start_season(lg, "Spring", MOD)
    with pytest.raises(LeagueError) as err:
        await leagues.configure(lg, MOD, {"away_days": 31})
    assert err.value.key == "league.err.away_range"
    conf = await leagues.configure(lg, MOD, {"away_days": 2, "max_missed": 10,
                                             "over_turns": 20})
    assert (conf.away_days, conf.max_missed, conf.over_turns) == (2, 10, 20)
    await leagues.register(lg, ANN, "ann")  # no turns yet: nothing to hold against her
    await leagues.register(lg, BOB, "bob")
    # a league game of ann and bob: the league's cap (2) is under the server's default (7)
    await leagues.open_game(lg, guild_id=GUILD, channel_id=CH, opener_id=ANN,
                            opener_name="ann", is_mod=False, seed=3)
    await games.join(CH, BOB, "bob")
    out = await games.start(CH, ANN)
    bank = await games.bank(GUILD, ANN)
    assert (bank.cap, bank.left) == (2, 2)
    with pytest.raises(VacationError) as refused:
        await games.go_away(GUILD, ANN, 3 * 86400)
    assert refused.value.key == "away.bank_short"
    assert (await games.bank(GUILD, CID)).cap == 7  # cid plays no game of the league
    # cid missed 1 of her last 2 turns in this server (50%): the league asks for 10% at most
    for rnd, kind in ((1, "missed"), (2, "played")):
        await store.execute(
            "INSERT INTO member_turns (game_id, seat, round, guild_id, user_id, started_at,"
            " ended_at, kind) VALUES (?, 'cid', ?, ?, ?, ?, ?, ?)", out.game.id, rnd, GUILD,
            CID, f"2026-11-2{rnd}T10:00:00.000Z", f"2026-11-2{rnd}T11:00:00.000Z", kind)
    with pytest.raises(LeagueError) as err:
        await leagues.register(lg, CID, "cid")
    assert err.value.key == "rel.refused" and err.value.params == {
        "missed": 1, "turns": 2, "share": 50, "most": 10, "over": 20}
    assert not await leagues.is_registered(await leagues.current_season(lg), CID)
    await leagues.configure(lg, MOD, {"max_missed": 100})
    await leagues.register(lg, CID, "cid")
