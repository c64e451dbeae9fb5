"""Homework's rows, the same on both engines: the columns an assignment and a member are read
from, which member's attempt counts (finished by the deadline), and the decoding of a row into
:class:`~bot.features.homework.rules.Assignment` or :class:`~bot.features.homework.rules.Member`
(used by :mod:`storage.homework`'s statements)."""

from __future__ import annotations

from bot.features.homework.rules import Assignment, HomeworkStatus, Member
from storage.rows import Row

FINISHED = (
    "SELECT COUNT(*) FROM homework_members m JOIN attempts t"
    " ON t.attempt_id = m.attempt_id WHERE m.assignment_id = a.assignment_id"
    " AND t.status = 'finished' AND t.ended_at <= a.deadline"
)
"""The finished count of an assignment ``a``: a correlated subquery."""


ASSIGNMENT_COLUMNS = (
    "a.assignment_id, a.chat_id, a.thread_id, a.token, a.bank_id, a.bank_version,"
    " a.language, a.set_by, a.set_by_name, a.created_at, a.deadline, a.status, a.message_id,"
    f" a.shown_finished, a.shown_at, a.closed_at, a.announced_at, a.reported_at, ({FINISHED}),"
    " a.final_at"
)
"""What :func:`assignment_of` decodes, in its order, from ``assignments a``."""


COUNTED = "t.status = 'finished' AND t.ended_at <= a.deadline"
"""Whether member ``m``'s linked attempt ``t`` of assignment ``a`` counts."""


UNCOUNTED = "(t.status IS NULL OR t.status <> 'finished' OR t.ended_at > a.deadline)"
"""The opposite of :data:`COUNTED`, with no attempt (deleted) counting as not finished."""


MEMBER_COLUMNS = (
    "m.assignment_id, m.user_id, m.name, m.language, m.opened_at, m.attempt_id,"
    " COALESCE(t.status, ''), COALESCE(t.started_at, m.opened_at),"
    f" CASE WHEN {COUNTED} THEN t.ended_at END, m.reminded"
)
"""What :func:`member_of` decodes, from ``homework_members m`` joined to its assignment ``a``
and (left) to its attempt ``t``."""


MEMBERS = (
    "homework_members m JOIN assignments a ON a.assignment_id = m.assignment_id"
    " LEFT JOIN attempts t ON t.attempt_id = m.attempt_id"
)
"""The tables :data:`MEMBER_COLUMNS` read."""


def assignment_of(row: Row) -> Assignment:
    """The assignment of a row of :data:`ASSIGNMENT_COLUMNS`."""
    return Assignment(
        id=row[0],
        chat_id=row[1],
        thread_id=row[2],
        token=row[3],
        bank_id=row[4],
        bank_version=row[5],
        language=row[6],
        set_by=row[7],
        set_by_name=row[8],
        created_at=row[9],
        deadline=row[10],
        status=HomeworkStatus(row[11]),
        message_id=row[12],
        shown_finished=row[13],
        shown_at=row[14],
        closed_at=row[15],
        announced_at=row[16],
        reported_at=row[17],
        finished=int(row[18]),
        final_at=row[19],
    )


def member_of(row: Row) -> Member:
    """The member of a row of :data:`MEMBER_COLUMNS`."""
    return Member(
        assignment_id=row[0],
        user_id=row[1],
        name=row[2],
        language=row[3],
        opened_at=row[4],
        attempt_id=row[5],
        attempt_status=row[6],
        started_at=row[7],
        finished_at=row[8],
        reminded=row[9],
    )
