"""A finished group session's results for its teachers: one CSV row per member and question,
and a per-question summary. Front-end neutral (no Telegram, no SQL): plain data in, text out.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.features.groups import rules as group
from bot.features.groups.rules import GroupAnswer, GroupSession
from bot.kernel.bank import Bank
from bot.kernel.csvsafe import FORMULA_START as FORMULA_START
from bot.kernel.csvsafe import SEPARATORS as SEPARATORS
from bot.kernel.csvsafe import CsvRow
from bot.kernel.csvsafe import safe_cell as safe_cell
from bot.kernel.csvsafe import safe_row as safe_row
from bot.kernel.engine import LABELS

CSV_COLUMNS = (
    "session_id",
    "question_number",
    "question_id",
    "user_id",
    "name",
    "option",
    "option_text",
    "result",
    "answer_ms",
    "points",
)
"""The CSV's header. ``option`` is the letter the member saw (A-L), ``result`` ``right``,
``wrong`` or ``none`` (no answer), ``answer_ms`` the time from the question being posted to the
tap, in milliseconds, ``points`` under the session's scoring."""


@dataclass(frozen=True)
class QuestionSummary:
    """How a group answered one question.

    Attributes:
        number: 1-based position in the session.
        question_id: The bank's id of the question.
        answers: How many members answered it.
        right: How many of them were right.
        mean_seconds: Their mean answer time in seconds (0 with no answers).
        counts: How many chose each slot (A, B, ...).
    """

    number: int
    question_id: str
    answers: int
    right: int
    mean_seconds: float
    counts: tuple[int, ...]


def asked(session: GroupSession, answers: Iterable[GroupAnswer] = ()) -> int:
    """How many of the session's questions were asked: all once it finished; else those up to
    the open (or last closed) one, and at least up to the last one answered (a session stopped
    while a question was open keeps no deadline, but its answers tell)."""
    if session.status == group.FINISHED:
        return session.total
    order = session.plan.question_order
    answered = max(
        (order.index(a.question_id) + 1 for a in answers if a.question_id in order), default=0
    )
    return min(
        session.total, max(answered, session.position + (1 if session.deadline is not None else 0))
    )


def session_csv(
    bank: Bank,
    session: GroupSession,
    answers: Iterable[GroupAnswer],
    names: Mapping[int, str],
    language: str,
) -> str:
    """The CSV (RFC 4180, ``\\r\\n`` line ends, header first): one row per player and asked
    question, a row with ``result`` ``none`` for a question the player did not answer; players
    in leaderboard order, questions in session order; option texts in ``language``."""
    answers = list(answers)
    points = group.points(session, answers)
    by_key = {(a.user_id, a.question_id): a for a in answers}
    lang = bank.language_for(language)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(safe_row(CSV_COLUMNS))
    count = asked(session, answers)
    for standing in group.leaderboard(answers, names, session):
        for position in range(count):
            question_id = session.plan.question_order[position]
            answer = by_key.get((standing.user_id, question_id))
            option = text = ""
            if answer is not None:
                slots = session.plan.option_orders[position]
                chosen = sorted(
                    answer.choice, key=lambda i: (slots.index(i) if i in slots else len(slots), i)
                )
                option = " ".join(LABELS[slots.index(i)] for i in chosen if i in slots)  # "A C"
                question = next((q for q in bank.questions if q.id == question_id), None)
                if question is not None:
                    text = " | ".join(
                        question.options[i].text.get(lang, bank.default_language)
                        for i in chosen
                        if i < len(question.options)
                    )
            writer.writerow(
                safe_row(
                    [
                        session.id,
                        position + 1,
                        question_id,
                        standing.user_id,
                        standing.name,
                        option,
                        text,
                        "none" if answer is None else "right" if answer.correct else "wrong",
                        "" if answer is None else round(answer.elapsed * 1000),
                        points.get((standing.user_id, question_id), 0),
                    ]
                )
            )
    return out.getvalue()


def summary(session: GroupSession, answers: Iterable[GroupAnswer]) -> list[QuestionSummary]:
    """Per asked question: answers, right answers, mean answer time, choices per slot."""
    answers = list(answers)
    result = []
    for position in range(asked(session, answers)):
        question_id = session.plan.question_order[position]
        mine = [a for a in answers if a.question_id == question_id]
        right = sum(a.correct for a in mine)
        mean = sum(a.elapsed for a in mine) / len(mine) if mine else 0.0
        result.append(
            QuestionSummary(
                position + 1,
                question_id,
                len(mine),
                right,
                mean,
                tuple(group.tally(session, position, mine)),
            )
        )
    return result


def homework_csv(rows: Iterable[CsvRow]) -> str:
    """The CSV of a homework's answers (RFC 4180, ``\\r\\n`` line ends, the header
    :attr:`~bot.kernel.csvsafe.CsvRow.HEADER` first): one row per member and question
    answered, each cell made safe (:func:`safe_row`); with a ``marks`` column last when the
    homework was sat as an exam."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    rows = list(rows)
    marked = any(row.marks is not None for row in rows)  # homework sat as an exam
    writer.writerow(safe_row((*CsvRow.HEADER, "marks") if marked else CsvRow.HEADER))
    for row in rows:
        cells: tuple[object, ...] = row.cells()
        if marked:  # a number, written as digits and a sign (never taken for a formula)
            value = row.marks
            cells = (
                *cells,
                None if value is None else int(value) if value == int(value) else value,
            )
        writer.writerow(safe_row(cells))
    return out.getvalue()
