"""Concurrent update processing that keeps each user's updates in a chat in order.

python-telegram-bot handles one update at a time by default, which leaves the bot idle during
every Bot API round trip (tens of milliseconds to Telegram). With ``concurrent_updates`` and this
processor, updates of different users or chats run concurrently, while the updates of one user
in one chat run one after the other, in the order they came: a double tap, or an answer followed
quickly by "next", never races. Members of a group tapping at once are not serialised behind one
lock: the key is (chat, user), not the chat.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Hashable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

DEFAULT_MAX_CONCURRENT_UPDATES = 32
"""Updates in flight at once; more wait (in order) for a free slot. Enough to keep a 50 ms
round trip busy at a few hundred updates a second, and few enough that httpcore's connection
pool, which scans its queued requests on every request, stays cheap."""


class PerUserOrderedProcessor(BaseUpdateProcessor):
    """Run updates concurrently, one at a time per (chat, user), in arrival order.

    PTB starts a task per update in arrival order and this processor's ``process_update``
    runs first thing in each; ``asyncio.Lock`` wakes its waiters first-in first-out, so the
    updates of one key keep their order.

    Args:
        max_concurrent_updates: Upper bound on updates being processed at once.
    """

    def __init__(self, max_concurrent_updates: int = DEFAULT_MAX_CONCURRENT_UPDATES) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[Hashable, asyncio.Lock] = {}
        self._holders: dict[Hashable, int] = {}

    @staticmethod
    def key(update: object) -> Hashable | None:
        """The ordering key of an update: (chat id, user id); None when it has neither."""
        if not isinstance(update, Update):
            return None
        chat, user = update.effective_chat, update.effective_user
        if chat is None and user is None:
            return None
        return (chat.id if chat else None, user.id if user else None)

    async def process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Wait for the update's turn among its key's updates, then for one of the
        ``max_concurrent_updates`` slots, then await ``coroutine``.

        Taking the key's lock before a slot keeps a user's backlog from filling the slots.
        """
        key = self.key(update)
        if key is None:
            await super().process_update(update, coroutine)
            return
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._holders[key] = self._holders.get(key, 0) + 1
        try:
            async with lock:
                await super().process_update(update, coroutine)
        finally:
            self._holders[key] -= 1
            if not self._holders[key]:  # nobody else waits: forget the key
                del self._holders[key]
                del self._locks[key]

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Await ``coroutine`` (ordering and slots are taken care of by process_update)."""
        await coroutine

    @property
    def keys_in_flight(self) -> int:
        """How many (chat, user) keys have updates in flight (0 when idle)."""
        return len(self._locks)

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to tear down."""
