"""Outgoing Bot API calls: Telegram's flood limits, and retries of transient failures.

python-telegram-bot's ``AIORateLimiter`` keeps each group chat under 20 messages a minute. Its
answer to a 429 "Too Many Requests" is to hold *every* outgoing call of the bot for
``retry_after`` seconds through one event (PTB 22.8, ``telegram/ext/_aioratelimiter.py``, and
its docstring: "A RetryAfter exception will halt *all* requests"): one flooded chat would stall
the callback answers and edits of everybody else. So this subclass keeps PTB's throttling but
takes 429s over: it shields them from PTB's loop, holds only the calls to the chat that got the
429 (all calls for a 429 on a call without a chat), and tries the call again, a bounded number
of times.

It also tries transient failures again (5xx answers, dropped connections, time-outs), with
exponential back-off through tenacity, as :func:`outcomes.retryable` allows: a call that posts
a message only when it surely did not reach Telegram, anything else on any transient failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Hashable
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import AIORateLimiter
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_never, wait_exponential

from bot.telegram.outcomes import retry_after_seconds, retryable

log = logging.getLogger(__name__)

TRANSIENT_ATTEMPTS = 4
"""Tries of a call that fails transiently (the first one included)."""

RATE_LIMIT_RETRIES = 3
"""Retries after a 429 (each waits the ``retry_after`` Telegram gave); then the 429 is raised."""

FLOOD_MARGIN = 0.1
"""Seconds waited beyond Telegram's ``retry_after`` (as PTB's limiter does)."""

_ALL_CHATS = object()
"""The key of a flood wait that holds every call (a 429 on a call without a chat)."""

Result = bool | dict[str, Any] | list[dict[str, Any]]


class _Flood(Exception):
    """Carries a 429 past ``AIORateLimiter.process_request``, which would otherwise pause every
    call of the bot (and log it as an error when it gives up)."""

    def __init__(self, error: RetryAfter) -> None:
        super().__init__(error)
        self.error = error


class _Budget:
    """The retries left to one call: RetryAfter and transient failures counted apart."""

    def __init__(self, endpoint: str, floods: int, transient: int) -> None:
        self.endpoint = endpoint
        self.floods = floods
        self.transient = transient

    def allows(self, exc: BaseException) -> bool:
        """Whether ``exc`` may be tried again (and count it)."""
        if isinstance(exc, RetryAfter):
            self.floods -= 1
            return self.floods >= 0
        if retryable(exc, self.endpoint):
            self.transient -= 1
            return self.transient >= 0
        return False


def chat_key(data: dict[str, Any]) -> Hashable | None:
    """The chat a call is about (its ``chat_id``, an int when it is one), or None."""
    chat_id = data.get("chat_id")
    if chat_id is None:
        return None
    with contextlib.suppress(ValueError, TypeError):
        return int(chat_id)
    return str(chat_id)


def reads(endpoint: str) -> bool:
    """Whether a Bot API method only reads (``getChatMember``, ``getChat`` ...): it posts and
    changes no message, so it is not counted in a group's messages per minute."""
    return endpoint.startswith("get")


class QuizRateLimiter(AIORateLimiter):
    """``AIORateLimiter`` with Telegram's per-group limit (20 per minute), 429s that slow only
    their chat, and bounded retries of transient failures.

    The overall limit of 30 messages per second that ``AIORateLimiter`` applies by default is
    Telegram's limit for bulk notifications; a quiz bot only replies to its users' taps, so it
    is off here, and any 429 Telegram sends is still honoured.

    A 429 (https://core.telegram.org/bots/api#responseparameters, ``retry_after``) on a call
    with a ``chat_id`` holds the calls to that chat for ``retry_after`` seconds (plus
    FLOOD_MARGIN); calls to other chats and calls without a chat (answerCallbackQuery,
    setMyCommands) go on. A 429 on a call without a chat holds every call.

    Args:
        transient_attempts: Tries of a call that fails transiently (the first included).
        max_wait: Longest back-off between those tries, in seconds.
        flood_retries: Retries of a call answered 429 (PTB's ``rate_limit_args`` overrides it
            per call); after the last the ``RetryAfter`` propagates.
    """

    def __init__(self, *, transient_attempts: int = TRANSIENT_ATTEMPTS,
                 max_wait: float = 2.0, flood_retries: int = RATE_LIMIT_RETRIES) -> None:
        super().__init__(overall_max_rate=0, max_retries=0)
        self._transient_attempts = transient_attempts
        self._flood_retries = flood_retries
        self._exponential = wait_exponential(multiplier=0.2, max=max_wait)
        self._held_until: dict[Hashable, float] = {}  # chat key or _ALL_CHATS -> loop time

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Result]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Result:
        """Run the call through the flood limits; retry 429s and transient failures.

        Raises:
            RetryAfter: still 429 after the flood retries.
            TelegramError: any other failure, once it may not (or may no longer) be retried.
        """
        chat = chat_key(data)
        budget = _Budget(endpoint, rate_limit_args or self._flood_retries,
                         self._transient_attempts - 1)
        try:  # the common case, without setting up a retry loop
            return await self._once(chat, callback, args, kwargs, endpoint, data)
        except Exception as exc:
            if not budget.allows(exc):
                raise
            self._log_retry(endpoint, chat, exc)
        retrying = AsyncRetrying(
            retry=retry_if_exception(budget.allows),
            stop=stop_never,  # the budget bounds the tries
            wait=self._backoff,
            before_sleep=lambda state: self._log_retry(
                endpoint, chat, state.outcome.exception() if state.outcome else None),
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                return await self._once(chat, callback, args, kwargs, endpoint, data)
        raise AssertionError("unreachable: tenacity reraises the last failure")

    async def _once(self, chat: Hashable | None,
                    callback: Callable[..., Coroutine[Any, Any, Result]], args: Any,
                    kwargs: dict[str, Any], endpoint: str, data: dict[str, Any]) -> Result:
        """One try: wait out the chat's flood wait, then PTB's throttling, then the call."""
        if self._held_until:
            await self._wait_for_floods(chat)

        async def shielded(*call_args: Any, **call_kwargs: Any) -> Result:
            try:
                return await callback(*call_args, **call_kwargs)
            except RetryAfter as exc:
                raise _Flood(exc) from None

        # Telegram's 20 a minute per group counts messages; reads (getChatMember for an admin
        # check, getChat) are no messages: kept out of PTB's group limiter, they never delay
        # a session's question or reveal
        throttled = {k: v for k, v in data.items() if k != "chat_id"} if reads(endpoint) else data
        try:
            return await super().process_request(shielded, args, kwargs, endpoint, throttled,
                                                  None)
        except _Flood as flood:
            self._hold(chat, retry_after_seconds(flood.error))
            raise flood.error from None

    def _hold(self, chat: Hashable | None, seconds: float) -> None:
        """Hold the calls to ``chat`` (every call when None) for ``seconds``."""
        key = _ALL_CHATS if chat is None else chat
        until = asyncio.get_running_loop().time() + seconds + FLOOD_MARGIN
        self._held_until[key] = max(self._held_until.get(key, until), until)

    async def _wait_for_floods(self, chat: Hashable | None) -> None:
        """Wait until neither ``chat`` nor all chats are held; forget flood waits that ended."""
        loop = asyncio.get_running_loop()
        while True:
            now = loop.time()
            for key in [key for key, until in self._held_until.items() if until <= now]:
                del self._held_until[key]
            until = max(self._held_until.get(_ALL_CHATS, now),
                        self._held_until.get(chat, now) if chat is not None else now)
            if until <= now:
                return
            await asyncio.sleep(until - now)

    def _backoff(self, state: RetryCallState) -> float:
        """Seconds before the next try: none after a 429 (the flood wait is the wait),
        exponential after a transient failure."""
        if state.outcome is not None and isinstance(state.outcome.exception(), RetryAfter):
            return 0.0
        return self._exponential(state)

    @staticmethod
    def _log_retry(endpoint: str, chat: Hashable | None, exc: BaseException | None) -> None:
        if isinstance(exc, RetryAfter):
            log.info("%s (chat %s): flood control, waiting %.1f s to try again", endpoint, chat,
                     retry_after_seconds(exc))
        else:
            log.info("%s (chat %s) failed (%r); trying again", endpoint, chat, exc)
