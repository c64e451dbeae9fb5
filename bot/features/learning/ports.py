"""The storage port of spaced review and /stats (:class:`CardStore`: review cards, learners
and their reminders, the score points of the chart) and its records; ``storage/learning.py``
and ``storage/postgres/learning.py`` implement it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.features.learning.rules import Card
from bot.kernel.bank import Bank


@dataclass(frozen=True)
class Learner:
    """A user's study habits and reminder setting.

    Attributes:
        user_id: The user.
        remind: Whether the daily reminder is on (off by default).
        hours: Answers by UTC hour of day (24 decayed counts; empty before any answer).
        next_remind_at: When the next reminder is due, in seconds since the epoch (None: not
            scheduled: reminders off, or the usual hour is not known yet).
        last_reminded_at: When the last reminder was sent, or None.
        blocked: The user blocked the bot (a 403): no reminders until they come back.
        language: The UI language when the user sent /remind (reminders are written in it).
    """

    user_id: int
    remind: bool = False
    hours: tuple[float, ...] = ()
    next_remind_at: float | None = None
    last_reminded_at: float | None = None
    blocked: bool = False
    language: str | None = None


@dataclass(frozen=True)
class ScorePoint:
    """One finished attempt (or group session) of a user, for the progress chart.

    Attributes:
        bank_id: The bank.
        ended_at: When it ended, in seconds since the epoch.
        score: Correct answers.
        total: Questions.
    """

    bank_id: str
    ended_at: float
    score: int
    total: int


@dataclass(frozen=True)
class CardUpdate:
    """One rating for :meth:`CardStore.update_cards`: what :meth:`CardStore.update_card` takes.

    Attributes:
        user_id: The card's user.
        bank_id: The question's bank.
        question_id: The question's id in the bank.
        update: The card -> the card to store (a new card, ``id`` 0, if there is none), or
            None to leave it (``study`` is then not applied either).
        study: The user's :class:`Learner` -> the one to store, or None.
    """

    user_id: int
    bank_id: str
    question_id: str
    update: Callable[[Card], Card | None]
    study: Callable[[Learner], Learner] | None = None


@dataclass(frozen=True)
class UnratedAnswer:
    """A stored answer, private or group, that its user's review card does not reflect yet
    (:meth:`CardStore.unrated_answers`).

    Attributes:
        user_id: Who answered (a Telegram user id: never a deleted user's pseudonym).
        bank_id: The question's bank.
        question_id: The question's id in the bank.
        correct: Whether the answer was right.
        answered_at: When, in seconds since the epoch.
    """

    user_id: int
    bank_id: str
    question_id: str
    correct: bool
    answered_at: float


class CardStore(Protocol):
    """What spaced review keeps: one card per user and question, and each learner's habits.

    Every write is durable when the awaited call returns; failures raise :class:`StorageError`.
    """

    async def update_card(
        self,
        user_id: int,
        bank_id: str,
        question_id: str,
        update: Callable[[Card], Card | None],
        study: Callable[[Learner], Learner] | None = None,
    ) -> Card | None:
        """Apply ``update`` to the user's card of the question (a new card, ``id`` 0, if there
        is none) and store what it returns, with ``study`` applied to the user's
        :class:`Learner` row, in one transaction: no other write comes between the read and
        the write. ``update`` returning None changes nothing (``study`` is not applied).

        Returns:
            The stored card, or None if ``update`` declined.
        """
        ...

    async def update_cards(self, updates: Sequence[CardUpdate]) -> None:
        """Apply ``updates`` as :meth:`update_card` would, one after the other in their order
        (a second rating of a card, or of a learner, sees the first), all durable when the
        awaited call returns. Many ratings cost about as much as one: what group sessions use.
        """
        ...

    async def unrated_answers(self) -> list[UnratedAnswer]:
        """Every stored answer (private attempts and group sessions, deleted users' pseudonyms
        left out) answered after the last rating of its user's card of the question, or with
        no card at all, oldest first. A card never rated (made from the answers before spaced
        review existed: ``last_review`` None) reflects the answers up to its ``due``. An
        exam's answers are left out until the exam is submitted (an exam is rated at its
        end)."""
        ...

    async def card(self, card_id: int) -> Card | None:
        """The card with ``card_id``, or None."""
        ...

    async def cards(
        self, user_id: int, bank_id: str | None = None, question_ids: Sequence[str] = ()
    ) -> list[Card]:
        """The user's cards (of ``bank_id`` and ``question_ids`` when given), in no order."""
        ...

    async def carded_banks(self, user_id: int) -> list[str]:
        """The ids of the banks the user has cards of, in no order."""
        ...

    async def due_cards(
        self, user_id: int, bank_ids: Sequence[str], now: float, limit: int, count_upto: int
    ) -> tuple[list[Card], int]:
        """Up to ``limit`` of the user's cards of ``bank_ids`` due at ``now``, earliest due
        first, and how many are due in all, counted up to ``count_upto``."""
        ...

    async def next_due(self, user_id: int, bank_ids: Sequence[str]) -> float | None:
        """When the user's next card of ``bank_ids`` is due (seconds since the epoch), or
        None when they have none."""
        ...

    async def learner(self, user_id: int) -> Learner:
        """The user's habits and reminder setting (defaults when never stored)."""
        ...

    async def save_learner(self, learner: Learner) -> None:
        """Store the learner's reminder setting, schedule and blocked flag (not ``hours``,
        which only :meth:`update_card` changes)."""
        ...

    async def update_learner(self, user_id: int, change: Callable[[Learner], Learner]) -> Learner:
        """Read the user's learner (defaults when never stored), store what ``change`` makes
        of it as :meth:`save_learner` does, and return that; atomically: no other write to
        the learner comes between the read and the write."""
        ...

    async def reminders_due(
        self, now: float, bank_ids: Sequence[str], limit: int
    ) -> list[tuple[Learner, bool]]:
        """Up to ``limit`` learners with reminders on, not blocked, whose reminder is due at
        ``now``, earliest first; each with whether a card of ``bank_ids`` is due for them."""
        ...

    async def move_reminders(self, planned: Sequence[tuple[int, float]], to: float) -> set[int]:
        """Move the next reminder of each (user id, planned time) of ``planned`` to ``to`` if
        it is still planned then (compare-and-set, in one write: of instances sharing the
        storage, one claims a due reminder); the users whose reminder was moved."""
        ...

    async def blocked_users(self) -> list[int]:
        """The users marked as having blocked the bot."""
        ...

    async def score_history(self, user_id: int) -> list[ScorePoint]:
        """The user's finished attempts and group sessions, oldest first."""
        ...


@dataclass(frozen=True)
class Progress:
    """What the progress chart and the text summary show.

    Attributes:
        scores: Finished attempts and group sessions, oldest first.
        cards: Each card with the days until it is due
        (:func:`bot.features.learning.rules.due_in_days`:
            0 when due now), in bank and question order of the featured banks, then of the
            created quizzes (cards of removed banks or questions are left out).
    """

    scores: tuple[ScorePoint, ...]
    cards: tuple[tuple[Bank, str, float], ...]

    @property
    def empty(self) -> bool:
        """Whether there is nothing to chart."""
        return not self.scores and not self.cards
