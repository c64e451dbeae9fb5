"""Every failed Bot API call, classified in one place.

python-telegram-bot turns each failed call into an exception of ``telegram.error``
(``telegram/request/_baserequest.py``, ``BaseRequest._request_wrapper``): ``RetryAfter`` and
``ChatMigrated`` from the answer's ``parameters``, then by HTTP status 403 ``Forbidden``,
401/404 ``InvalidToken``, 400 ``BadRequest``, 409 ``Conflict``, any other status
``NetworkError``; the transport raises ``TimedOut`` and ``NetworkError`` itself. What the bot
should do about a failure depends on more than the class (a ``BadRequest`` may be harmless,
"message is not modified", or mean the chat is out of reach, "chat not found"), so
:func:`classify` reads the class and Telegram's description and answers one :class:`Kind`.
The descriptions are Telegram's own wording (https://core.telegram.org/bots/api#making-requests
gives only the shape; the texts come from the Bot API server, tdlib/telegram-bot-api, and are
collected at https://github.com/TelegramBotAPI/errors).

Callers: the rate limiter (what to retry, :func:`retryable`), ``common.edit`` and ``toast``,
the error handler, and the group handlers (which move a chat on MIGRATED and end its session on
FORBIDDEN).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import timedelta

from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)

__all__ = [
    "ConnectFailed",
    "ConnectTimedOut",
    "Kind",
    "Outcome",
    "classify",
    "posts_message",
    "retryable",
]


class ConnectFailed(NetworkError):
    """No connection to the Bot API could be made, so the request surely did not reach Telegram
    (raised by ``transport.AiohttpRequest``; PTB's own transports raise a plain
    ``NetworkError`` for this)."""


class ConnectTimedOut(ConnectFailed, TimedOut):
    """Connecting to the Bot API (or waiting for a free pooled connection) timed out: nothing
    was sent. A ``TimedOut`` too, as PTB's transports raise for it."""


class Kind(enum.Enum):
    """What a failed Bot API call means to the bot."""

    TRANSIENT = "transient"
    """Worth trying again: flood control (``RetryAfter``, HTTP 429), a time-out, a dropped or
    refused connection, a 5xx (``NetworkError`` other than ``BadRequest``). Retried a bounded
    number of times by ``limits.QuizRateLimiter``; a send only when it surely did not arrive."""
    NOT_MODIFIED = "not modified"
    """400 "message is not modified": the edit asked for what the message already shows.
    Success."""
    GONE = "gone"
    """The thing acted on is gone: the message to edit or delete was not found or can no longer
    be edited or deleted (deleted by the user, too old), or the callback query is too old or
    already answered (answerCallbackQuery must come within about 15 s, once). Skip it."""
    MIGRATED = "migrated"
    """The group became a supergroup (``ChatMigrated``, ``parameters.migrate_to_chat_id``):
    the caller moves the chat to :attr:`Outcome.new_chat_id`."""
    FORBIDDEN = "forbidden"
    """The chat is out of reach: 403 (bot blocked by the user, kicked from or not a member of
    the group, can't initiate a conversation, user deactivated), or 400 "chat not found" or
    "not enough rights" to post. End what concerns that chat; never retry."""
    INVALID = "invalid"
    """Any other refusal (another ``BadRequest``, ``InvalidToken``, ``EndPointNotFound``,
    ``Conflict``, ``PassportDecryptionError``, an unreadable answer): permanent, a bug or a
    misconfiguration. Log it as an error and skip."""


_NOT_MODIFIED = ("message is not modified",)
_GONE = (
    "message to edit not found",
    "message to delete not found",
    "message can't be edited",
    "message can't be deleted",
    "message_id_invalid",
    "query is too old",  # "... and response timeout expired or query ID is invalid"
    "query id is invalid",
)
_OUT_OF_REACH = (
    "chat not found",
    "not enough rights",
    "have no rights to send",
    "need administrator rights",  # a channel where the bot is no longer an admin who may post
    "chat_write_forbidden",
    "chat_restricted",
    "peer_id_invalid",
    "user is deactivated",
)


@dataclass(frozen=True)
class Outcome:
    """A classified failure.

    Attributes:
        kind: What it means (see :class:`Kind`).
        error: The exception classified.
        retry_after: For flood control (429), the seconds Telegram asked to wait; else None.
        new_chat_id: For MIGRATED, the supergroup's chat id; else None.
    """

    kind: Kind
    error: TelegramError
    retry_after: float | None = None
    new_chat_id: int | None = None

    @property
    def unsent(self) -> bool:
        """Whether the call surely did not take effect at Telegram: flood control refused it
        (429), or no connection could be made. After a read time-out, a dropped connection or
        a 5xx it may have."""
        return isinstance(self.error, (RetryAfter, ConnectFailed))

    @property
    def expected(self) -> bool:
        """Whether it is a normal part of a bot's life (a user blocked the bot, deleted a
        message, tapped twice; a group migrated): logged at INFO, without a traceback."""
        return self.kind in (Kind.NOT_MODIFIED, Kind.GONE, Kind.MIGRATED, Kind.FORBIDDEN)


def classify(exc: TelegramError) -> Outcome:
    """Classify a failed Bot API call.

    Args:
        exc: What PTB raised.

    Returns:
        The outcome (see :class:`Kind` for each rule and its source).

    Raises:
        TypeError: ``exc`` is not a ``telegram.error.TelegramError``.
    """
    if not isinstance(exc, TelegramError):
        raise TypeError(f"not a Telegram error: {exc!r}")
    if isinstance(exc, RetryAfter):
        return Outcome(Kind.TRANSIENT, exc, retry_after=retry_after_seconds(exc))
    if isinstance(exc, ChatMigrated):
        return Outcome(Kind.MIGRATED, exc, new_chat_id=exc.new_chat_id)
    if isinstance(exc, Forbidden):
        return Outcome(Kind.FORBIDDEN, exc)
    if isinstance(exc, BadRequest):
        text = exc.message.lower()
        if any(words in text for words in _NOT_MODIFIED):
            return Outcome(Kind.NOT_MODIFIED, exc)
        if any(words in text for words in _GONE):
            return Outcome(Kind.GONE, exc)
        if any(words in text for words in _OUT_OF_REACH):
            return Outcome(Kind.FORBIDDEN, exc)
        return Outcome(Kind.INVALID, exc)
    if isinstance(exc, NetworkError):  # TimedOut, ConnectFailed, 5xx, dropped connections
        return Outcome(Kind.TRANSIENT, exc)
    return Outcome(Kind.INVALID, exc)


def retry_after_seconds(exc: RetryAfter) -> float:
    """The wait a 429 asked for, in seconds (PTB gives an int or, with ``PTB_TIMEDELTA`` set,
    a ``timedelta``)."""
    value = exc.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


_POSTING_METHODS = frozenset({"copyMessage", "copyMessages", "forwardMessage", "forwardMessages"})
_HARMLESS_SENDS = frozenset({"sendChatAction"})


def posts_message(endpoint: str) -> bool:
    """Whether a Bot API method posts a new message (sendMessage, sendPhoto, sendPoll, ...,
    copyMessage, forwardMessage): doing it twice posts twice."""
    return (
        endpoint.startswith("send") and endpoint not in _HARMLESS_SENDS
    ) or endpoint in _POSTING_METHODS


def retryable(exc: BaseException, endpoint: str) -> bool:
    """Whether a failed call of ``endpoint`` may be tried again.

    Only TRANSIENT failures are. A call that posts a message is tried again only when it surely
    did not arrive (:attr:`Outcome.unsent`): after a read time-out, a dropped connection or a
    5xx, Telegram may have posted it, and a question posted twice has two sets of live
    buttons. Edits and answerCallbackQuery are tried again on any transient failure: repeated,
    they are "not modified" or "query is too old".

    Args:
        exc: The failure (anything; only Telegram errors can be retryable).
        endpoint: The Bot API method, e.g. ``"sendMessage"``.
    """
    if not isinstance(exc, TelegramError):
        return False
    outcome = classify(exc)
    return outcome.kind is Kind.TRANSIENT and (outcome.unsent or not posts_message(endpoint))
