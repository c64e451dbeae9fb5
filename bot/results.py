"""A finished group session's results for its teachers: one CSV row per member and question,
and a per-question summary. Front-end neutral (no Telegram, no SQL): plain data in, text out.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.quiz import group
from bot.quiz.bank import Bank
from bot.quiz.engine import LABELS
from bot.quiz.group import GroupAnswer, GroupSession

CSV_COLUMNS = ("session_id", "question_number", "question_id", "user_id", "name", "option",
               "option_text", "result", "answer_ms", "points")
"""The CSV's header. ``option`` is the letter the member saw (A-J), ``result`` ``right``,
``wrong`` or ``none`` (no answer), ``answer_ms`` the time from the question being posted to the
tap, in milliseconds, ``points`` under the session's scoring."""

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""A cell starting with one of these is taken for a formula by spreadsheets (OWASP, "CSV
Injection"): such names are prefixed with ``'``."""


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
    answered = max((order.index(a.question_id) + 1 for a in answers
                    if a.question_id in order), default=0)
    return min(session.total, max(answered,
                                  session.position + (1 if session.deadline is not None else 0)))


def safe_cell(text: str) -> str:
    """``text`` made safe for a spreadsheet (:data:`_FORMULA_START`)."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def session_csv(bank: Bank, session: GroupSession, answers: Iterable[GroupAnswer],
                names: Mapping[int, str], language: str) -> str:
    """The CSV (RFC 4180, ``\\r\\n`` line ends, header first): one row per player and asked
    question, a row with ``result`` ``none`` for a question the player did not answer; players
    in leaderboard order, questions in session order; option texts in ``language``."""
    answers = list(answers)
    points = group.points(session, answers)
    by_key = {(a.user_id, a.question_id): a for a in answers}
    lang = bank.language_for(language)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    count = asked(session, answers)
    for standing in group.leaderboard(answers, names, session):
        for position in range(count):
            question_id = session.plan.question_order[position]
            answer = by_key.get((standing.user_id, question_id))
            option = text = ""
            if answer is not None:
                slots = session.plan.option_orders[position]
                if answer.option_index in slots:
                    option = LABELS[slots.index(answer.option_index)]
                question = next((q for q in bank.questions if q.id == question_id), None)
                if question is not None and answer.option_index < len(question.options):
                    text = question.options[answer.option_index].text.get(
                        lang, bank.default_language)
            writer.writerow([
                session.id, position + 1, question_id, standing.user_id,
                safe_cell(standing.name), option, safe_cell(text),
                "none" if answer is None else "right" if answer.correct else "wrong",
                "" if answer is None else round(answer.elapsed * 1000),
                points.get((standing.user_id, question_id), 0)])
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
        result.append(QuestionSummary(position + 1, question_id, len(mine), right, mean,
                                      tuple(group.tally(session, position, mine))))
    return result
