"""A group chat's message budget: Telegram lets a bot send about 20 messages a minute to one
group (Bot API FAQ, "My bot is hitting limits, how do I avoid this?": "your bot will not be able
to send more than 20 messages per minute to the same group"); edits count as well.

``AIORateLimiter`` (bot/telegram/limits.py) makes calls *wait* to stay within that; a session's
optional calls (the mid-window clock edit) are instead *skipped* when they would not fit. This
counter keeps the recent calls of the group sessions per chat, so the runner can ask before an
optional call whether it fits with the calls the session must still make.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

GROUP_MESSAGES_PER_MINUTE = 20
"""Messages (sends and edits) a bot may send one group in :data:`WINDOW_SECONDS`."""

WINDOW_SECONDS = 60.0
"""The window Telegram's group limit is counted over, in seconds."""


class GroupBudget:
    """Counts a bot's recent sends and edits per group chat in a sliding window.

    Args:
        limit: Calls allowed per window (:data:`GROUP_MESSAGES_PER_MINUTE`).
        window: The window, in seconds (:data:`WINDOW_SECONDS`).
        clock: Monotonic seconds.
    """

    def __init__(self, limit: int = GROUP_MESSAGES_PER_MINUTE, window: float = WINDOW_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._calls: dict[int, deque[float]] = {}

    def _recent(self, chat_id: int) -> deque[float]:
        calls = self._calls.get(chat_id)
        if calls is None:
            return deque()
        cutoff = self._clock() - self.window
        while calls and calls[0] <= cutoff:
            calls.popleft()
        if not calls:
            del self._calls[chat_id]
        return calls

    def note(self, chat_id: int) -> None:
        """Count one send or edit to ``chat_id`` now."""
        self._recent(chat_id)
        self._calls.setdefault(chat_id, deque()).append(self._clock())

    def used(self, chat_id: int) -> int:
        """Calls to ``chat_id`` counted in the last window."""
        return len(self._recent(chat_id))

    def allows(self, chat_id: int, calls: int = 1, *, reserve: int = 0) -> bool:
        """Whether ``calls`` more fit in ``chat_id``'s window with ``reserve`` calls kept back
        for what must follow (a reveal, the next question)."""
        return self.used(chat_id) + calls + reserve <= self.limit

    def forget(self, chat_id: int) -> None:
        """Drop a chat's count (it moved to a new id, or the bot left it)."""
        self._calls.pop(chat_id, None)
