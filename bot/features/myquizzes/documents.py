"""A created quiz's bank data, as the /myquizzes service edits it: its summary in the library,
the languages of bank data sent without them, and a question fitted into a quiz (its texts in
every language of the quiz, under a free id).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.kernel.bank import MAX_QUESTIONS, Bank
from bot.kernel.bankdata import localized
from bot.kernel.library import QuizSummary


def summary(bank: Bank) -> QuizSummary:
    """What the library lists of ``bank``: its title and language, and its count of questions."""
    return QuizSummary(
        bank.title.by_language[bank.default_language], bank.default_language, len(bank.questions)
    )


def with_language(data: Mapping[str, object], language: str) -> dict[str, object]:
    """A copy of bank ``data`` with ``default_language`` ``language`` and ``languages`` just that
    one, unless it has its own."""
    filled = dict(data)
    filled.setdefault("default_language", language)
    filled.setdefault("languages", [filled["default_language"]])
    return filled


def free_id(questions: Sequence[Mapping[str, Any]]) -> str:
    """A question id (``q`` and a number) that none of ``questions`` has."""
    taken = {q.get("id") for q in questions}
    return next(
        f"q{n}" for n in range(len(questions) + 1, 10 * MAX_QUESTIONS) if f"q{n}" not in taken
    )


def fitted(
    question: Mapping[str, Any], data: Mapping[str, Any], question_id: str
) -> dict[str, Any]:
    """``question`` (bank data) with its texts in every language of the quiz ``data``
    (:func:`~bot.kernel.bankdata.localized`) and the id ``question_id``."""
    fitted = localized(question, data["languages"])
    fitted["id"] = question_id
    return fitted
