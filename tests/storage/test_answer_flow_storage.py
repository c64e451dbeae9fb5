"""The answer flow choice (migration 0016) on each engine, and the SQLite writer's one trip to
its thread per batch of answers."""

from __future__ import annotations

import asyncio

from bot.features.preferences.flow import AnswerFlow
from bot.kernel.engine import Answer, Plan, with_answer
from bot.kernel.ports import CLOSED, RECORDED
from storage import SQLiteStore

PLAN = Plan(("q1", "q2"), ((0, 1, 2, 3), (0, 1, 2, 3)))


async def test_the_answer_flow_is_kept_per_user_beside_the_language(engine):
    """A user's flow choice is stored and read back after a reopen, leaves their language
    choice as it was (and the other way round), and a user who chose nothing has none."""
    store = await engine.open()
    try:
        await store.set_user_language(7, "el")
        await store.set_answer_flow(7, AnswerFlow.ONE_TAP.value, 10.0)
        await store.set_answer_flow(8, AnswerFlow.ONE_TAP.value, 10.0)
        await store.set_answer_flow(8, AnswerFlow.NEXT.value, 11.0)
        await store.set_user_language(8, "hi")
    finally:
        await store.close()
    store = await engine.open()
    try:
        assert await store.answer_flow(7) == "one_tap" and await store.user_language(7) == "el"
        assert await store.answer_flow(8) == "next" and await store.user_language(8) == "hi"
        assert await store.answer_flow(9) is None
    finally:
        await store.close()


async def test_a_batch_of_answers_is_one_trip_to_the_writers_thread(tmp_path):
    """Answers queued together are stored in one transaction and one trip to the writer's
    thread (BEGIN, every answer's statements, COMMIT), each with its own outcome: an answer
    to a question answered already is refused alone."""
    store = await SQLiteStore.open(tmp_path / "quiz.sqlite3")
    try:
        attempts = [await store.start_attempt(user, "bank", 1, PLAN, 0.0) for user in range(20)]
        first = Answer("q1", 1, True, 1.0)
        assert (
            await store.record_answer(attempts[0].id, 0, first, with_answer(attempts[0], first))
            == RECORDED
        )
        trips = 0
        writer = store._writer_db
        run = writer.run

        async def counted(fn):  # the writer's trips to its thread, counted
            nonlocal trips
            trips += 1
            return await run(fn)

        writer.run = counted  # type: ignore[method-assign]
        commits = store.commits
        outcomes = await asyncio.gather(
            *(store.record_answer(a.id, 0, first, with_answer(a, first)) for a in attempts)
        )
        assert outcomes == [CLOSED] + [RECORDED] * 19  # the first had moved on already
        assert (trips, store.commits - commits) == (1, 1)
        moved = await store.attempt(attempts[5].id)
        assert moved is not None and moved.position == 1
    finally:
        await store.close()
