"""``quizbot report``: item analysis over everything stored (see :mod:`bot.kernel.analysis`),
as CSV, Markdown or JSON."""

from __future__ import annotations

import argparse
import csv
import datetime
import errno
import io
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from bot.features.groups.results import safe_row
from bot.kernel.analysis import ItemStats, analyse
from bot.kernel.bank import Bank

COLUMNS = (
    "bank_id",
    "question_id",
    "question",
    "language",
    "answers",
    "difficulty",
    "discrimination",
    "options",
    "correct_option",
    "flags",
)
"""The report's columns: ``question`` is the question's text in the row's language (the
bank's default language where it has none); ``language`` the one the questions were shown in;
``options`` how often each option was chosen, option 1 first (bank order, as in the bank
file): a JSON array, in CSV and Markdown separated by ``|``; ``correct_option`` is 1-based;
``flags`` a JSON array, in CSV and Markdown separated by spaces."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``report`` subcommand."""
    report = sub.add_parser(
        "report",
        help="item analysis of every stored answer (private and group)",
        description="Per question and language: answers, difficulty (proportion right), "
        "discrimination (corrected point-biserial correlation with the rest score), "
        "how often each option was chosen, and flags (too_easy, too_hard, negative, "
        "few_answers). See bot/kernel/analysis.py for the definitions and sources.",
    )
    report.add_argument(
        "--db",
        help="SQLite database file, or a PostgreSQL URL "
        "postgresql://user@host/db (env QUIZBOT_DB; "
        "default quizbot.sqlite3)",
    )
    report.add_argument(
        "--banks",
        nargs="+",
        metavar="PATH",
        help="bank files or folders (env QUIZBOT_BANKS; default: bundled banks/)",
    )
    report.add_argument("--bank", metavar="ID", help="only this bank")
    report.add_argument(
        "--chat",
        metavar="ID",
        type=int,
        help="only this group chat's sessions (no private answers)",
    )
    report.add_argument(
        "--since",
        metavar="DATE",
        type=parse_date,
        help="only answers from this day on (YYYY-MM-DD, UTC) or time (ISO 8601)",
    )
    report.add_argument(
        "--format", choices=("csv", "md", "json"), default="csv", help="output format (default csv)"
    )
    report.add_argument("--out", metavar="PATH", type=Path, help="write here (default: stdout)")
    report.add_argument("--force", action="store_true", help="overwrite --out if it exists")


def parse_date(text: str) -> float:
    """``YYYY-MM-DD`` (midnight UTC) or an ISO 8601 time (UTC unless it says) as epoch seconds.

    Raises:
        argparse.ArgumentTypeError: anything else.
    """
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.timestamp()


def option_counts(banks: Mapping[str, Bank]) -> dict[tuple[str, str], int]:
    """Options per (bank id, question id) as the banks have them now."""
    return {(b.id, q.id): len(q.options) for b in banks.values() for q in b.questions}


def correct_options(banks: Mapping[str, Bank]) -> dict[tuple[str, str], int]:
    """The 1-based right option per (bank id, question id)."""
    return {(b.id, q.id): q.correct_index + 1 for b in banks.values() for q in b.questions}


def _place(banks: Mapping[str, Bank]) -> dict[tuple[str, str], int]:
    """Each (bank id, question id) of the installed banks: the question's place in its
    bank."""
    return {(b.id, q.id): i for b in banks.values() for i, q in enumerate(b.questions)}


def _text(banks: Mapping[str, Bank], bank_id: str, question_id: str, language: str) -> str:
    """The question's text in ``language`` (else the bank's default), or "" when it is no
    longer installed."""
    bank = banks.get(bank_id)
    if bank is None or not any(q.id == question_id for q in bank.questions):
        return ""
    prompt = bank.question(question_id).prompt
    return prompt.get(
        language if language in bank.languages else bank.default_language, bank.default_language
    )


def rows(items: Sequence[ItemStats], banks: Mapping[str, Bank]) -> list[dict[str, object]]:
    """The report's rows (:data:`COLUMNS`), figures rounded to 3 decimals, in the banks'
    order: bank by id, then the questions as the bank has them, then by language; questions
    no longer installed after those of their bank, by id."""
    correct = correct_options(banks)
    place = _place(banks)
    last = len(place)

    def order(i: ItemStats) -> tuple[str, int, str, str]:
        return (i.bank_id, place.get((i.bank_id, i.question_id), last), i.question_id, i.language)

    return [
        {
            "bank_id": i.bank_id,
            "question_id": i.question_id,
            "question": _text(banks, i.bank_id, i.question_id, i.language),
            "language": i.language or "-",
            "answers": i.answers,
            "difficulty": round(i.difficulty, 3),
            "discrimination": None if i.discrimination is None else round(i.discrimination, 3),
            "options": list(i.options),
            "correct_option": correct.get((i.bank_id, i.question_id)),
            "flags": list(i.flags),
        }
        for i in sorted(items, key=order)
    ]


def _cell(value: object, separator: str) -> object:
    """A value for a CSV or Markdown cell: a list joined by ``separator``."""
    if isinstance(value, list):
        return separator.join(map(str, value))
    return value


def render(table: Sequence[Mapping[str, object]], fmt: str) -> str:
    """The rows as ``csv``, ``md`` (a Markdown table) or ``json`` (lists as arrays)."""
    if fmt == "json":
        return json.dumps(list(table), ensure_ascii=False, indent=2) + "\n"
    separators = {"options": "|", "flags": " "}
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(safe_row(COLUMNS))
        writer.writerows(
            safe_row(_cell(row[c], separators.get(c, "")) for c in COLUMNS) for row in table
        )
        return out.getvalue()

    def cell(column: str, value: object) -> str:
        value = _cell(value, separators.get(column, ""))
        return "" if value is None else str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(cell(c, row[c]) for c in COLUMNS) + " |" for row in table]
    return "\n".join(lines) + "\n"


async def build(
    db: str | Path,
    banks: Mapping[str, Bank],
    *,
    bank_id: str | None,
    chat_id: int | None,
    since: float | None,
) -> list[dict[str, object]]:
    """Read the answers from ``db`` (a SQLite file or a PostgreSQL URL) and analyse them.
    Answers on created quizzes are analysed against the quiz's latest version in ``db`` (as
    those of a featured bank against its file now); a created quiz taken down or deleted has
    no options or right option in the report.

    Raises:
        StorageError: the database cannot be opened.
    """
    from bot.bankload.creators import parse_document
    from bot.kernel.registry import BankRegistry
    from storage import open_store

    store = await open_store(db)
    try:
        responses = await store.item_responses(bank_id=bank_id, chat_id=chat_id, since=since)
        registry = BankRegistry(banks, store, parse=parse_document)
        named = dict(banks)
        named.update(
            await registry.loaded(
                [i for i in dict.fromkeys(r.bank_id for r in responses) if i not in named]
            )
        )
    finally:
        await store.close()
    return rows(analyse(responses, option_counts(named)), named)


async def known(db: str | Path, banks: Mapping[str, Bank], bank_id: str) -> bool:
    """Whether ``bank_id`` names an installed bank or a quiz created in Telegram and stored in
    ``db`` (taken down or not): ``--bank`` of either is a report, empty until it has answers.

    Raises:
        StorageError: the database cannot be opened.
    """
    if bank_id in banks:
        return True
    from storage import open_store

    store = await open_store(db)
    try:
        return await store.quiz(bank_id) is not None
    finally:
        await store.close()


def write(text: str, out: Path | None, *, force: bool = False) -> None:
    """Write the report to ``out`` or standard output.

    Raises:
        FileExistsError: ``out`` exists and not ``force`` (nothing is written).
    """
    if out is None:
        sys.stdout.write(text)
    elif out.exists() and not force:
        raise FileExistsError(errno.EEXIST, "exists: pass --force to overwrite it", str(out))
    else:
        out.write_text(text, encoding="utf-8")
