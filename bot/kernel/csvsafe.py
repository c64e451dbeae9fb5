"""Text made safe as a spreadsheet cell (OWASP, "CSV Injection"): every CSV quizbot writes (group
results, homework results, ``quizbot report``) goes through :func:`safe_cell`. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.kernel.bank import invisible

FORMULA_START = frozenset("=+-@\t\r\uff1d\uff0b\uff0d\uff20")
"""Characters that make a spreadsheet take a cell for a formula when they come first (OWASP,
"CSV Injection": ``=``, ``+``, ``-``, ``@``, tab and carriage return), with the full-width
forms of the first four (＝＋－＠), which some spreadsheets read as the same."""

SEPARATORS = frozenset(",;\t\n\r")
"""Characters a spreadsheet may split cells at: the comma the files are written with, the
semicolon of locales whose decimal mark is a comma (Excel's list separator there), the
tab (a file opened or pasted as tab-separated values), and line breaks (a reader that
ignores quotes starts a row there). A cell's text after one of them may become a cell of its
own."""


def safe_cell(text: str) -> str:
    """``text`` made safe as a CSV cell (OWASP, "CSV Injection"): a ``'`` (which makes a
    spreadsheet take the cell as text) is put before each part of ``text`` that could be read as
    a formula: the cell, and each part after a separator (:data:`SEPARATORS`; a spreadsheet
    splitting there would see a cell), whose first character once invisible ones
    (:func:`bot.kernel.bank.invisible`) are skipped is in :data:`FORMULA_START`. ``x;=1+1;`` becomes
    ``x;'=1+1;``, `` =1`` becomes ``' =1``, ``\u200f@x`` becomes ``'\u200f@x``; other text is
    unchanged. Every CSV quizbot writes goes through it (:func:`safe_row`)."""
    out: list[str] = []
    start: int | None = 0  # where the current part starts in out, until its first visible char
    for char in text:
        if start is not None and char in FORMULA_START:
            out.insert(start, "'")
            start = None
        elif start is not None and not invisible(char):
            start = None
        out.append(char)
        if char in SEPARATORS:
            start = len(out)
    return "".join(out)


def safe_row(values: Iterable[object]) -> list[object]:
    """A CSV row's values with each text made safe (:func:`safe_cell`); numbers and None (an
    empty cell) are left as they are (a number is written as digits, a sign and a point)."""
    return [safe_cell(v) if isinstance(v, str) else v for v in values]


@dataclass(frozen=True)
class CsvRow:
    """One row of the admin's CSV: one member and question.

    Attributes:
        user_id, name: The member.
        question: The question's 1-based place in the bank (0 if gone) and ``question_id``.
        option: The chosen option's text (the member's language; several joined by " | ").
        correct: Whether it was right.
        answered_at: When (ISO 8601 in the chat's time zone).
        started_at: When the attempt started (ISO 8601).
        finished_at: When it finished before the deadline (ISO 8601), "" if it did not.
        marks: What the answer scored in an exam (its marks, or minus the penalty); None
            outside exams (the CSV then has no ``marks`` column).
    """

    user_id: int
    name: str
    question: int
    question_id: str
    option: str
    correct: bool
    answered_at: str
    started_at: str
    finished_at: str
    marks: float | None = None

    HEADER = (
        "user_id",
        "name",
        "question",
        "question_id",
        "option",
        "correct",
        "answered_at",
        "attempt_started_at",
        "attempt_finished_at",
    )
    """The CSV's header row (column names: data, not translated)."""

    def cells(self) -> tuple[str, ...]:
        """The row as CSV cells, in :attr:`HEADER`'s order; a typed text (name, option) that a
        spreadsheet would run as a formula starts with an apostrophe (OWASP, "CSV
        Injection")."""
        return (
            str(self.user_id),
            safe_cell(self.name),
            str(self.question),
            self.question_id,
            safe_cell(self.option),
            "right" if self.correct else "wrong",
            self.answered_at,
            self.started_at,
            self.finished_at,
        )
