"""The attempt state machine: plan an attempt, grade an answer, move on, score.

Pure and synchronous: every function takes the state it needs (and the time or random generator)
and returns new values or raises a :class:`QuizError`. Nothing here does I/O.

An attempt asks one question at a time. ``position`` is the index (0-based, into
``question_order``) of the question being asked, which is also the number of questions answered:
answering moves it on at once (storage does the same, atomically with the answer), and after the
last answer the attempt is finished. "Next" only shows the question at ``position``: it changes
nothing stored.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from bot.quiz.bank import MAX_OPTIONS, Bank, Question

LABELS = "ABCDEFGHIJ"
"""Labels of the displayed option slots: slot 0 is "A", up to :data:`~bot.quiz.bank.MAX_OPTIONS`
slots (A-J)."""
assert len(LABELS) == MAX_OPTIONS

ACTIVE, FINISHED, ABANDONED = "active", "finished", "abandoned"


class QuizError(Exception):
    """Base of the engine's errors: an action that the quiz rules refuse."""


class AttemptClosed(QuizError):
    """The attempt is finished or abandoned."""


class BankChanged(QuizError):
    """The attempt was made on another version of the bank, or the bank is gone."""


class NotYourAttempt(QuizError):
    """The attempt belongs to another user (e.g. a button in a forwarded message)."""


class StaleQuestion(QuizError):
    """The button is for a question other than the one being shown."""


class AlreadyAnswered(QuizError):
    """The question was answered already (e.g. a double tap)."""


class NotAnswered(QuizError):
    """"Next" was asked for before the shown question was answered."""


class NotFinished(QuizError):
    """The attempt is still running: its answers are not to be revealed yet."""


class InvalidOption(QuizError):
    """The option slot does not exist."""


@dataclass(frozen=True)
class Answer:
    """A recorded answer.

    Attributes:
        question_id: The question's id.
        option_index: The chosen option, as an index in the bank's option order (not the slot).
        correct: Whether it is the correct option.
        answered_at: When, in seconds since the epoch.
    """

    question_id: str
    option_index: int
    correct: bool
    answered_at: float


@dataclass(frozen=True)
class Plan:
    """The order of an attempt, fixed at its start and stored with it.

    Attributes:
        question_order: Question ids in the order they are asked.
        option_orders: Per question (same order): the bank option index shown in each slot,
            e.g. ``(2, 0, 3, 1)`` shows option 2 as "A".
    """

    question_order: tuple[str, ...]
    option_orders: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Attempt:
    """One user's attempt at a bank, as stored.

    Attributes:
        id: Storage id.
        user_id: The Telegram user id (or the terminal player's id).
        bank_id: The bank's id.
        bank_version: The bank version the attempt was planned on.
        plan: Question and option order.
        position: Index of the question being asked, i.e. the number answered
            (``len(plan.question_order)`` once finished).
        status: ``active``, ``finished`` or ``abandoned``.
        started_at: Seconds since the epoch.
        ended_at: Seconds since the epoch, or None while active.
        answers: Question id -> :class:`Answer`.
    """

    id: int
    user_id: int
    bank_id: str
    bank_version: int
    plan: Plan
    position: int
    status: str
    started_at: float
    ended_at: float | None = None
    answers: Mapping[str, Answer] = field(default_factory=dict)

    @property
    def total(self) -> int:
        """Number of questions in the attempt."""
        return len(self.plan.question_order)

    @property
    def current_question_id(self) -> str | None:
        """Id of the question being shown, None once past the last one."""
        if self.position < self.total:
            return self.plan.question_order[self.position]
        return None


@dataclass(frozen=True)
class QuestionView:
    """A question as shown in an attempt: options in the attempt's slot order.

    Attributes:
        question: The bank question.
        position: 0-based index in the attempt.
        total: Number of questions in the attempt.
        slots: Bank option index per slot (slot 0 is labelled "A").
        correct_slot: The slot of the correct option.
        chosen_slot: The slot the user chose, if answered.
    """

    question: Question
    position: int
    total: int
    slots: tuple[int, ...]
    correct_slot: int
    chosen_slot: int | None = None

    @property
    def answered(self) -> bool:
        """Whether the question has been answered in this attempt."""
        return self.chosen_slot is not None

    @property
    def is_correct(self) -> bool:
        """Whether the chosen slot is the correct one (False if unanswered)."""
        return self.chosen_slot == self.correct_slot


@dataclass(frozen=True)
class Result:
    """The outcome of an attempt.

    Attributes:
        score: Number of correct answers.
        total: Number of questions.
        missed: Ids of questions answered wrongly or not at all, in the attempt's order.
    """

    score: int
    total: int
    missed: tuple[str, ...]


def plan_attempt(bank: Bank, rng: random.Random, *, shuffle_options: bool = True) -> Plan:
    """Fix the order of a new attempt: questions in bank order, options shuffled per question.

    The seed bank's correct options fall in a visible pattern (A, B, C, D, A, ...) and are often
    the longest: shuffling options per attempt hides the pattern.
    """
    question_order = tuple(q.id for q in bank.questions)
    option_orders = []
    for question in bank.questions:
        order = list(range(len(question.options)))
        if shuffle_options:
            rng.shuffle(order)
        option_orders.append(tuple(order))
    return Plan(question_order, tuple(option_orders))


def check_bank(attempt: Attempt, bank: Bank | None) -> Bank:
    """Return ``bank`` if the attempt was planned on it.

    Raises:
        BankChanged: the bank is missing, or its version differs from the attempt's.
    """
    if bank is None or bank.id != attempt.bank_id or bank.version != attempt.bank_version:
        raise BankChanged(attempt.bank_id)
    return bank


def view(attempt: Attempt, bank: Bank, position: int | None = None) -> QuestionView:
    """The question at ``position`` (default: the one being shown) as the attempt shows it.

    Raises:
        BankChanged: see :func:`check_bank`.
        IndexError: position is outside the attempt.
    """
    check_bank(attempt, bank)
    position = attempt.position if position is None else position
    if not 0 <= position < attempt.total:
        raise IndexError(position)
    question = bank.question(attempt.plan.question_order[position])
    slots = attempt.plan.option_orders[position]
    answer = attempt.answers.get(question.id)
    return QuestionView(
        question=question, position=position, total=attempt.total, slots=slots,
        correct_slot=slots.index(question.correct_index),
        chosen_slot=slots.index(answer.option_index) if answer else None)


def grade(attempt: Attempt, bank: Bank | None, user_id: int, position: int, slot: int,
          now: float) -> Answer:
    """Grade ``user_id``'s choice of ``slot`` for the question at ``position``.

    Returns:
        The :class:`Answer` to record (not yet recorded: the caller stores it).

    Raises:
        NotYourAttempt, BankChanged, AlreadyAnswered (a double tap), AttemptClosed,
        StaleQuestion, InvalidOption: the answer is refused and nothing should change.
    """
    if attempt.user_id != user_id:
        raise NotYourAttempt(attempt.id)
    bank = check_bank(attempt, bank)
    if 0 <= position < attempt.total and attempt.plan.question_order[position] in attempt.answers:
        raise AlreadyAnswered(attempt.plan.question_order[position])
    if attempt.status != ACTIVE:
        raise AttemptClosed(attempt.id)
    if position != attempt.position:
        raise StaleQuestion(position)
    question_id = attempt.plan.question_order[position]
    slots = attempt.plan.option_orders[position]
    if not 0 <= slot < len(slots):
        raise InvalidOption(slot)
    question = bank.question(question_id)
    option_index = slots[slot]
    return Answer(question_id, option_index, option_index == question.correct_index, now)


def check_next(attempt: Attempt, bank: Bank | None, user_id: int, position: int) -> int:
    """Check a "next" tap on the feedback of the question at ``position``.

    Returns:
        The position to show: ``position + 1`` (equal to ``attempt.total`` when the attempt is
        finished and its score is due).

    Raises:
        NotYourAttempt, BankChanged: refused, nothing changes.
        NotAnswered: the question at ``position`` is still being asked.
        StaleQuestion: the tap is on older feedback (the attempt is further on).
        AttemptClosed: the attempt was abandoned.
    """
    if attempt.user_id != user_id:
        raise NotYourAttempt(attempt.id)
    check_bank(attempt, bank)
    if attempt.status == ABANDONED:
        raise AttemptClosed(attempt.id)
    if position == attempt.position and attempt.status == ACTIVE:
        raise NotAnswered(position)
    if position + 1 != attempt.position:
        raise StaleQuestion(position)
    return position + 1


def check_review(attempt: Attempt, bank: Bank | None, user_id: int) -> Bank:
    """Check a "review what I missed" tap: only the owner, only once the attempt is finished
    (a review shows correct answers).

    Raises:
        NotYourAttempt, BankChanged, NotFinished.
    """
    if attempt.user_id != user_id:
        raise NotYourAttempt(attempt.id)
    bank = check_bank(attempt, bank)
    if attempt.status != FINISHED:
        raise NotFinished(attempt.id)
    return bank


def with_answer(attempt: Attempt, answer: Answer) -> Attempt:
    """Return ``attempt`` with ``answer`` to the question at its position recorded: moved on,
    and finished after the last question (what storage holds after recording it)."""
    position = attempt.position + 1
    finished = position >= attempt.total
    return replace(attempt, answers={**attempt.answers, answer.question_id: answer},
                   position=position, status=FINISHED if finished else attempt.status,
                   ended_at=answer.answered_at if finished else attempt.ended_at)


def result(attempt: Attempt) -> Result:
    """Score an attempt: correct answers, and the questions missed (wrong or unanswered)."""
    missed = tuple(q for q in attempt.plan.question_order
                   if not (q in attempt.answers and attempt.answers[q].correct))
    return Result(attempt.total - len(missed), attempt.total, missed)

