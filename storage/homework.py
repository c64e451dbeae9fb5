"""Statements of homework and chats' time zones (:class:`bot.features.homework.ports.HomeworkStore`,
:class:`bot.features.homework.ports.TimeZoneStore`), the same in both dialects: written once, mixed
into :class:`storage.sqlite.SQLiteStore` and :class:`storage.postgres.store.PostgresStore` after
their writers (see :mod:`storage.shared`: ``?`` placeholders, numbered for PostgreSQL).

An assignment is a row of ``assignments``; each member who opened it a row of
``homework_members``, linking the private attempt that is their homework. Who finished is not
stored but read: a member's linked attempt ``finished`` at or before the deadline (an early
close moves the deadline to the close), so that nothing can count twice or be lost between
two writes. Every claim (``mark_*``, a close, a cancel, a link) is one compare-and-set on
the state it read.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.homework.ports import NewAssignment, TokenTaken
from bot.features.homework.rules import Assignment, HomeworkAnswer, Member
from storage.homework_rows import (
    ASSIGNMENT_COLUMNS,
    COUNTED,
    FINISHED,
    MEMBER_COLUMNS,
    MEMBERS,
    UNCOUNTED,
    assignment_of,
    member_of,
)
from storage.rows import chosen_of
from storage.shared import Args, Statements, Transaction

_SENDS = {
    "results": ("announced_at", "announce_sent_at"),
    "report": ("reported_at", "report_sent_at"),
}
"""A claimed send's columns: its claim (a lease) and its confirmation."""


class HomeworkStatements(Statements):
    """The :class:`~bot.features.homework.ports.HomeworkStore` and
    :class:`~bot.features.homework.ports.TimeZoneStore` methods."""

    async def _assignments(self, where: str, args: Args, *, tail: str = "") -> list[Assignment]:
        return [
            assignment_of(row)
            for row in await self._read(
                f"SELECT {ASSIGNMENT_COLUMNS} FROM assignments a WHERE {where}{tail}", args
            )
        ]

    @staticmethod
    async def _reread(db: Transaction, assignment_id: int) -> Assignment:
        rows = await db.fetch(
            f"SELECT {ASSIGNMENT_COLUMNS} FROM assignments a WHERE a.assignment_id = ?",
            (assignment_id,),
        )
        return assignment_of(rows[0])

    # --- time zones ----------------------------------------------------------------------

    async def time_zone(self, chat_id: int) -> str | None:
        """See :meth:`bot.features.homework.ports.TimeZoneStore.time_zone`."""
        rows = await self._read(
            "SELECT time_zone FROM chat_time_zones WHERE chat_id = ?", (chat_id,)
        )
        return str(rows[0][0]) if rows else None

    async def set_time_zone(self, chat_id: int, zone: str, now: float) -> None:
        """See :meth:`bot.features.homework.ports.TimeZoneStore.set_time_zone`."""
        await self._write(
            "INSERT INTO chat_time_zones (chat_id, time_zone, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (chat_id) DO UPDATE SET time_zone = excluded.time_zone,"
            " updated_at = excluded.updated_at",
            (chat_id, zone, now),
        )

    # --- assignments -----------------------------------------------------------------------

    async def create_assignment(self, new: NewAssignment, now: float) -> Assignment:
        """See :meth:`bot.features.homework.ports.HomeworkStore.create_assignment`."""

        async def op(db: Transaction) -> Assignment | None:
            rows = await db.fetch(
                "INSERT INTO assignments (chat_id, thread_id, token, bank_id, bank_version,"
                " language, set_by, set_by_name, created_at, deadline, status)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open')"
                " ON CONFLICT (token) DO NOTHING RETURNING assignment_id",
                (
                    new.chat_id,
                    new.thread_id,
                    new.token,
                    new.bank_id,
                    new.bank_version,
                    new.language,
                    new.set_by,
                    new.set_by_name,
                    now,
                    new.deadline,
                ),
            )
            return await self._reread(db, int(rows[0][0])) if rows else None

        created = await self._transaction(op)
        if created is None:
            raise TokenTaken(new.token)
        return created

    async def assignment(self, assignment_id: int) -> Assignment | None:
        """See :meth:`bot.features.homework.ports.HomeworkStore.assignment`."""
        found = await self._assignments("a.assignment_id = ?", (assignment_id,))
        return found[0] if found else None

    async def assignment_by_token(self, token: str) -> Assignment | None:
        """See :meth:`bot.features.homework.ports.HomeworkStore.assignment_by_token`."""
        found = await self._assignments("a.token = ?", (token,))
        return found[0] if found else None

    async def assignments_of(self, chat_id: int, *, limit: int) -> list[Assignment]:
        """See :meth:`bot.features.homework.ports.HomeworkStore.assignments_of`."""
        return await self._assignments(
            "a.chat_id = ? AND a.status IN ('open', 'closed')",
            (chat_id, limit),
            tail=" ORDER BY CASE WHEN a.status = 'open' THEN 0 ELSE 1 END,"
            " CASE WHEN a.status = 'open' THEN a.deadline ELSE -a.deadline END,"
            " CASE WHEN a.status = 'open' THEN a.assignment_id ELSE -a.assignment_id END"
            " LIMIT ?",
        )

    async def set_assignment_message(self, assignment_id: int, message_id: int, now: float) -> bool:
        """See :meth:`bot.features.homework.ports.HomeworkStore.set_assignment_message`."""
        return (
            await self._write(
                f"UPDATE assignments AS a SET message_id = ?, shown_at = ?,"
                f" shown_finished = ({FINISHED}) WHERE a.assignment_id = ? AND a.status = 'open'",
                (message_id, now, assignment_id),
            )
            == 1
        )

    # --- members -------------------------------------------------------------------------

    async def member(self, assignment_id: int, user_id: int) -> Member | None:
        """See :meth:`bot.features.homework.ports.HomeworkStore.member`."""
        rows = await self._read(
            f"SELECT {MEMBER_COLUMNS} FROM {MEMBERS} WHERE m.assignment_id = ? AND m.user_id = ?",
            (assignment_id, user_id),
        )
        return member_of(rows[0]) if rows else None

    async def members(self, assignment_id: int) -> list[Member]:
        """See :meth:`bot.features.homework.ports.HomeworkStore.members`."""
        return [
            member_of(row)
            for row in await self._read(
                f"SELECT {MEMBER_COLUMNS} FROM {MEMBERS} WHERE m.assignment_id = ?"
                " ORDER BY m.opened_at, m.user_id",
                (assignment_id,),
            )
        ]

    async def link_attempt(
        self,
        assignment_id: int,
        user_id: int,
        attempt_id: int,
        *,
        name: str,
        language: str,
        now: float,
        replacing: int | None,
    ) -> bool:
        """See :meth:`bot.features.homework.ports.HomeworkStore.link_attempt`. The assignment's
        row is locked first (a no-op update), so that a close or cancel waits for the link or
        comes first."""

        async def op(db: Transaction) -> bool:
            if (
                await db.execute(
                    "UPDATE assignments SET status = status"
                    " WHERE assignment_id = ? AND status = 'open'",
                    (assignment_id,),
                )
                != 1
            ):
                return False
            if replacing is None:
                return (
                    await db.execute(
                        "INSERT INTO homework_members (assignment_id, user_id, attempt_id, name,"
                        " language, opened_at) VALUES (?, ?, ?, ?, ?, ?)"
                        " ON CONFLICT (assignment_id, user_id) DO NOTHING",
                        (assignment_id, user_id, attempt_id, name, language, now),
                    )
                    == 1
                )
            return (
                await db.execute(
                    "UPDATE homework_members SET attempt_id = ?, name = ?, language = ?"
                    " WHERE assignment_id = ? AND user_id = ? AND attempt_id = ?",
                    (attempt_id, name, language, assignment_id, user_id, replacing),
                )
                == 1
            )

        return await self._transaction(op)

    async def refresh_member(
        self, assignment_id: int, user_id: int, *, name: str, language: str
    ) -> None:
        """See :meth:`bot.features.homework.ports.HomeworkStore.refresh_member`."""
        await self._write(
            "UPDATE homework_members SET name = ?, language = ?"
            " WHERE assignment_id = ? AND user_id = ? AND (name <> ? OR language <> ?)",
            (name, language, assignment_id, user_id, name, language),
        )

    # --- the pass --------------------------------------------------------------------------

    async def due_closing(self, now: float, *, limit: int) -> list[Assignment]:
        """See :meth:`bot.features.homework.ports.HomeworkStore.due_closing`."""
        return await self._assignments(
            "a.status = 'open' AND a.deadline <= ?",
            (now, limit),
            tail=" ORDER BY a.deadline, a.assignment_id LIMIT ?",
        )

    async def due_announcing(
        self, *, limit: int, stale_before: float | None = None
    ) -> list[Assignment]:
        """See :meth:`bot.features.homework.ports.HomeworkStore.due_announcing`."""
        return await self._assignments(
            "a.status = 'closed' AND a.announce_sent_at IS NULL"
            " AND (a.announced_at IS NULL OR a.announced_at <= ?)",
            (stale_before, limit),
            tail=" ORDER BY a.deadline, a.assignment_id LIMIT ?",
        )

    async def due_reporting(
        self, *, limit: int, stale_before: float | None = None
    ) -> list[Assignment]:
        """See :meth:`bot.features.homework.ports.HomeworkStore.due_reporting`."""
        return await self._assignments(
            "a.status = 'closed' AND a.announced_at IS NOT NULL AND a.report_sent_at IS NULL"
            " AND (a.reported_at IS NULL OR a.reported_at <= ?)",
            (stale_before, limit),
            tail=" ORDER BY a.deadline, a.assignment_id LIMIT ?",
        )

    async def due_finals(self, *, limit: int) -> list[Assignment]:
        """See :meth:`bot.features.homework.ports.HomeworkStore.due_finals`."""
        return await self._assignments(
            "a.status <> 'open' AND a.final_at IS NULL AND a.message_id IS NOT NULL"
            " AND (a.status = 'cancelled' OR a.announced_at IS NOT NULL)",
            (limit,),
            tail=" ORDER BY a.deadline, a.assignment_id LIMIT ?",
        )

    async def due_progress(self, now: float, *, min_seconds: float, limit: int) -> list[Assignment]:
        """See :meth:`bot.features.homework.ports.HomeworkStore.due_progress`."""
        return await self._assignments(
            "a.status = 'open' AND a.message_id IS NOT NULL"
            f" AND (a.shown_at IS NULL OR a.shown_at <= ?) AND ({FINISHED}) <> a.shown_finished",
            (now - min_seconds, limit),
            tail=" ORDER BY a.deadline, a.assignment_id LIMIT ?",
        )

    async def due_reminders(
        self, now: float, thresholds: Sequence[float], *, limit: int
    ) -> list[tuple[Assignment, Member]]:
        """See :meth:`bot.features.homework.ports.HomeworkStore.due_reminders`: a member is read
        when the nearest threshold passed is due to them (the rule of
        :func:`bot.features.homework.rules.reminder_due`, written in SQL so that those reminded
        already are not read again every pass)."""
        ordered = sorted(thresholds)  # nearest first
        cases, args = [], []
        for index, left in enumerate(ordered):
            nearer = ordered[:index]
            clause = [
                "a.deadline - ? <= ?",
                "m.opened_at < a.deadline - ?",
                "(m.reminded IS NULL OR m.reminded > ?)",
            ]
            args += [left, now, left, left]
            for near in nearer:  # a nearer threshold has not passed yet
                clause.append("a.deadline - ? > ?")
                args += [near, now]
            cases.append("(" + " AND ".join(clause) + ")")
        if not cases:
            return []
        rows = await self._read(
            f"SELECT {ASSIGNMENT_COLUMNS}, {MEMBER_COLUMNS} FROM {MEMBERS}"
            f" WHERE a.status = 'open' AND a.deadline > ? AND {UNCOUNTED}"
            f" AND ({' OR '.join(cases)})"
            " ORDER BY a.deadline, a.assignment_id, m.opened_at LIMIT ?",
            (now, *args, limit),
        )
        width = ASSIGNMENT_COLUMNS.count(",") + 1
        return [(assignment_of(row), member_of(tuple(row)[width:])) for row in rows]

    async def mark_progress(
        self, assignment_id: int, finished: int, now: float, *, shown_at: float | None
    ) -> bool:
        """See :meth:`bot.features.homework.ports.HomeworkStore.mark_progress`."""
        return (
            await self._write(
                "UPDATE assignments SET shown_finished = ?, shown_at = ?"
                " WHERE assignment_id = ? AND status = 'open' AND COALESCE(shown_at, -1) = ?",
                (finished, now, assignment_id, -1.0 if shown_at is None else shown_at),
            )
            == 1
        )

    async def mark_reminded(self, assignment_id: int, user_id: int, left: float) -> bool:
        """See :meth:`bot.features.homework.ports.HomeworkStore.mark_reminded`."""
        return (
            await self._write(
                "UPDATE homework_members SET reminded = ? WHERE assignment_id = ? AND user_id = ?"
                " AND (reminded IS NULL OR reminded > ?)",
                (left, assignment_id, user_id, left),
            )
            == 1
        )

    async def _claim_assignment(self, sql: str, args: Args) -> Assignment | None:
        """Run one compare-and-set update of an assignment ``... RETURNING assignment_id``;
        the assignment after it, or None if it changed nothing."""

        async def op(db: Transaction) -> Assignment | None:
            rows = await db.fetch(sql, args)
            return await self._reread(db, int(rows[0][0])) if rows else None

        return await self._transaction(op)

    async def close_assignment(
        self, assignment_id: int, now: float, *, due_by: float | None
    ) -> Assignment | None:
        """See :meth:`bot.features.homework.ports.HomeworkStore.close_assignment` (an early close
        moves the deadline to ``now``)."""
        due = "" if due_by is None else " AND deadline <= ?"
        return await self._claim_assignment(
            "UPDATE assignments SET status = 'closed', closed_at = ?,"
            " deadline = CASE WHEN deadline > ? THEN ? ELSE deadline END"
            f" WHERE assignment_id = ? AND status = 'open'{due} RETURNING assignment_id",
            (now, now, now, assignment_id, *(() if due_by is None else (due_by,))),
        )

    async def cancel_assignment(self, assignment_id: int, now: float) -> Assignment | None:
        """See :meth:`bot.features.homework.ports.HomeworkStore.cancel_assignment`."""
        return await self._claim_assignment(
            "UPDATE assignments SET status = 'cancelled', closed_at = ?"
            " WHERE assignment_id = ? AND status = 'open' RETURNING assignment_id",
            (now, assignment_id),
        )

    async def extend_assignment(self, assignment_id: int, deadline: float) -> Assignment | None:
        """See :meth:`bot.features.homework.ports.HomeworkStore.extend_assignment`."""

        async def op(db: Transaction) -> Assignment | None:
            rows = await db.fetch(
                "UPDATE assignments SET deadline = ? WHERE assignment_id = ? AND status = 'open'"
                " RETURNING assignment_id",
                (deadline, assignment_id),
            )
            if not rows:
                return None
            await db.execute(
                "UPDATE homework_members SET reminded = NULL WHERE assignment_id = ?",
                (assignment_id,),
            )
            return await self._reread(db, assignment_id)

        return await self._transaction(op)

    async def mark_announced(
        self, assignment_id: int, now: float, stale_before: float | None = None
    ) -> bool:
        """See :meth:`bot.features.homework.ports.HomeworkStore.mark_announced`."""
        return (
            await self._write(
                "UPDATE assignments SET announced_at = ? WHERE assignment_id = ?"
                " AND status = 'closed' AND announce_sent_at IS NULL"
                " AND (announced_at IS NULL OR announced_at <= ?)",
                (now, assignment_id, stale_before),
            )
            == 1
        )

    async def mark_reported(
        self, assignment_id: int, now: float, stale_before: float | None = None
    ) -> bool:
        """See :meth:`bot.features.homework.ports.HomeworkStore.mark_reported`."""
        return (
            await self._write(
                "UPDATE assignments SET reported_at = ? WHERE assignment_id = ?"
                " AND status = 'closed' AND announced_at IS NOT NULL AND report_sent_at IS NULL"
                " AND (reported_at IS NULL OR reported_at <= ?)",
                (now, assignment_id, stale_before),
            )
            == 1
        )

    async def settle_send(self, assignment_id: int, what: str, *, sent: bool, now: float) -> bool:
        """See :meth:`bot.features.homework.ports.HomeworkStore.settle_send`."""
        claimed, confirmed = _SENDS[what]
        if sent:
            return (
                await self._write(
                    f"UPDATE assignments SET {confirmed} = ? WHERE assignment_id = ?"
                    f" AND {claimed} IS NOT NULL AND {confirmed} IS NULL",
                    (now, assignment_id),
                )
                == 1
            )
        return (
            await self._write(
                f"UPDATE assignments SET {claimed} = NULL WHERE assignment_id = ?"
                f" AND {confirmed} IS NULL",
                (assignment_id,),
            )
            == 1
        )

    async def mark_final(self, assignment_id: int, now: float) -> bool:
        """See :meth:`bot.features.homework.ports.HomeworkStore.mark_final`."""
        return (
            await self._write(
                "UPDATE assignments SET final_at = ? WHERE assignment_id = ? AND status <> 'open'"
                " AND final_at IS NULL AND message_id IS NOT NULL"
                " AND (status = 'cancelled' OR announced_at IS NOT NULL)",
                (now, assignment_id),
            )
            == 1
        )

    async def homework_answers(self, assignment_id: int) -> list[HomeworkAnswer]:
        """See :meth:`bot.features.homework.ports.HomeworkStore.homework_answers`."""
        rows = await self._read(
            "SELECT m.user_id, m.name, m.attempt_id, t.started_at,"
            f" CASE WHEN {COUNTED} THEN t.ended_at END, s.question_id, s.option_index,"
            " s.chosen, s.correct, s.answered_at, m.language"
            " FROM homework_members m JOIN assignments a ON a.assignment_id = m.assignment_id"
            " JOIN attempts t ON t.attempt_id = m.attempt_id"
            " JOIN answers s ON s.attempt_id = m.attempt_id"
            " WHERE m.assignment_id = ? AND s.answered_at <= a.deadline"
            " ORDER BY m.opened_at, m.user_id, s.answered_at, s.question_id",
            (assignment_id,),
        )
        return [
            HomeworkAnswer(
                user_id=row[0],
                name=row[1],
                attempt_id=row[2],
                started_at=row[3],
                finished_at=row[4],
                question_id=row[5],
                option_index=row[6],
                chosen=chosen_of(row[7]),
                correct=bool(row[8]),
                answered_at=row[9],
                language=row[10],
            )
            for row in rows
        ]

    async def move_assignments(self, old_chat_id: int, new_chat_id: int) -> list[Assignment]:
        """See :meth:`bot.features.homework.ports.HomeworkStore.move_assignments`."""

        async def op(db: Transaction) -> list[Assignment]:
            rows = await db.fetch(
                "UPDATE assignments SET chat_id = ?, message_id = NULL WHERE chat_id = ?"
                " RETURNING assignment_id, status, deadline",
                (new_chat_id, old_chat_id),
            )
            return [
                await self._reread(db, int(row[0]))
                for row in sorted(rows, key=lambda row: (row[2], row[0]))
                if row[1] == "open"
            ]

        return await self._transaction(op)
