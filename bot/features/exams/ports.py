"""What exam mode keeps (a port; ``storage/exams.py`` implements it): each exam attempt's terms,
beside the private attempt it is (:class:`~bot.kernel.ports.QuizStore`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from bot.features.exams.rules import ExamTerms
from bot.kernel.bank import Exam
from bot.kernel.engine import Attempt, Plan


class ExamStore(Protocol):
    """Exam attempts' terms. Every write is durable when the awaited call returns; a failed
    one raises :class:`~bot.kernel.ports.StorageError`."""

    async def start_exam(
        self,
        user_id: int,
        bank_id: str,
        bank_version: int,
        plan: Plan,
        now: float,
        fingerprints: Mapping[str, str],
        terms: ExamTerms,
        language: str | None = None,
    ) -> Attempt:
        """Start an exam attempt as :meth:`~bot.kernel.ports.QuizStore.start_attempt` starts
        one (the user's active attempt abandoned) and keep its ``terms`` (their
        ``attempt_id`` replaced by the new attempt's) and the learner's ``language``, in one
        transaction: an exam is never stored without its terms."""
        ...

    async def save_exam(self, terms: ExamTerms, language: str | None = None) -> None:
        """Keep the terms of the exam attempt ``terms.attempt_id`` and its learner's
        ``language`` (stored once: a second call for the same attempt changes nothing)."""
        ...

    async def exam_terms(self, attempt_id: int) -> ExamTerms | None:
        """The terms of the attempt, or None when it is no exam."""
        ...

    async def overdue_exams(self, now: float) -> list[tuple[int, int, str | None]]:
        """``(attempt id, user id, language at its start)`` of every exam still active whose
        deadline is ``now`` or earlier, earliest deadline first."""
        ...

    async def submit_exam(self, attempt_id: int, ended_at: float) -> bool:
        """Finish the exam attempt with what was answered, ended at ``ended_at``; only if it is
        still active (checked atomically with the write).

        Returns:
            Whether it was submitted (False: it had ended already).
        """
        ...

    async def submit_left_exam(self, attempt_id: int) -> bool:
        """Finish an exam attempt that was left (abandoned: /stop, another quiz started) with
        what was answered, at the moment it was left.

        Returns:
            Whether it was (False: it is no longer abandoned, or no exam).
        """
        ...

    async def save_homework_exam(self, assignment_id: int, exam: Exam) -> None:
        """Keep the exam that the homework ``assignment_id``'s members sit (replacing any)."""
        ...

    async def homework_exam(self, assignment_id: int) -> Exam | None:
        """The exam kept for the homework, or None (its quiz's own exam mode, if any)."""
        ...
