"""The ``quizbot`` command: ``run`` (Telegram), ``play`` (terminal), ``validate`` (banks),
``import`` (GIFT, Aiken or CSV to a bank), ``report`` (item analysis of stored answers),
``banks`` (the quizzes creators made: list, export, disable, enable)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from bot import banks_cli, redaction, report
from bot.bankload import BankError, load_banks
from bot.cli_parser import build_parser
from bot.config import ConfigError, Settings
from bot.features.importing import files as bankimport
from bot.kernel.bank import Bank
from bot.kernel.checks import check_bank, counted
from bot.kernel.ports import StorageError
from bot.terminal import cli as play_cli

log = logging.getLogger("quizbot")
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def main(argv: Sequence[str] | None = None) -> int:  # noqa: C901 - one branch per subcommand and its exit status
    """Entry point of the ``quizbot`` command; returns the exit status.

    The token is redacted from everything written once it is known (:mod:`bot.redaction`).
    Exit status: 0 done (``run``: stopped by SIGTERM or SIGINT), 1 invalid bank, unusable or
    unreachable database (PostgreSQL: after ``QUIZBOT_DB_OUTAGE_SECONDS``), unreachable Bot
    API, ``run`` stopped by a fault it could not get over (the poller lease lost), or
    ``delete-user`` of a user of whom nothing is stored, 2 bad
    setting or a token Telegram rejects, 130 Ctrl-C in ``play``.
    """
    # PTB 22 deprecates int seconds in RetryAfter for timedelta; opt in now, as PTB advises
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    args = build_parser().parse_args(argv)
    if args.command == "play":
        play_cli.check(args)
    if args.command == "import":
        try:
            return bankimport.run(args)
        except OSError as exc:
            return _os_error(exc)
    verbose = getattr(args, "verbose", False)
    # an operator command prints its own summary: its services' INFO lines would repeat it
    quiet = args.command in ("backup", "restore", "delete-user", "banks")
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.WARNING if quiet else logging.INFO,
        format=LOG_FORMAT,
    )
    if not verbose:  # APScheduler logs every run of every job (the reminders' each second)
        logging.getLogger("apscheduler").setLevel(logging.WARNING)
    redact: Callable[[str], str] = str
    try:
        if getattr(args, "token", None):
            redact = redaction.install(args.token, LOG_FORMAT)
            _say(
                "warning: --token shows the token to every user of this machine (ps, "
                "/proc/<pid>/cmdline); set TELEGRAM_BOT_TOKEN or --token-file instead"
            )
        flags = {
            k: getattr(args, k, None)
            for k in (
                "token",
                "token_file",
                "base_url",
                "db",
                "banks",
                "question_seconds",
                "webhook_url",
                "listen",
                "metrics",
                "skip_invalid_banks",
                "create_db",
            )
        }
        settings = Settings.from_env(strict=args.command == "run", **flags)
        if settings.token and settings.token != getattr(args, "token", None):
            redact = redaction.install(settings.token, LOG_FORMAT)
        if args.command == "validate":
            return _validate(args.paths or settings.banks, strict=args.strict)
        if args.command in ("backup", "restore", "delete-user"):
            return _operate(args, settings)
        if args.command == "banks":
            return banks_cli.run(settings.db, args)
        banks = (
            load_valid_banks(settings.banks)
            if settings.skip_invalid_banks
            else load_banks(settings.banks)
        )
        if args.command == "report":
            from storage import is_postgres_url

            if args.out is not None and args.out.exists() and not args.force:
                _say(f"{args.out} exists: pass --force to overwrite it")
                return 1

            if not is_postgres_url(settings.db) and not Path(settings.db).is_file():
                _say(f"no database at {shown_db(settings.db)}: nothing to report")
                return 1
            table = asyncio.run(
                report.build(
                    settings.db, banks, bank_id=args.bank, chat_id=args.chat, since=args.since
                )
            )
            if (
                not table
                and args.bank is not None
                and not asyncio.run(report.known(settings.db, banks, args.bank))
            ):
                _say(
                    f"no answers of bank {args.bank!r} are stored, no bank of that id is "
                    f"installed (installed: {', '.join(sorted(banks))}) and no quiz of that "
                    "id was created in Telegram (see `quizbot banks list`)"
                )
                return 1
            report.write(report.render(table, args.format), args.out, force=args.force)
            return 0
        if args.command == "play":
            try:
                return asyncio.run(play_cli.run(settings, banks, args))
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
    except OSError as exc:
        return _os_error(exc, redact)


def _os_error(exc: OSError, redact: Callable[[str], str] = str) -> int:
    """One line for a file that could not be read or written (``--out``, ``--chart``), or
    nothing when standard output's reader left (``quizbot play | head``); exit status 1."""
    if isinstance(exc, BrokenPipeError):
        # the interpreter would flush stdout again at exit and complain: point it at /dev/null
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    _say(redact(f"{exc.filename or 'a file'}: {exc.strerror or exc}"))
    return 1


def load_valid_banks(paths: Sequence[object]) -> dict[str, Bank]:
    """Load the banks under ``paths``, skipping each file that fails to load (or repeats a bank
    id already loaded) with one warning per file naming its problems.

    Raises:
        BankError: no bank at all could be loaded.
    """
    from bot.bankload import BankProblem, bank_files, load_bank

    banks: dict[str, Bank] = {}
    files = bank_files(map(str, paths))
    for file in files:
        try:
            bank = load_bank(file)
        except BankError as exc:
            log.warning(
                "skipped the invalid bank file %s (--skip-invalid-banks), %d problem(s):\n%s",
                file,
                len(exc.problems),
                exc,
            )
            continue
        if bank.id in banks:
            log.warning(
                "skipped the bank file %s (--skip-invalid-banks): bank id %r is also used by %s",
                file,
                bank.id,
                banks[bank.id].path,
            )
            continue
        banks[bank.id] = bank
    if not banks:
        raise BankError(
            [
                BankProblem(
                    ", ".join(map(str, paths)),
                    None,
                    None,
                    "(file)",
                    "no valid bank files (*.yaml) found",
                )
            ]
        )
    return banks


def _say(message: str) -> None:
    """Print one message of the CLI on standard error (already redacted)."""
    print(f"quizbot: {message}", file=sys.stderr, flush=True)


def _operate(args: argparse.Namespace, settings: Settings) -> int:
    """``backup``, ``restore`` and ``delete-user`` on the configured database.

    Raises:
        StorageError: the operation failed (the message says why; nothing was changed).
    """
    from storage import backup as files
    from storage import is_postgres_url, migrations

    if args.command in ("backup", "restore") and is_postgres_url(settings.db):
        raise StorageError(
            f"quizbot {args.command} copies SQLite databases; {shown_db(settings.db)} is "
            "PostgreSQL: use pg_dump / pg_restore (docs/operations.md, Backups)"
        )
    if args.command == "backup":
        info = files.backup(settings.db, args.path)
        print(
            f"backed up {settings.db} to {info.path}: schema version {info.schema_version}, "
            f"{info.answers} answers, {info.group_answers} group answers, {info.size} bytes"
        )
    elif args.command == "restore":
        info = files.restore(args.backup, settings.db, known_version=len(migrations()))
        kept = f" (the database before is kept as {info.kept})" if info.kept is not None else ""
        print(
            f"restored {args.backup} to {settings.db}: schema version "
            f"{info.schema_version}, {info.answers} answers, {info.group_answers} group "
            f"answers{kept}"
        )
    else:
        if not is_postgres_url(settings.db) and not Path(settings.db).is_file():
            raise StorageError(f"no database at {shown_db(settings.db)} (QUIZBOT_DB / --db)")
        return asyncio.run(_delete_user(settings, args.user_id, args.quizzes))
    return 0


async def _delete_user(settings: Settings, user_id: int, quizzes: str) -> int:
    from bot.features.privacy.service import CreatedQuizzes, PrivacyService
    from storage import open_store

    store = await open_store(settings.db)
    try:
        deleted = await PrivacyService(store, library=store, drafts=store).delete_user(
            user_id, CreatedQuizzes(quizzes)
        )
    finally:
        await store.close()
    if deleted.nothing:
        _say(
            f"no data of user {user_id} is stored (deleted already, or they never used the "
            "bot): nothing was deleted"
        )
        return 1
    print(f"deleted user {user_id}: {deleted}")
    return 0


def _validate(paths: Sequence[object], *, strict: bool = False) -> int:
    """Load the banks, then run the item-writing checks on each; returns the exit status
    (1 if a bank is invalid, or with ``strict`` if any check warns)."""
    try:
        banks = load_banks(map(str, paths))
    except BankError as exc:
        print(f"{counted(len(exc.problems), 'problem')}:", file=sys.stderr)
        print(exc, file=sys.stderr)
        return 1
    kind = "error" if strict else "warning"
    failed = False
    for bank in banks.values():
        findings = check_bank(bank)
        for finding in findings:
            print(f"{kind}: {finding}", file=sys.stderr)
        failed = failed or (strict and bool(findings))
        verdict = "ok" if not findings else counted(len(findings), kind)
        print(
            f"{verdict}: {bank.path}: {bank.id} v{bank.version}, "
            f"{counted(len(bank.questions), 'question')}, "
            f"languages {', '.join(bank.languages)}"
        )
    return 1 if failed else 0


def shown_db(db: object) -> str:
    """``db`` (a SQLite path or a PostgreSQL URL) as it may be printed: a URL without its
    password (:func:`storage.postgres.redact_dsn`)."""
    from storage.postgres import redact_dsn

    return redact_dsn(str(db))  # a path has no "://user:password@": unchanged


def new_event_loop() -> asyncio.AbstractEventLoop:
    """The bot's event loop: uvloop's (libuv, in C) where it is installed (not on Windows), else
    asyncio's own. Profiled under group load (``benchmarks/group_load.py``), the pure-Python
    selector loop's own bookkeeping (select, callbacks, thread wake-ups from aiosqlite) was a
    sixth of the bot's CPU. ``QUIZBOT_EVENT_LOOP=asyncio`` forces asyncio's loop."""
    if os.environ.get("QUIZBOT_EVENT_LOOP", "") != "asyncio":
        try:
            import uvloop
        except ImportError:
            pass
        else:
            return uvloop.new_event_loop()
    return asyncio.new_event_loop()


def _run(
    settings: Settings, banks: dict[str, Bank], redact: Callable[[str], str], *, hold_logs: bool
) -> int:
    """Run the bot until a stop signal (SIGTERM, SIGINT); SIGHUP reloads the banks
    (:mod:`bot.features.admin.handlers`). Returns the exit status: 0 after a stop signal, non-zero
    when the bot stopped because of a fault it could not get over (``bot.lifecycle.request_stop``).

    Everything runs in one ``asyncio.Runner`` whose stop signals only set an event
    (``bot.lifecycle.serve`` stops in bounded steps and always closes storage), so that a stop ends
    the process within seconds whenever it comes; tasks left over are cancelled and the
    default executor's threads joined before the loop closes.
    """
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        return runner.run(_serve(settings, banks, redact, hold_logs=hold_logs))


async def _serve(
    settings: Settings, banks: dict[str, Bank], redact: Callable[[str], str], *, hold_logs: bool
) -> int:
    """:func:`_run` in the loop.

    It first initializes PTB itself (``getMe``, with the transient retries of
    :class:`bot.telegram.limits.QuizRateLimiter`) so that a token Telegram rejects, or a Bot API
    that cannot be reached, ends in one clear line instead of PTB's logged traceback. With
    ``hold_logs``, the log lines of that start are held back and written only if it succeeds.
    """
    from telegram.error import InvalidToken, NetworkError, TelegramError

    from bot.app import build_application
    from bot.features.admin import handlers as admin
    from bot.lifecycle import StopRequest, close_transports, serve, unless_stopped

    app = build_application(settings, banks)
    where = redact(settings.base_url or "https://api.telegram.org")
    loop = asyncio.get_running_loop()
    stop = StopRequest()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.signal, signal.Signals(number).name)
    if hasattr(signal, "SIGHUP"):  # `kill -HUP <pid>` reloads the banks (not on Windows)
        loop.add_signal_handler(signal.SIGHUP, admin.reload_soon, app, "SIGHUP")
    try:
        with _held_logs(hold_logs) as held:
            log.info("starting quizbot: %d bank(s), Bot API %s", len(banks), where)
            try:
                if not await unless_stopped(app.initialize(), stop):
                    held.pass_on()
                    log.info("stopped before the start")
                    return 0
            except InvalidToken as exc:
                _say(redact(_rejected(exc, where, custom=settings.base_url is not None)))
                return 2
            except NetworkError as exc:  # TimedOut too; after the transient retries
                _say(f"cannot reach the Bot API at {where} ({redact(exc.message)})")
                return 1
            except TelegramError as exc:
                _say(f"the Bot API at {where} refused to start the bot ({redact(exc.message)})")
                return 1
            held.pass_on()
        if settings.webhook_url:
            log.info("webhook %s, listening on %s", settings.webhook_url, settings.listen)
        await serve(app, stop)
        return stop.status
    finally:
        await close_transports(app)


def _rejected(exc: Exception, where: str, *, custom: bool) -> str:
    """The line for a getMe PTB turned into ``InvalidToken``: a 401 (Unauthorized) is the token
    Telegram rejects; a 404 (Not Found, or any other answer) from a server the operator named
    (``TELEGRAM_BASE_URL``) is no Bot API at that URL, not a bad token (the token's shape was
    checked before: Telegram answers 404 only to a malformed one, or to an unknown method)."""
    answer = str(exc.__cause__ or exc)
    if "unauthorized" in answer.lower() or not custom:
        return (
            "Telegram rejected the token: check TELEGRAM_BOT_TOKEN or the token file "
            "(@BotFather gives the token)"
        )
    return (
        f"the Bot API at {where} (TELEGRAM_BASE_URL / --base-url) answered getMe with "
        f"{answer!r}, not Unauthorized: no Bot API server answers at that URL (a local "
        "telegram-bot-api server's is http://HOST:8081/bot); the token was not refused"
    )


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


if __name__ == "__main__":
    sys.exit(main())
