"""Retries and flood waits of outgoing Bot API calls (bot/telegram/limits.py)."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import pytest
from telegram.error import BadRequest, NetworkError, RetryAfter, TimedOut

from bot import i18n
from bot.telegram.calls import RATE_LIMIT_RETRIES, TRANSIENT_ATTEMPTS, session_calls
from bot.telegram.groupminute import GROUP_MAX_RATE
from bot.telegram.limits import QuizRateLimiter
from bot.telegram.outcomes import ConnectFailed
from tests.support.banks import BANK_ID
from tests.support.person import Person
from tests.support.screens import correct_label


class Calls:
    """Bot API calls that fail as scripted (per chat), then succeed; records their order."""

    def __init__(self) -> None:
        self.made: list[tuple[str, object]] = []
        self.failures: dict[object, list[Exception]] = {}
        self.called = asyncio.Event()

    def fail(self, chat: object, *errors: Exception) -> None:
        self.failures.setdefault(chat, []).extend(errors)

    async def run(
        self, limiter: QuizRateLimiter, endpoint: str = "sendMessage", chat: object = 1
    ) -> bool:
        data = {"chat_id": chat} if chat is not None else {"callback_query_id": "1"}

        async def callback() -> bool:
            self.made.append((endpoint, chat))
            await asyncio.sleep(0)  # as a real call, give way to other tasks
            self.called.set()  # the caller goes on once this task waits again
            if self.failures.get(chat):
                raise self.failures[chat].pop(0)
            return True

        return await limiter.process_request(callback, (), {}, endpoint, data, None)  # type: ignore[return-value]


def limiter() -> QuizRateLimiter:
    return QuizRateLimiter(max_wait=0.01)


async def test_a_send_is_retried_only_when_it_surely_did_not_reach_telegram():
    calls = Calls()
    calls.fail(1, ConnectFailed("refused"), ConnectFailed("refused"))
    assert await calls.run(limiter()) is True
    assert len(calls.made) == 3
    for error in (
        TimedOut(),
        NetworkError("aiohttp.ServerDisconnectedError"),
        NetworkError("Bad Gateway"),
    ):
        calls = Calls()
        calls.fail(1, error)
        with pytest.raises(type(error)):
            await calls.run(limiter())
        assert len(calls.made) == 1, error  # may have been posted: not posted twice


async def test_edits_and_callback_answers_are_retried_on_any_transient_failure_bounded():
    calls = Calls()
    calls.fail(1, TimedOut(), NetworkError("Bad Gateway"))
    assert await calls.run(limiter(), "editMessageText") is True
    assert len(calls.made) == 3
    calls = Calls()
    calls.fail(None, TimedOut())
    assert await calls.run(limiter(), "answerCallbackQuery", chat=None) is True
    calls = Calls()
    calls.fail(1, *[TimedOut() for _ in range(10)])
    with pytest.raises(TimedOut):
        await calls.run(limiter(), "editMessageText")
    assert len(calls.made) == TRANSIENT_ATTEMPTS


async def test_permanent_failures_are_not_retried():
    calls = Calls()
    calls.fail(1, BadRequest("Bad Request: message to edit not found"))
    with pytest.raises(BadRequest):
        await calls.run(limiter(), "editMessageText")
    assert len(calls.made) == 1


async def test_flood_retries_are_bounded_and_not_logged_as_errors(caplog):
    caplog.set_level(logging.INFO)
    calls = Calls()
    calls.fail(1, *[RetryAfter(timedelta(milliseconds=1)) for _ in range(10)])
    with pytest.raises(RetryAfter):
        await calls.run(limiter())
    assert len(calls.made) == RATE_LIMIT_RETRIES + 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_flood_wait_holds_its_chat_only():
    """A 429 for chat 1 holds chat 1's calls; chat 2's and chat-less calls go first. A 429 on
    a call without a chat holds every call."""
    rate_limiter, calls = limiter(), Calls()
    calls.fail(1, RetryAfter(timedelta(seconds=1)))
    flooded = asyncio.create_task(calls.run(rate_limiter, chat=1))
    await calls.called.wait()
    also_chat_1 = asyncio.create_task(calls.run(rate_limiter, "editMessageText", chat=1))
    assert await calls.run(rate_limiter, chat=2) is True
    assert await calls.run(rate_limiter, "answerCallbackQuery", chat=None) is True
    assert await flooded is True and await also_chat_1 is True
    assert calls.made[:3] == [("sendMessage", 1), ("sendMessage", 2), ("answerCallbackQuery", None)]
    assert sorted(calls.made[3:]) == [("editMessageText", 1), ("sendMessage", 1)]

    calls = Calls()
    calls.fail(None, RetryAfter(timedelta(hours=1)))
    flooded = asyncio.create_task(calls.run(rate_limiter, "setMyCommands", chat=None))
    await calls.called.wait()
    held = asyncio.create_task(calls.run(rate_limiter, chat=2))
    for _ in range(20):  # turns of the event loop in which the held call would be made
        await asyncio.sleep(0)
    assert calls.made == [("setMyCommands", None)] and not held.done()
    for task in (flooded, held):
        task.cancel()
    await asyncio.gather(flooded, held, return_exceptions=True)


async def test_a_429_in_one_chat_does_not_hold_another_users_tap(fake, running_bot, banks):
    """Ada's chat is under a 5 s flood wait; meanwhile Bob's tap is answered and his feedback
    shown. Ada's reply follows once her wait is over."""
    bank = banks[BANK_ID]
    bob = Person(fake, 601, "Bob")
    _greeting, question = await bob.say("/start", replies=2)
    ada = Person(fake, 602, "Ada")
    fake.fail_next(
        "sendMessage", error_code=429, description="Too Many Requests: retry after 5", retry_after=5
    )
    before = len(fake.calls)
    fake.send_message(ada.user_id, "/help")
    flood = await fake.wait_for_call("sendMessage", after=before)
    assert (flood.status, flood.params["chat_id"]) == (429, ada.user_id)

    await bob.answer(correct_label(question, bank, "en"))
    assert not ada.bot_messages()  # still waiting
    [reply] = await fake.wait_for(lambda: ada.bot_messages(), timeout=10)
    en = i18n.catalog("en")
    assert reply["text"] == en("help") + "\n\n" + en("help_creators")

    def index(method: str, chat_id: int) -> int:
        return next(
            i
            for i, c in enumerate(fake.calls)
            if i > before
            and c.method == method
            and c.ok
            and c.params.get("chat_id", chat_id) == chat_id
        )

    answered = index("answerCallbackQuery", bob.user_id)
    assert (
        fake.calls.index(flood)
        < answered
        < index("editMessageText", bob.user_id)
        < index("sendMessage", ada.user_id)
    )
    assert [
        c.status for c in fake.calls_to("sendMessage") if c.params["chat_id"] == ada.user_id
    ] == [429, 200]


async def test_a_sessions_own_call_is_tried_once_on_a_429_and_its_chat_held():
    """Inside session_calls a 429 is not retried by the limiter (the session runner retries
    the step, so the tries are bounded once): it is raised at once, and the chat is held,
    so the runner's next try waits the flood out before its call."""
    calls, limits = Calls(), limiter()
    calls.fail(-100, RetryAfter(timedelta(milliseconds=200)))
    with session_calls(), pytest.raises(RetryAfter):
        await calls.run(limits, "editMessageText", -100)
    assert len(calls.made) == 1 and limits.room(-100) == 0  # held: nothing fits meanwhile
    with session_calls():
        assert await calls.run(limits, "editMessageText", -100) is True
    assert len(calls.made) == 2


async def test_the_room_of_a_group_is_twenty_a_minute_less_every_call_made_to_it():
    """Every send and edit to a group (the session's and the replies alike) takes one of its
    20 a minute; a private chat is not counted."""
    calls, limits = Calls(), QuizRateLimiter(reply_seconds=0)
    assert limits.room(-100) == GROUP_MAX_RATE
    await calls.run(limits, "sendMessage", -100)
    with session_calls():
        await calls.run(limits, "editMessageText", -100)
    await calls.run(limits, "sendMessage", 5)
    assert limits.room(-100) == GROUP_MAX_RATE - 2 and limits.room(5) == GROUP_MAX_RATE


async def test_a_sessions_own_call_is_tried_once_on_a_transient_failure():
    """Inside session_calls the limiter does not retry a transient failure: the session runner
    retries the step (bounded, with its own back-off), so the tries do not multiply. Outside
    it, the same failure is retried."""
    calls = Calls()
    calls.fail(-100, NetworkError("Bad Gateway"))
    with session_calls(), pytest.raises(NetworkError):
        await calls.run(limiter(), "editMessageText", -100)
    assert len(calls.made) == 1
    calls = Calls()
    calls.fail(-100, NetworkError("Bad Gateway"))
    assert await calls.run(limiter(), "editMessageText", -100) is True
    assert len(calls.made) == 2
