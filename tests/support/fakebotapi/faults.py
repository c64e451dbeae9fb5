"""Fault injection: errors, dropped connections, latency and flood waits.

A mixin of :class:`~tests.support.fakebotapi.FakeBotAPI`: its methods use the server's
state, set up in ``FakeBotAPI.__init__``."""

from __future__ import annotations

from tests.support.fakebotapi.protocol import (
    FRONT_END_PAGE,
    ApiError,
)


class FaultsMixin:
    """Fault injection: errors, dropped connections, latency and flood waits."""

    def fail_next(
        self,
        method: str,
        *,
        error_code: int,
        description: str,
        retry_after: int | None = None,
        times: int = 1,
        front_end: bool = False,
    ) -> None:
        """Answer the next ``times`` calls of ``method`` with this error instead of handling them.

        ``retry_after`` (seconds) adds ``parameters.retry_after``, which PTB raises as RetryAfter.
        ``front_end``: answered by Telegram's front end, as an HTML page (``FRONT_END_PAGE``)
        rather than the Bot API's JSON, the call not carried out.
        """
        name = self._method_names.get(method.lower())
        if name is None:
            raise ValueError(f"unknown Bot API method {method!r}")
        parameters = {"retry_after": retry_after} if retry_after is not None else None
        page = FRONT_END_PAGE.format(status=f"{error_code} {description}") if front_end else None
        error = ApiError(error_code, description, parameters, page=page)
        self._failures.setdefault(name, []).append([error, times])

    def delay(self, seconds: float, methods: set[str] | None = None) -> None:
        """Add ``seconds`` of latency to every call but getUpdates, or to ``methods`` only."""
        self._delay = (seconds, frozenset(methods) if methods is not None else None)

    def drop_next(self, method: str, *, after_carrying_out: bool) -> None:
        """Drop the connection of the next call to ``method``, before or after carrying it out
        (after: the call takes effect, but the bot never hears so)."""
        self._drops.setdefault(method, []).append(after_carrying_out)

    def delay_chat(self, chat_id: int, seconds: float) -> None:
        """Add ``seconds`` of latency to every call about one chat (0 removes it)."""
        self._chat_delays[chat_id] = seconds

    def flood(self, chat_id: int, retry_after: int, times: int = 1) -> None:
        """Answer the next ``times`` calls naming ``chat_id`` (any method) with a flood wait.

        They answer 429 "Too Many Requests: retry after N" with ``parameters.retry_after`` = N
        (seconds; PTB raises RetryAfter), the answer Telegram gives a bot that writes to one
        chat too fast. Other chats, and calls without a chat_id such as answerCallbackQuery,
        are unaffected.
        """
        if retry_after < 1 or times < 1:
            raise ValueError("retry_after and times must be positive")
        self._chat_floods[chat_id] = [retry_after, times]
