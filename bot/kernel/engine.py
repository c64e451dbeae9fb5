"""The attempt state machine: plan an attempt, grade an answer, move on, score.

Pure and synchronous: every function takes the state it needs (and the time or random generator)
and returns new values or raises a :class:`QuizError`. Nothing here does I/O.

An attempt asks one question at a time. ``position`` is the index (0-based, into
``question_order``) of the question being asked, which is also the number of questions answered:
answering moves it on at once (:func:`with_answer`, the one place of that rule: storage writes
the attempt it returns, atomically with the answer), and after the last answer the attempt is
finished. "Next" only shows the question at ``position``: it changes nothing stored.

A bank edited without a version bump: an attempt stores the fingerprint of every question
(:attr:`~bot.kernel.bank.Question.fingerprint`) when it starts. A question whose fingerprint (or
option count) no longer matches is revised (:func:`revise`) before it is shown: its option order
is re-planned for the new content and stored with its new fingerprint, so that grading, feedback and
review go on using the stored plan exactly as for any other question; questions no longer in the
bank are dropped from the unanswered rest of the attempt. Answers recorded before the edit keep
their recorded correctness. Attempts stored before fingerprints existed have none: their
questions count as unchanged unless they vanished or their option count changed.

The attempt's data (:class:`Attempt`, :class:`Plan`, :class:`Answer`, :class:`QuestionView`,
:class:`Result`, the statuses, :data:`LABELS`) are :mod:`bot.kernel.attempt`'s, re-exported here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Protocol

from bot.kernel.attempt import ABANDONED as ABANDONED
from bot.kernel.attempt import ACTIVE as ACTIVE
from bot.kernel.attempt import FINISHED as FINISHED
from bot.kernel.attempt import LABELS as LABELS
from bot.kernel.attempt import Answer as Answer
from bot.kernel.attempt import Attempt as Attempt
from bot.kernel.attempt import AttemptStatus as AttemptStatus
from bot.kernel.attempt import Plan as Plan
from bot.kernel.attempt import QuestionView as QuestionView
from bot.kernel.attempt import Result as Result
from bot.kernel.bank import MAX_OPTIONS, Bank, Question


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
    """ "Next" was asked for before the shown question was answered."""


class NotFinished(QuizError):
    """The attempt is still running: its answers are not to be revealed yet."""


class InvalidOption(QuizError):
    """The option slot does not exist."""


class NothingChosen(QuizError):
    """ "Submit" on a question with several right options before any option was chosen."""


class UnknownAttempt(QuizError):
    """No attempt has this id (a forged or garbage button)."""


class UnknownBank(QuizError):
    """No bank has this id (e.g. an unknown deep-link payload)."""


class QuestionChanged(QuizError):
    """The question was edited or removed in the bank since the attempt planned it (without a
    version bump): :func:`revise` the attempt before showing or grading it."""


def plan_attempt(bank: Bank, rng: random.Random, *, shuffle_options: bool = True) -> Plan:
    """Fix the order of a new attempt: questions in bank order, options shuffled per question.

    The seed bank's correct options fall in a visible pattern (A, B, C, D, A, ...) and are often
    the longest: shuffling options per attempt hides the pattern. A true/false question keeps
    its order (True, then False), as a reader expects, and so does a question whose bank says
    ``shuffle: false`` (:attr:`~bot.kernel.bank.Question.shuffled`).
    """
    question_order = tuple(q.id for q in bank.questions)
    option_orders = []
    for question in bank.questions:
        order = list(range(len(question.options)))
        if shuffle_options and question.shuffled:
            rng.shuffle(order)
        option_orders.append(tuple(order))
    return Plan(question_order, tuple(option_orders))


def fingerprints(bank: Bank) -> dict[str, str]:
    """Question id -> :attr:`~bot.kernel.bank.Question.fingerprint` for every question of ``bank``
    (stored with a new attempt)."""
    return {question.id: question.fingerprint for question in bank.questions}


def fits(attempt: Attempt, question: Question, position: int) -> bool:
    """Whether the attempt's stored plan at ``position`` still fits ``question`` as the bank has
    it now: its option order is an order of exactly the question's options, and the stored
    fingerprint (if any: attempts from before fingerprints have none) is the question's."""
    slots = attempt.plan.option_orders[position]
    if sorted(slots) != list(range(len(question.options))):
        return False
    stored = attempt.fingerprints.get(question.id)
    return stored is None or stored == question.fingerprint


def replan_options(attempt: Attempt, question: Question) -> tuple[int, ...]:
    """A new option order for ``question`` in ``attempt``, after the question was edited.

    Shuffled by a generator seeded with the attempt id, the question id and its fingerprint, so
    that every process revising the same attempt on the same bank plans the same order (a
    revision written twice is written the same).
    """
    order = list(range(len(question.options)))
    if question.shuffled:
        random.Random(f"{attempt.id}/{question.id}/{question.fingerprint}").shuffle(order)
    return tuple(order)


@dataclass(frozen=True)
class Revision:
    """What :func:`revise` changed in an attempt.

    Attributes:
        attempt: The revised attempt (to store, see ``QuizStore.revise_attempt``).
        removed: Ids of unanswered questions dropped because the bank no longer has them.
        updated: Id of the question now at the attempt's position, re-planned because it was
            edited since the attempt planned it (show it with a notice); None if it was not.
    """

    attempt: Attempt
    removed: tuple[str, ...]
    updated: str | None


def revise(attempt: Attempt, bank: Bank | None, now: float) -> Revision | None:
    """Fit an active attempt's unanswered rest to the bank as it is now (same version).

    The answered questions (before ``attempt.position``) are never changed. Of the others,
    questions the bank no longer has are dropped (the attempt finishes at ``now`` if none is
    left); then the question at the position, if edited (see :func:`fits`), gets a new option
    order (:func:`replan_options`) and its new fingerprint. Later edited questions are revised
    when they are reached, so that each is shown with the notice.

    Returns:
        The revision, or None if the attempt needs none (or is not active).

    Raises:
        BankChanged: see :func:`check_bank`.
    """
    bank = check_bank(attempt, bank)
    if attempt.status != ACTIVE:
        return None
    present = {question.id for question in bank.questions}
    head = attempt.position
    order = list(attempt.plan.question_order[:head])
    options = list(attempt.plan.option_orders[:head])
    removed = []
    for question_id, slots in zip(
        attempt.plan.question_order[head:], attempt.plan.option_orders[head:], strict=True
    ):
        if question_id in present:
            order.append(question_id)
            options.append(slots)
        else:
            removed.append(question_id)
    revised = replace(attempt, plan=Plan(tuple(order), tuple(options)))
    updated = None
    if head < revised.total:
        question = bank.question(order[head])
        if not fits(revised, question, head):
            options[head] = replan_options(revised, question)
            updated = question.id
            revised = replace(
                revised,
                plan=Plan(tuple(order), tuple(options)),
                fingerprints={**attempt.fingerprints, question.id: question.fingerprint},
            )
    elif removed:
        revised = replace(revised, status=FINISHED, ended_at=now)
    if not removed and updated is None:
        return None
    return Revision(revised, tuple(removed), updated)


class PlannedOn(Protocol):
    """Anything planned on one version of a bank: an :class:`Attempt`, or a group session
    (:class:`bot.features.groups.rules.GroupSession`)."""

    @property
    def bank_id(self) -> str:
        """The bank's id."""
        ...

    @property
    def bank_version(self) -> int:
        """The bank version it was planned on."""
        ...


def check_bank(planned: PlannedOn, bank: Bank | None) -> Bank:
    """Return ``bank`` if ``planned`` (an attempt, or a group session) was planned on it.

    Raises:
        BankChanged: the bank is missing, or its version differs from the one planned on.
    """
    if bank is None or bank.id != planned.bank_id or bank.version != planned.bank_version:
        raise BankChanged(planned.bank_id)
    return bank


def view(attempt: Attempt, bank: Bank, position: int | None = None) -> QuestionView:
    """The question at ``position`` (default: the one being shown) as the attempt shows it.

    A question answered before it was edited (see :func:`fits`) is shown as it is now, with the
    recorded correctness: the chosen slot is the correct one for a correct answer, and None for
    a wrong one (the option chosen may be gone).

    Raises:
        BankChanged: see :func:`check_bank`.
        IndexError: position is outside the attempt.
        QuestionChanged: the question is gone from the bank, or it is unanswered and was edited
            since the attempt planned it (:func:`revise` first).
    """
    check_bank(attempt, bank)
    position = attempt.position if position is None else position
    if not 0 <= position < attempt.total:
        raise IndexError(position)
    question_id = attempt.plan.question_order[position]
    try:
        question = bank.question(question_id)
    except KeyError:
        raise QuestionChanged(question_id) from None
    slots = attempt.plan.option_orders[position]
    answer = attempt.answers.get(question.id)
    if fits(attempt, question, position):
        chosen = frozenset(slots.index(i) for i in answer.choice) if answer else frozenset()
        return QuestionView(
            question=question,
            position=position,
            total=attempt.total,
            slots=slots,
            correct_slot=slots.index(question.correct_index),
            chosen_slot=slots.index(answer.option_index) if answer else None,
            answer_correct=answer.correct if answer else None,
            chosen_slots=chosen,
        )
    if answer is None:
        raise QuestionChanged(question_id)
    if sorted(slots) != list(range(len(question.options))):
        slots = tuple(range(len(question.options)))
    correct_slot = slots.index(question.correct_index)
    correct_slots = frozenset(slots.index(i) for i in question.correct_indices)
    return QuestionView(
        question=question,
        position=position,
        total=attempt.total,
        slots=slots,
        correct_slot=correct_slot,
        chosen_slot=correct_slot if answer.correct else None,
        answer_correct=answer.correct,
        chosen_slots=correct_slots if answer.correct else frozenset(),
    )


def grade(
    attempt: Attempt, bank: Bank | None, user_id: int, position: int, slot: int, now: float
) -> Answer:
    """Grade ``user_id``'s choice of ``slot`` for the question at ``position``.

    Returns:
        The :class:`Answer` to record (not yet recorded: the caller stores it).

    Raises:
        NotYourAttempt, BankChanged, AlreadyAnswered (a double tap), AttemptClosed,
        StaleQuestion, QuestionChanged (the question was shown as it was before an edit:
        :func:`revise` and show it again), InvalidOption: the answer is refused and nothing
        should change.
    """
    mask = 1 << slot if 0 <= slot < MAX_OPTIONS else -1  # -1: no such slot
    return grade_choice(attempt, bank, user_id, position, mask, now)


def grade_choice(
    attempt: Attempt, bank: Bank | None, user_id: int, position: int, mask: int, now: float
) -> Answer:
    """Grade ``user_id``'s chosen slots (``mask``: bit ``s`` set for slot ``s``) for the
    question at ``position``: right only when they are exactly the right options' slots.

    Returns:
        The :class:`Answer` to record (not yet recorded: the caller stores it).

    Raises:
        NothingChosen: ``mask`` is 0 ("Submit" before any choice).
        InvalidOption: a slot the question lacks, or several slots for a question with one
            right option.
        The refusals of :func:`grade`: the answer is refused and nothing should change.
    """
    question, slots = asking(attempt, bank, user_id, position)
    chosen = chosen_slots(mask, len(slots))
    if not chosen:
        raise NothingChosen(position)
    if len(chosen) > 1 and not question.several:
        raise InvalidOption(mask)
    indices = tuple(sorted(slots[slot] for slot in chosen))
    return Answer(
        question.id,
        indices[0],
        frozenset(indices) == question.correct_indices,
        now,
        indices if question.several else (),
    )


def chosen_slots(mask: int, count: int) -> frozenset[int]:
    """The slots set in ``mask`` (bit ``s`` for slot ``s``) of a question of ``count`` options.

    Raises:
        InvalidOption: ``mask`` is negative or sets a slot the question lacks.
    """
    if not 0 <= mask < 1 << count:
        raise InvalidOption(mask)
    return frozenset(slot for slot in range(count) if mask >> slot & 1)


def asking(
    attempt: Attempt, bank: Bank | None, user_id: int, position: int
) -> tuple[Question, tuple[int, ...]]:
    """Check that ``user_id``'s attempt is asking the question at ``position`` (the checks of
    :func:`grade`, also made for a toggle of a question with several right options, which
    changes nothing stored).

    Returns:
        The question and its slots (bank option index per slot).

    Raises:
        The refusals of :func:`grade` but InvalidOption.
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
    try:
        question = bank.question(question_id)
    except KeyError:
        raise QuestionChanged(question_id) from None
    if not fits(attempt, question, position):
        raise QuestionChanged(question_id)
    return question, slots


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
    and finished after the last question.

    The one source of this rule: ``QuizStore.record_answer`` stores the position, status and
    end time of the attempt returned here, with the answer.
    """
    position = attempt.position + 1
    finished = position >= attempt.total
    return replace(
        attempt,
        answers={**attempt.answers, answer.question_id: answer},
        position=position,
        status=FINISHED if finished else attempt.status,
        ended_at=answer.answered_at if finished else attempt.ended_at,
    )


def result(attempt: Attempt) -> Result:
    """Score an attempt: correct answers, and the questions missed (wrong or unanswered)."""
    missed = tuple(
        q
        for q in attempt.plan.question_order
        if not (q in attempt.answers and attempt.answers[q].correct)
    )
    return Result(attempt.total - len(missed), attempt.total, missed)
