"""The one classification of failed Bot API calls, and the transport errors it relies on."""

from __future__ import annotations

import socket
from datetime import timedelta

import pytest
import telegram.error
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    NetworkError,
    PassportDecryptionError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.request import RequestData

from bot.telegram.outcomes import (
    ConnectFailed,
    ConnectTimedOut,
    Kind,
    classify,
    posts_message,
    retryable,
)
from bot.telegram.transport import AiohttpRequest

# one instance of every class in telegram.error, as PTB raises it, and its kind
EVERY_CLASS: dict[type[TelegramError], tuple[TelegramError, Kind]] = {
    TelegramError: (TelegramError("Invalid server response"), Kind.INVALID),
    Forbidden: (Forbidden("Forbidden: bot was blocked by the user"), Kind.FORBIDDEN),
    InvalidToken: (InvalidToken("Unauthorized"), Kind.INVALID),
    EndPointNotFound: (EndPointNotFound("Not Found"), Kind.INVALID),
    NetworkError: (NetworkError("Bad Gateway"), Kind.TRANSIENT),
    BadRequest: (BadRequest("Bad Request: can't parse entities: unclosed tag"), Kind.INVALID),
    TimedOut: (TimedOut(), Kind.TRANSIENT),
    ChatMigrated: (ChatMigrated(-1001234567890), Kind.MIGRATED),
    RetryAfter: (RetryAfter(timedelta(seconds=5)), Kind.TRANSIENT),
    Conflict: (Conflict("Conflict: terminated by other getUpdates request"), Kind.INVALID),
    PassportDecryptionError: (PassportDecryptionError("bad key"), Kind.INVALID),
}


def test_every_class_of_telegram_error_is_classified():
    """Walk telegram.error: a class PTB adds fails here until it is given a kind."""
    found = {
        value
        for value in vars(telegram.error).values()
        if isinstance(value, type) and issubclass(value, TelegramError)
    }
    assert found == set(EVERY_CLASS), "classify the new classes in bot/telegram/outcomes.py"
    for cls, (error, kind) in EVERY_CLASS.items():
        assert type(error) is cls
        assert classify(error).kind is kind, cls


@pytest.mark.parametrize(
    ("description", "kind"),
    [
        (
            "Bad Request: message is not modified: specified new message content and reply markup "
            "are exactly the same as a current content and reply markup of the message",
            Kind.NOT_MODIFIED,
        ),
        ("Bad Request: message to edit not found", Kind.GONE),
        ("Bad Request: message to delete not found", Kind.GONE),
        ("Bad Request: message can't be edited", Kind.GONE),
        ("Bad Request: message can't be deleted", Kind.GONE),
        ("Bad Request: MESSAGE_ID_INVALID", Kind.GONE),
        (
            "Bad Request: query is too old and response timeout expired or query ID is invalid",
            Kind.GONE,
        ),
        ("Bad Request: chat not found", Kind.FORBIDDEN),
        ("Bad Request: not enough rights to send text messages to the chat", Kind.FORBIDDEN),
        ("Bad Request: have no rights to send a message", Kind.FORBIDDEN),
        ("Bad Request: message text is empty", Kind.INVALID),
        ("Bad Request: BUTTON_DATA_INVALID", Kind.INVALID),
    ],
)
def test_bad_requests_by_description(description, kind):
    assert classify(BadRequest(description)).kind is kind


@pytest.mark.parametrize(
    "description",
    [
        "Forbidden: bot was blocked by the user",
        "Forbidden: bot was kicked from the group chat",
        "Forbidden: bot is not a member of the supergroup chat",
        "Forbidden: bot can't initiate conversation with a user",
        "Forbidden: user is deactivated",
    ],
)
def test_forbidden_is_the_end_of_the_chat(description):
    outcome = classify(Forbidden(description))
    assert outcome.kind is Kind.FORBIDDEN and outcome.expected
    assert not retryable(Forbidden(description), "editMessageText")


def test_outcome_details():
    migrated = classify(ChatMigrated(-1009))
    assert migrated.new_chat_id == -1009 and migrated.expected
    flood = classify(RetryAfter(timedelta(seconds=7)))
    assert flood.retry_after == 7.0 and flood.unsent and not flood.expected
    assert classify(ConnectFailed("refused")).unsent
    assert classify(ConnectTimedOut("connect timed out")).unsent
    assert not classify(TimedOut()).unsent
    assert not classify(NetworkError("Bad Gateway")).unsent
    assert classify(BadRequest("Bad Request: chat not found")).expected
    assert not classify(InvalidToken()).expected
    with pytest.raises(TypeError):
        classify(ValueError("not from Telegram"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("endpoint", "posts"),
    [
        ("sendMessage", True),
        ("sendPhoto", True),
        ("sendPoll", True),
        ("copyMessage", True),
        ("forwardMessage", True),
        ("sendChatAction", False),
        ("editMessageText", False),
        ("answerCallbackQuery", False),
        ("deleteMessage", False),
        ("setMyCommands", False),
    ],
)
def test_which_methods_post_a_message(endpoint, posts):
    assert posts_message(endpoint) is posts


@pytest.mark.parametrize(
    ("error", "send", "edit"),
    [
        (ConnectFailed("refused"), True, True),
        (ConnectTimedOut("connect timed out"), True, True),
        (RetryAfter(timedelta(seconds=1)), True, True),
        (TimedOut(), False, True),
        (NetworkError("aiohttp.ServerDisconnectedError: Server disconnected"), False, True),
        (NetworkError("Bad Gateway"), False, True),
        (BadRequest("Bad Request: message to edit not found"), False, False),
        (Forbidden("Forbidden: bot was blocked by the user"), False, False),
        (ChatMigrated(-1001), False, False),
        (InvalidToken(), False, False),
        (ValueError("a bug"), False, False),
    ],
)
def test_what_is_retried(error, send, edit):
    """Only transient failures; a send only when it surely did not reach Telegram."""
    assert retryable(error, "sendMessage") is send
    assert retryable(error, "editMessageText") is edit
    assert retryable(error, "answerCallbackQuery") is edit


# --- the transport tells a connection that was never made from one that dropped -------------


def free_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_a_refused_connection_is_connect_failed():
    request = AiohttpRequest()
    await request.initialize()
    try:
        with pytest.raises(ConnectFailed) as caught:
            await request.do_request(f"http://127.0.0.1:{free_port()}/bot1:A/getMe", "POST")
    finally:
        await request.shutdown()
    assert classify(caught.value).unsent


async def test_a_read_time_out_and_a_dropped_connection_are_not_connect_failed(fake):
    request = AiohttpRequest(read_timeout=0.2)
    await request.initialize()
    url = f"{fake.base_url}{fake.token}/sendMessage"
    data = RequestData()
    fake.add_user(7, "Ada")
    try:
        fake.delay(1.0, {"getMe"})
        with pytest.raises(TimedOut) as timed_out:
            await request.do_request(f"{fake.base_url}{fake.token}/getMe", "POST")
        fake.delay(0.0)
        fake.drop_next("sendMessage", after_carrying_out=False)
        with pytest.raises(NetworkError) as dropped:
            await request.do_request(url, "POST", data)
    finally:
        await request.shutdown()
    assert not isinstance(timed_out.value, ConnectFailed)
    assert not isinstance(dropped.value, (ConnectFailed, TimedOut))
    assert not retryable(timed_out.value, "sendMessage")
    assert not retryable(dropped.value, "sendMessage")
