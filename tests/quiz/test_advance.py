"""Tests for bot.features.private.advance: an answer tap and a "Next" tap, each decided in one core
call, on a real SQLite file."""

from __future__ import annotations

import pytest

from bot.features.learning.service import LearningService
from bot.features.preferences.flow import AnswerFlow
from bot.features.preferences.service import PreferencesService
from bot.features.private.advance import (
    AnsweredBefore,
    NotRecorded,
    Recorded,
    answer_tap,
    next_question,
)
from bot.features.private.service import QuizService
from bot.kernel.engine import FINISHED, StaleQuestion
from bot.kernel.ports import StorageError
from storage import SQLiteStore

USER = 7


async def play_to_the_end(quiz: QuizService, banks, bank_id: str) -> tuple[int, int]:
    """Answer every question of a fresh attempt (option slot 0, right or wrong), tapping
    "Next" after each but the last; the attempt id and the last position."""
    attempt = await quiz.start(USER, bank_id)
    learning = LearningService(quiz.store, banks)  # type: ignore[arg-type]
    for position in range(attempt.total):
        attempt, answer = await quiz.grade(USER, attempt.id, position, 0)
        attempt = await quiz.record(attempt, answer)
        if position < attempt.total - 1:
            shown = await next_question(quiz, learning, USER, attempt.id, position)
            assert shown.attempt.position == position + 1 and shown.previous_best is None
            quiz.shown(attempt.id, position)
    return attempt.id, attempt.total - 1


async def test_the_last_next_shows_the_score_with_the_best_earlier_attempt(tmp_path, banks):
    """After a first finished attempt, the last "Next" of a second one gives the finished
    attempt, its bank and the first attempt's score; once shown, a second tap on it is
    stale."""
    store = await SQLiteStore.open(tmp_path / "quiz.sqlite3")
    try:
        quiz = QuizService(store, banks)
        learning = LearningService(store, banks)
        bank_id = next(iter(banks))
        first_id, last = await play_to_the_end(quiz, banks, bank_id)
        first = await next_question(quiz, learning, USER, first_id, last)
        assert first.attempt.status == FINISHED and first.previous_best is None
        second_id, last = await play_to_the_end(quiz, banks, bank_id)
        shown = await next_question(quiz, learning, USER, second_id, last)
        assert shown.attempt.status == FINISHED and shown.bank.id == bank_id
        assert shown.previous_best is not None
        assert (shown.previous_best.ended_at, shown.previous_best.total) == (
            first.attempt.ended_at,
            first.attempt.total,
        )
        quiz.shown(second_id, last)
        with pytest.raises(StaleQuestion):
            await next_question(quiz, learning, USER, second_id, last)
    finally:
        await store.close()


async def test_a_next_is_spent_only_once_its_outcome_was_shown(tmp_path, banks):
    """A "Next" whose question was not (yet) sent may be tapped again and gives the same
    question; once the front end says it was shown, the same tap is stale."""
    store = await SQLiteStore.open(tmp_path / "quiz.sqlite3")
    try:
        quiz = QuizService(store, banks)
        learning = LearningService(store, banks)
        attempt = await quiz.start(USER, next(iter(banks)))
        attempt, answer = await quiz.grade(USER, attempt.id, 0, 0)
        attempt = await quiz.record(attempt, answer)
        first = await next_question(quiz, learning, USER, attempt.id, 0)
        again = await next_question(quiz, learning, USER, attempt.id, 0)  # the send failed
        assert first.attempt.position == again.attempt.position == 1
        assert not quiz.was_shown(attempt.id, 0)
        quiz.shown(attempt.id, 0)
        assert quiz.was_shown(attempt.id, 0)
        with pytest.raises(StaleQuestion):
            await next_question(quiz, learning, USER, attempt.id, 0)
    finally:
        await store.close()


async def test_a_next_whose_outcome_could_not_be_read_may_be_tapped_again(tmp_path, banks):
    """The storage goes away while the last "Next" looks up the best earlier score: the tap
    fails and is not spent, so the same tap works once storage is back."""
    path = tmp_path / "quiz.sqlite3"
    store = await SQLiteStore.open(path)
    quiz = QuizService(store, banks)
    attempt_id, last = await play_to_the_end(quiz, banks, next(iter(banks)))
    await store.close()
    with pytest.raises((StorageError, ValueError)):  # aiosqlite: "Connection closed"
        await next_question(quiz, LearningService(store, banks), USER, attempt_id, last)
    store = await SQLiteStore.open(path)
    try:
        quiz.store = store
        shown = await next_question(quiz, LearningService(store, banks), USER, attempt_id, last)
        assert shown.attempt.status == FINISHED
    finally:
        await store.close()


async def test_an_answer_tap_is_recorded_then_what_follows_is_ready_in_the_one_tap_flow(
    tmp_path, banks
):
    """In the "Next" flow, a tap is recorded and nothing follows; in the one-tap flow the next
    question comes with it, and a second tap on the answered question is answered before:
    with what follows while it was not noted shown, without once it was."""
    store = await SQLiteStore.open(tmp_path / "quiz.sqlite3")
    try:
        quiz, learning = QuizService(store, banks), LearningService(store, banks)
        preferences = PreferencesService(store)
        attempt = await quiz.start(USER, next(iter(banks)))
        told: list[tuple[bool, int]] = []

        async def acknowledge(answered_before: bool) -> None:  # before the write
            told.append((answered_before, len(await _stored_answers(store, attempt.id))))

        outcome = await answer_tap(
            quiz,
            learning,
            preferences,
            USER,
            attempt.id,
            0,
            slot=0,
            language="el",
            acknowledge=acknowledge,
        )
        assert isinstance(outcome, Recorded) and not outcome.one_tap and outcome.next is None
        assert told == [(False, 0)]
        assert outcome.attempt.position == 1 and len(await _stored_answers(store, attempt.id)) == 1
        await preferences.choose_answer_flow(USER, AnswerFlow.ONE_TAP)
        outcome = await answer_tap(quiz, learning, preferences, USER, attempt.id, 1, slot=0)
        assert isinstance(outcome, Recorded) and outcome.one_tap and outcome.next is not None
        assert outcome.next.attempt.position == 2
        again = await answer_tap(
            quiz, learning, preferences, USER, attempt.id, 1, slot=1, acknowledge=acknowledge
        )
        assert isinstance(again, AnsweredBefore) and again.one_tap and told[-1] == (True, 2)
        assert again.next is not None and again.next.attempt.position == 2  # never sent
        quiz.shown(attempt.id, 1)
        again = await answer_tap(quiz, learning, preferences, USER, attempt.id, 1, slot=1)
        assert isinstance(again, AnsweredBefore) and again.one_tap and again.next is None
        assert len(await _stored_answers(store, attempt.id)) == 2
    finally:
        await store.close()


async def test_an_answer_that_could_not_be_stored_is_not_recorded(tmp_path, banks):
    """The storage fails the write: the outcome says so and nothing is cached as answered, so
    the same tap is recorded once storage is back."""
    store = await SQLiteStore.open(tmp_path / "quiz.sqlite3")
    try:
        quiz, learning = QuizService(store, banks), LearningService(store, banks)
        preferences = PreferencesService(store)
        attempt = await quiz.start(USER, next(iter(banks)))
        real = store.record_answer

        async def failing(*args, **kwargs):
            raise StorageError("disk full")

        store.record_answer = failing  # type: ignore[method-assign]
        outcome = await answer_tap(quiz, learning, preferences, USER, attempt.id, 0, slot=0)
        assert outcome == NotRecorded(failed=True)
        store.record_answer = real  # type: ignore[method-assign]
        outcome = await answer_tap(quiz, learning, preferences, USER, attempt.id, 0, slot=0)
        assert isinstance(outcome, Recorded) and outcome.attempt.position == 1
    finally:
        await store.close()


async def _stored_answers(store: SQLiteStore, attempt_id: int) -> list[str]:
    """The question ids the stored attempt has answers for."""
    stored = await store.attempt(attempt_id)
    assert stored is not None
    return list(stored.answers)
