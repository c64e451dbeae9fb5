"""Observing the bot: calls, chat histories, and waiting on the fake's signals.

A mixin of :class:`~tests.support.fakebotapi.FakeBotAPI`: its methods use the server's
state, set up in ``FakeBotAPI.__init__``."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
from collections.abc import Callable
from typing import Any

from tests.support.fakebotapi.protocol import (
    WAIT_TIMEOUT,
    Call,
)


class ObservingMixin:
    """Observing the bot: calls, chat histories, and waiting on the fake's signals."""

    def calls_to(self, method: str) -> list[Call]:
        """The recorded calls of one method, in order."""
        return [call for call in self.calls if call.method == method]

    def messages(self, chat_id: int) -> list[dict]:
        """Copies of a chat's messages (users' and the bot's, edits applied, deletions gone)."""
        chat = self._chats.get(chat_id)
        return copy.deepcopy(list(chat.messages.values())) if chat else []

    def topic_messages(self, chat_id: int, thread_id: int | None) -> list[dict]:
        """Copies of the messages of one forum topic, or of General for ``thread_id`` None.

        A topic's messages include its ``forum_topic_created`` service message.
        """
        return [m for m in self.messages(chat_id) if m.get("message_thread_id") == thread_id]

    def peek_messages(self, chat_id: int) -> list[dict]:
        """The chat's live message dicts, without copying (read them, never change them)."""
        chat = self._chats.get(chat_id)
        return list(chat.messages.values()) if chat else []

    def message(self, chat_id: int, message_id: int) -> dict:
        """A copy of one message; KeyError if it does not exist (or was deleted)."""
        chat = self._chats.get(chat_id)
        if chat is None or message_id not in chat.messages:
            raise KeyError(f"no message {message_id} in chat {chat_id}")
        return copy.deepcopy(chat.messages[message_id])

    def last_bot_message(self, chat_id: int) -> dict:
        """A copy of the newest message the bot has in the chat; AssertionError if none."""
        for message in reversed(self.messages(chat_id)):
            if message.get("from", {}).get("id") == self.bot_id:
                return message
        raise AssertionError(f"the bot has no message in chat {chat_id}\n{self.dump_calls()}")

    def raw_text(self, chat_id: int, message_id: int) -> str:
        """The text of a bot message exactly as sent (HTML tags and references intact)."""
        return self._chats[chat_id].raw[message_id]

    def bot_messages_in_window(self, chat_id: int, seconds: float = 60.0) -> int:
        """The most bot sends and edits to the chat within any rolling window of ``seconds``."""
        chat = self._chats.get(chat_id)
        times, best, first = (chat.activity if chat else []), 0, 0
        for last, moment in enumerate(times):
            while moment - times[first] >= seconds:
                first += 1
            best = max(best, last - first + 1)
        return best

    def dump_calls(self, last: int = 15) -> str:
        """A readable listing of the last calls, for assertion messages."""
        lines = []
        for index, call in enumerate(self.calls[-last:], start=max(0, len(self.calls) - last)):
            outcome = "ok" if call.ok else call.response.get("description")
            params = json.dumps(call.params, ensure_ascii=False, default=str)
            lines.append(f"  #{index} {call.method} {call.status} {params[:200]} -> {outcome}")
        return "last calls:\n" + ("\n".join(lines) or "  (none)")

    def signal(self) -> None:
        """Wake every :meth:`wait_for` to check its predicate again.

        The fake calls it whenever it records something a test can observe: an answered (or
        dropped) request, a queued update, a webhook delivery. Tests call it when state outside
        the fake changes in a way they can hook (a task done, a process ended).
        """
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        timeout: float = WAIT_TIMEOUT,  # noqa: ASYNC109 - a safety bound in seconds, not a pace
        *,
        recheck: float | None = None,
    ) -> Any:
        """Wait until ``predicate`` returns something truthy, and return that.

        The predicate is checked now and again after every :meth:`signal` (each request the
        fake answers, each update it queues): there is no polling. ``timeout`` (seconds) only
        bounds a wait that would otherwise hang when the condition never comes.

        Args:
            predicate: Reads the fake's state (calls, chats, callback answers) and returns a
                truthy value once the awaited condition holds.
            timeout: Seconds after which the wait fails.
            recheck: For a predicate over state outside the fake that changes without any Bot
                API call (a database row, a log file, a process's exit): also check it every
                ``recheck`` seconds. None: only on signals.

        Raises:
            AssertionError: after ``timeout`` seconds, with a dump of the last calls.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (value := predicate()):
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"condition not met within {timeout} s\n{self.dump_calls()}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, recheck or remaining))
        return value

    async def wait_for_call(
        self,
        method: str,
        *,
        after: int = 0,
        where: Callable[[Call], bool] = lambda call: True,
        timeout: float = 5.0,  # noqa: ASYNC109 - as in wait_for
    ) -> Call:
        """Wait for the first call to ``method`` at index >= ``after`` in :attr:`calls`."""

        def find() -> Call | None:
            return next((c for c in self.calls[after:] if c.method == method and where(c)), None)

        return await self.wait_for(find, timeout)
