"""Rows to the core's models, for both engines: the SQLite and the PostgreSQL store select the
same columns and decode them here, once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Protocol

from bot.features.groups.rules import GroupSession, Scoring, SessionStatus
from bot.features.groups.settings import GroupSettings, WhoStarts
from bot.kernel.engine import Answer, Attempt, AttemptStatus, Plan

SESSION_COLUMNS = (
    "session_id, chat_id, bank_id, bank_version, language, starter_id, question_order,"
    " option_orders, question_seconds, position, message_id, deadline, status, started_at,"
    " ended_at, message_thread_id, scoring"
)
"""The columns of ``group_sessions`` that :func:`session_of` decodes, in its order."""


class Row(Protocol):
    """A result row, read by column position: SQLite's (a tuple) or an asyncpg ``Record``."""

    def __getitem__(self, index: int, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


def session_of(row: Row) -> GroupSession:
    """The group session of a row of :data:`SESSION_COLUMNS`."""
    plan = Plan(tuple(json.loads(row[6])), tuple(tuple(o) for o in json.loads(row[7])))
    return GroupSession(
        id=row[0],
        chat_id=row[1],
        bank_id=row[2],
        bank_version=row[3],
        language=row[4],
        starter_id=row[5],
        plan=plan,
        question_seconds=row[8],
        position=row[9],
        message_id=row[10],
        deadline=row[11],
        status=SessionStatus(row[12]),
        started_at=row[13],
        ended_at=row[14],
        message_thread_id=row[15],
        scoring=Scoring(row[16]),
    )


def settings_of(row: Row) -> GroupSettings:
    """The group settings of a row of ``who_starts, question_seconds, scoring, bank_id,
    question_count, version``."""
    return GroupSettings(WhoStarts(row[0]), row[1], Scoring(row[2]), row[3], row[4], row[5])


def attempt_of(row: Row) -> Attempt:
    """The attempt of a row of ``attempt_id, user_id, bank_id, bank_version, question_order,
    option_orders, position, status, started_at, ended_at``, its answers as a JSON array of
    ``[question_id, option_index, correct, answered_at, chosen]``, and ``fingerprints``."""
    answers = {
        q: Answer(q, option, bool(correct), float(at), chosen_of(chosen))
        for q, option, correct, at, chosen in json.loads(row[10])
    }
    plan = Plan(tuple(json.loads(row[4])), tuple(tuple(o) for o in json.loads(row[5])))
    return Attempt(
        id=row[0],
        user_id=row[1],
        bank_id=row[2],
        bank_version=row[3],
        plan=plan,
        position=row[6],
        status=AttemptStatus(row[7]),
        started_at=row[8],
        ended_at=row[9],
        answers=answers,
        fingerprints=json.loads(row[11] or "{}"),
    )


def chosen_text(chosen: tuple[int, ...]) -> str | None:
    """The ``chosen`` column of an answer: its options (several right options) as a JSON
    array, or NULL for an answer of one option (``option_index`` is it)."""
    return json.dumps(list(chosen)) if chosen else None


def chosen_of(text: str | None) -> tuple[int, ...]:
    """An answer's chosen options from its ``chosen`` column (empty for NULL)."""
    return tuple(int(i) for i in json.loads(text)) if text else ()


def moved_on(attempt_id: int, moved: Attempt) -> tuple[int, str, float | None]:
    """The ``position, status, ended_at`` to store for an answered attempt: those of ``moved``,
    the attempt as the core moved it on (see :meth:`bot.kernel.ports.QuizStore.record_answer`).

    Checked before anything is written, so that the write that stores them cannot be refused
    halfway (the answer stored, the attempt not moved) by the table's status check.

    Raises:
        ValueError: ``moved`` is another attempt than ``attempt_id``, or its status is neither
            active nor finished.
    """
    if moved.id != attempt_id:
        raise ValueError(f"attempt {attempt_id} cannot move to attempt {moved.id}")
    if moved.status not in (AttemptStatus.ACTIVE, AttemptStatus.FINISHED):
        raise ValueError(f"an answer cannot leave attempt {attempt_id} {moved.status}")
    return moved.position, str(moved.status), moved.ended_at
