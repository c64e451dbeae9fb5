"""``quizbot play``'s command line: its options, and the terminal front end
(:mod:`bot.terminal.play`) wired to the storage and the banks (wired from :mod:`bot.__main__`)."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from bot import i18n
from bot.config import Settings
from bot.kernel.bank import Bank


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: Sequence[argparse.ArgumentParser] = (),
) -> None:
    """Add the ``play`` subcommand (``parents``: the options of the database and the banks).
    ``--chart`` without ``--stats`` is refused by :func:`check` with play's usage."""
    play = sub.add_parser(
        "play",
        parents=list(parents),
        help="play a quiz in this terminal",
        description="Play a quiz in this terminal, no token and no network needed: type the "
        "letter of your answer (q quits; your progress is kept in the database for next time). "
        "A quiz with exam mode is sat as an exam, with its timer.",
    )
    play.add_argument(
        "--lang",
        default=None,
        help=f"language: {', '.join(i18n.SUPPORTED)} (default: from LANGUAGE, "
        "LC_ALL, LC_MESSAGES or LANG as gettext reads them, else en)",
    )
    play.add_argument(
        "--bank",
        help="bank id (default: the unfinished quiz, else the first "
        "bank installed); leaving an unfinished quiz of another "
        "bank is asked first",
    )
    mode = play.add_mutually_exclusive_group()
    mode.add_argument(
        "--review",
        action="store_true",
        help="review the questions that are due (spaced repetition)",
    )
    mode.add_argument(
        "--stats", action="store_true", help="your scores and when each question is due for review"
    )
    mode.add_argument(
        "--reset",
        action="store_true",
        help="delete this terminal's progress (attempts, scores, review cards), after asking",
    )
    play.add_argument(
        "--chart", metavar="PATH", help="with --stats: also write the progress chart to PATH (PNG)"
    )
    play.set_defaults(usage_error=play.error)  # exits with play's usage, status 2


def check(args: argparse.Namespace) -> None:
    """Refuse options that go together only (exit 2 with play's usage)."""
    if args.chart and not args.stats:
        args.usage_error("--chart PATH goes with --stats (quizbot play --stats --chart PATH)")


def play_command(args: argparse.Namespace, environ: Mapping[str, str] = os.environ) -> str:
    """The command that plays as ``args`` did, for the texts that tell the player what to run
    next: ``quizbot play`` with the options typed that decide what it finds and says
    (``--db``, ``--banks``, ``--skip-invalid-banks``, ``--lang``), each word quoted for a
    POSIX shell when it must be. (A variable of the environment, ``QUIZBOT_DB``, is still
    set for the next command.) ``--lang`` is named with the language it chose (``pt-BR`` as
    ``pt``; an unknown code as the fallback), and only when the environment alone
    (``environ``: the locale variables) would choose another: a flag that changes nothing,
    or warns again, is not advised.
    A PostgreSQL URL's password is shown as ``***`` (:func:`storage.postgres.dsn.redact_dsn`):
    the screen is no place for it."""
    import shlex

    from storage.postgres.dsn import redact_dsn

    words = ["quizbot", "play"]
    if getattr(args, "db", None):
        words += ["--db", redact_dsn(str(args.db))]
    if getattr(args, "banks", None):
        words += ["--banks", *map(str, args.banks)]
    if getattr(args, "skip_invalid_banks", None):
        words.append("--skip-invalid-banks")
    if getattr(args, "lang", None):
        from bot.terminal.play import terminal_language

        chosen = i18n.negotiate(str(args.lang))
        if chosen != terminal_language(environ):
            words += ["--lang", chosen]
    return " ".join(shlex.quote(word) for word in words)


def _has_database(db: str | Path) -> bool:
    """Whether ``db`` names a database that may hold created quizzes: a PostgreSQL URL, or a
    SQLite file that exists."""
    from storage import is_postgres_url

    return is_postgres_url(str(db)) or Path(db).is_file()


async def run(settings: Settings, banks: dict[str, Bank], args: argparse.Namespace) -> int:
    """Run ``quizbot play`` as ``args`` say (``--review``, ``--stats [--chart]``, ``--reset``,
    else a quiz); returns the exit status (2: no such bank).

    Raises:
        StorageError: the database cannot be opened.
    """
    from bot.bankload.creators import parse_document
    from bot.features.exams.service import ExamService
    from bot.features.learning.service import LearningService
    from bot.features.private.service import QuizService
    from bot.kernel.registry import BankRegistry
    from bot.terminal import play as terminal
    from storage import open_store

    language, bank_id, chart = args.lang, args.bank, args.chart
    mode = "review" if args.review else "stats" if args.stats else "reset" if args.reset else "play"
    if language is None:
        language = terminal.terminal_language(os.environ)
    elif i18n.negotiate(language) != language.split("-")[0].split("_")[0].lower():
        print(
            f"quizbot: no catalog for {language!r}; using {i18n.negotiate(language)} "
            f"(available: {', '.join(i18n.SUPPORTED)})",
            file=sys.stderr,
        )
    language = i18n.negotiate(language)
    if bank_id is not None and bank_id not in banks and not _has_database(settings.db):
        print(f"quizbot: no bank {bank_id!r}; installed: {', '.join(banks)}", file=sys.stderr)
        return 2
    logging.getLogger().setLevel(logging.WARNING)
    store = await open_store(settings.db, create=settings.create_db)
    try:
        # a bank id that is not featured may name a created quiz in the database
        registry = BankRegistry(banks, store, parse=parse_document)
        if bank_id is not None and not await registry.startable(bank_id):
            print(f"quizbot: no bank {bank_id!r}; installed: {', '.join(banks)}", file=sys.stderr)
            return 2
        quiz, learning = QuizService(store, registry), LearningService(store, registry)
        quiz.on_answer = learning.answered  # terminal answers make review cards too
        exams = ExamService(quiz, store)  # a quiz with exam mode is an exam here too
        command = play_command(args)
        if mode == "reset":
            await terminal.reset(store, language)
        elif mode == "review":
            await terminal.review(learning, language, command=command)
        elif mode == "stats":
            await terminal.stats(quiz, learning, language, chart_path=chart, command=command)
        else:
            await terminal.play(
                quiz,
                None if bank_id is None else await registry.bank(bank_id),
                language,
                learning=learning,
                exams=exams,
                command=command,
            )
    finally:
        await store.close()
    return 0
