"""A group's budget: Telegram's 20 messages a minute to one group (Bot API FAQ,
https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this), counted as the
rate limiter (:mod:`bot.telegram.limits`) makes the sends and edits (:class:`GroupMinute`), and
which calls use it (:func:`group_key`).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable

from cachetools import TTLCache

GROUP_MAX_RATE = 20
"""Messages a bot may send to one group per :data:`GROUP_TIME_PERIOD` (Bot API FAQ: "no more
than 20 messages per minute"; PTB's ``AIORateLimiter`` default too)."""

GROUP_TIME_PERIOD = 60.0
"""Seconds of the group limit's window."""

GROUPS_COUNTED = 100_000
"""Groups whose minute is kept at once (those written to in the last minute; beyond this many,
the least recently written to is forgotten)."""


class GroupMinute:
    """The sends and edits made to each group in the last :data:`GROUP_TIME_PERIOD` seconds
    (Telegram's "no more than 20 messages per minute to the same group"), counted by the rate
    limiter as it makes them; a group not written to for a minute is forgotten.

    Args:
        window: The window, in seconds.
        clock: Monotonic seconds.
        groups: At most this many groups are kept (:data:`GROUPS_COUNTED`).
    """

    def __init__(
        self,
        window: float = GROUP_TIME_PERIOD,
        clock: Callable[[], float] = time.monotonic,
        groups: int = GROUPS_COUNTED,
    ) -> None:
        self.window = window
        self._clock = clock
        self._calls: TTLCache[Hashable, deque[float]] = TTLCache(groups, ttl=window, timer=clock)

    def _recent(self, group: Hashable) -> deque[float]:
        calls = self._calls.get(group)
        if calls is None:
            return deque()
        cutoff = self._clock() - self.window
        while calls and calls[0] <= cutoff:
            calls.popleft()
        return calls

    def note(self, group: Hashable) -> None:
        """Count one send or edit to ``group`` now."""
        calls = self._recent(group)
        calls.append(self._clock())
        self._calls[group] = calls  # kept for a window from its latest call

    def used(self, group: Hashable) -> int:
        """Sends and edits to ``group`` in the last window."""
        return len(self._recent(group))


def group_key(chat: Hashable | None, endpoint: str) -> Hashable | None:
    """The group whose 20-a-minute budget a call uses (``chat`` for a call about a group, a
    supergroup or a channel, named by a negative id or an @username, as PTB tells them apart),
    or None: private chats, calls without a chat and reads (``get*``) use none."""
    if endpoint.startswith("get"):
        return None
    if (isinstance(chat, int) and chat < 0) or isinstance(chat, str):
        return chat
    return None
