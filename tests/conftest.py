"""Shared fixtures: the fake Bot API server, the real bot running against it, the storage
engines. What tests import (people, the running bot, screens, clocks) lives in
``tests/support/``; no test imports this file (tests/test_house.py checks it)."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest

from bot.bankload import load_banks
from bot.config import BUNDLED_BANKS
from bot.kernel.bank import Bank
from tests.support.botrun import RunningBot
from tests.support.engines import Engine
from tests.support.fakebotapi import FakeBotAPI
from tests.support.pgserver import PgServer, PgUnavailable

os.environ.setdefault("PTB_TIMEDELTA", "1")  # as `quizbot` sets it (bot/__main__.py)
os.environ.setdefault("QUIZBOT_I18N_STRICT", "1")  # an unknown message key raises (bot/i18n)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): two workers per core. Most tests wait on sockets, a
    process or PostgreSQL rather than compute, so one per core leaves the cores half idle;
    each worker has its own fake servers, ports and databases (fixtures per test)."""
    return 2 * (os.cpu_count() or 1)


LONG_FIRST = (
    "tests/e2e/test_faults.py",
    "tests/benchmarks/",
    "tests/storage/test_storage_consistency.py",
    "tests/cli/test_banks_cli.py",
    "tests/storage/test_postgres_instances.py",
    "tests/e2e/test_e2e_instances.py",
    "tests/telegram/test_stop.py",
    "tests/cli/test_play_terminal.py",
    "tests/cli/test_cli.py",
    "tests/storage/test_dbfile.py",
    "tests/e2e/test_group_load.py",
    "tests/fakebotapi/test_sandbox.py",
    "tests/telegram/test_webhook.py",
)
"""The files whose tests take longest (a minute or more under load, each): collected first, so
that the workers start them first and the run does not end on one of them while the other
workers idle (a long test started last sets the suite's time)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put :data:`LONG_FIRST`'s tests first, in its order; the rest keep theirs."""

    def rank(item: pytest.Item) -> int:
        return next(
            (n for n, prefix in enumerate(LONG_FIRST) if item.nodeid.startswith(prefix)),
            len(LONG_FIRST),
        )

    items.sort(key=rank)


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotAPI]:
    """A fake Bot API server on loopback."""
    server = FakeBotAPI()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def banks() -> dict[str, Bank]:
    """The bundled banks."""
    return load_banks([BUNDLED_BANKS])


@pytest.fixture
async def running_bot(request, fake, tmp_path) -> AsyncIterator[RunningBot]:
    """The bot, running against ``fake`` with a fresh database file; polling unless the test
    asks for a mode by indirect parametrization (see :data:`tests.support.botrun.MODES`)."""
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", mode=getattr(request, "param", "polling"))
    await runner.start()
    yield runner
    await runner.stop()


# --- storage engines: SQLite, and a throwaway PostgreSQL ---------------------------------------


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """The URL of the PostgreSQL server the tests use: ``QUIZBOT_TEST_PG`` (CI starts one,
    `.ci/run`), else a throwaway server started here (``tests/support/pgserver.py``) for the
    session.

    Without PostgreSQL installed this fails with a message saying what to do; set
    ``QUIZBOT_SKIP_PG=1`` to skip the PostgreSQL tests instead (explicitly, never by default).
    """
    url = os.environ.get("QUIZBOT_TEST_PG")
    if url:
        yield url
        return
    if os.environ.get("QUIZBOT_SKIP_PG") == "1":
        pytest.skip("QUIZBOT_SKIP_PG=1: the PostgreSQL tests are skipped")
    try:
        server = PgServer.start()
    except PgUnavailable as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
async def pg_db(pg_url) -> AsyncIterator[str]:
    """A URL whose ``search_path`` is a new, empty schema: a fresh database for one test
    (dropped afterwards)."""
    import asyncpg

    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(pg_url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
    finally:
        await admin.close()
    yield f"{pg_url}{'&' if '?' in pg_url else '?'}search_path={schema}"
    admin = await asyncpg.connect(pg_url)
    try:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await admin.close()


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request, tmp_path) -> Engine:
    """Each storage engine in turn, with a fresh database."""
    if request.param == "sqlite":
        return Engine("sqlite", str(tmp_path / "quiz.sqlite3"))
    return Engine("postgres", request.getfixturevalue("pg_db"))
