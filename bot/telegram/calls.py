"""One outgoing Bot API call as the rate limiter (:mod:`bot.telegram.limits`) sees it: the chat
it is about, whether it is a group session's own (:func:`session_calls`), and the tries it is
allowed (:class:`RetryBudget`: after a 429, after a transient failure)."""

from __future__ import annotations

import contextlib
from collections.abc import Hashable, Iterator
from contextvars import ContextVar
from typing import Any

from telegram.error import RetryAfter

from bot.telegram.outcomes import retryable

TRANSIENT_ATTEMPTS = 4
"""Tries of a call that fails transiently (the first one included)."""


RATE_LIMIT_RETRIES = 3
"""Retries after a 429 (each waits the ``retry_after`` Telegram gave); then the 429 is raised."""


FLOOD_MARGIN = 0.1
"""Seconds waited beyond Telegram's ``retry_after`` (as PTB's limiter does)."""


SESSION_CALL: ContextVar[bool] = ContextVar("quizbot_session_call", default=False)
"""Whether the call being made is a group session's own (set by :func:`session_calls`)."""


@contextlib.contextmanager
def session_calls() -> Iterator[None]:
    """Mark the Bot API calls made inside the block as a group session's own (they wait for
    the group's budget, replies to commands are dropped instead; a transient failure is not
    retried here but by the session runner)."""
    token = SESSION_CALL.set(True)
    try:
        yield
    finally:
        SESSION_CALL.reset(token)


class RetryBudget:
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
