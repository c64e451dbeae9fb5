"""SQLite statements of group quiz sessions (:class:`bot.features.groups.ports.GroupStore`), mixed
into :class:`storage.sqlite.SQLiteStore`: group chats' languages and settings, sessions, their
answers and players. Those that are the same in both dialects are written once
(:class:`storage.shared_groups.SharedGroupStatements`); SQLite's own are here.

Writes go through the group-commit writer (:class:`storage.writer.SQLiteWriter`); every read is
one statement run to completion.
"""

from __future__ import annotations

import sqlite3

from bot.features.groups.ports import GroupTally
from bot.features.groups.rules import GroupAnswer
from bot.kernel.ports import CLOSED, DUPLICATE, RECORDED
from storage.rows import chosen_text
from storage.shared_groups import SharedGroupStatements
from storage.writer import SQLiteWriter


class GroupStatements(SQLiteWriter, SharedGroupStatements):
    """The :class:`~bot.features.groups.ports.GroupStore` methods."""

    async def record_group_answer(
        self,
        session_id: int,
        position: int,
        answer: GroupAnswer,
        name: str,
        language: str | None = None,
    ) -> GroupTally:
        """See :meth:`bot.features.groups.ports.GroupStore.record_group_answer`."""

        def op(db: sqlite3.Connection) -> GroupTally:
            # the window check and the insert are one statement: a tap racing the reveal is
            # either in the tally or told it was too late, never both
            cursor = db.execute(
                "INSERT INTO group_answers (session_id, question_id, user_id, option_index,"
                " correct, elapsed, answered_at, chosen, language)"
                " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?"
                " WHERE EXISTS (SELECT 1 FROM group_sessions WHERE session_id = ?"
                " AND status = 'active' AND position = ? AND deadline >= ?)",
                (
                    session_id,
                    answer.question_id,
                    answer.user_id,
                    answer.option_index,
                    int(answer.correct),
                    answer.elapsed,
                    answer.answered_at,
                    chosen_text(answer.chosen),
                    language,
                    session_id,
                    position,
                    answer.answered_at,
                ),
            )
            if cursor.rowcount != 1:
                return GroupTally(CLOSED)
            cursor = db.execute(
                "INSERT INTO group_players (session_id, user_id, name) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (session_id, answer.user_id, name),
            )
            joined = cursor.rowcount
            if not joined:
                db.execute(
                    "UPDATE group_players SET name = ? WHERE session_id = ? AND user_id = ?"
                    " AND name != ?",
                    (name, session_id, answer.user_id, name),
                )
            rows = db.execute(
                "UPDATE group_sessions SET answered = answered + 1, players = players + ?,"
                " joined = joined + ? WHERE session_id = ? RETURNING answered, players, joined",
                (joined, joined, session_id),
            ).fetchall()
            answered, players, joined_now = next(iter(rows))
            return GroupTally(RECORDED, answered, players, joined_now)

        try:
            return await self._submit_statements(op)
        except sqlite3.IntegrityError:
            return GroupTally(DUPLICATE)
