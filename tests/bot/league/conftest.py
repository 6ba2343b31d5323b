"""Fixtures of the league tests: a league service on the shared store with a clock the test
moves by hand, and a game service wired to it as the bot wires them (league seat checks,
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
async def leagues(store: Store, clock: Clock) -> LeagueService:
    return LeagueService(store, now=clock)


@pytest.fixture
async def games(store: Store, leagues: LeagueService) -> GameService:
    svc = GameService(store, rng=random.Random(0))
    svc.seat_checks.append(leagues.check_seat)
    svc.finish_listeners.append(lambda game: leagues.record(game.id))
    return svc
