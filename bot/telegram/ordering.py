"""Concurrent update processing that keeps each user's updates in a chat in order.

python-telegram-bot handles one update at a time by default, which leaves the bot idle during
every Bot API round trip (tens of milliseconds to Telegram). With ``concurrent_updates`` and this
processor, updates of different users or chats run concurrently, while the updates of one user
in one chat run one after the other, in the order they came: a double tap, or an answer followed
quickly by "next", never races. Members of a group tapping at once are not serialised behind one
lock: the key is (chat, user), not the chat.

It also stamps each update with the time it reached the bot (:meth:`received_at`), before it
waits for its turn or a slot: a group member's tap counts if it came before the question's
deadline, however busy the bot was; and the deadline's close waits (bounded) until the chat's
updates that came before the deadline are processed (:meth:`settled`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Hashable
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

    def __init__(self, max_concurrent_updates: int = DEFAULT_MAX_CONCURRENT_UPDATES, *,
                 clock: Callable[[], float] = time.time) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[Hashable, asyncio.Lock] = {}
        self._holders: dict[Hashable, int] = {}
        self._clock = clock
        self._received: dict[int, float] = {}  # id(update) -> when it reached the bot
        self._in_chat: dict[int, dict[int, float]] = {}  # chat id -> {id(update): received}
        self._chat_done: dict[int, tuple[asyncio.Condition, list[int]]] = {}  # [waiters]

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
        received = self._received[id(update)] = self._clock()
        key = self.key(update)
        chat_id = key[0] if key is not None else None
        if chat_id is not None:
            self._in_chat.setdefault(chat_id, {})[id(update)] = received
        try:
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
        finally:
            del self._received[id(update)]
            if chat_id is not None:
                await self._done_in_chat(chat_id, id(update))

    async def _done_in_chat(self, chat_id: int, update_key: int) -> None:
        in_chat = self._in_chat[chat_id]
        del in_chat[update_key]
        if not in_chat:
            del self._in_chat[chat_id]
        waited = self._chat_done.get(chat_id)
        if waited is not None:
            condition = waited[0]
            async with condition:
                condition.notify_all()

    def received_at(self, update: object) -> float:
        """When ``update`` reached the bot (PTB's dispatcher took it off its queue, before it
        waited for its turn or a slot), in seconds since the epoch; now for an update that is
        not being processed."""
        return self._received.get(id(update), self._clock())

    async def settled(self, chat_id: int, before: float, at_most: float) -> bool:
        """Wait until every update of chat ``chat_id`` that reached the bot before ``before``
        (epoch seconds) has been processed, for at most ``at_most`` seconds.

        Returns:
            True when they were all processed; False when ``at_most`` seconds passed first.
        """
        def settled_now() -> bool:
            return all(received > before for received in self._in_chat.get(chat_id, {}).values())

        if settled_now():
            return True
        condition, waiters = self._chat_done.setdefault(chat_id, (asyncio.Condition(), [0]))
        waiters[0] += 1
        try:
            async with asyncio.timeout(at_most), condition:
                await condition.wait_for(settled_now)
            return True
        except TimeoutError:
            return False
        finally:
            waiters[0] -= 1
            if not waiters[0]:  # nobody else waits: forget the chat
                del self._chat_done[chat_id]

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
