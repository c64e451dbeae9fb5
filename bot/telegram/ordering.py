"""Concurrent update processing that keeps each user's updates in a chat in order.

python-telegram-bot handles one update at a time by default, which leaves the bot idle during
every Bot API round trip (tens of milliseconds to Telegram). With ``concurrent_updates`` and this
processor, updates of different users or chats run concurrently, while the updates of one user
in one chat run one after the other, in the order they came: a double tap, or an answer followed
quickly by "next", never races. Members of a group tapping at once are not serialised behind one
lock: the key is (chat, sender), not the chat.

The sender is the person, or the chat a message was sent on behalf of
(:func:`bot.telegram.arrivals.sender_id`).

It also guards the bot against floods: each sender's messages have a rate limit (aiolimiter's
leaky bucket, the library PTB's own rate limiter uses) and each (chat, sender) a cap on updates
queued at once; an update beyond either is dropped before anything is read or changed, and the
first one dropped in a burst is handed to ``on_refused`` (a polite "slow down"); every other
dropped button tap to ``on_dropped_tap`` (Bot API: every callback query must be answered, or
the user's spinner turns on and Telegram counts the bot as unresponsive). A slot is
released while its update waits for the rate limiter (:meth:`PerUserOrderedProcessor.released`).

Finally it stamps each update with the time it reached the bot (:meth:`received_at`), before it
waits for its turn or a slot: a group member's tap counts if it came before the question's
deadline, however busy the bot was; and the deadline's close waits (bounded) until the chat's
updates that came before the deadline are processed (:meth:`settled`).

Across instances (several ``quizbot run`` behind one webhook URL, sharing PostgreSQL), the order
of each (chat, sender)'s updates is kept by an :class:`UpdateOrder` the store provides
(:mod:`storage.order`: why Telegram's delivery does not keep it, and how it is kept): each
update is registered as it is queued (:class:`~bot.telegram.arrivals.OrderedQueue`, so before
the webhook answers Telegram), and handled only in its key's turn, taken after its local turn
and before a slot. With polling one instance handles every update, so
:attr:`PerUserOrderedProcessor.order` stays None; with SQLite there is one instance, and its
store's order does nothing.

The same order drops a webhook update delivered again (Telegram repeats a delivery whose
answer was lost, with the same ``update_id``): in its turn, an update the store marked as
handled (here, before a restart, or on another instance) is dropped; each update handled is
marked once its handler returned (:meth:`UpdateOrder.handled`). With polling,
:attr:`PerUserOrderedProcessor.polled` does the same for an update Telegram sends again after a
crash or a failover (:mod:`bot.telegram.polling`), and is told of each update handled, so that
getUpdates confirms only those.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from typing import Any

from aiolimiter import AsyncLimiter
from telegram import Update
from telegram.ext import BaseUpdateProcessor

from bot.kernel.ports import StorageError
from bot.telegram.arrivals import limited, sender_id, update_key
from bot.telegram.polling import PolledUpdates
from bot.telegram.updateorder import UpdateOrder

log = logging.getLogger(__name__)

PTB_SLOTS = 1 << 20
"""The bound handed to PTB's own semaphore (taken before ``do_process_update``): wide open, so
that it never makes an update wait before its turn; the real bound is the processor's slots."""

DEFAULT_MAX_CONCURRENT_UPDATES = 256
"""Updates in flight at once; more wait (in order) for a free slot. An update holds its slot
for its Bot API calls, each a round trip to Telegram, and its durable write, so the slots bound
the updates a second to this number over the time one takes (Little's law): enough for
Telegram's whole budget of a bot at a real round trip, so that updates queue at Telegram's
limits, not at this cap (``benchmarks/run.py --scale`` and ``benchmarks/group_load.py``
measure it; their results are in docs/benchmarks.md). aiohttp's pool costs no more per
request with more connections in use (httpx's did)."""

MAX_QUEUED_PER_KEY = 8
"""Updates of one sender in one chat in flight or waiting their turn at once; more are dropped.
A person tapping "next" quickly has two or three; 8 leaves room, and bounds a flood's backlog
(and so the time a shutdown waits for it)."""

USER_RATE = (20, 10.0)
"""Per sender, for messages (commands and texts; button taps are bounded by the queue cap
only, as a fast player taps "next" the moment the feedback shows): at most 20 at once, refilled
at 20 per 10 seconds, 2 a second. Each message asks for a reply, and Telegram lets a bot send
about one message a second to a chat
(https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this)."""

BURST_SECONDS = 30.0
"""Refused updates of one sender less than this many seconds apart belong to one burst, which
gets one "slow down"."""

Refused = Callable[[Update], Awaitable[None]]
"""Told about the first update of a sender's burst that was dropped (to say "slow down"), or
about a later dropped button tap (to answer its callback query)."""


class PerUserOrderedProcessor(BaseUpdateProcessor):
    """Run updates concurrently, one at a time per (chat, sender), in arrival order; drop a
    sender's updates beyond their rate limit or queue cap.

    PTB starts a task per update in arrival order and calls this processor's documented
    extension point, ``do_process_update``, first thing in each (PTB's own semaphore in the final
    ``process_update`` is left wide open: :data:`PTB_SLOTS`); ``asyncio.Lock`` wakes its waiters
    first-in first-out, so the updates of one key keep their order. The processor's own
    ``max_concurrent_updates`` slots are taken only once an update's turn has come, so one
    sender's backlog never fills them.

    Args:
        max_concurrent_updates: Upper bound on updates being processed at once.
        clock: Seconds since the epoch (arrival stamps and bursts).
        max_queued: Updates of one (chat, sender) in flight or waiting at once
            (:data:`MAX_QUEUED_PER_KEY`).
        user_rate: (max_rate, time_period in seconds) of each sender's leaky bucket
            (:data:`USER_RATE`).
        burst_seconds: See :data:`BURST_SECONDS`.
        on_refused: Called (awaited, in the dropped update's task) with the first dropped update
            of each burst.
        on_dropped_tap: Called (awaited, in the dropped update's task) with every other
            dropped update that is a button tap (a callback query), so that each is answered.
    """

    def __init__(
        self,
        max_concurrent_updates: int = DEFAULT_MAX_CONCURRENT_UPDATES,
        *,
        clock: Callable[[], float] = time.time,
        max_queued: int = MAX_QUEUED_PER_KEY,
        user_rate: tuple[float, float] = USER_RATE,
        burst_seconds: float = BURST_SECONDS,
        on_refused: Refused | None = None,
        on_dropped_tap: Refused | None = None,
    ) -> None:
        super().__init__(PTB_SLOTS)
        self._slots = asyncio.Semaphore(max_concurrent_updates)
        self.slots = max_concurrent_updates
        """Updates processed at once (the rest wait for their turn, then for a slot)."""
        self._locks: dict[Hashable, asyncio.Lock] = {}
        self._holders: dict[Hashable, int] = {}
        self._clock = clock
        self._received: dict[int, float] = {}  # id(update) -> when it reached the bot
        self._in_chat: dict[int, dict[int, float]] = {}  # chat id -> {id(update): received}
        self._chat_done: dict[int, tuple[asyncio.Condition, list[int]]] = {}  # [waiters]
        self._holding: set[asyncio.Task[Any]] = set()  # tasks holding a slot right now
        self._tasks: set[asyncio.Task[Any]] = set()  # the tasks of the updates in flight
        self.max_queued = max_queued
        self.user_rate = user_rate
        self.burst_seconds = burst_seconds
        self.on_refused = on_refused
        self.on_dropped_tap = on_dropped_tap
        self._buckets: OrderedDict[int, AsyncLimiter] = OrderedDict()  # sender -> bucket, LRU
        self._bursts: OrderedDict[int, float] = OrderedDict()  # sender -> last refusal
        self.peak_queued = 0
        """The most updates one key had in flight or waiting at once (for tests, benchmarks)."""
        self.refused = 0
        """How many updates were dropped."""
        self.admitted = 0
        """How many updates were let through (processed, or being processed)."""
        self.order: UpdateOrder | None = None
        """The order across instances (set once the store is open, in webhook mode): each
        update is handled in its key's turn there too, unless it was handled already (a
        delivery repeated); None: this instance alone."""
        self.bot_id: int | None = None
        """The bot's user id, whose updates :attr:`order` marks as handled (set with it)."""
        self.repeated = 0
        """How many updates were dropped as handled already (a webhook delivery repeated)."""
        self.polled: PolledUpdates | None = None
        """Polling: told of each update handled (or dropped), and asked, in the update's
        turn, whether it was handled before this start (:mod:`bot.telegram.polling`)."""
        self._room: asyncio.Condition | None = None  # made by the first wait_for_room
        self._room_below = 0  # the count wait_for_room waits for (0: nobody waits)

    @staticmethod
    def key(update: object) -> tuple[int | None, int | None] | None:
        """The ordering key of an update (:func:`~bot.telegram.arrivals.update_key`)."""
        return update_key(update)

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Drop the update if its sender is over their rate limit or queue cap (and unregister
        it from :attr:`order`); else wait for its turn among its key's updates on this
        instance, then (with an :attr:`order`) on every instance, then for one of the
        ``max_concurrent_updates`` slots, then await ``coroutine``.

        Taking the key's turns before a slot keeps a user's backlog, here or on another
        instance, from filling the slots.
        """
        key = self.key(update)
        polled = self.polled if isinstance(update, Update) else None
        update_id = update.update_id if isinstance(update, Update) else 0
        if (
            key is not None
            and isinstance(update, Update)
            and limited(update)
            and (not await self._admit(update, key))
        ):
            if inspect.iscoroutine(coroutine):
                coroutine.close()  # never started: nothing to undo
            if self.order is not None:
                await self.order.forget(*key, update.update_id)
            if polled is not None:
                polled.done(update_id)
            await self._refuse(update, key)
            return
        self.admitted += 1
        received = self._received[id(update)] = self._clock()
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        chat_id = key[0] if key is not None else None
        if chat_id is not None:
            self._in_chat.setdefault(chat_id, {})[id(update)] = received
        ended = False  # handled, dropped or failed; not cancelled (a stop that gave up)
        try:
            if key is None:
                await self._polled_in_slot(update, coroutine)
                ended = True
                return
            lock = self._locks.setdefault(key, asyncio.Lock())
            holders = self._holders[key] = self._holders.get(key, 0) + 1
            self.peak_queued = max(self.peak_queued, holders)
            try:
                async with lock:
                    await self._in_turn(update, key, coroutine)
            finally:
                self._holders[key] -= 1
                if not self._holders[key]:  # nobody else waits: forget the key
                    del self._holders[key]
                    del self._locks[key]
            ended = True
        except Exception:
            ended = True
            raise
        finally:
            if polled is not None and ended:  # a cancelled one is fetched again next start
                polled.done(update_id)
            del self._received[id(update)]
            if task is not None:
                self._tasks.discard(task)
            if chat_id is not None:
                await self._done_in_chat(chat_id, id(update))
            if self._room_below and len(self._received) < self._room_below:
                await self._wake_room()

    async def _admit(self, update: Update, key: Hashable) -> bool:
        """Whether the update may queue: its key is under the cap and, for a message, its
        sender's bucket has room (then it takes its share of the bucket)."""
        if self._holders.get(key, 0) >= self.max_queued:
            return False
        sender = sender_id(update)
        if sender is None or update.callback_query is not None or update.inline_query is not None:
            return True  # taps, inline queries: the cap only (several a second are normal)
        bucket = self._buckets.pop(sender, None)
        if bucket is None:
            bucket = AsyncLimiter(*self.user_rate)
        self._buckets[sender] = bucket  # the most recently used last
        while self._buckets:  # forget buckets that drained (a fresh one is the same)
            oldest = next(iter(self._buckets.values()))
            if oldest is bucket or not oldest.has_capacity(oldest.max_rate):
                break
            self._buckets.popitem(last=False)
        if not bucket.has_capacity():
            return False
        await bucket.acquire()  # returns at once (capacity was checked): no other task runs
        return True

    async def _refuse(self, update: Update, key: Hashable) -> None:
        """Count a dropped update; hand the first of a burst to ``on_refused``, every other
        dropped tap to ``on_dropped_tap``."""
        self.refused += 1
        sender = sender_id(update)
        now = self._clock()
        last = self._bursts.pop(sender, None) if sender is not None else None
        if sender is not None:
            self._bursts[sender] = now
            while self._bursts:  # forget bursts that ended
                oldest = next(iter(self._bursts.values()))
                if now - oldest < self.burst_seconds:
                    break
                self._bursts.popitem(last=False)
        if last is not None and now - last < self.burst_seconds:
            if update.callback_query is not None and self.on_dropped_tap is not None:
                try:
                    await self.on_dropped_tap(update)
                except Exception:  # the answer is a courtesy
                    log.exception("could not answer a dropped tap of sender %s", sender)
            return
        log.info(
            "sender %s in chat %s is flooding: dropping their updates beyond the limits",
            sender,
            key[0] if isinstance(key, tuple) else None,
        )
        if self.on_refused is not None:
            try:
                await self.on_refused(update)
            except Exception:  # the notice is a courtesy
                log.exception("could not tell sender %s to slow down", sender)

    async def _in_turn(
        self, update: object, key: tuple[int | None, int | None], coroutine: Awaitable[Any]
    ) -> None:
        """Await ``coroutine`` in the update's turn across instances (when there is an
        :attr:`order`), holding a slot."""
        if self.order is None or not isinstance(update, Update):
            await self._polled_in_slot(update, coroutine)
            return
        chat_id, sender = key
        async with self.order.turn(chat_id, sender, update.update_id):
            if await self._handled_before(update):
                if inspect.iscoroutine(coroutine):
                    coroutine.close()  # never started: nothing to undo
                return
            await self._in_slot(update, coroutine)
            await self._mark_handled(update)

    async def _polled_in_slot(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Await ``coroutine`` holding a slot, unless :attr:`polled` says the update was
        handled before this start (then it is dropped unstarted)."""
        if (
            self.polled is not None
            and isinstance(update, Update)
            and (await self.polled.handled_before(update.update_id))
        ):
            self.repeated += 1
            if inspect.iscoroutine(coroutine):
                coroutine.close()  # never started: nothing to undo
            return
        await self._in_slot(update, coroutine)

    async def _handled_before(self, update: Update) -> bool:
        """Whether :attr:`order` marked the update handled (then it is counted and logged);
        False when it cannot tell (the update is handled: a repetition beats a loss)."""
        if self.order is None or self.bot_id is None:
            return False
        try:
            handled = await self.order.handled(self.bot_id, update.update_id)
        except StorageError as exc:
            log.warning(
                "update %s: could not check whether it was handled already (%s); handling it",
                update.update_id,
                exc,
            )
            return False
        if handled:
            self.repeated += 1
            log.info("update %s was delivered again: handled already, dropped", update.update_id)
        return handled

    async def _mark_handled(self, update: Update) -> None:
        if self.order is None or self.bot_id is None:
            return
        try:
            await self.order.mark_handled(self.bot_id, update.update_id)
        except StorageError as exc:  # a repetition of it would be handled again
            log.warning("update %s: could not mark it handled (%s)", update.update_id, exc)

    async def _in_slot(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Await ``coroutine`` holding one of the slots (unless it is :meth:`released`)."""
        task = asyncio.current_task()
        assert task is not None
        await self._slots.acquire()
        self._holding.add(task)
        try:
            await coroutine
        finally:
            if task in self._holding:
                self._holding.discard(task)
                self._slots.release()

    @contextlib.asynccontextmanager
    async def released(self) -> AsyncIterator[None]:
        """Give the current task's slot up while the block waits (a call waiting for its
        chat's flood wait or group budget); take a slot again after it. Nothing happens in a
        task that holds no slot (a job, or an update of another processor)."""
        task = asyncio.current_task()
        if task is None or task not in self._holding:
            yield
            return
        self._holding.discard(task)
        self._slots.release()
        try:
            yield
        finally:
            await self._slots.acquire()
            self._holding.add(task)

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

    async def cancel_in_flight(self) -> int:
        """Cancel the updates still in flight and wait until they have ended: a stop whose
        bound ran out (a file being checked in a thread, a call that does not come back)
        leaves nothing running against storage that is about to be closed. How many."""
        tasks = [task for task in self._tasks if not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return len(tasks)

    @property
    def slots_in_use(self) -> int:
        """How many updates hold a slot right now (PTB's ``current_concurrent_updates`` counts
        its own, wide-open semaphore instead)."""
        return len(self._holding)

    @property
    def updates_in_flight(self) -> int:
        """How many admitted updates are in the bot right now: waiting for their turn or a
        slot, or being handled (0 when idle)."""
        return len(self._received)

    async def wait_for_room(self, below: int) -> None:
        """Return once fewer than ``below`` updates are in flight (:attr:`updates_in_flight`),
        at once when that is so already; woken by the update whose end brings the count
        under ``below`` (no polling, no timer)."""
        if len(self._received) < below:
            return
        if self._room is None:
            self._room = asyncio.Condition()
        self._room_below = below
        try:
            async with self._room:
                await self._room.wait_for(lambda: len(self._received) < below)
        finally:
            self._room_below = 0

    async def _wake_room(self) -> None:
        if self._room is not None:
            async with self._room:
                self._room.notify_all()

    @property
    def keys_in_flight(self) -> int:
        """How many (chat, sender) keys have updates in flight (0 when idle)."""
        return len(self._locks)

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to tear down."""
