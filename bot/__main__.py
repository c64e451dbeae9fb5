"""The ``quizbot`` command: ``run`` (Telegram), ``play`` (terminal), ``validate`` (banks),
``import`` (GIFT, Aiken or CSV to a bank)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence

from bot import bankimport, i18n, redaction
from bot.config import ConfigError, Settings
from bot.quiz.bank import BankError, load_banks
from bot.quiz.checks import check_bank
from bot.quiz.ports import StorageError

log = logging.getLogger("quizbot")
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="quizbot", description="An async Telegram quiz bot (and its terminal twin).")
    sub = parser.add_subparsers(dest="command", required=True)

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", help="SQLite database file, or a PostgreSQL URL "
                                     "postgresql://user@host/db (env QUIZBOT_DB; "
                                     "default quizbot.sqlite3)")
    common.add_argument("--banks", nargs="+", metavar="PATH",
                        help="bank files or folders (env QUIZBOT_BANKS; default: bundled banks/)")
    common.add_argument("-v", "--verbose", action="store_true", help="debug logging")

    run = sub.add_parser("run", parents=[common], help="run the bot with long polling")
    token = run.add_mutually_exclusive_group()
    token.add_argument("--token", help="bot token (env TELEGRAM_BOT_TOKEN); visible to every "
                                       "local user in `ps`: prefer the variable or --token-file")
    token.add_argument("--token-file", dest="token_file", metavar="PATH",
                       help="file holding the bot token (env TELEGRAM_BOT_TOKEN_FILE)")
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

    validate = sub.add_parser(
        "validate", help="check bank files; exit 1 if any is invalid",
        description="Check bank files: errors (the bank cannot be loaded) and item-writing "
                    "warnings (the questions give their answers away; see bot/quiz/checks.py).")
    validate.add_argument("paths", nargs="*", metavar="PATH",
                          help="bank files or folders (default: the configured banks)")
    validate.add_argument("--strict", action="store_true",
                          help="treat item-writing warnings as errors (exit 1), as CI does")
    bankimport.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``quizbot`` command; returns the exit status.

    The token is redacted from everything written once it is known (:mod:`bot.redaction`).
    Exit status: 0 done, 1 invalid bank, unusable database or unreachable Bot API, 2 bad
    setting or a token Telegram rejects, 130 Ctrl-C in ``play``.
    """
    # PTB 22 deprecates int seconds in RetryAfter for timedelta; opt in now, as PTB advises
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    args = _parser().parse_args(argv)
    if args.command == "import":
        return bankimport.run(args)
    verbose = getattr(args, "verbose", False)
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO, format=LOG_FORMAT)
    # httpx logs every request URL at INFO, and the URL contains the bot token
    logging.getLogger("httpx").setLevel(logging.WARNING)
    redact: Callable[[str], str] = str
    try:
        if getattr(args, "token", None):
            redact = redaction.install(args.token, LOG_FORMAT)
            _say("warning: --token shows the token to every user of this machine (ps, "
                 "/proc/<pid>/cmdline); set TELEGRAM_BOT_TOKEN or --token-file instead")
        flags = {k: getattr(args, k, None) for k in
                 ("token", "token_file", "base_url", "db", "banks", "question_seconds")}
        settings = Settings.from_env(strict=args.command == "run", **flags)
        if settings.token and settings.token != getattr(args, "token", None):
            redact = redaction.install(settings.token, LOG_FORMAT)
        if args.command == "validate":
            return _validate(args.paths or settings.banks, strict=args.strict)
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
        return _run(settings, banks, redact, hold_logs=not verbose)
    except (ConfigError, BankError, StorageError) as exc:
        _say(redact(str(exc)))
        return 2 if isinstance(exc, ConfigError) else 1


def _say(message: str) -> None:
    """Print one message of the CLI on standard error (already redacted)."""
    print(f"quizbot: {message}", file=sys.stderr, flush=True)


def _validate(paths: Sequence[object], *, strict: bool = False) -> int:
    """Load the banks, then run the item-writing checks on each; returns the exit status
    (1 if a bank is invalid, or with ``strict`` if any check warns)."""
    try:
        banks = load_banks(map(str, paths))
    except BankError as exc:
        print(f"{len(exc.problems)} problem(s):", file=sys.stderr)
        print(exc, file=sys.stderr)
        return 1
    kind = "error" if strict else "warning"
    failed = False
    for bank in banks.values():
        findings = check_bank(bank)
        for finding in findings:
            print(f"{kind}: {finding}", file=sys.stderr)
        failed = failed or (strict and bool(findings))
        verdict = "ok" if not findings else f"{len(findings)} {kind}(s)"
        print(f"{verdict}: {bank.path}: {bank.id} v{bank.version}, {len(bank.questions)} "
              f"questions, languages {', '.join(bank.languages)}")
    return 1 if failed else 0


def _run(settings: Settings, banks: dict, redact: Callable[[str], str], *,  # type: ignore[type-arg]
         hold_logs: bool) -> int:
    """Run the bot until a stop signal; SIGHUP reloads the banks (:mod:`bot.telegram.admin`).

    It first initializes PTB itself (``getMe``, with the transient retries of
    :class:`bot.telegram.limits.QuizRateLimiter`) so that a token Telegram rejects, or a Bot API
    that cannot be reached, ends in one clear line instead of PTB's logged traceback. With
    ``hold_logs``, the log lines of that start are held back and written only if it succeeds.
    """
    from telegram.error import InvalidToken, NetworkError, TelegramError

    from bot.app import build_application, close_transports
    from bot.telegram import admin

    app = build_application(settings, banks)
    where = settings.base_url or "https://api.telegram.org"
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)  # PTB's run_polling takes the current loop
    try:
        with _held_logs(hold_logs) as held:
            log.info("starting quizbot: %d bank(s), Bot API %s", len(banks), where)
            try:
                loop.run_until_complete(app.initialize())
            except InvalidToken:
                _say("Telegram rejected the token: check TELEGRAM_BOT_TOKEN or the token file "
                     "(@BotFather gives the token)")
                return 2
            except NetworkError as exc:  # TimedOut too; after the transient retries
                _say(f"cannot reach the Bot API at {where} ({redact(exc.message)})")
                return 1
            except TelegramError as exc:
                _say(f"the Bot API at {where} refused to start the bot ({redact(exc.message)})")
                return 1
            held.pass_on()
        if hasattr(signal, "SIGHUP"):  # `kill -HUP <pid>` reloads the banks (not on Windows)
            loop.add_signal_handler(signal.SIGHUP, admin.reload_soon, app, "SIGHUP")
        app.run_polling(allowed_updates=["message", "callback_query"], close_loop=False)
    finally:
        loop.run_until_complete(close_transports(app))
        loop.close()
    return 0


class _HeldLogs(logging.Handler):
    """Holds the root logger's records back from its handlers until :meth:`pass_on`."""

    def __init__(self, handlers: Sequence[logging.Handler]) -> None:
        super().__init__()
        self.handlers = list(handlers)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record."""
        self.records.append(record)

    def pass_on(self) -> None:
        """Hand the records kept so far to the handlers, as the root logger would have."""
        for record in self.records:
            for handler in self.handlers:
                if record.levelno >= handler.level:
                    handler.handle(record)
        self.records.clear()


@contextlib.contextmanager
def _held_logs(hold: bool) -> Iterator[_HeldLogs]:
    """Put a :class:`_HeldLogs` in place of the root logger's handlers (if ``hold``); records
    not passed on when the block ends are dropped."""
    root = logging.getLogger()
    handlers = root.handlers[:]
    held = _HeldLogs(handlers)
    if hold:
        root.handlers = [held]
    else:
        held.handlers = []  # records go straight to the handlers; nothing to pass on
    try:
        yield held
    finally:
        root.handlers = handlers


async def _play(settings: Settings, banks: dict, language: str | None,  # type: ignore[type-arg]
                bank_id: str | None) -> int:
    import locale

    from bot.play import play
    from bot.quiz.service import QuizService
    from storage import open_store

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
    store = await open_store(settings.db)
    try:
        await play(QuizService(store, banks), banks[bank_id], language)
    finally:
        await store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
