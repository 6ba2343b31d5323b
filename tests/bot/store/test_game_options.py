"""A game's options are typed (bot.store.options.GameOptions) and checked at the edge: every
write of them is refused, changing nothing, if a value does not fit; reads are typed
attributes, and a malformed value stored before the model is left out, not fatal."""

from __future__ import annotations

import dataclasses
import logging

import pytest

from bot.clock import ClockConfig
from bot.game.service import GameService
from bot.store import Store
from bot.store.options import BadOptions, GameOptions, LeagueTag, Reliability, checked_options

CH = 710
ANN, BOB = 11, 22


async def test_options_read_as_typed_attributes(service: GameService) -> None:
    game = await service.open_lobby(
        guild_id=1, channel_id=CH, user_id=ANN, name="ann", players=2, seed=3,
        options={"language": "da", "hints": False, "clock": {"limit": 3600, "remind": "dm"}})
    opts = game.opts
    assert opts.language == "da" and opts.hints is False and opts.paused is False
    assert opts.turn_clock == ClockConfig(limit=3600, remind="dm")
    assert opts.league is None and opts.reliability is None and opts.max_players == 2
    table = await service.table_rules(CH, ANN, vacation="ai", max_missed=10, over=40)
    assert table.opts.vacation == "ai"
    assert table.opts.reliability == Reliability(max_missed=10, over=40)


@pytest.mark.parametrize("bad", [
    {"vacation": "sometimes"},
    {"max_players": 9},
    {"reliability": {"max_missed": 150}},
    {"league": {"ai_seats": -1}},
    {"paused": "maybe"},
])
async def test_a_malformed_write_is_refused_and_changes_nothing(store: Store,
                                                                service: GameService,
                                                                bad: dict) -> None:
    game = await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann",
                                    players=2, seed=3)
    with pytest.raises(BadOptions) as info:
        await store.set_options(game.id, {**game.options, **bad})
    assert next(iter(bad)) in str(info.value)
    after = await store.get_game(game.id)
    assert after is not None and after.options == game.options
    with pytest.raises(BadOptions):
        await store.create_game(guild_id=1, channel_id=CH + 1, seed=1, players=[],
                                options=bad)
    assert await store.open_game(CH + 1) is None


def test_a_stored_malformed_value_is_left_out_with_a_warning(
        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        opts = GameOptions.read({"language": "sv", "vacation": 7, "paused": True,
                                 "league": {"season_id": 4, "table": [1, 2], "round": 2},
                                 "timeouts": {"ann": 2}})
    assert opts.vacation is None and opts.language == "sv" and opts.paused
    assert opts.league == LeagueTag(season_id=4, table=(1, 2), round=2)
    assert "vacation" in caplog.text
    assert checked_options({"timeouts": {"ann": 2}}) == {"timeouts": {"ann": 2}}  # old keys


def test_the_members_drawn_for_a_round_table() -> None:
    assert GameOptions.read({}).drawn == ()
    assert GameOptions.read({"league": {"season_id": 4}}).drawn == ()
    assert GameOptions.read({"league": {"season_id": 4, "table": [7, 8], "round": 1}}).drawn \
        == (7, 8)


async def test_a_row_reads_its_options_once_and_a_changed_row_anew(service: GameService
                                                                   ) -> None:
    game = await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann",
                                    players=2, seed=3, options={"language": "da"})
    assert game.opts is game.opts and game.opts.language == "da"
    changed = dataclasses.replace(game, options={**game.options, "language": "sv"})
    assert changed.opts.language == "sv" and game.opts.language == "da"
