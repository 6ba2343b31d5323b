"""A member who joins a table's lobby as its round begins (issue 22).

`LeagueService.begin_round` rewrites each table's seats (no-shows replaced) and starts its
game. A member's Join click rewrites the same seats. Whichever comes first, the other must
see it: a join that was accepted is a seat in the game, never a no-show whose seat went to
a substitute; a join that comes after the rewrite is refused. The test makes the join arrive
at the worst moment: after begin_round has read the lobby, just before it writes the seats.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from bot.errors import LobbyError
from bot.store import GameRow

GUILD = 10
CHANNEL = 3001
MOD = 500
SUB = 50


async def test_a_join_as_the_round_begins_is_never_lost(store, leagues, games, clock
                                                       ) -> None:
    lg = await leagues.create_league(GUILD, "Friday League", MOD)
    await leagues.start_season(lg, "Spring", MOD)
    for uid in (1, 2, 3):
        await leagues.register(lg, uid, f"user{uid}")
    await leagues.register(lg, SUB, "subby", substitute=True)
    await leagues.set_channel(lg, MOD, CHANNEL, True)
    r = await leagues.start_round(lg, MOD, guild_id=GUILD, seed=lambda: 7)
    (table,) = r.tables
    late, *early = reversed(table.players)
    for uid in early:
        await games.join(CHANNEL, uid, f"user{uid}")
    clock.t += timedelta(minutes=31)  # the start window closed

    joins: list[asyncio.Task[GameRow]] = []
    write_seats = store.update_lobby

    async def seats_written_after_a_join(game_id, **changes):
        """begin_round read the lobby and is about to write its seats: the late member
        clicks Join now, and gets every chance to finish before the write goes on."""
        if changes.get("players") is not None and not joins:
            joins.append(asyncio.create_task(games.join(CHANNEL, late, f"user{late}")))
            await asyncio.wait(joins, timeout=1.0)
        return await write_seats(game_id, **changes)

    store.update_lobby = seats_written_after_a_join
    try:
        _, (begun,) = await leagues.begin_round(lg, None)
    finally:
        store.update_lobby = write_seats
    assert joins, "begin_round wrote no seats"
    (joined,) = await asyncio.gather(*joins, return_exceptions=True)

    game = await store.get_game(table.game_id)
    seated = {seat.user_id for seat in game.players}
    no_shows = dict(begun.no_shows)
    if isinstance(joined, GameRow):  # the join was accepted: it must have counted
        assert late in seated, "a member whose join was accepted lost the seat"
        assert late not in no_shows and SUB not in seated
    else:  # the join came after the round began: refused, and the member missed the start
        assert isinstance(joined, LobbyError) and joined.key == "svc.started_wait", joined
        assert late not in seated and no_shows == {late: SUB} and SUB in seated
    assert seated <= {*table.players, SUB} and len(seated) == len(game.players) == 3
