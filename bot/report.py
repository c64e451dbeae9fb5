"""``quizbot report``: item analysis over everything stored (see :mod:`bot.quiz.analysis`),
as CSV, Markdown or JSON."""

from __future__ import annotations

import argparse
import csv
import datetime
import io
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from bot.quiz.analysis import ItemStats, analyse
from bot.quiz.bank import Bank
from bot.results import safe_row

COLUMNS = ("bank_id", "question_id", "language", "answers", "difficulty", "discrimination",
           "options", "correct_option", "flags")
"""The report's columns: ``options`` is how often each option was chosen, option 1 first
(bank order, as in the bank file), separated by ``|``; ``correct_option`` is 1-based."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``report`` subcommand."""
    report = sub.add_parser(
        "report", help="item analysis of every stored answer (private and group)",
        description="Per question and language: answers, difficulty (proportion right), "
                    "discrimination (corrected point-biserial correlation with the rest score), "
                    "how often each option was chosen, and flags (too_easy, too_hard, negative, "
                    "few_answers). See bot/quiz/analysis.py for the definitions and sources.")
    report.add_argument("--db", help="SQLite database file (env QUIZBOT_DB; "
                                     "default quizbot.sqlite3)")
    report.add_argument("--banks", nargs="+", metavar="PATH",
                        help="bank files or folders (env QUIZBOT_BANKS; default: bundled banks/)")
    report.add_argument("--bank", metavar="ID", help="only this bank")
    report.add_argument("--chat", metavar="ID", type=int,
                        help="only this group chat's sessions (no private answers)")
    report.add_argument("--since", metavar="DATE", type=parse_date,
                        help="only answers from this day on (YYYY-MM-DD, UTC) or time "
                             "(ISO 8601)")
    report.add_argument("--format", choices=("csv", "md", "json"), default="csv",
                        help="output format (default csv)")
    report.add_argument("--out", metavar="PATH", type=Path, help="write here (default: stdout)")


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


def rows(items: Sequence[ItemStats], banks: Mapping[str, Bank]) -> list[dict[str, object]]:
    """The report's rows (:data:`COLUMNS`), figures rounded to 3 decimals."""
    correct = correct_options(banks)
    return [{
        "bank_id": i.bank_id, "question_id": i.question_id, "language": i.language or "-",
        "answers": i.answers, "difficulty": round(i.difficulty, 3),
        "discrimination": None if i.discrimination is None else round(i.discrimination, 3),
        "options": "|".join(map(str, i.options)),
        "correct_option": correct.get((i.bank_id, i.question_id)),
        "flags": " ".join(i.flags)} for i in items]


def render(table: Sequence[Mapping[str, object]], fmt: str) -> str:
    """The rows as ``csv``, ``md`` (a Markdown table) or ``json``."""
    if fmt == "json":
        return json.dumps(list(table), ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(safe_row(COLUMNS))
        writer.writerows(safe_row(row[c] for c in COLUMNS) for row in table)
        return out.getvalue()

    def cell(value: object) -> str:
        return "" if value is None else str(value).replace("|", "\\|")

    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(cell(row[c]) for c in COLUMNS) + " |" for row in table]
    return "\n".join(lines) + "\n"


async def build(db: str | Path, banks: Mapping[str, Bank], *, bank_id: str | None,
                chat_id: int | None, since: float | None) -> list[dict[str, object]]:
    """Read the answers from ``db`` (a SQLite file or a PostgreSQL URL) and analyse them.
    Answers on created quizzes are analysed against the quiz's latest version in ``db`` (as
    those of a featured bank against its file now); a created quiz taken down or deleted has
    no options or right option in the report.

    Raises:
        StorageError: the database cannot be opened.
    """
    from bot.bankload import parse_bank
    from bot.quiz.registry import BankRegistry
    from storage import open_store

    store = await open_store(db)
    try:
        responses = await store.item_responses(bank_id=bank_id, chat_id=chat_id, since=since)
        registry = BankRegistry(banks, store, parse=parse_bank)
        named = dict(banks)
        named.update(await registry.loaded(
            [i for i in dict.fromkeys(r.bank_id for r in responses) if i not in named]))
    finally:
        await store.close()
    return rows(analyse(responses, option_counts(named)), named)


def write(text: str, out: Path | None) -> None:
    """Write the report to ``out`` or standard output."""
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
