"""Exam mode's use cases over the private quiz's attempts
(:class:`~bot.features.private.service.QuizService`) and the exam's own port
(:class:`~bot.features.exams.ports.ExamStore`): start an exam on a drawn paper, answer without
feedback, submit at the deadline, mark. No Telegram, no SQL.

An exam is a private attempt: the quiz service checks, grades and records its answers exactly
as a quiz's (the same refusals, the same atomic write); the exam adds its terms, its deadline
(checked before an answer is taken, and by :meth:`ExamService.submit_overdue`, the exams' job,
which also runs at start so that exams overdue across a restart are submitted) and its marking.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from cachetools import LRUCache

from bot.features.exams.ports import ExamStore
from bot.features.exams.rules import (
    ExamTerms,
    Marked,
    draw,
    mark,
    overdue,
    paper_seed,
    terms_for,
)
from bot.features.private.service import QuizService
from bot.kernel.bank import Bank, Exam
from bot.kernel.engine import (
    FINISHED,
    Attempt,
    NotYourAttempt,
    Plan,
    QuizError,
    UnknownAttempt,
    fingerprints,
)


class NotAnExam(QuizError):
    """The bank has no exam mode, or the attempt is no exam (a forged or stale button)."""


class TimeUp(QuizError):
    """The exam's time is up: it was submitted with what was answered."""


@dataclass(frozen=True)
class Sitting:
    """An exam attempt with its terms, as it stands.

    Attributes:
        attempt: The attempt (finished once submitted or every question answered).
        terms: Its terms.
        bank: Its bank, at the attempt's version.
        timed_out: Whether the call that returned it submitted it at its deadline (then its
            learner is told by that call's caller, once).
    """

    attempt: Attempt
    terms: ExamTerms
    bank: Bank
    timed_out: bool = False

    @property
    def finished(self) -> bool:
        """Whether it is over (submitted, or every question answered)."""
        return self.attempt.status == FINISHED

    @property
    def marked(self) -> Marked:
        """Its marks (:func:`bot.features.exams.rules.mark`)."""
        return mark(self.attempt, self.terms)


class ExamService:
    """Exams' use cases.

    Args:
        quiz: The private quiz's service (its attempts, their cache and their bank registry).
        store: Where exams' terms are kept.
        clock: Returns the time in seconds since the epoch.
        cache_size: How many attempts' terms to keep in memory.
    """

    def __init__(
        self,
        quiz: QuizService,
        store: ExamStore,
        *,
        clock: Callable[[], float] = time.time,
        cache_size: int = 50_000,
    ) -> None:
        self.quiz = quiz
        self.store = store
        self._clock = clock
        self._terms: LRUCache[int, ExamTerms] = LRUCache(cache_size)

    async def exam_of(self, bank_id: str) -> tuple[Bank, Exam | None]:
        """The bank ``bank_id`` and its exam mode (None: it has none).

        Raises:
            UnknownBank: no such bank.
        """
        bank = await self.quiz.bank(bank_id)
        return bank, bank.exam

    async def start(
        self, user_id: int, bank_id: str, exam: Exam | None = None, language: str | None = None
    ) -> Sitting:
        """Start an exam of ``bank_id`` (on ``exam``'s terms, default the bank's own): a paper
        drawn for this learner and this attempt, its terms stored; the user's active attempt
        is abandoned. Its timer starts now. ``language``: the learner's, for the message at
        the deadline.

        Raises:
            UnknownBank: no such bank. NotAnExam: no terms given and the bank has none.
            StorageError: it could not be stored.
        """
        bank, own = await self.exam_of(bank_id)
        chosen = exam or own
        if chosen is None:
            raise NotAnExam(bank_id)

        async def begin(planned: Bank, plan: Plan, now: float) -> Attempt:
            terms = terms_for(planned, chosen, plan, 0, now)  # its id once stored
            return await self.store.start_exam(
                user_id,
                planned.id,
                planned.version,
                plan,
                now,
                fingerprints(planned),
                terms,
                language,
            )

        attempt = await self.quiz.start(
            user_id,
            bank.id,
            lambda planned, now: draw(planned, chosen, paper_seed(planned, user_id, now)),
            begin=begin,
        )
        terms = terms_for(bank, chosen, attempt.plan, attempt.id, attempt.started_at)
        self._terms[attempt.id] = terms
        return Sitting(attempt, terms, bank)

    async def submit_left(self, attempt_id: int, user_id: int) -> bool:
        """An exam sat once (homework): the exam attempt ``attempt_id``, if it was left
        (abandoned), is submitted with what was answered, as of when it was left.

        Returns:
            Whether it was an exam left, now submitted.
        """
        if await self.terms(attempt_id) is None:
            return False
        submitted = await self.store.submit_left_exam(attempt_id)
        if submitted:
            self.quiz.changed_elsewhere(user_id)
            stored = await self.quiz.store.attempt(attempt_id)
            if stored is not None:
                await self.rate_paper(stored)
        return submitted

    async def set_for_homework(self, assignment_id: int, exam: Exam) -> None:
        """Keep ``exam`` as the one the homework ``assignment_id``'s members sit.

        Raises:
            StorageError: it could not be stored.
        """
        await self.store.save_homework_exam(assignment_id, exam)

    async def for_homework(self, assignment_id: int, bank_id: str) -> Exam | None:
        """The exam a homework's members sit: the one it was set as, else its quiz's own exam
        mode; None: it is played as a quiz.

        Raises:
            UnknownBank: no such bank.
        """
        kept = await self.store.homework_exam(assignment_id)
        if kept is not None:
            return kept
        _, own = await self.exam_of(bank_id)
        return own

    async def terms(self, attempt_id: int) -> ExamTerms | None:
        """The attempt's terms (cached), or None when it is no exam."""
        terms = self._terms.get(attempt_id)
        if terms is None:
            terms = await self.store.exam_terms(attempt_id)
            if terms is not None:
                self._terms[attempt_id] = terms
        return terms

    async def active(self, user_id: int) -> Sitting | None:
        """The user's exam under way, made fit to show (:meth:`QuizService.current`), or None
        when their active attempt (if any) is no exam. An exam found overdue is submitted
        first (then it is returned finished).

        Raises:
            StorageError: storage could not be reached.
        """
        attempt = await self.quiz.active(user_id)
        if attempt is None:
            return None
        terms = await self.terms(attempt.id)
        if terms is None:
            return None
        return await self._sitting(attempt, terms)

    async def _sitting(self, attempt: Attempt, terms: ExamTerms) -> Sitting:
        """The sitting of ``attempt``: submitted first when its time is up, else made fit to
        show."""
        timed_out = False
        if attempt.status != FINISHED and overdue(terms, self._clock()):
            attempt, timed_out = await self._submit(attempt, terms)
        elif attempt.status != FINISHED:
            attempt, _ = await self.quiz.current(attempt)
        return Sitting(attempt, terms, await self.quiz.bank_of(attempt), timed_out)

    async def sitting(self, user_id: int, attempt_id: int) -> Sitting:
        """The exam attempt ``attempt_id`` of ``user_id`` (submitted first when its time is
        up).

        Raises:
            UnknownAttempt, NotAnExam, BankChanged; NotYourAttempt: another user's.
        """
        attempt = await self.quiz.attempt(attempt_id)
        if attempt.user_id != user_id:
            raise NotYourAttempt(attempt_id)
        terms = await self.terms(attempt_id)
        if terms is None:
            raise NotAnExam(attempt_id)
        return await self._sitting(attempt, terms)

    async def answer(self, user_id: int, attempt_id: int, position: int, ticked: int) -> Sitting:
        """Answer the question at ``position`` with the slots ``ticked``: graded and recorded
        as a quiz's answer (:meth:`QuizService.grade_choice`, :meth:`QuizService.record`), no
        feedback; refused once the time is up (the exam is submitted then).

        Returns:
            The sitting after the answer (finished after the last question); when the time
            was up, the exam as submitted without this answer, ``timed_out`` if this call
            submitted it.

        Raises:
            TimeUp: the time was up and the exam had been submitted already.
            NotAnExam; the refusals of :meth:`QuizService.grade_choice`.
            StorageError: the answer could not be stored.
        """
        terms = await self.terms(attempt_id)
        if terms is None:
            raise NotAnExam(attempt_id)
        if overdue(terms, self._clock()):
            sitting = await self.sitting(user_id, attempt_id)
            if not sitting.timed_out:
                raise TimeUp(attempt_id)
            return sitting
        attempt, answer = await self.quiz.grade_choice(user_id, attempt_id, position, ticked)
        moved = await self.quiz.record(attempt, answer)
        if moved.status == FINISHED:
            await self.rate_paper(moved)
        else:
            moved, _ = await self.quiz.current(moved)
        return Sitting(moved, terms, await self.quiz.bank_of(moved))

    async def tick(
        self, user_id: int, attempt_id: int, position: int, ticked: int
    ) -> tuple[Attempt, Bank, ExamTerms]:
        """Check a tick on a question with several right options (nothing is stored).

        Raises:
            NotAnExam, TimeUp; the refusals of :meth:`QuizService.tick`.
        """
        terms = await self.terms(attempt_id)
        if terms is None:
            raise NotAnExam(attempt_id)
        if overdue(terms, self._clock()):
            raise TimeUp(attempt_id)
        attempt, bank = await self.quiz.tick(user_id, attempt_id, position, ticked)
        return attempt, bank, terms

    async def _submit(self, attempt: Attempt, terms: ExamTerms) -> tuple[Attempt, bool]:
        """Submit ``attempt`` at its deadline with what was answered: the attempt as stored,
        and whether this call submitted it (False: it had ended already)."""
        submitted = await self.store.submit_exam(attempt.id, terms.deadline)
        self.quiz.changed_elsewhere(attempt.user_id)
        stored = await self.quiz.store.attempt(attempt.id)
        if stored is None:
            raise UnknownAttempt(attempt.id)
        if submitted:
            await self.rate_paper(stored)
        return stored, submitted

    async def rate_paper(self, attempt: Attempt) -> None:
        """A submitted exam feeds spaced review as a quiz's answers do
        (:meth:`QuizService.rate`): each question of its paper is rated at the moment the exam
        ended (when the learner sees the right answers), a right answer as a success, a wrong
        or blank one as a lapse. Called by whichever call submitted it (a tap, the exams' job,
        the start-up pass, homework); a rating made already changes nothing, and the start-up
        rebuild leaves the answers of an exam not submitted to this
        (:data:`storage.shared.UNRATED_ANSWERS`)."""
        ended = attempt.ended_at if attempt.ended_at is not None else self._clock()
        for question_id in attempt.plan.question_order:
            answer = attempt.answers.get(question_id)
            await self.quiz.rate(attempt, question_id, answer is not None and answer.correct, ended)

    async def submit_overdue(self) -> list[tuple[Sitting, str | None]]:
        """Submit every exam whose time is up, as of the clock (the exams' job; run at start
        too, so an exam overdue across a restart is submitted).

        Returns:
            The sittings submitted by this call (each once: a second call, or another
            instance's, does not submit them again), to tell their learners, each with the
            learner's language at its start (None: unknown).
        """
        submitted = []
        for attempt_id, user_id, language in await self.store.overdue_exams(self._clock()):
            terms = await self.terms(attempt_id)
            if terms is None or not await self.store.submit_exam(attempt_id, terms.deadline):
                continue
            self.quiz.changed_elsewhere(user_id)
            attempt = await self.quiz.store.attempt(attempt_id)
            if attempt is None:
                continue
            await self.rate_paper(attempt)
            try:
                bank = await self.quiz.bank_of(attempt)
            except QuizError:
                continue  # its bank is gone: nothing to show
            submitted.append((Sitting(attempt, terms, bank, timed_out=True), language))
        return submitted

    def remaining(self, terms: ExamTerms) -> float:
        """Seconds left of ``terms`` as of the clock."""
        return max(0.0, terms.deadline - self._clock())
