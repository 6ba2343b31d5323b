from __future__ import annotations

import functools
import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import hypothesis  # noqa: F401 - see below
import pytest
import pytest_asyncio
from fakediscord.fixtures import fake_discord  # noqa: F401
from pgserver import TempPostgres, available

import ai
import engine

# hypothesis is imported here, at collection, on purpose: its pytest plugin otherwise imports
# it lazily in the terminal summary of a run whose tests never did (e.g. one file), and on
# CPython 3.11.7 pytest's assertion rewriting of it there can die with "SystemError: AST
# constructor recursion depth mismatch" after every test passed, turning the exit code to 1.

# CI sets REQUIRE_POSTGRES=1: there a missing PostgreSQL fails the run instead of skipping.
# a finished game's review (bot/archive/reviews.py) runs in a thread in tests: a light one, so
# the games that end in e2e tests do not pay a whole hard-AI review each
os.environ.setdefault("REVIEW_WORK", "2")
os.environ.setdefault("REVIEW_LEVEL", "easy")
REQUIRE_POSTGRES = os.environ.get("REQUIRE_POSTGRES", "") not in ("", "0")
_databases = itertools.count(1)


# `python -m pytest -m "not slow"` is the inner loop: it leaves out whole games through the
# fake Discord (e2e), the proofs (kills, fuzz, processes), bot subprocesses and worker
# processes, random-game sweeps, the wheel build, the benches' smoke runs, and the PostgreSQL
# half of the store and service tests (their SQLite half stays). CI runs everything.
SLOW_FOLDERS = frozenset({"e2e", "proof"})
SLOW_FILES = frozenset({
    "test_invariants.py", "test_legal_exact.py", "test_packaging.py", "test_checkout.py",
    "test_bench_store.py", "test_bench_replay.py", "test_cli_errors.py", "test_demo.py",
    "test_lifecycle.py", "test_startup.py", "test_settings_main.py", "test_picture_workers.py",
    "test_cancelled_writes.py", "test_dbtools.py", "test_prompts.py", "test_geometry.py",
})
# single tests of several seconds each (whole games, every board, the hard AI's sweeps)
SLOW_TESTS = frozenset({
    "test_a_defender_who_does_not_place_survivors_gets_the_ai",
    "test_undo_count_and_turn_story_see_another_process_writes",
    "test_choice_ignores_hidden_information_and_is_deterministic",
    "test_every_choice_is_legal_and_games_end",
    "test_cli_draws_a_small_inline_map",
    "test_survivors_with_one_way_to_go_are_placed_by_the_bot",
    "test_clock_lines_speak_the_games_language_and_dms_the_readers",
    "test_a_whole_ai_game_through_the_scheduler",
    "test_an_ai_move_that_ends_the_game_carries_the_finish_lines",
    "test_a_finished_game_records_its_seats",
})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = item.path
        if (SLOW_FOLDERS & set(path.parts) or path.name in SLOW_FILES
                or item.name.split("[")[0] in SLOW_TESTS or "[postgresql" in item.nodeid):
            item.add_marker(pytest.mark.slow)


def pytest_report_header(config: pytest.Config) -> str:
    problem = available()
    if problem is None:
        return "postgresql: tests start their own server from the OS binaries"
    return ("postgresql: MISSING, PostgreSQL tests will FAIL (REQUIRE_POSTGRES is set)"
            if REQUIRE_POSTGRES else f"postgresql: {problem}")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[TempPostgres]:
    """One PostgreSQL server for the whole run; each test gets its own database."""
    problem = available()
    if problem is not None:
        if REQUIRE_POSTGRES:
            pytest.fail(problem.replace("skipped", "required (REQUIRE_POSTGRES=1)"))
        pytest.skip(problem)
    server = TempPostgres().start()
    try:
        yield server
    finally:
        server.stop()


@pytest_asyncio.fixture
async def pg_url(pg_server: TempPostgres) -> str:
    """The URL of a fresh, empty PostgreSQL database."""
    return await pg_server.create_database(f"t{os.getpid()}_{next(_databases)}")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A DATABASE_URL for each store: a SQLite file, then a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'sw.db'}"
    return request.getfixturevalue("pg_url")


GameLog = tuple[engine.GameState, list[dict], list[list[dict]]]


@functools.lru_cache(maxsize=16)
def _played(board_id: str, seed: int, stop: int | None) -> GameLog:
    n = engine.data.board(board_id).players
    names = ["Anna", "Bence", "Csilla", "Dóra", "Endre"][:n]
    start = state = engine.new_game(board_id, names, seed)
    actions: list[dict] = []
    events: list[list[dict]] = []
    while not state.finished and (stop is None or len(actions) < stop):
        action = ai.choose(state, "easy", len(actions))
        step = engine.apply(state, action)
        actions.append(action.model_dump(mode="json"))
        events.append([dict(e) for e in step.events])  # as the bot stores them
        state = step.state
    return start, actions, events


@pytest.fixture
def game_log():
    """game_log(board_id, seed, stop=None): a game played by the easy AI (to its end, or for
    `stop` actions) as the bot stores it: the first state, the actions (protocol dicts) and
    each action's events. The same arguments give the same game (and the same objects:
    do not change them)."""
    return lambda board_id, seed=11, stop=None: _played(board_id, seed, stop)
