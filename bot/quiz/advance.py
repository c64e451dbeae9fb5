"""A "Next" tap on a private quiz's feedback: what it shows, decided in one call.

The tap is checked by the quiz service (:meth:`~bot.quiz.service.QuizService.next`), the
attempt made fit to show (:meth:`~bot.quiz.service.QuizService.current`), and, when that was
the last question, the user's best earlier score on the bank looked up
(:meth:`~bot.quiz.review.LearningService.previous_best`) for the score screen. The front end
shows the outcome, then calls :meth:`~bot.quiz.service.QuizService.shown` (a later tap on the
same "Next" is stale); until then the same tap may be tried again. The one-tap flow
(:func:`after_answer`) asks the same right after an answer is recorded.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.quiz import engine
from bot.quiz.bank import Bank
from bot.quiz.engine import Attempt
from bot.quiz.ports import ScorePoint
from bot.quiz.review import LearningService
from bot.quiz.service import QuizService


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


async def next_question(quiz: QuizService, learning: LearningService, user_id: int,
                        attempt_id: int, position: int) -> NextShown:
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


async def after_answer(quiz: QuizService, learning: LearningService,
                       attempt: Attempt) -> NextShown:
    """What comes after ``attempt``'s last recorded answer (``attempt`` as recorded, or as a
    "Next" tap found it): its question at ``attempt.position`` made fit to show, or its score
    with the best earlier one. Nothing is stored but a revision of the plan after a bank edit.

    Raises:
        BankChanged: the attempt's bank cannot be served any more.
        StorageError: the storage could not be reached (nothing was spent).
    """
    attempt, updated = await quiz.current(attempt)
    best = (await learning.previous_best(attempt) if attempt.status == engine.FINISHED
            else None)
    return NextShown(attempt, await quiz.bank_of(attempt), updated, best)
