"""Outgoing Bot API calls: Telegram's flood limits, and retries of transient failures.

python-telegram-bot's ``AIORateLimiter`` keeps each group chat under 20 messages a minute and,
on a 429 "Too Many Requests", waits ``retry_after`` and tries again. This subclass also retries
transient failures (5xx answers, dropped connections, time-outs: PTB's ``NetworkError`` other
than ``BadRequest``) with exponential back-off, using tenacity rather than a hand-written loop.
A repeated call is harmless here: an edit repeated is "not modified", an answered callback query
answered again is "query is too old", and a question sent twice has the same buttons.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any

from telegram.error import BadRequest, NetworkError
from telegram.ext import AIORateLimiter
from tenacity import (
    AsyncRetrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
)

log = logging.getLogger(__name__)

TRANSIENT_ATTEMPTS = 4
"""Tries of a call that fails transiently (the first one included)."""

RATE_LIMIT_RETRIES = 3
"""Retries after a 429 (each waits the ``retry_after`` Telegram gave)."""


def is_transient(exc: BaseException) -> bool:
    """A failure worth trying again: network trouble or a 5xx, not a refused request."""
    return isinstance(exc, NetworkError) and not isinstance(exc, BadRequest)


class QuizRateLimiter(AIORateLimiter):
    """``AIORateLimiter`` with Telegram's per-group limit (20 per minute), retries on 429, and
    retries of transient failures.

    The overall limit of 30 messages per second that ``AIORateLimiter`` applies by default is
    Telegram's limit for bulk notifications; a quiz bot only replies to its users' taps, so it
    is off here, and any 429 Telegram sends is still honoured.

    Args:
        transient_attempts: Tries of a call that fails transiently.
        max_wait: Longest back-off between those tries, in seconds.
    """

    def __init__(self, *, transient_attempts: int = TRANSIENT_ATTEMPTS,
                 max_wait: float = 2.0) -> None:
        super().__init__(overall_max_rate=0, max_retries=RATE_LIMIT_RETRIES)
        self._transient_attempts = transient_attempts
        self._max_wait = max_wait

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        """Run the call through the flood limits; retry transient failures."""
        try:  # the common case, without setting up a retry loop
            return await super().process_request(callback, args, kwargs, endpoint, data,
                                                  rate_limit_args)
        except Exception as exc:
            if not is_transient(exc) or self._transient_attempts < 2:
                raise
            log.info("%s failed (%r); trying again", endpoint, exc)
        retrying = AsyncRetrying(
            retry=retry_if_exception(is_transient),
            stop=stop_after_attempt(self._transient_attempts - 1),
            wait=wait_exponential(multiplier=0.2, max=self._max_wait),
            before_sleep=lambda state: log.info(
                "%s failed again (%r) on try %d of %d", endpoint,
                state.outcome.exception() if state.outcome else None, state.attempt_number + 1,
                self._transient_attempts),
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                return await super().process_request(callback, args, kwargs, endpoint, data,
                                                      rate_limit_args)
        raise AssertionError("unreachable: tenacity reraises the last failure")
