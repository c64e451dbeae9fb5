"""An attempt's data, as stored and shown: its status, its plan, its answers, a question as
shown in it, its result. The rules that make and move them are :mod:`bot.kernel.engine`'s (which
re-exports these names, as most of their readers read the rules too). Pure values: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from bot.kernel.bank import MAX_OPTIONS, Question

LABELS = "ABCDEFGHIJKL"
"""Labels of the displayed option slots: slot 0 is "A", up to :data:`~bot.kernel.bank.MAX_OPTIONS`
slots (A-L)."""
assert len(LABELS) == MAX_OPTIONS


class AttemptStatus(StrEnum):
    """An attempt's status, as stored (``attempts.status``)."""

    ACTIVE = "active"
    """Being played: at most one per user."""
    FINISHED = "finished"
    """Every question answered (the answer to the last one finished it)."""
    ABANDONED = "abandoned"
    """Stopped, replaced by a new attempt, or on a bank that changed."""


ACTIVE, FINISHED, ABANDONED = AttemptStatus


@dataclass(frozen=True)
class Answer:
    """A recorded answer.

    Attributes:
        question_id: The question's id.
        option_index: The chosen option, as an index in the bank's option order (not the slot);
            for a question with several right options the first chosen one.
        correct: Whether it is the correct option (the exact set of right options, for a
            question with several).
        answered_at: When, in seconds since the epoch.
        chosen: For a question with several right options: every chosen option, bank order,
            ascending; empty otherwise (``option_index`` is the choice).
    """

    question_id: str
    option_index: int
    correct: bool
    answered_at: float
    chosen: tuple[int, ...] = ()

    @property
    def choice(self) -> frozenset[int]:
        """The chosen options, as bank option indices (one, or several)."""
        return frozenset(self.chosen) if self.chosen else frozenset((self.option_index,))


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
        fingerprints: Question id -> the question's
            :attr:`~bot.kernel.bank.Question.fingerprint` when it was planned; empty for attempts
            stored before fingerprints existed (a missing entry counts as unchanged).
    """

    id: int
    user_id: int
    bank_id: str
    bank_version: int
    plan: Plan
    position: int
    status: AttemptStatus
    started_at: float
    ended_at: float | None = None
    answers: Mapping[str, Answer] = field(default_factory=dict)
    fingerprints: Mapping[str, str] = field(default_factory=dict)

    @property
    def total(self) -> int:
        """Number of questions in the attempt."""
        return len(self.plan.question_order)


@dataclass(frozen=True)
class QuestionView:
    """A question as shown in an attempt: options in the attempt's slot order.

    Attributes:
        question: The bank question.
        position: 0-based index in the attempt.
        total: Number of questions in the attempt.
        slots: Bank option index per slot (slot 0 is labelled "A").
        correct_slot: The slot of the (first) correct option.
        chosen_slot: The slot the user chose, if answered (None as well for a wrong answer
            recorded before the question was edited: the recorded option may no longer exist);
            the first chosen slot for a question with several right options.
        answer_correct: The recorded correctness, if answered (None when the view does not know
            it: then :attr:`is_correct` compares the slots).
        chosen_slots: Every chosen slot, if answered (empty when unknown, as ``chosen_slot``).
    """

    question: Question
    position: int
    total: int
    slots: tuple[int, ...]
    correct_slot: int
    chosen_slot: int | None = None
    answer_correct: bool | None = None
    chosen_slots: frozenset[int] = frozenset()

    @property
    def correct_slots(self) -> frozenset[int]:
        """The slots of every right option."""
        return frozenset(self.slots.index(i) for i in self.question.correct_indices)

    @property
    def answered(self) -> bool:
        """Whether the question has been answered in this attempt."""
        return self.chosen_slot is not None or self.answer_correct is not None

    @property
    def is_correct(self) -> bool:
        """Whether the answer was correct (False if unanswered)."""
        if self.answer_correct is not None:
            return self.answer_correct
        chosen = self.chosen_slots or (
            frozenset((self.chosen_slot,)) if self.chosen_slot is not None else frozenset()
        )
        return chosen == self.correct_slots


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
