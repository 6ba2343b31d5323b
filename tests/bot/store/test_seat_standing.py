"""A seat's standing (timeouts in a row, away, vacant, members who left it) lives on the seat,
stored with it in games.players. A game stored before that kept it in its options by seat
name: such a game loads with the standing on its seats, plays on, and its next write stores
the new format."""

from __future__ import annotations

from bot.game.service import GameService
from bot.league.results import _left_seats
from bot.seats import auto_level
from bot.store import Seat, Store

CH = 700
ANN, BOB, CID = 11, 22, 33


async def test_an_old_format_game_keeps_its_seats_standing(store: Store,
                                                           service: GameService) -> None:
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann", players=3,
                             seed=5)
    await service.join(CH, BOB, "bob")
    await service.join(CH, CID, "cid")
    out = await service.start(CH, ANN)
    game_id = out.game.id
    # the game as 8304b87 stored it: the standing in the options, by seat name; bob was
    # kicked (his seat vacant), ann timed out twice and the AI keeps her seat
    old_options = {**out.game.options, "timeouts": {"ann": 2}, "away": ["ann"],
                   "vacant": ["bob"], "left": {"bob": [BOB]}}
    old_players = [{"id": ANN, "name": "ann"}, {"id": 0, "name": "bob"},
                   {"id": CID, "name": "cid"}]
    await store.set_options(game_id, old_options)
    await store.set_seating(game_id, [Seat.from_json(p) for p in old_players], old_options)

    game = await store.get_game(game_id)
    assert game is not None
    ann, bob, cid = (game.seat_named(n) for n in ("ann", "bob", "cid"))
    assert ann == Seat(ANN, "ann", timeouts=2, away=True)
    assert bob == Seat(0, "bob", vacant=True, left=(BOB,))
    assert cid == Seat(CID, "cid")
    assert not {"timeouts", "away", "vacant", "left"} & set(game.options)
    assert game.options["clock"] == out.game.options["clock"]
    assert auto_level(game, "ann") == "normal" and auto_level(game, "cid") is None
    assert _left_seats(game) == {BOB: "bob"}  # a kicked member still ranks last in a league

    # ann comes back: the write stores the seats in the new format, the old keys are gone
    await service.back(CH, ANN)
    rows = await store.fetchall("SELECT players, options FROM games WHERE id = ?", (game_id,))
    players, options = rows[0]
    assert '"vacant":true' in players and '"left":[22]' in players
    assert '"away"' not in options and '"timeouts"' not in options
    again = await store.get_game(game_id)
    assert again is not None
    assert again.seat_named("ann") == Seat(ANN, "ann")
    assert again.seat_named("bob") == Seat(0, "bob", vacant=True, left=(BOB,))
    # the member lookup still finds each member by her seat only
    assert [g.id for g in await store.games_with(CID)] == [game_id]
    assert await store.games_with(BOB) == []


def test_a_seat_round_trips_through_json() -> None:
    seat = Seat(ANN, "ann", timeouts=1, away=True, left=(5, 6), until=1.8e9)
    assert Seat.from_json(seat.to_json()) == seat
    assert Seat(ANN, "ann").to_json() == {"id": ANN, "name": "ann"}
