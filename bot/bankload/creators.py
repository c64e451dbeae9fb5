"""The check of a created quiz's document: the rules of ``quizbot validate --strict``.

The loader's schema (:func:`bot.bankload.parse_bank`), then the item-writing checks
(:func:`bot.kernel.checks.check_bank`), which ``--strict`` makes errors; every finding becomes a
:class:`BankProblem` with a catalog key (``check.<rule>``) so that a creator reads it in their
language, by question number and field. The wiring hands :func:`check_document` to
:class:`bot.features.myquizzes.service.QuizzesService`, and :func:`parse_document` to it and to the
bank registry for the stored versions.

A creator's file is limited in size as sent (``bot.features.importing.handlers.MAX_FILE_BYTES``):
the YAML the bot writes of a converted GIFT, Aiken or CSV file is larger than the file, and is
bounded by :data:`~bot.bankload.schema.MAX_DOCUMENT_BYTES` instead of the bank file's limit.
"""

from __future__ import annotations

import re

from bot.bankload.checker import MAX_PROBLEMS, too_many_problems
from bot.bankload.problems import BankError, BankProblem
from bot.bankload.schema import MAX_DOCUMENT_BYTES, parse_bank
from bot.kernel.bank import Bank
from bot.kernel.checks import Finding, check_bank

_OTHER_QUESTION = re.compile(r"question '([^']+)'")
"""How an ``answer-leak`` finding names the question whose answer it gives away."""


def check_document(document: str, file: str = "<quiz>") -> Bank | list[BankProblem]:
    """Parse and check a bank document as ``quizbot validate --strict`` does.

    Args:
        document: The YAML text: a file as sent (its size checked where it was received) or
            the bot's writing of a converted one (at most
            :data:`~bot.bankload.schema.MAX_DOCUMENT_BYTES`).
        file: The name problems give as their file.

    Returns:
        The bank, or the problems found (the schema's; else the item-writing checks'): at
        most :data:`~bot.bankload.checker.MAX_PROBLEMS`, then one saying the check stopped.
    """
    try:
        bank = parse_document(document, file)
    except BankError as exc:
        return list(exc.problems)
    findings = check_bank(bank)
    problems = [finding_problem(bank, finding, file) for finding in findings[:MAX_PROBLEMS]]
    if len(findings) > MAX_PROBLEMS:
        problems.append(too_many_problems(file))
    return problems or bank


def parse_document(document: str, file: str = "<quiz>") -> Bank:
    """Parse a created quiz's document (:func:`~bot.bankload.parse_bank`, bounded by
    :data:`~bot.bankload.schema.MAX_DOCUMENT_BYTES`: a stored version may be the YAML of a
    converted file, larger than the file was).

    Raises:
        BankError: the document does not parse or breaks the schema.
    """
    return parse_bank(document, file, max_bytes=MAX_DOCUMENT_BYTES)


def finding_problem(bank: Bank, finding: Finding, file: str) -> BankProblem:
    """An item-writing finding as a problem: its key ``check.<rule>``, the question's number,
    and for ``answer-leak`` the number of the question whose answer leaks (``other``)."""
    numbers = {question.id: number for number, question in enumerate(bank.questions, start=1)}
    params: dict[str, object] = {}
    if finding.rule == "answer-leak":
        named = _OTHER_QUESTION.search(finding.message)
        params["other"] = numbers.get(named[1], 0) if named else 0
    return BankProblem(
        file,
        finding.line,
        finding.question_id,
        finding.field,
        finding.message,
        finding.column,
        f"check.{finding.rule}",
        params,
        numbers.get(finding.question_id),
    )
