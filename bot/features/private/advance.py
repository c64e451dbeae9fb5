"""An answer tap on a private quiz's question, and a "Next" tap on its feedback: what each
shows, decided in one call.

An answer (:func:`answer_tap`) is checked and graded by the quiz service
(:meth:`~bot.features.private.service.QuizService.grade`, a refusal checked again on the stored
attempt), recorded durably (:meth:`~bot.features.private.service.QuizService.record`), and, in the
user's one-tap flow (:mod:`bot.features.preferences.flow`,
:class:`~bot.features.preferences.service.PreferencesService`), what follows it made ready
(:func:`after_answer`); the front end shows the outcome (the feedback only after the answer was
stored), then calls :meth:`~bot.features.private.service.QuizService.shown` for what followed and
:meth:`~bot.features.private.service.QuizService.answered` for the review card.

A "Next" tap is checked by the quiz service
(:meth:`~bot.features.private.service.QuizService.next`), the attempt made fit to show
(:meth:`~bot.features.private.service.QuizService.current`), and, when that was the last question,
the user's best earlier score on the bank looked up
(:meth:`~bot.features.learning.service.LearningService.previous_best`) for the score screen. The
front end shows the outcome, then calls :meth:`~bot.features.private.service.QuizService.shown` (a
later tap on the same "Next" is stale); until then the same tap may be tried again. The one-tap flow
(:func:`after_answer`) asks the same right after an answer is recorded.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.features.learning.ports import ScorePoint
from bot.features.learning.service import LearningService
from bot.features.preferences.flow import AnswerFlow
from bot.features.preferences.service import PreferencesService
from bot.features.private.service import QuizService
from bot.kernel import engine
from bot.kernel.bank import Bank
from bot.kernel.engine import Answer, Attempt, QuizError
from bot.kernel.ports import StorageError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class NextShown:
    """What a "Next" tap shows: the attempt's question at ``attempt.position``, or its score
    when it is finished.

    Attributes:
        attempt: The attempt as stored (finished if no question was left).
        bank: The bank the attempt was planned on, at its version.
        updated: The question was edited since the attempt started (shown with a notice).
        previous_best: For a finished attempt, the user's best earlier attempt or session on
            the bank (None for a first one, and while questions are left).
    """

    attempt: Attempt
    bank: Bank
    updated: bool
    previous_best: ScorePoint | None = None


async def next_question(
    quiz: QuizService, learning: LearningService, user_id: int, attempt_id: int, position: int
) -> NextShown:
    """The outcome of ``user_id``'s "Next" tap on the feedback of question ``position``;
    nothing is stored but a revision of the attempt's plan after a bank edit. The tap is spent
    only once its outcome was shown (:meth:`QuizService.shown`): a tap whose outcome could not
    be made (a storage failure) or sent works again.

    Raises:
        UnknownAttempt, NotYourAttempt, BankChanged, AttemptClosed, StaleQuestion,
        NotAnswered: refused (see :meth:`QuizService.next`); nothing changes.
        StorageError: the storage could not be reached.
    """
    return await after_answer(quiz, learning, await quiz.next(user_id, attempt_id, position))


async def after_answer(quiz: QuizService, learning: LearningService, attempt: Attempt) -> NextShown:
    """What comes after ``attempt``'s last recorded answer (``attempt`` as recorded, or as a
    "Next" tap found it): its question at ``attempt.position`` made fit to show, or its score
    with the best earlier one. Nothing is stored but a revision of the plan after a bank edit.

    Raises:
        BankChanged: the attempt's bank cannot be served any more.
        StorageError: the storage could not be reached (nothing was spent).
    """
    attempt, updated = await quiz.current(attempt)
    best = await learning.previous_best(attempt) if attempt.status == engine.FINISHED else None
    return NextShown(attempt, await quiz.bank_of(attempt), updated, best)


# --- an answer tap -----------------------------------------------------------------------


@dataclass(frozen=True)
class Recorded:
    """The tap's answer was recorded durably: show its feedback, then ``next`` below it.

    Attributes:
        attempt: The attempt as recorded (moved on past the answered question).
        bank: The bank it was planned on, at its version.
        answer: The recorded answer (for the review card:
            :meth:`~bot.features.private.service.QuizService.answered`, once the feedback is out).
        one_tap: The feedback goes without a "Next" button (the user's one-tap flow, and
            what follows could be made).
        next: What follows (one-tap flow), to send below the feedback; None: nothing now.
    """

    attempt: Attempt
    bank: Bank
    answer: Answer
    one_tap: bool
    next: NextShown | None


@dataclass(frozen=True)
class AnsweredBefore:
    """The question was answered already (a double tap, or a tap delivered again after a crash
    between recording and showing): show the recorded feedback again where it is not shown,
    and ``next`` when it was never sent (its send failed). Nothing was recorded.

    Attributes:
        attempt: The attempt as stored.
        bank: The bank it was planned on, at its version.
        one_tap: The feedback goes without a "Next" button.
        next: What follows, when it was never sent (one-tap flow); else None.
    """

    attempt: Attempt
    bank: Bank
    one_tap: bool
    next: NextShown | None


@dataclass(frozen=True)
class QuestionEdited:
    """The question was edited since it was shown: nothing was recorded; show the attempt's
    question (or its score) anew.

    Attributes:
        attempt: The attempt made fit to show (:meth:`QuizService.current`).
        bank: The bank it was planned on, at its version.
        updated: The question at its position was edited (shown with a notice).
    """

    attempt: Attempt
    bank: Bank
    updated: bool


@dataclass(frozen=True)
class NotRecorded:
    """Nothing was recorded and nothing is shown but, when ``failed``, the polite "couldn't
    record that, tap again".

    Attributes:
        failed: The storage failed (the fault is logged); False: a concurrent tap or /stop
            came first.
    """

    failed: bool


AnswerOutcome = Recorded | AnsweredBefore | QuestionEdited | NotRecorded
"""What an answer tap came to (:func:`answer_tap`)."""


Acknowledge = Callable[[bool], Awaitable[None]]
"""Told once an answer tap was not refused, before anything is recorded or read: whether the
question was answered before (the front end answers the tap's query then, so that no write,
however slow, holds it past Telegram's deadline)."""


async def answer_tap(
    quiz: QuizService,
    learning: LearningService,
    preferences: PreferencesService,
    user_id: int,
    attempt_id: int,
    position: int,
    *,
    slot: int | None = None,
    ticked: int | None = None,
    language: str | None = None,
    acknowledge: Acknowledge | None = None,
) -> AnswerOutcome:
    """``user_id``'s answer to the question at ``position``: an option ``slot``, or a Submit of
    the ``ticked`` slots (bit ``s`` for slot ``s``) on a question with several right options.
    Checked and graded on the attempt as cached (a refusal checked again on the stored one:
    :meth:`QuizService.grade`), ``acknowledge`` told, recorded durably with ``language``, the
    one the question was shown in; in the user's one-tap flow what follows is made ready
    (:func:`after_answer`), unless it was shown already.

    Returns:
        The outcome to show (:data:`AnswerOutcome`); the answer is stored before it returns.

    Raises:
        UnknownAttempt, NotYourAttempt, BankChanged, AttemptClosed, StaleQuestion,
        InvalidOption, NothingChosen: refused; nothing changes.
        StorageError: the attempt could not be read (nothing was recorded).
    """
    try:  # the user's flow (cached); unreadable: the default, and the write tells the fault
        one_tap = await preferences.answer_flow(user_id) is AnswerFlow.ONE_TAP
    except StorageError:
        one_tap = False
    try:
        if ticked is not None:
            attempt, answer = await quiz.grade_choice(user_id, attempt_id, position, ticked)
        else:
            assert slot is not None, "an option or the ticked options"
            attempt, answer = await quiz.grade(user_id, attempt_id, position, slot)
    except engine.AlreadyAnswered:
        if acknowledge is not None:
            await acknowledge(True)
        attempt = await quiz.attempt(attempt_id)
        bank = await quiz.bank_of(attempt)
        if (
            one_tap
            and attempt.position == position + 1
            and not quiz.was_shown(attempt.id, position)
        ):  # what follows was never sent (a send that failed)
            follows = await _follows(quiz, learning, attempt)
            return AnsweredBefore(attempt, bank, follows is not None, follows)
        return AnsweredBefore(attempt, bank, one_tap, None)
    except engine.QuestionChanged:  # the bank was edited since this question was shown
        if acknowledge is not None:
            await acknowledge(False)
        attempt, updated = await quiz.current(await quiz.attempt(attempt_id))
        return QuestionEdited(attempt, await quiz.bank_of(attempt), updated)
    if acknowledge is not None:
        await acknowledge(False)
    try:
        attempt = await quiz.record(attempt, answer, language=language)
    except (engine.AlreadyAnswered, engine.AttemptClosed):
        return NotRecorded(failed=False)  # a concurrent tap or /stop came first
    except StorageError:
        log.exception("could not record an answer of user %s", user_id)
        return NotRecorded(failed=True)
    bank = await quiz.bank_of(attempt)
    follows = await _follows(quiz, learning, attempt) if one_tap else None
    return Recorded(attempt, bank, answer, follows is not None, follows)


async def _follows(
    quiz: QuizService, learning: LearningService, attempt: Attempt
) -> NextShown | None:
    """:func:`after_answer`, or None when it could not be made (logged): the feedback then
    gets its "Next" button, which asks for it again."""
    try:
        return await after_answer(quiz, learning, attempt)
    except (StorageError, QuizError) as exc:
        log.warning(
            "user %s: what follows question %s could not be made: %r",
            attempt.user_id,
            attempt.position,
            exc,
        )
        return None
