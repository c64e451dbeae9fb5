"""PostgreSQL statements of the quiz's private attempts (:class:`bot.kernel.ports.QuizStore`),
mixed into :class:`storage.postgres.store.PostgresStore`: users' language choices, attempts and
their answers, statistics and retention (the twins of :mod:`storage.attempts`). Those that are
the same in both dialects are written once (:class:`storage.shared.SharedAttemptStatements`);
PostgreSQL's own are here.

Writes go through the group-commit writer (:class:`storage.postgres.writer.PostgresWriter`);
every read is one statement run to completion.
"""

from __future__ import annotations

import time

from bot.features.learning.stats import COUNTED_ATTEMPT, COUNTED_SESSION, bank_stats
from bot.kernel.engine import Answer, Attempt
from bot.kernel.ports import CLOSED, DUPLICATE, RECORDED, BankStats, RecordOutcome
from storage.order import USERS_CHANNEL
from storage.postgres.writer import PostgresWriter
from storage.rows import chosen_text, moved_on
from storage.shared import SharedAttemptStatements


class PostgresAttemptStatements(PostgresWriter, SharedAttemptStatements):
    """The :class:`~bot.kernel.ports.QuizStore` methods."""

    _ANSWERS = (
        "(SELECT COALESCE(json_agg(json_build_array(question_id, option_index, correct,"
        " answered_at, chosen)), '[]')::text FROM answers s"
        " WHERE s.attempt_id = a.attempt_id)"
    )

    # --- users: their choices, cached by every instance ------------------------------------

    async def set_user_language(self, user_id: int, language: str) -> None:
        """See :meth:`bot.features.preferences.ports.PreferenceStore.set_user_language`; the
        instances are told to read the user's choices again (:data:`storage.order.USERS_CHANNEL`),
        in the same statement."""
        await self._write_returning(
            "WITH stored AS (INSERT INTO users (user_id, language, updated_at)"
            " VALUES ($1, $2, $3) ON CONFLICT (user_id) DO UPDATE"
            " SET language = excluded.language, updated_at = excluded.updated_at"
            " RETURNING user_id) SELECT pg_notify($4, $1::text) FROM stored",
            (user_id, language, time.time(), USERS_CHANNEL),
        )

    async def set_answer_flow(self, user_id: int, flow: str, now: float) -> None:
        """See :meth:`bot.features.preferences.ports.PreferenceStore.set_answer_flow`; the instances
        are told as by :meth:`set_user_language`."""
        await self._write_returning(
            "WITH stored AS (INSERT INTO users (user_id, language, answer_flow, updated_at)"
            " VALUES ($1, NULL, $2, $3) ON CONFLICT (user_id) DO UPDATE"
            " SET answer_flow = excluded.answer_flow, updated_at = excluded.updated_at"
            " RETURNING user_id) SELECT pg_notify($4, $1::text) FROM stored",
            (user_id, flow, now, USERS_CHANNEL),
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
        # one statement: the attempt must be active and asking this question (its row locked,
        # so a concurrent answer from another instance waits and then sees it moved on); the
        # primary key decides a duplicate; only an inserted answer moves the attempt, to where
        # the core moved it
        rows = await self._write_returning(
            "WITH asking AS (SELECT attempt_id FROM attempts WHERE attempt_id = $1"
            "  AND status = 'active' AND position = $2"
            "  AND question_order::json ->> $2 = $3 FOR UPDATE),"
            " inserted AS (INSERT INTO answers (attempt_id, question_id, option_index,"
            "  correct, answered_at, chosen, language)"
            "  SELECT attempt_id, $3, $4, $5, $6, $10, $11 FROM asking"
            "  ON CONFLICT DO NOTHING RETURNING attempt_id),"
            " moved AS (UPDATE attempts SET position = $7, status = $8, ended_at = $9"
            "  WHERE attempt_id IN (SELECT attempt_id FROM inserted))"
            " SELECT EXISTS (SELECT 1 FROM asking), EXISTS (SELECT 1 FROM inserted)",
            (
                attempt_id,
                position,
                answer.question_id,
                answer.option_index,
                int(answer.correct),
                answer.answered_at,
                moved_position,
                status,
                ended_at,
                chosen_text(answer.chosen),
                language,
            ),
        )
        asking, inserted = rows[0]
        return RECORDED if inserted else DUPLICATE if asking else CLOSED

    # --- statistics ----------------------------------------------------------------------

    async def stats(self, user_id: int) -> list[BankStats]:
        """See :meth:`bot.kernel.ports.QuizStore.stats`; which attempts and sessions count, and
        the record made of them, are :mod:`bot.features.learning.stats`'s rules."""
        finished = [
            tuple(r)
            for r in await self._read(
                "SELECT bank_id, total, score FROM ("
                " SELECT a.bank_id, json_array_length(a.question_order::json) AS total,"
                "  (SELECT COUNT(*) FROM answers s WHERE s.attempt_id = a.attempt_id"
                "   AND s.correct = 1) AS score, a.ended_at AS ended_at,"
                "  a.attempt_id AS id, 0 AS kind"
                "  FROM attempts a WHERE a.user_id = $1 AND a.status = $2"
                " UNION ALL"
                " SELECT g.bank_id, json_array_length(g.question_order::json), SUM(x.correct),"
                "  g.ended_at, g.session_id, 1"
                "  FROM group_sessions g JOIN group_answers x ON x.session_id = g.session_id"
                "  WHERE x.user_id = $1 AND g.status = $3 GROUP BY g.session_id"
                ") AS f ORDER BY ended_at, kind, id",
                (user_id, COUNTED_ATTEMPT, COUNTED_SESSION),
            )
        ]
        misses = [
            tuple(r)
            for r in await self._read(
                "SELECT bank_id, question_id, COUNT(*) AS misses FROM ("
                " SELECT a.bank_id, s.question_id"
                "  FROM answers s JOIN attempts a ON a.attempt_id = s.attempt_id"
                "  WHERE a.user_id = $1 AND a.status = $2 AND s.correct = 0"
                " UNION ALL"
                " SELECT g.bank_id, x.question_id"
                "  FROM group_answers x JOIN group_sessions g ON g.session_id = x.session_id"
                "  WHERE x.user_id = $1 AND g.status = $3 AND x.correct = 0"
                ") AS m GROUP BY bank_id, question_id ORDER BY misses DESC, question_id",
                (user_id, COUNTED_ATTEMPT, COUNTED_SESSION),
            )
        ]
        return bank_stats(finished, misses)
