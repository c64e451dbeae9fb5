"""The small async storage interface the quiz needs (a port; ``storage/`` implements it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.quiz.engine import Answer, Attempt, Plan


@dataclass(frozen=True)
class BankStats:
    """One user's record on one bank, over finished attempts.

    Attributes:
        bank_id: The bank's id.
        attempts: Number of finished attempts.
        best: Best score (correct answers) of those attempts.
        last: Score of the most recent one.
        total: Number of questions in the most recent one.
        most_missed: Up to 3 ``(question_id, times missed)`` pairs, most missed first.
    """

    bank_id: str
    attempts: int
    best: int
    last: int
    total: int
    most_missed: tuple[tuple[str, int], ...]


class StorageError(Exception):
    """Storage failed (locked, read-only or full database): nothing was recorded."""


class QuizStore(Protocol):
    """What the quiz keeps: users' language choices, attempts and answers.

    Every write is durable when the awaited call returns. Implementations raise
    :class:`StorageError` when a write could not be made.
    """

    async def user_language(self, user_id: int) -> str | None:
        """The language the user chose with /language, or None."""
        ...

    async def set_user_language(self, user_id: int, language: str) -> None:
        """Store the user's language choice (it wins over Telegram's language_code)."""
        ...

    async def start_attempt(self, user_id: int, bank_id: str, bank_version: int, plan: Plan,
                            now: float) -> Attempt:
        """Abandon the user's active attempt, if any, and start a new one at position 0."""
        ...

    async def attempt(self, attempt_id: int) -> Attempt | None:
        """The attempt with its answers, or None if there is no such attempt."""
        ...

    async def active_attempt(self, user_id: int) -> Attempt | None:
        """The user's active attempt (at most one), or None."""
        ...

    async def record_answer(self, attempt_id: int, answer: Answer) -> bool:
        """Store an answer; False (and nothing changed) if the question was answered already."""
        ...

    async def move(self, attempt_id: int, from_position: int, to_position: int,
                   now: float, *, finished: bool) -> bool:
        """Move an active attempt from ``from_position`` on; finish it if ``finished``.

        Returns False (and changes nothing) unless the attempt is active at ``from_position``.
        """
        ...

    async def abandon(self, attempt_id: int, now: float) -> bool:
        """Abandon an active attempt; False if it was not active."""
        ...

    async def stats(self, user_id: int) -> list[BankStats]:
        """The user's record per bank, banks ordered by their most recent finished attempt."""
        ...
