"""Keep the bot token out of everything the process writes: log lines, tracebacks of uncaught
exceptions (main thread, other threads, "exception ignored" ones), warnings, and the CLI's own
messages.

The token is a password: whoever has it controls the bot (Bot API "Authorizing your bot"). It is
part of every Bot API URL (``<base_url><token>/<method>``), so any error that quotes a URL quotes
the token. :func:`install` routes every channel Python offers for such text through
:class:`Redactor`, which also hides anything shaped like a token (:data:`TOKEN_SHAPE`): one
pasted into another setting (``TELEGRAM_BASE_URL=http://host/bot<token>``), or an old one.
"""

from __future__ import annotations

import logging
import re
import sys
import threading
import types

PLACEHOLDER = "<token>"
"""What a redacted token reads as."""

MIN_SECRET_PART = 8
"""The part after ``:`` of a token is redacted on its own (it may appear URL-quoted, or without
the bot id) when it has at least this many characters; a shorter one would be found in ordinary
words. Real tokens have 35 (Bot API "Authorizing your bot")."""


TOKEN_SHAPE = re.compile(r"(?<![0-9])[0-9]{1,20}:[A-Za-z0-9_-]{30,}")
"""Text shaped like a bot token: a bot id, a colon and a secret of 30 or more letters, digits,
``_`` and ``-`` (real ones have 35; Bot API "Authorizing your bot"). A time (``12:34:56``) or
a host and port (``host:8081``) has far fewer characters after its colon."""


def redact_tokens(text: str) -> str:
    """``text`` with everything shaped like a token (:data:`TOKEN_SHAPE`) replaced by
    :data:`PLACEHOLDER`."""
    return TOKEN_SHAPE.sub(PLACEHOLDER, text)


class Redactor:
    """Replaces a token, and its secret part after the ``:``, with :data:`PLACEHOLDER`.

    Args:
        secret: The bot token (``<bot id>:<secret>``).
    """

    def __init__(self, secret: str) -> None:
        after_colon = secret.partition(":")[2]
        self.secrets = [secret] + ([after_colon] if len(after_colon) >= MIN_SECRET_PART else [])

    def __call__(self, text: str) -> str:
        """Return ``text`` with every occurrence of the token (or its secret part), and
        anything else shaped like a token (:func:`redact_tokens`), replaced."""
        for secret in self.secrets:
            text = text.replace(secret, PLACEHOLDER)
        return redact_tokens(text)


class RedactingFormatter(logging.Formatter):
    """A log formatter that redacts the formatted record, traceback included: PTB, aiohttp and
    httpx put the token in URLs and error messages.

    Args:
        fmt: The format string (:class:`logging.Formatter`'s).
        redact: The redactor applied to every formatted record.
    """

    def __init__(self, fmt: str | None, redact: Redactor) -> None:
        super().__init__(fmt)
        self.redact = redact

    def format(self, record: logging.LogRecord) -> str:
        """Format as usual, then redact."""
        return self.redact(super().format(record))


log = logging.getLogger("quizbot")


def install(secret: str, fmt: str | None = None) -> Redactor:
    """Redact ``secret`` from every line Python writes on the process's behalf.

    * the root logger's handlers get a :class:`RedactingFormatter` (with ``fmt``);
    * warnings are logged (:func:`logging.captureWarnings`), so they are redacted too;
    * uncaught exceptions of the main thread (:data:`sys.excepthook`), of other threads
      (:data:`threading.excepthook`) and those Python can only ignore
      (:data:`sys.unraisablehook`, e.g. in ``__del__``) are logged at CRITICAL or ERROR instead
      of printed.

    What the program prints itself must go through the returned redactor.

    Args:
        secret: The bot token.
        fmt: The log format of the root logger's handlers.

    Returns:
        The redactor, for the program's own messages.
    """
    redact = Redactor(secret)
    if not logging.getLogger().handlers:  # else logging's last resort would print unredacted
        logging.basicConfig()  # its formatter is replaced below
    for handler in logging.getLogger().handlers:
        handler.setFormatter(RedactingFormatter(fmt, redact))
    logging.captureWarnings(True)

    def excepthook(
        kind: type[BaseException], value: BaseException, tb: types.TracebackType | None
    ) -> None:
        log.critical("uncaught exception", exc_info=(kind, value, tb))

    def thread_excepthook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit:  # as threading's own hook: a thread may exit so
            return
        name = args.thread.name if args.thread is not None else "?"
        log.error(
            "uncaught exception in thread %s",
            name,
            exc_info=(args.exc_type, args.exc_value or args.exc_type(), args.exc_traceback),
        )

    def unraisablehook(unraisable: sys.UnraisableHookArgs) -> None:
        value = unraisable.exc_value or unraisable.exc_type()
        log.error(
            "%s: %r",
            unraisable.err_msg or "Exception ignored in",
            unraisable.object,
            exc_info=(unraisable.exc_type, value, unraisable.exc_traceback),
        )

    sys.excepthook = excepthook
    threading.excepthook = thread_excepthook
    sys.unraisablehook = unraisablehook
    return redact
