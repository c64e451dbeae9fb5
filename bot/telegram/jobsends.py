"""The jobs' sends (the question of the day, homework, reminders): the Bot API calls made as a
job's own (:func:`job_calls`, in a turn), the methods that spend the jobs' budget, and that one
send budget (:class:`SendBudget`), which several instances on one PostgreSQL share through the
storage (:class:`SharedSends`): taken a batch at a time, each batch a span of one time line for
them all. The rate limiter (:class:`bot.telegram.limits.QuizRateLimiter`) makes a job's calls
wait for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections import deque
from collections.abc import AsyncIterator, Iterator
from contextvars import ContextVar
from typing import Any, Protocol

from cachetools import TTLCache

from bot.kernel.ports import StorageError

log = logging.getLogger(__name__)

JOB_PACED = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "sendDocument",
        "editMessageText",
        "editMessageCaption",
        "editMessageReplyMarkup",
        "copyMessage",
        "forwardMessage",
    }
)
"""The Bot API methods of a job that spend its send budget (what Telegram's message limits
count); a job's reads (getChatMember) do not."""

PAID_BROADCAST = frozenset({"sendMessage", "sendPhoto", "sendDocument", "copyMessage"})
"""Of :data:`JOB_PACED`, the methods that take ``allow_paid_broadcast`` (Bot API: "up to 1000
messages per second, ignoring broadcasting limits for a fee of 0.1 Telegram Stars per
message"); edits and forwards do not, and stay within the free budget."""

PRIVATE_SECONDS = 1.0
"""A job's sends to one private chat go at most one in this many seconds (Bot API FAQ: "avoid
sending more than one message per second" to a chat): a report's file and its item analysis,
say. Replies are not held to it (a user who taps gets the answer at once)."""

BATCH_SECONDS = 0.25
"""A shared budget is taken from the storage this many seconds' worth of sends at a time (at
most): one round trip per batch, not per message."""

JOB_FIRST, JOB_SOON, JOB_LATER = 0, 1, 2
"""The jobs' turns in their one send budget, first first: the question of the day (posted at
its minute, in many chats at once), homework (posts, results and reports at a deadline),
reminders (due within their pass, each a nudge that can wait its turn). A send of a later kind
waits while one of an earlier kind waits: 10,000 reminders due do not hold 500 daily posts."""

_JOB_CALL: ContextVar[int | None] = ContextVar("quizbot_job_call", default=None)


@contextlib.contextmanager
def job_calls(turn: int = JOB_SOON) -> Iterator[None]:
    """Mark the Bot API calls made inside the block as a job's own (the question of the day,
    homework posts, reminders and results): never dropped as a reply would be (in a flood wait,
    for the session's reserve, or as the same text moments ago): they wait for the jobs' one
    send budget (``Settings.job_sends_per_second``, shared by every job), in ``turn``
    (:data:`JOB_FIRST` ...), and the group's budget, and are retried like any call."""
    token = _JOB_CALL.set(turn)
    try:
        yield
    finally:
        _JOB_CALL.reset(token)


def job_turn() -> int | None:
    """The turn of the job whose call this is (:func:`job_calls`), or None: not a job's call."""
    return _JOB_CALL.get()


class SharedSends(Protocol):
    """The send budgets of every instance sharing the storage (PostgreSQL's
    ``storage.postgres.sends``): a budget's sends and a group's job sends are counted once for
    all of them. Both methods may raise ``StorageError`` (the storage is unreachable)."""

    async def take(self, budget: str, seconds: float) -> float:
        """Reserve the next ``seconds`` of the budget named ``budget`` (for the sends that fit
        in them at the caller's rate), after what every instance reserved before.

        Returns:
            Seconds from now until the reserved span begins (0: at once).
        """
        ...

    async def take_group(self, chat_id: int, limit: int, window: float) -> float:
        """Count one job send to the group ``chat_id`` if fewer than ``limit`` were counted in
        the last ``window`` seconds.

        Returns:
            0 when counted; else the seconds until the oldest counted send leaves the window
            (nothing is counted then).
        """
        ...


class TurnGate:
    """One holder at a time, like ``asyncio.Lock``, but a waiter of an earlier turn (a lower
    number) goes before a waiter of a later one; waiters of one turn go in the order they came.
    A waiter cancelled before its turn came leaves; one cancelled as it came passes it on."""

    def __init__(self) -> None:
        self._held = False
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []  # a heap
        self._count = itertools.count()

    @property
    def waiting(self) -> int:
        """How many wait for their turn."""
        return sum(1 for *_, future in self._waiters if not future.done())

    @contextlib.asynccontextmanager
    async def turn(self, turn: int) -> AsyncIterator[None]:
        """Hold the gate inside the block, once the waiters before ``turn`` have held it."""
        if self._held or self._waiters:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiters, (turn, next(self._count), future))
            try:
                await future
            except asyncio.CancelledError:
                if future.done() and not future.cancelled():
                    self._pass_on()  # it was ours: the next waiter's now
                raise
        else:
            self._held = True
        try:
            yield
        finally:
            self._pass_on()

    def _pass_on(self) -> None:
        while self._waiters:
            *_, future = heapq.heappop(self._waiters)
            if not future.done():  # not cancelled
                future.set_result(None)
                return
        self._held = False


class SendBudget:
    """A send budget: ``per_second`` sends a second, one after another, for this process alone
    or, given ``shared``, for every instance sharing the storage (a virtual-scheduling
    bucket: each batch of sends reserves the next span of the shared time line, so the
    instances' sends together never go faster than the rate).

    A shared budget is taken in batches (:data:`BATCH_SECONDS` of sends at most, fewer when
    fewer were used lately: a slow sender reserves little it would leave unused); a slot of
    the batch may be used until the batch's span ends. When the storage cannot be reached
    the batch is paced here alone, and said once in the log.

    Args:
        name: The budget's name in the storage.
        per_second: Sends a second.
        shared: The storage's budgets, or None (this process alone).
    """

    def __init__(self, name: str, per_second: float, shared: SharedSends | None = None) -> None:
        self.name = name
        self.per_second = per_second
        self.shared = shared
        self._most = self._used = 1  # the largest batch; slots used of the last batch
        self.batched()
        self._slots: deque[float] = deque()  # loop times of the slots taken, in order
        self._span_end = 0.0  # the loop time the batch's span ends
        self._next = 0.0  # the next free loop time of this process's own time line
        self._last = float("-inf")  # the loop time of the last send
        self._gate = TurnGate()
        self._outage_logged = False
        self.batches = 0
        """Batches taken (round trips to the storage, when shared)."""

    def batched(self) -> None:
        """Size the batches for :attr:`shared` (one slot at a time when not shared)."""
        self._most = 1 if self.shared is None else max(1, int(self.per_second * BATCH_SECONDS))
        self._used = self._most

    async def acquire(self, turn: int = JOB_SOON) -> None:
        """Wait for this send's slot: the next one taken, and never sooner than one slot's
        length after the last send (a late wake-up does not bunch the sends that follow).
        Sends wait one after another, an earlier ``turn`` (:data:`JOB_FIRST` ...) before a
        later one, each turn in the order it asked."""
        loop = asyncio.get_running_loop()
        step = 1.0 / self.per_second
        async with self._gate.turn(turn):  # one send at a time, in turn
            earliest = self._last + step
            while self._slots and max(self._slots[0], earliest) >= self._span_end:
                self._slots.popleft()  # the batch's span is over: its slots are gone
            if not self._slots:
                await self._take(loop, earliest)
            at = max(self._slots.popleft(), earliest)
            self._used += 1
            if at > loop.time():
                await asyncio.sleep(at - loop.time())
            self._last = loop.time()

    async def _take(self, loop: asyncio.AbstractEventLoop, earliest: float) -> None:
        """Take the next batch of slots (none sooner than ``earliest``)."""
        count = max(1, min(self._most, self._used + 1))
        span = count / self.per_second
        self._used = 0
        self.batches += 1
        start: float | None = None
        if self.shared is not None:
            try:
                start = loop.time() + max(0.0, await self.shared.take(self.name, span))
                self._outage_logged = False
            except StorageError as exc:
                if not self._outage_logged:
                    log.warning(
                        "send budget %s: storage unreachable, pacing this instance "
                        "alone meanwhile: %s",
                        self.name,
                        exc,
                    )
                    self._outage_logged = True
        if start is None:
            start = max(self._next, loop.time(), earliest)
        self._next = self._span_end = start + span
        if self._span_end <= earliest:  # a late answer: the span is past already
            self._span_end = earliest + 1.0 / self.per_second
            start = earliest
        self._slots.extend(start + n / self.per_second for n in range(count))


class PrivateTurns:
    """The turns of the jobs' sends to each private chat: one after another, each
    :data:`PRIVATE_SECONDS` (and ``margin``) after the chat's last job send began, then a slot
    of their budget (Bot API FAQ: about one message a second to a chat).

    Args:
        margin: Seconds added to :data:`PRIVATE_SECONDS` (the flood margin).
        chats: The most chats whose last send is remembered.
        seconds: How long a chat's last send is remembered.
    """

    def __init__(self, margin: float, chats: int, seconds: float) -> None:
        self._margin = margin
        self._sent: TTLCache[int, float] = TTLCache(chats, seconds)  # chat -> loop time
        self._turns: dict[int, list[Any]] = {}  # chat -> [its lock, senders using it]

    async def take(self, chat: int, sends: SendBudget, turn: int) -> None:
        """Wait for a job's turn to send to the private chat ``chat``, then for a slot of
        ``sends`` in ``turn``."""
        loop = asyncio.get_running_loop()
        turns = self._turns.get(chat)
        if turns is None:
            turns = self._turns[chat] = [asyncio.Lock(), 0]
        turns[1] += 1
        try:
            async with turns[0]:
                last = self._sent.get(chat)
                if last is not None and last + PRIVATE_SECONDS + self._margin > loop.time():
                    await asyncio.sleep(last + PRIVATE_SECONDS + self._margin - loop.time())
                await sends.acquire(turn)
                self._sent[chat] = loop.time()
        finally:
            turns[1] -= 1
            if not turns[1]:
                del self._turns[chat]
