"""Fixtures of the league tests: a league service on the shared store with a clock the test
moves by hand, on a game service wired to it as the bot wires them (league seat checks,
results recorded when a game finishes)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from bot.game.service import GameService
from bot.league import LeagueService
from bot.store import Store


class Clock:
    """The league's now: Monday 2026-11-23 18:00 UTC until a test moves it (`clock.t += ...`)."""

    def __init__(self) -> None:
        self.t = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def game_service(store: Store) -> GameService:
    return GameService(store, rng=random.Random(0))


@pytest.fixture
async def leagues(store: Store, game_service: GameService, clock: Clock) -> LeagueService:
    """The league service on the game service, wired as the bot wires them."""
    leagues = LeagueService(store, game_service, now=clock)
    game_service.seat_checks.append(leagues.check_seat)
    game_service.finish_listeners.append(lambda game: leagues.record(game.id))
    return leagues


@pytest.fixture
async def games(game_service: GameService, leagues: LeagueService) -> GameService:
    return game_service
