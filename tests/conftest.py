from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import hypothesis  # noqa: F401 - see below
import pytest
import pytest_asyncio
from fakediscord.fixtures import fake_discord  # noqa: F401
from pgserver import TempPostgres, available

# hypothesis is imported here, at collection, on purpose: its pytest plugin otherwise imports
# it lazily in the terminal summary of a run whose tests never did (e.g. one file), and on
# CPython 3.11.7 pytest's assertion rewriting of it there can die with "SystemError: AST
# constructor recursion depth mismatch" after every test passed, turning the exit code to 1.

# CI sets REQUIRE_POSTGRES=1: there a missing PostgreSQL fails the run instead of skipping.
REQUIRE_POSTGRES = os.environ.get("REQUIRE_POSTGRES", "") not in ("", "0")
_databases = itertools.count(1)


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
