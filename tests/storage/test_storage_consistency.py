"""Storage, on each engine: a read after a committed write always sees it (read-your-writes),
whatever other readers are doing at the same time (on SQLite's shared reader connection; on
PostgreSQL's pool)."""

from __future__ import annotations

import asyncio

import pytest

from bot.features.groups.rules import GroupAnswer
from bot.kernel.engine import Answer, Plan
from storage import PostgresStore, SQLiteStore
from tests.support.engines import record

PLAN = Plan(("q1", "q2", "q3", "q4"), ((0, 1, 2, 3),) * 4)


@pytest.fixture
async def store(engine):
    """A fresh store on each engine (a real file; a PostgreSQL database)."""
    opened = await engine.open()
    yield opened
    await opened.close()


async def _readers(
    store: SQLiteStore | PostgresStore,
    session_id: int,
    user_id: int,
    stop: asyncio.Event,
    count: int,
) -> None:
    """``count`` coroutines reading every kind of data until ``stop`` is set."""

    async def one(i: int) -> None:
        while not stop.is_set():
            await store.session(session_id)
            await store.active_attempt(user_id + i % 3)
            await store.group_answers(session_id)
            await store.stats(user_id)
            await asyncio.sleep(0)

    await asyncio.gather(*(one(i) for i in range(count)))


@pytest.mark.parametrize("readers", [0, 4, 32])
async def test_a_read_after_a_committed_write_sees_it(store, readers):
    """Every port read right after a committed write returns the written state, with 0, 4 or
    32 concurrent readers on the shared reader connection (they once pinned an old WAL
    snapshot: 117 of 400 reads of a session returned the position before the close)."""
    session = await store.start_session(-100, "bank", 1, "en", 1, PLAN, 30.0, 0.0)
    assert session is not None
    for user in range(3):
        await store.start_attempt(10 + user, "bank", 1, PLAN, 0.0)
    stop = asyncio.Event()
    background = asyncio.create_task(_readers(store, session.id, 10, stop, readers))
    stale = []
    try:
        for round_ in range(25):
            for position in range(4):
                await asyncio.sleep(0)  # let the readers interleave
                assert await store.open_question(session.id, position, 1e12)
                seen = await store.session(session.id)
                if seen is None or seen.deadline != 1e12:
                    stale.append(("open", round_, position))
                answer = GroupAnswer(
                    round_ * 10 + 1, PLAN.question_order[position], 0, True, 1.0, 1.0
                )
                await store.record_group_answer(session.id, position, answer, "A")
                if answer not in await store.group_answers(session.id):
                    stale.append(("answer", round_, position))
                assert await store.close_question(session.id, position)
                seen = await store.session(session.id)
                if seen is None or seen.position != position + 1 or seen.deadline is not None:
                    stale.append(("close", round_, position))
            assert await store.end_session(session.id, "finished", 2.0)
            seen = await store.session(session.id)
            if seen is None or seen.status != "finished":
                stale.append(("end", round_))
            attempt = await store.start_attempt(10, "bank", 1, PLAN, 3.0)
            await record(store, attempt, Answer("q1", 0, True, 3.0))
            active = await store.active_attempt(10)
            if active is None or active.id != attempt.id or "q1" not in active.answers:
                stale.append(("attempt", round_))
            session = await store.start_session(-100, "bank", 1, "en", 1, PLAN, 30.0, 0.0)
            assert session is not None
    finally:
        stop.set()
        await background
    assert stale == []
