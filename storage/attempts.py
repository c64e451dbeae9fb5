"""SQLite statements of the quiz's private attempts (:class:`bot.quiz.ports.QuizStore`), mixed
into :class:`storage.sqlite.SQLiteStore`: users' language choices, attempts and their answers,
statistics and retention.

Writes go through the group-commit writer (:class:`storage.writer.SQLiteWriter`); every read is
one statement run to completion.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Mapping

import aiosqlite

from bot.quiz.engine import ABANDONED, ACTIVE, Answer, Attempt, Plan
from bot.quiz.ports import CLOSED, DUPLICATE, RECORDED, BankStats, Pruned, RecordOutcome
from bot.quiz.stats import COUNTED_ATTEMPT, COUNTED_SESSION, bank_stats
from storage.rows import attempt_of, moved_on
from storage.writer import SQLiteWriter


class AttemptStatements(SQLiteWriter):
    """The :class:`~bot.quiz.ports.QuizStore` methods."""

    # --- users ---------------------------------------------------------------------------

    async def user_language(self, user_id: int) -> str | None:
        """See :meth:`bot.quiz.ports.QuizStore.user_language`."""
        rows = await self._read("SELECT language FROM users WHERE user_id = ?", (user_id,))
        return rows[0][0] if rows else None

    async def set_user_language(self, user_id: int, language: str) -> None:
        """See :meth:`bot.quiz.ports.QuizStore.set_user_language`."""
        await self._write(
            "INSERT INTO users (user_id, language, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language,"
            " updated_at = excluded.updated_at", (user_id, language, time.time()))

    # --- attempts ------------------------------------------------------------------------

    async def start_attempt(self, user_id: int, bank_id: str, bank_version: int, plan: Plan,
                            now: float, fingerprints: Mapping[str, str] | None = None) -> Attempt:
        """See :meth:`bot.quiz.ports.QuizStore.start_attempt`.

        Without ``fingerprints`` the column is left out (NULL), so that tests of upgrades can
        start attempts in a database older than migration 0005.
        """
        values: tuple[str, ...]
        columns, values = "", ()
        if fingerprints is not None:
            fingerprints = dict(fingerprints)
            columns, values = ", fingerprints", (json.dumps(fingerprints),)

        async def op(db: aiosqlite.Connection) -> int | None:
            await db.execute(
                "UPDATE attempts SET status = ?, ended_at = ? WHERE user_id = ? AND status = ?",
                (ABANDONED, now, user_id, ACTIVE))
            cursor = await db.execute(
                "INSERT INTO attempts (user_id, bank_id, bank_version, question_order,"
                f" option_orders, position, status, started_at{columns})"
                f" VALUES (?, ?, ?, ?, ?, 0, ?, ?{', ?' * len(values)})",
                (user_id, bank_id, bank_version, json.dumps(plan.question_order),
                 json.dumps(plan.option_orders), ACTIVE, now, *values))
            return cursor.lastrowid

        attempt_id = await self._submit(op)
        assert attempt_id is not None
        return Attempt(attempt_id, user_id, bank_id, bank_version, plan, 0, ACTIVE, now,
                       fingerprints=fingerprints or {})

    async def attempt(self, attempt_id: int) -> Attempt | None:
        """See :meth:`bot.quiz.ports.QuizStore.attempt`."""
        return await self._load_attempt("attempt_id = ?", (attempt_id,))

    async def active_attempt(self, user_id: int) -> Attempt | None:
        """See :meth:`bot.quiz.ports.QuizStore.active_attempt`."""
        return await self._load_attempt("user_id = ? AND status = 'active'", (user_id,))

    async def _load_attempt(self, where: str, args: tuple[object, ...]) -> Attempt | None:
        rows = await self._read(
            "SELECT attempt_id, user_id, bank_id, bank_version, question_order,"
            " option_orders, position, status, started_at, ended_at,"
            " (SELECT json_group_array(json_array(question_id, option_index, correct,"
            "  answered_at)) FROM answers s WHERE s.attempt_id = a.attempt_id), fingerprints"
            f" FROM attempts a WHERE {where}", args)
        return attempt_of(rows[0]) if rows else None

    async def revise_attempt(self, attempt_id: int, position: int, plan: Plan,
                             fingerprints: Mapping[str, str], finished_at: float | None) -> bool:
        """See :meth:`bot.quiz.ports.QuizStore.revise_attempt`."""
        changed = await self._write(
            "UPDATE attempts SET question_order = ?, option_orders = ?, fingerprints = ?,"
            " status = CASE WHEN ? IS NULL THEN status ELSE 'finished' END,"
            " ended_at = COALESCE(?, ended_at)"
            " WHERE attempt_id = ? AND status = 'active' AND position = ?",
            (json.dumps(plan.question_order), json.dumps(plan.option_orders),
             json.dumps(dict(fingerprints)), finished_at, finished_at, attempt_id, position))
        return changed == 1

    async def record_answer(self, attempt_id: int, position: int, answer: Answer,
                            moved: Attempt) -> RecordOutcome:
        """See :meth:`bot.quiz.ports.QuizStore.record_answer`."""
        moved_position, status, ended_at = moved_on(attempt_id, moved)

        async def op(db: aiosqlite.Connection) -> RecordOutcome:
            # two statements in the writer's transaction: the insert, only if the attempt is
            # active and asking this question (the primary key refuses a duplicate: SQLite
            # undoes that statement alone, and nothing else ran); then the attempt moves to
            # where the core moved it
            cursor = await db.execute(
                "INSERT INTO answers (attempt_id, question_id, option_index, correct, answered_at)"
                " SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM attempts"
                " WHERE attempt_id = ? AND status = 'active' AND position = ?"
                " AND json_extract(question_order, '$[' || ? || ']') = ?)",
                (attempt_id, answer.question_id, answer.option_index, int(answer.correct),
                 answer.answered_at, attempt_id, position, position, answer.question_id))
            if cursor.rowcount != 1:
                return CLOSED
            await db.execute(
                "UPDATE attempts SET position = ?, status = ?, ended_at = ? WHERE attempt_id = ?",
                (moved_position, status, ended_at, attempt_id))
            return RECORDED

        try:
            return await self._submit(op)
        except sqlite3.IntegrityError:
            return DUPLICATE

    async def abandon(self, attempt_id: int, now: float) -> bool:
        """See :meth:`bot.quiz.ports.QuizStore.abandon`."""
        changed = await self._write(
            "UPDATE attempts SET status = ?, ended_at = ? WHERE attempt_id = ? AND status = ?",
            (ABANDONED, now, attempt_id, ACTIVE))
        return changed == 1

    # --- statistics ----------------------------------------------------------------------

    async def stats(self, user_id: int) -> list[BankStats]:
        """See :meth:`bot.quiz.ports.QuizStore.stats`; which attempts and sessions count, and
        the record made of them, are :mod:`bot.quiz.stats`'s rules."""
        counted = (user_id, COUNTED_ATTEMPT, user_id, COUNTED_SESSION)
        finished = [tuple(r) for r in await self._read(
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
                ") ORDER BY ended_at", counted)]
        misses = [tuple(r) for r in await self._read(
                "SELECT bank_id, question_id, COUNT(*) AS misses FROM ("
                " SELECT a.bank_id, s.question_id"
                "  FROM answers s JOIN attempts a ON a.attempt_id = s.attempt_id"
                "  WHERE a.user_id = ? AND a.status = ? AND s.correct = 0"
                " UNION ALL"
                " SELECT g.bank_id, x.question_id"
                "  FROM group_answers x JOIN group_sessions g ON g.session_id = x.session_id"
                "  WHERE x.user_id = ? AND g.status = ? AND x.correct = 0"
                ") GROUP BY bank_id, question_id ORDER BY misses DESC, question_id", counted)]
        return bank_stats(finished, misses)

    # --- retention -----------------------------------------------------------------------

    async def prune(self, *, abandoned_before: float, names_before: float) -> Pruned:
        """See :meth:`bot.quiz.ports.QuizStore.prune`."""
        async def op(db: aiosqlite.Connection) -> Pruned:
            old = ("SELECT attempt_id FROM attempts"
                   " WHERE status = 'abandoned' AND ended_at < ?")
            answers = await db.execute(
                f"DELETE FROM answers WHERE attempt_id IN ({old})", (abandoned_before,))
            attempts = await db.execute(
                f"DELETE FROM attempts WHERE attempt_id IN ({old})", (abandoned_before,))
            names = await db.execute(
                "UPDATE group_players SET name = '' WHERE name != '' AND session_id IN ("
                " SELECT session_id FROM group_sessions"
                " WHERE status IN ('finished', 'stopped') AND ended_at < ?)", (names_before,))
            return Pruned(attempts.rowcount, answers.rowcount, names.rowcount)

        return await self._submit(op)
