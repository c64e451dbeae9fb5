"""QuizService over real SQLite when the bank file is edited without a version bump between
two runs of the bot (see ``bot.kernel.engine.revise``)."""

from __future__ import annotations

import logging

import pytest

from bot.bankload import load_banks
from bot.features.private.service import QuizService
from bot.kernel import engine
from storage import SQLiteStore
from tests.support.bankedit import (
    NEW_OPTION,
    copy_bank,
    edit_bank,
    remove_question,
    replace_correct_option,
)
from tests.support.banks import BANK_ID

USER = 11


@pytest.fixture
async def store(tmp_path):
    s = await SQLiteStore.open(tmp_path / "quiz.sqlite3")
    yield s
    await s.close()


def state(attempt: engine.Attempt) -> tuple[object, ...]:
    """What a revision may change (answer times are not compared: SQLite's JSON functions keep
    15 significant digits of a REAL)."""
    return (
        attempt.id,
        attempt.plan,
        attempt.fingerprints,
        attempt.position,
        attempt.status,
        {q: (a.option_index, a.correct) for q, a in attempt.answers.items()},
    )


async def answer_current(
    service: QuizService, user_id: int, attempt: engine.Attempt, *, correct: bool = True
) -> engine.Attempt:
    """Answer the attempt's current question through the service; return it moved on."""
    bank = await service.bank(attempt.bank_id)
    v = engine.view(attempt, bank)
    slot = v.correct_slot if correct else (v.correct_slot + 1) % len(v.slots)
    attempt, answer = await service.grade(user_id, attempt.id, attempt.position, slot)
    return await service.record(attempt, answer)


async def test_an_edited_question_is_shown_afresh_and_graded_as_it_is_now(tmp_path, store, caplog):
    """Run 1 answers question 1; run 2 loads the edited file: the edited question 2 is revised
    once (stored, with a notice and one WARNING), graded against its new content; question 1
    keeps its recorded answer."""
    path = copy_bank(tmp_path / "banks")
    first = QuizService(store, load_banks([path]))
    attempt = await first.start(USER, BANK_ID)
    assert attempt.fingerprints == engine.fingerprints(await first.bank(BANK_ID))
    attempt = await answer_current(first, USER, attempt, correct=False)

    edit_bank(path, replace_correct_option(1))
    edit_bank(path, replace_correct_option(0))  # answered already: its answer stays wrong
    banks = load_banks([path])
    second = QuizService(store, banks)
    caplog.set_level(logging.WARNING, logger="bot.features.private.service")
    resumed = await second.active(USER)
    assert resumed is not None and resumed.id == attempt.id
    with pytest.raises(engine.QuestionChanged):  # a tap on the question shown before the edit
        await second.grade(USER, attempt.id, 1, 0)
    current, updated = await second.current(resumed)
    assert updated and current.position == 1
    question = banks[BANK_ID].questions[1]
    assert current.fingerprints[question.id] == question.fingerprint
    assert state(await store.attempt(attempt.id)) == state(current)  # the new order is stored
    assert await second.current(current) == (current, False)  # once

    v = engine.view(current, banks[BANK_ID])
    assert v.question.options[v.slots[v.correct_slot]].text.by_language == NEW_OPTION
    current, answer = await second.grade(USER, attempt.id, 1, v.correct_slot)
    assert answer.correct and answer.option_index == 0
    current = await second.record(current, answer)

    # a third run on the same file: nothing more to revise, nothing more logged
    third = QuizService(store, banks)
    again, updated = await third.current(await third.active(USER))
    assert state(again) == state(current) and not updated
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and question.id in warnings[0] and BANK_ID in warnings[0]
    assert "without a version bump" in warnings[0]

    for _ in range(6):
        current, _ = await second.current(current)
        current = await answer_current(second, USER, current)
    assert current.status == engine.FINISHED
    assert engine.result(current) == engine.Result(7, 8, (banks[BANK_ID].questions[0].id,))


async def test_removed_questions_are_skipped_and_logged_once_per_question(tmp_path, store, caplog):
    """Two users mid-attempt; the current and a later question are removed: each user skips
    them (stored), and each removed question is logged once."""
    path = copy_bank(tmp_path / "banks")
    first = QuizService(store, load_banks([path]))
    attempts = [await first.start(user, BANK_ID) for user in (1, 2)]
    attempts = [
        await answer_current(first, user, a) for user, a in zip((1, 2), attempts, strict=True)
    ]
    original = await first.bank(BANK_ID)
    edit_bank(path, remove_question(5))
    edit_bank(path, remove_question(1))
    second = QuizService(store, load_banks([path]))
    caplog.set_level(logging.WARNING, logger="bot.features.private.service")
    for user in (1, 2):
        current, updated = await second.current(await second.active(user))
        assert not updated
        assert current.total == 6 and current.position == 1
        assert current.plan.question_order[current.position] == original.questions[2].id
        assert state(await store.active_attempt(user)) == state(current)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2
    for removed in (original.questions[1], original.questions[5]):
        said = f"question {removed.id} was removed without a version bump"
        assert sum(said in warning for warning in warnings) == 1


async def test_nothing_left_to_ask_finishes_the_attempt(tmp_path, store):
    """Every unanswered question removed: the attempt is finished and scored on what is left."""
    path = copy_bank(tmp_path / "banks")
    first = QuizService(store, load_banks([path]))
    attempt = await first.start(USER, BANK_ID)
    for _ in range(7):
        attempt = await answer_current(first, USER, attempt)
    edit_bank(path, remove_question(7))
    second = QuizService(store, load_banks([path]))
    current, updated = await second.current(await second.active(USER))
    assert not updated and current.status == engine.FINISHED
    assert engine.result(current) == engine.Result(7, 7, ())
    assert await store.active_attempt(USER) is None
    assert (await store.attempt(attempt.id)).status == engine.FINISHED
