"""The ``quizbot`` command: ``run`` (Telegram), ``play`` (terminal), ``validate`` (banks)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence

from bot import i18n
from bot.config import ConfigError, Settings
from bot.quiz.bank import BankError, load_banks
from bot.quiz.ports import StorageError

log = logging.getLogger("quizbot")
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="quizbot", description="An async Telegram quiz bot (and its terminal twin).")
    sub = parser.add_subparsers(dest="command", required=True)

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", help="SQLite database file (env QUIZBOT_DB; "
                                     "default quizbot.sqlite3)")
    common.add_argument("--banks", nargs="+", metavar="PATH",
                        help="bank files or folders (env QUIZBOT_BANKS; default: bundled banks/)")
    common.add_argument("-v", "--verbose", action="store_true", help="debug logging")

    run = sub.add_parser("run", parents=[common], help="run the bot with long polling")
    run.add_argument("--token", help="bot token (env TELEGRAM_BOT_TOKEN); never logged")
    run.add_argument("--base-url", dest="base_url",
                     help="Bot API base URL (env TELEGRAM_BASE_URL), e.g. "
                          "http://127.0.0.1:8081/bot for a local Bot API server")
    run.add_argument("--question-seconds", dest="question_seconds", type=float,
                     help="answer window of a group question in seconds "
                          "(env QUIZBOT_QUESTION_SECONDS; default 30)")

    play = sub.add_parser("play", parents=[common], help="play a quiz in this terminal")
    play.add_argument("--lang", default=None,
                      help=f"language: {', '.join(i18n.SUPPORTED)} (default: from $LANG, "
                           "else en)")
    play.add_argument("--bank", help="bank id (default: the first bank installed)")

    validate = sub.add_parser("validate", help="check bank files; exit 1 if any is invalid")
    validate.add_argument("paths", nargs="*", metavar="PATH",
                          help="bank files or folders (default: the configured banks)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``quizbot`` command; returns the exit status."""
    # PTB 22 deprecates int seconds in RetryAfter for timedelta; opt in now, as PTB advises
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if getattr(args, "verbose", False) else logging.INFO,
        format=LOG_FORMAT)
    # httpx logs every request URL at INFO, and the URL contains the bot token
    logging.getLogger("httpx").setLevel(logging.WARNING)
    try:
        flags = {k: getattr(args, k, None) for k in
                 ("token", "base_url", "db", "banks", "question_seconds")}
        settings = Settings.from_env(strict=args.command == "run", **flags)
        if settings.token:
            redact_in_logs(settings.token)
        if args.command == "validate":
            return _validate(args.paths or settings.banks)
        banks = load_banks(settings.banks)
        if args.command == "play":
            try:
                return asyncio.run(_play(settings, banks, args.lang, args.bank))
            except KeyboardInterrupt:  # storage is closed by now (play's task was cancelled)
                print(file=sys.stderr, flush=True)
                sys.stdout.flush()
                # the input thread still waits in input(): skip the interpreter's shutdown,
                # which would wait for stdin's lock and abort
                os._exit(130)
        return _run(settings, banks)
    except (ConfigError, BankError, StorageError) as exc:
        print(f"quizbot: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, ConfigError) else 1


class RedactingFormatter(logging.Formatter):
    """A log formatter that replaces a secret (the bot token) wherever it appears in a
    formatted record, traceback included: PTB and httpx may put it in URLs and errors."""

    def __init__(self, fmt: str, secret: str) -> None:
        super().__init__(fmt)
        self.secret = secret

    def format(self, record: logging.LogRecord) -> str:
        """Format as usual, then redact."""
        return super().format(record).replace(self.secret, "<token>")


def redact_in_logs(secret: str) -> None:
    """Keep ``secret`` out of every log line of the root logger's handlers."""
    for handler in logging.getLogger().handlers:
        handler.setFormatter(RedactingFormatter(LOG_FORMAT, secret))


def _validate(paths: Sequence[object]) -> int:
    try:
        banks = load_banks(map(str, paths))
    except BankError as exc:
        print(f"{len(exc.problems)} problem(s):", file=sys.stderr)
        print(exc, file=sys.stderr)
        return 1
    for bank in banks.values():
        print(f"ok: {bank.path}: {bank.id} v{bank.version}, {len(bank.questions)} questions, "
              f"languages {', '.join(bank.languages)}")
    return 0


def _run(settings: Settings, banks: dict) -> int:  # type: ignore[type-arg]
    from telegram.error import InvalidToken, NetworkError

    from bot.app import build_application, close_transports

    app = build_application(settings, banks)
    log.info("starting quizbot: %d bank(s), Bot API %s", len(banks),
             settings.base_url or "Telegram")
    try:
        app.run_polling(allowed_updates=["message", "callback_query"], close_loop=False)
    except InvalidToken:
        print("quizbot: Telegram rejected the token: check TELEGRAM_BOT_TOKEN (from @BotFather)",
              file=sys.stderr)
        return 2
    except NetworkError as exc:  # at start-up: PTB gives up when getMe fails
        print(f"quizbot: cannot reach the Bot API at {settings.base_url or 'api.telegram.org'}"
              f" ({exc.message})", file=sys.stderr)
        return 1
    finally:
        loop = asyncio.get_event_loop()
        loop.run_until_complete(close_transports(app))
        loop.close()
    return 0


async def _play(settings: Settings, banks: dict, language: str | None,  # type: ignore[type-arg]
                bank_id: str | None) -> int:
    import locale

    from bot.play import play
    from bot.quiz.service import QuizService
    from storage import SQLiteStore

    if language is None:
        env_lang = os.environ.get("LANG") or locale.getlocale()[0] or ""
        language = i18n.negotiate(env_lang.split(".")[0])
    elif i18n.negotiate(language) != language.split("-")[0].split("_")[0].lower():
        print(f"quizbot: no catalog for {language!r}; using {i18n.negotiate(language)} "
              f"(available: {', '.join(i18n.SUPPORTED)})", file=sys.stderr)
    language = i18n.negotiate(language)
    if bank_id is None:
        bank_id = next(iter(banks))
    if bank_id not in banks:
        print(f"quizbot: no bank {bank_id!r}; installed: {', '.join(banks)}", file=sys.stderr)
        return 2
    logging.getLogger().setLevel(logging.WARNING)
    store = await SQLiteStore.open(settings.db)
    try:
        await play(QuizService(store, banks), banks[bank_id], language)
    finally:
        await store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
