"""Storage of exam attempts' terms (:class:`bot.features.exams.ports.ExamStore`) against a real
database, on each engine (a SQLite file, and PostgreSQL: the ``engine`` fixture)."""

from __future__ import annotations

import pytest

from bot.features.exams.rules import ExamTerms
from bot.kernel.engine import Answer, Plan
from bot.kernel.ports import StorageError
from tests.support.engines import record

PLAN = Plan(("q3", "q1"), ((1, 0), (0, 1)))


@pytest.fixture
async def store(engine):
    s = await engine.open()
    yield s
    await s.close()


async def test_terms_are_kept_once_and_read_back(store) -> None:
    attempt = await store.start_attempt(7, "bank", 1, PLAN, 100.0)
    terms = ExamTerms(attempt.id, 10, 700.0, {"q3": 4.0, "q1": 2.5}, 1.0)
    await store.save_exam(terms)
    await store.save_exam(ExamTerms(attempt.id, 99, 9.0, {}, 0.0))  # the first stays
    assert await store.exam_terms(attempt.id) == terms
    assert await store.exam_terms(attempt.id + 1) is None
    assert (await store.attempt(attempt.id)).plan == PLAN  # the paper is the attempt's plan


async def test_overdue_exams_are_submitted_with_what_was_answered(store) -> None:
    early = await store.start_attempt(1, "bank", 1, PLAN, 100.0)
    late = await store.start_attempt(2, "bank", 1, PLAN, 100.0)
    plain = await store.start_attempt(3, "bank", 1, PLAN, 100.0)
    await store.save_exam(ExamTerms(early.id, 1, 160.0, {"q3": 1.0, "q1": 1.0}, 0.0))
    await store.save_exam(ExamTerms(late.id, 5, 400.0, {"q3": 1.0, "q1": 1.0}, 0.0), "el")
    assert await record(store, early, Answer("q3", 0, True, 120.0)) == "recorded"
    assert await store.overdue_exams(159.0) == []
    assert await store.overdue_exams(160.0) == [(early.id, 1, None)]
    assert await store.overdue_exams(500.0) == [(early.id, 1, None), (late.id, 2, "el")]
    assert await store.submit_exam(early.id, 160.0)
    assert not await store.submit_exam(early.id, 161.0)  # once
    submitted = await store.attempt(early.id)
    assert (submitted.status, submitted.ended_at, submitted.position) == ("finished", 160.0, 1)
    assert set(submitted.answers) == {"q3"}
    assert await store.overdue_exams(500.0) == [(late.id, 2, "el")]
    assert (await store.attempt(plain.id)).status == "active"


async def test_a_homework_exam_is_kept_and_replaced(store) -> None:
    from bot.features.homework.ports import NewAssignment
    from bot.kernel.bank import Exam

    new = NewAssignment(-100, None, "hwAAAAAAAAAAAAAAAA", "bank", 1, "en", 1, "T", 9000.0)
    assignment = await store.create_assignment(new, 100.0)
    assert await store.homework_exam(assignment.id) is None
    await store.save_homework_exam(assignment.id, Exam(5, 4.0, 1.0, 3))
    await store.save_homework_exam(assignment.id, Exam(7, 4.0, 0.5, None))
    assert await store.homework_exam(assignment.id) == Exam(7, 4.0, 0.5, None)


async def test_an_exam_left_is_submitted_as_it_was_left_and_a_quiz_is_not(store) -> None:
    exam = await store.start_attempt(1, "bank", 1, PLAN, 100.0)
    await store.save_exam(ExamTerms(exam.id, 10, 700.0, {"q3": 1.0, "q1": 1.0}, 0.0))
    assert await record(store, exam, Answer("q3", 0, True, 120.0)) == "recorded"
    assert not await store.submit_left_exam(exam.id)  # still active: not left
    await store.abandon(exam.id, 130.0)
    assert await store.submit_left_exam(exam.id)
    assert not await store.submit_left_exam(exam.id)  # once
    left = await store.attempt(exam.id)
    assert (left.status, left.ended_at, set(left.answers)) == ("finished", 130.0, {"q3"})
    quiz = await store.start_attempt(2, "bank", 1, PLAN, 100.0)
    await store.abandon(quiz.id, 130.0)
    assert not await store.submit_left_exam(quiz.id)  # no exam: stays abandoned
    assert (await store.attempt(quiz.id)).status == "abandoned"


async def trap_exam_commits(engine) -> None:
    """From now on a transaction that keeps an exam's terms fails at its COMMIT, and only
    there (a trigger adds a row whose deferred foreign key dangles: as
    :meth:`tests.support.engines.Engine.trap_commits`)."""
    statements = [
        "CREATE TABLE commit_trap_parent (id BIGINT PRIMARY KEY)",
        "CREATE TABLE commit_trap (parent BIGINT"
        " REFERENCES commit_trap_parent (id) DEFERRABLE INITIALLY DEFERRED)",
    ]
    if engine.name == "sqlite":
        statements.append(
            "CREATE TRIGGER commit_trap AFTER INSERT ON exam_attempts"
            " BEGIN INSERT INTO commit_trap VALUES (NEW.attempt_id); END"
        )
    else:
        statements += [
            "CREATE FUNCTION commit_trap() RETURNS trigger LANGUAGE plpgsql AS"
            " $$ BEGIN INSERT INTO commit_trap VALUES (NEW.attempt_id); RETURN NULL; END $$",
            "CREATE TRIGGER commit_trap AFTER INSERT ON exam_attempts FOR EACH ROW"
            " EXECUTE FUNCTION commit_trap()",
        ]
    for statement in statements:
        await engine.execute(statement)


async def test_an_exam_starts_with_its_terms_in_one_transaction(engine, store) -> None:
    """``start_exam`` abandons the active attempt, stores the new one and keeps its terms
    (their attempt id the new one's) together: when the terms cannot be committed, nothing
    is stored and the earlier attempt is still active."""
    terms = ExamTerms(0, 10, 700.0, {"q3": 4.0, "q1": 2.5}, 1.0)
    quiz = await store.start_attempt(7, "bank", 1, PLAN, 50.0)
    exam = await store.start_exam(7, "bank", 1, PLAN, 100.0, {"q3": "f3"}, terms, "el")
    assert await store.exam_terms(exam.id) == ExamTerms(exam.id, 10, 700.0, terms.marks, 1.0)
    assert (await store.active_attempt(7)).id == exam.id
    assert (await store.attempt(quiz.id)).status == "abandoned"
    assert await store.overdue_exams(700.0) == [(exam.id, 7, "el")]
    await trap_exam_commits(engine)
    with pytest.raises(StorageError):
        await store.start_exam(7, "bank", 1, PLAN, 200.0, {}, terms)
    assert (await store.active_attempt(7)).id == exam.id  # nothing of the start was stored
    assert await engine.fetchval("SELECT COUNT(*) FROM attempts") == 2
