"""SQLite statements of the quiz's private attempts (:class:`bot.kernel.ports.QuizStore`), mixed
into :class:`storage.sqlite.SQLiteStore`: users' language choices, attempts and their answers,
statistics and retention. Those that are the same in both dialects are written once
(:class:`storage.shared.SharedAttemptStatements`); SQLite's own are here.

Writes go through the group-commit writer (:class:`storage.writer.SQLiteWriter`); every read is
one statement run to completion.
"""

from __future__ import annotations

import sqlite3

from bot.features.learning.stats import COUNTED_ATTEMPT, COUNTED_SESSION, bank_stats
from bot.kernel.engine import Answer, Attempt
from bot.kernel.ports import CLOSED, DUPLICATE, RECORDED, BankStats, RecordOutcome
from storage.rows import chosen_text, moved_on
from storage.shared import SharedAttemptStatements
from storage.writer import SQLiteWriter


class AttemptStatements(SQLiteWriter, SharedAttemptStatements):
    """The :class:`~bot.kernel.ports.QuizStore` methods."""

    _ANSWERS = (
        "(SELECT json_group_array(json_array(question_id, option_index, correct,"
        " answered_at, chosen)) FROM answers s WHERE s.attempt_id = a.attempt_id)"
    )

    # --- attempts ------------------------------------------------------------------------

    async def record_answer(
        self,
        attempt_id: int,
        position: int,
        answer: Answer,
        moved: Attempt,
        language: str | None = None,
    ) -> RecordOutcome:
        """See :meth:`bot.kernel.ports.QuizStore.record_answer`."""
        moved_position, status, ended_at = moved_on(attempt_id, moved)

        def op(db: sqlite3.Connection) -> RecordOutcome:
            # two statements in the writer's transaction, on its thread in one trip with the
            # rest of the batch: the insert, only if the attempt is active and asking this
            # question (the primary key refuses a duplicate: SQLite undoes that statement
            # alone, and nothing else ran); then the attempt moves to where the core moved it
            cursor = db.execute(
                "INSERT INTO answers (attempt_id, question_id, option_index, correct, answered_at,"
                " chosen, language) SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM attempts"
                " WHERE attempt_id = ? AND status = 'active' AND position = ?"
                " AND json_extract(question_order, '$[' || ? || ']') = ?)",
                (
                    attempt_id,
                    answer.question_id,
                    answer.option_index,
                    int(answer.correct),
                    answer.answered_at,
                    chosen_text(answer.chosen),
                    language,
                    attempt_id,
                    position,
                    position,
                    answer.question_id,
                ),
            )
            if cursor.rowcount != 1:
                return CLOSED
            db.execute(
                "UPDATE attempts SET position = ?, status = ?, ended_at = ? WHERE attempt_id = ?",
                (moved_position, status, ended_at, attempt_id),
            )
            return RECORDED

        try:
            return await self._submit_statements(op)
        except sqlite3.IntegrityError:
            return DUPLICATE

    # --- statistics ----------------------------------------------------------------------

    async def stats(self, user_id: int) -> list[BankStats]:
        """See :meth:`bot.kernel.ports.QuizStore.stats`; which attempts and sessions count, and
        the record made of them, are :mod:`bot.features.learning.stats`'s rules."""
        counted = (user_id, COUNTED_ATTEMPT, user_id, COUNTED_SESSION)
        finished = [
            tuple(r)
            for r in await self._read(
                "SELECT bank_id, total, score FROM ("
                " SELECT a.bank_id, json_array_length(a.question_order) AS total,"
                "  (SELECT COUNT(*) FROM answers s WHERE s.attempt_id = a.attempt_id"
                "   AND s.correct = 1) AS score, a.ended_at AS ended_at"
                "  FROM attempts a WHERE a.user_id = ? AND a.status = ?"
                " UNION ALL"
                " SELECT g.bank_id, json_array_length(g.question_order), SUM(x.correct),"
                "  g.ended_at"
                "  FROM group_sessions g JOIN group_answers x ON x.session_id = g.session_id"
                "  WHERE x.user_id = ? AND g.status = ? GROUP BY g.session_id"
                ") ORDER BY ended_at",
                counted,
            )
        ]
        misses = [
            tuple(r)
            for r in await self._read(
                "SELECT bank_id, question_id, COUNT(*) AS misses FROM ("
                " SELECT a.bank_id, s.question_id"
                "  FROM answers s JOIN attempts a ON a.attempt_id = s.attempt_id"
                "  WHERE a.user_id = ? AND a.status = ? AND s.correct = 0"
                " UNION ALL"
                " SELECT g.bank_id, x.question_id"
                "  FROM group_answers x JOIN group_sessions g ON g.session_id = x.session_id"
                "  WHERE x.user_id = ? AND g.status = ? AND x.correct = 0"
                ") GROUP BY bank_id, question_id ORDER BY misses DESC, question_id",
                counted,
            )
        ]
        return bank_stats(finished, misses)
