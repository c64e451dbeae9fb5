"""``quizbot banks``: the operator's view of the quizzes creators made in Telegram (created
quizzes, :mod:`bot.kernel.library`), on the configured database (SQLite or PostgreSQL).

- ``quizbot banks list``: every created quiz, newest first: id, owner, latest version,
  questions, visibility, disabled, title.
- ``quizbot banks export ID [--version N] [-o FILE]``: a version's bank document (the YAML
  the creator sent or made), the latest by default.
- ``quizbot banks disable ID`` / ``enable ID``: take a quiz down (not playable, not listed, not
  searchable; its owner still sees it, marked) or put it back.

Featured banks (the files of ``banks/``) are the operator's own files and are not listed here.
Exit status: 0 done, 1 no such quiz or version, or the database cannot be opened.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bot.kernel.library import QuizLibrary, QuizRecord
from bot.kernel.ports import StorageError

COLUMNS = ("id", "owner", "version", "questions", "visibility", "disabled", "title")
"""The columns of ``quizbot banks list``, in order."""


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: Sequence[argparse.ArgumentParser] = (),
) -> None:
    """Add the ``banks`` subcommand and its actions (``parents``: the common options, such
    as ``--db``, taken by each action: ``quizbot banks list --db PATH``)."""
    common = list(parents)
    banks = sub.add_parser(
        "banks",
        help="the quizzes creators made in Telegram: list, export, disable, enable",
        description="The quizzes made by users in Telegram (stored in the database; the "
        "featured bank files of banks/ are not among them).",
    )
    actions = banks.add_subparsers(dest="action", required=True, metavar="ACTION")
    actions.add_parser(
        "list", parents=common, help="every created quiz, newest first: " + ", ".join(COLUMNS)
    )
    export = actions.add_parser(
        "export", parents=common, help="write a version's bank document (YAML)"
    )
    export.add_argument("quiz_id", metavar="ID", help="the quiz's id (c-...)")
    export.add_argument(
        "--version", type=_version, metavar="N", help="this version (default: the latest)"
    )
    export.add_argument(
        "-o", "--out", metavar="FILE", type=Path, help="write here (default: standard output)"
    )
    for name, text in (
        ("disable", "take a quiz down: not playable, listed or searchable"),
        ("enable", "put a quiz taken down back"),
    ):
        action = actions.add_parser(name, parents=common, help=text)
        action.add_argument("quiz_id", metavar="ID", help="the quiz's id (c-...)")


def _version(text: str) -> int:
    """A version number from the command line (a positive integer).

    Raises:
        argparse.ArgumentTypeError: anything else.
    """
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a version number: {text!r}")
    return int(text)


def shown(text: str) -> str:
    """``text`` safe for a terminal: characters that are not printable (control characters,
    escape sequences a creator may have typed into a title) shown escaped, as ``\\x1b``."""
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )


def table(quizzes: Sequence[QuizRecord]) -> str:
    """``quizbot banks list``'s output: a header and one tab-separated line per quiz (owner
    ``-`` for a quiz its creator kept without their name; a tab in a title is shown ``\\t``,
    as every character that is not printable)."""
    lines = ["\t".join(COLUMNS)]
    for quiz in quizzes:
        owner = "-" if quiz.owner_id is None else str(quiz.owner_id)
        lines.append(
            "\t".join(
                (
                    quiz.id,
                    owner,
                    str(quiz.version),
                    str(quiz.questions),
                    str(quiz.visibility),
                    "yes" if quiz.disabled else "no",
                    shown(quiz.title),
                )
            )
        )
    return "\n".join(lines) + "\n"


async def act(library: QuizLibrary, args: argparse.Namespace) -> int:
    """Run the action ``args.action`` on ``library``; the exit status (messages on standard
    error, output on standard output or ``--out``).

    Raises:
        StorageError: the database failed.
        OSError: ``--out`` cannot be written.
    """
    if args.action == "list":
        sys.stdout.write(table(await library.all_quizzes()))
        return 0
    if args.action == "export":
        stored = await library.quiz_version(args.quiz_id, args.version)
        if stored is None:
            return _missing(args.quiz_id, args.version)
        if args.out is None:
            sys.stdout.write(stored.document)
        else:
            args.out.write_text(stored.document, encoding="utf-8")
        return 0
    disabled = args.action == "disable"
    if not await library.set_disabled(args.quiz_id, disabled, now=time.time()):
        return _missing(args.quiz_id)
    print(f"{shown(args.quiz_id)}: {'disabled' if disabled else 'enabled'}")
    return 0


def _missing(quiz_id: str, version: int | None = None) -> int:
    what = f"version {version} of quiz" if version is not None else "quiz"
    print(
        f"quizbot: no {what} {shown(quiz_id)!r} is stored (see `quizbot banks list`)",
        file=sys.stderr,
    )
    return 1


def run(db: str | Path, args: argparse.Namespace) -> int:
    """``quizbot banks ACTION`` on the database ``db`` (a SQLite file that must exist, or a
    PostgreSQL URL); the exit status.

    Raises:
        StorageError: the database cannot be opened, or failed.
        OSError: ``--out`` cannot be written.
    """
    from storage import is_postgres_url

    if not is_postgres_url(db) and not Path(db).is_file():
        raise StorageError(f"no database at {db} (QUIZBOT_DB / --db)")
    return asyncio.run(_run(db, args))


async def _run(db: str | Path, args: argparse.Namespace) -> int:
    from storage import open_store

    store = await open_store(db)
    try:
        return await act(store, args)
    finally:
        await store.close()
