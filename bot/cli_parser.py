"""The ``quizbot`` command line: every subcommand's options and help (``run``, ``play``,
``validate``, ``backup``, ``restore``, ``delete-user``, ``import``, ``report``, ``banks``), with
the options they share; :mod:`bot.__main__` runs what they ask."""

from __future__ import annotations

import argparse

from bot import banks_cli, report
from bot.features.importing import files as bankimport
from bot.terminal import cli as play_cli


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``quizbot``'s arguments: a subcommand is required (``args.command``)."""
    parser = argparse.ArgumentParser(
        prog="quizbot", description="An async Telegram quiz bot (and its terminal twin)."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    # each command is offered the options that mean something for it
    database = argparse.ArgumentParser(add_help=False)
    database.add_argument(
        "--db",
        help="SQLite database file, or a PostgreSQL URL "
        "postgresql://user@host/db (env QUIZBOT_DB; "
        "default quizbot.sqlite3)",
    )
    database.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    bank_files = argparse.ArgumentParser(add_help=False)
    bank_files.add_argument(
        "--banks",
        nargs="+",
        metavar="PATH",
        help="bank files or folders (env QUIZBOT_BANKS; default: bundled banks/)",
    )
    bank_files.add_argument(
        "--skip-invalid-banks",
        dest="skip_invalid_banks",
        action="store_true",
        default=None,
        help="start without the bank files that fail to load, logging each "
        "(env QUIZBOT_SKIP_INVALID_BANKS=1; default: refuse to start)",
    )
    creating = argparse.ArgumentParser(add_help=False)
    creating.add_argument(
        "--create-db",
        dest="create_db",
        action="store_true",
        default=None,
        help="create a new, empty SQLite database although the lock files "
        "beside it show one was used there and is gone (env "
        "QUIZBOT_CREATE_DB=1; default: refuse to start)",
    )
    common = [database, bank_files, creating]

    run = sub.add_parser(
        "run", parents=common, help="run the bot (long polling, or a webhook with --webhook-url)"
    )
    token = run.add_mutually_exclusive_group()
    token.add_argument(
        "--token",
        help="bot token (env TELEGRAM_BOT_TOKEN); visible to every "
        "local user in `ps`: prefer the variable or --token-file",
    )
    token.add_argument(
        "--token-file",
        dest="token_file",
        metavar="PATH",
        help="file holding the bot token (env TELEGRAM_BOT_TOKEN_FILE)",
    )
    run.add_argument(
        "--base-url",
        dest="base_url",
        help="Bot API base URL (env TELEGRAM_BASE_URL), e.g. "
        "http://127.0.0.1:8081/bot for a local Bot API server",
    )
    run.add_argument(
        "--question-seconds",
        dest="question_seconds",
        type=float,
        help="answer window of a group question in seconds "
        "(env QUIZBOT_QUESTION_SECONDS; default 30)",
    )
    run.add_argument(
        "--webhook-url",
        dest="webhook_url",
        metavar="URL",
        help="receive updates by webhook at this public https URL instead of long "
        "polling (env QUIZBOT_WEBHOOK_URL); TLS is terminated by a reverse "
        "proxy that forwards to --listen",
    )
    run.add_argument(
        "--listen",
        metavar="HOST:PORT",
        help="where the webhook server listens (env QUIZBOT_LISTEN; default "
        "127.0.0.1:8443); the secret comes from env QUIZBOT_WEBHOOK_SECRET "
        "(default: a random one per start)",
    )
    run.add_argument(
        "--metrics",
        metavar="HOST:PORT",
        help="serve /healthz and Prometheus /metrics there "
        "(env QUIZBOT_METRICS), e.g. 127.0.0.1:9090",
    )

    play_cli.add_parser(sub, parents=common)

    validate = sub.add_parser(
        "validate",
        help="check bank files; exit 1 if any is invalid",
        description="Check bank files: errors (the bank cannot be loaded) and item-writing "
        "warnings (the questions give their answers away; see bot/kernel/checks.py).",
    )
    validate.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="bank files or folders (default: the configured banks)",
    )
    validate.add_argument(
        "--strict",
        action="store_true",
        help="treat item-writing warnings as errors (exit 1), as CI does",
    )
    backup = sub.add_parser(
        "backup",
        parents=[database],
        help="copy the live database consistently to PATH",
        description="Copy the database (QUIZBOT_DB / --db) to a new file with SQLite's online "
        "backup API: safe while the bot runs.",
    )
    backup.add_argument("path", metavar="PATH", help="the backup file to create")
    restore = sub.add_parser(
        "restore",
        parents=[database],
        help="replace the database by a backup (bot stopped)",
        description="Replace the database (QUIZBOT_DB / --db) by BACKUP. Refused while any "
        "quizbot process has the database open; the current database is kept as "
        "<database>.before-restore.",
    )
    restore.add_argument("backup", metavar="BACKUP", help="a file made by `quizbot backup`")
    delete = sub.add_parser(
        "delete-user",
        parents=[database],
        help="delete one user's data (by Telegram user id)",
        description="Delete a user's answers, attempts, settings and language, and make them "
        'a "deleted user" on group leaderboards, as /deletemydata does.',
    )
    delete.add_argument("user_id", metavar="ID", type=_user_id, help="the Telegram user id")
    delete.add_argument(
        "--quizzes",
        choices=("keep", "delete"),
        default="keep",
        help="the quizzes the user made in Telegram: keep them playable "
        "without an owner (default), or delete them",
    )
    bankimport.add_parser(sub)
    report.add_parser(sub)
    banks_cli.add_parser(sub, parents=[database])
    return parser


def _version() -> str:
    """The installed quizbot's version (its package metadata), or "unknown" when it runs
    from a source tree that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("quizbot")
    except PackageNotFoundError:
        return "unknown"


def _user_id(text: str) -> int:
    """A Telegram user id from the command line: a positive integer of at most 52 bits (Bot
    API, ``User.id``: "at most 52 significant bits").

    Raises:
        argparse.ArgumentTypeError: anything else (argparse prints it as a usage error).
    """
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value < 2**52:
        raise argparse.ArgumentTypeError(f"not a Telegram user id: {text!r}")
    return value
