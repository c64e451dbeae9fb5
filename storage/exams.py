"""Exam attempts' terms (:class:`bot.features.exams.ports.ExamStore`), the same statements on
both engines (mixed into :class:`storage.sqlite.SQLiteStore` and
:class:`storage.postgres.store.PostgresStore`, after their writers)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

from bot.features.exams.rules import ExamTerms
from bot.kernel.bank import Exam
from bot.kernel.engine import Attempt, Plan
from storage.shared import Args, Statements, Transaction

SAVE_EXAM = (
    "INSERT INTO exam_attempts (attempt_id, minutes, deadline, marks, penalty, language)"
    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (attempt_id) DO NOTHING"
)
"""The statement that keeps an exam attempt's terms (:func:`saved_exam`'s arguments)."""


def saved_exam(terms: ExamTerms, language: str | None) -> Args:
    """The arguments of :data:`SAVE_EXAM` for ``terms`` and the learner's ``language``."""
    return (
        terms.attempt_id,
        terms.minutes,
        terms.deadline,
        json.dumps(dict(terms.marks), separators=(",", ":")),
        terms.penalty,
        language,
    )


class ExamStatements(Statements):
    """The :class:`~bot.features.exams.ports.ExamStore` methods: one statement each, but
    :meth:`start_exam` (the attempt and its terms in one transaction)."""

    if TYPE_CHECKING:

        async def start_attempt(
            self,
            user_id: int,
            bank_id: str,
            bank_version: int,
            plan: Plan,
            now: float,
            fingerprints: Mapping[str, str] | None = None,
            *,
            then: Callable[[Transaction, int], Awaitable[None]] | None = None,
        ) -> Attempt:
            """:meth:`storage.shared.SharedAttemptStatements.start_attempt` (the store's)."""

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
        """See :meth:`bot.features.exams.ports.ExamStore.start_exam`."""

        async def keep_terms(db: Transaction, attempt_id: int) -> None:
            kept = dataclasses.replace(terms, attempt_id=attempt_id)
            await db.execute(SAVE_EXAM, saved_exam(kept, language))

        return await self.start_attempt(
            user_id, bank_id, bank_version, plan, now, fingerprints, then=keep_terms
        )

    async def save_exam(self, terms: ExamTerms, language: str | None = None) -> None:
        """See :meth:`bot.features.exams.ports.ExamStore.save_exam`."""
        await self._write(SAVE_EXAM, saved_exam(terms, language))

    async def exam_terms(self, attempt_id: int) -> ExamTerms | None:
        """See :meth:`bot.features.exams.ports.ExamStore.exam_terms`."""
        rows = await self._read(
            "SELECT attempt_id, minutes, deadline, marks, penalty FROM exam_attempts"
            " WHERE attempt_id = ?",
            (attempt_id,),
        )
        if not rows:
            return None
        row = rows[0]
        marks = {str(k): float(v) for k, v in json.loads(str(row[3])).items()}
        return ExamTerms(int(row[0]), int(row[1]), float(row[2]), marks, float(row[4]))

    async def overdue_exams(self, now: float) -> list[tuple[int, int, str | None]]:
        """See :meth:`bot.features.exams.ports.ExamStore.overdue_exams`."""
        rows = await self._read(
            "SELECT e.attempt_id, a.user_id, e.language FROM exam_attempts e"
            " JOIN attempts a ON a.attempt_id = e.attempt_id"
            " WHERE e.deadline <= ? AND a.status = 'active' ORDER BY e.deadline, e.attempt_id",
            (now,),
        )
        return [(int(row[0]), int(row[1]), None if row[2] is None else str(row[2])) for row in rows]

    async def submit_exam(self, attempt_id: int, ended_at: float) -> bool:
        """See :meth:`bot.features.exams.ports.ExamStore.submit_exam`."""
        changed = await self._write(
            "UPDATE attempts SET status = 'finished', ended_at = ?"
            " WHERE attempt_id = ? AND status = 'active'",
            (ended_at, attempt_id),
        )
        return changed == 1

    async def submit_left_exam(self, attempt_id: int) -> bool:
        """See :meth:`bot.features.exams.ports.ExamStore.submit_left_exam`."""
        changed = await self._write(
            "UPDATE attempts SET status = 'finished' WHERE attempt_id = ? AND status = 'abandoned'"
            " AND ended_at IS NOT NULL"
            " AND EXISTS (SELECT 1 FROM exam_attempts e WHERE e.attempt_id = attempts.attempt_id)",
            (attempt_id,),
        )
        return changed == 1

    async def save_homework_exam(self, assignment_id: int, exam: Exam) -> None:
        """See :meth:`bot.features.exams.ports.ExamStore.save_homework_exam`."""
        await self._write(
            "INSERT INTO exam_homework (assignment_id, minutes, marks, penalty, draw)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (assignment_id) DO UPDATE SET"
            " minutes = excluded.minutes, marks = excluded.marks, penalty = excluded.penalty,"
            " draw = excluded.draw",
            (assignment_id, exam.minutes, exam.marks, exam.penalty, exam.draw),
        )

    async def homework_exam(self, assignment_id: int) -> Exam | None:
        """See :meth:`bot.features.exams.ports.ExamStore.homework_exam`."""
        rows = await self._read(
            "SELECT minutes, marks, penalty, draw FROM exam_homework WHERE assignment_id = ?",
            (assignment_id,),
        )
        if not rows:
            return None
        row = rows[0]
        draw = None if row[3] is None else int(row[3])
        return Exam(int(row[0]), float(row[1]), float(row[2]), draw)
