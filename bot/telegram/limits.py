"""Outgoing Bot API calls: Telegram's flood limits, and retries of transient failures.

python-telegram-bot's ``AIORateLimiter`` answers a 429 "Too Many Requests" by holding *every*
outgoing call of the bot for ``retry_after`` seconds through one event (PTB 22.8,
``telegram/ext/_aioratelimiter.py``, and its docstring: "A RetryAfter exception will halt *all*
requests"): one flooded chat would stall the callback answers and edits of everybody else. So
this limiter, an implementation of PTB's ``BaseRateLimiter`` interface, holds only the calls to
the chat that got the 429 (all calls for a 429 on a call without a chat), and tries the call
again, a bounded number of times.

Every call but getUpdates passes through it (``ExtBot``), so a call no limit applies to (a
private chat's, or one without a chat, with no flood wait on) costs two dictionary lookups and
the call itself: no bucket, no retry loop, no wrapper, until it fails.

It keeps each group under Telegram's 20 messages a minute (Bot API FAQ,
https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this): every send
and edit to a group it makes is counted in that group's minute
(:class:`~bot.telegram.groupminute.GroupMinute`, the one count of the group's budget: what fits
is asked of it, by :meth:`QuizRateLimiter.room`), and
the calls that must go out are paced by one aiolimiter leaky bucket per group, as PTB's limiter
does. A leaky bucket alone is looser than "20 in a minute": it takes 20 at once and then one
every 3 s, up to 40 in a minute's first burst, which Telegram answers with a long flood wait.
The limiter applies them itself so that

* a group session's own messages (question, reveal, leaderboard: calls made inside
  :func:`~bot.telegram.calls.session_calls`) come first: a reply to a command in a group is
  never queued behind them or in front of them. It is sent at once or dropped
  (:class:`Dropped`): dropped when the chat is in a flood wait, when the group's budget is down
  to what a session needs (:data:`SESSION_RESERVE`), or when the chat got the same reply less than
  :data:`REPLY_SECONDS` ago (a member repeating /help, or a refused /quiz, gets one answer);
* a call that must wait (a flood wait, the group's budget, a back-off) gives its update's
  processing slot up meanwhile (the ``waiting`` hook, :meth:`PerUserOrderedProcessor.released`).

The jobs' sends (reminders, homework, the question of the day: calls made inside
:func:`~bot.telegram.jobsends.job_calls`) wait for the jobs' one send budget
(:class:`~bot.telegram.jobsends.SendBudget`), which several instances on one PostgreSQL share
through the storage (:class:`~bot.telegram.jobsends.SharedSends`): taken a batch
at a time, each batch a span of one time line for them all. Their sends to a group are
counted there too (the group's 20 a minute across instances), and their sends to one private
chat go one a second. So are a group session's messages and the replies to a group, when
instances share the storage: a session's message waits for room in the group's minute, a
reply is sent if the minute leaves replies room, else dropped.

It also tries transient failures again (5xx answers, dropped connections, time-outs), with
exponential back-off through tenacity, as :func:`outcomes.retryable` allows: a call that posts
a message only when it surely did not reach Telegram, anything else on any transient failure.
A group session's own calls are the exception: their step is retried by the session runner
(:mod:`bot.features.groups.sessions`, bounded there), so they are tried once here, 429s included
(the 429's flood wait holds the chat, and the runner's next try waits it out before its call): the
tries of a step are bounded once, not multiplied.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Hashable
from contextlib import AbstractAsyncContextManager
from typing import Any

from aiolimiter import AsyncLimiter
from cachetools import TTLCache
from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_never, wait_exponential

from bot.config import DEFAULT_JOB_SENDS_PER_SECOND
from bot.kernel.ports import StorageError
from bot.telegram.calls import (
    FLOOD_MARGIN,
    RATE_LIMIT_RETRIES,
    SESSION_CALL,
    TRANSIENT_ATTEMPTS,
    RetryBudget,
    chat_key,
)
from bot.telegram.groupminute import (
    GROUP_MAX_RATE,
    GROUP_TIME_PERIOD,
    GROUPS_COUNTED,
    GroupMinute,
    group_key,
)
from bot.telegram.jobsends import (
    JOB_PACED,
    PAID_BROADCAST,
    PrivateTurns,
    SendBudget,
    SharedSends,
    job_turn,
)
from bot.telegram.outcomes import retry_after_seconds

log = logging.getLogger(__name__)


SESSION_RESERVE = 3
"""Of a group's budget, what replies to commands leave for the session's own messages (a
question, its reveal and the leaderboard)."""

REPLY_SECONDS = 5.0
"""At most one copy of a reply (a sendMessage outside a session, by its text) per group in
this many seconds: repeated or refused commands get one answer, not one each."""

_ALL_CHATS = object()
"""The key of a flood wait that holds every call (a 429 on a call without a chat)."""

Result = bool | dict[str, Any] | list[dict[str, Any]]


class Dropped(Exception):
    """A reply to a group that was not sent, on purpose (see :class:`QuizRateLimiter`).

    Attributes:
        endpoint: The Bot API method.
        chat: The chat it was for.
        reason: Why, for the log.
    """

    def __init__(self, endpoint: str, chat: Hashable, reason: str) -> None:
        super().__init__(f"{endpoint} to chat {chat} dropped: {reason}")
        self.endpoint = endpoint
        self.chat = chat
        self.reason = reason


class QuizRateLimiter(BaseRateLimiter[int]):
    """A rate limiter (PTB's ``BaseRateLimiter``) with Telegram's per-group limit (20 per
    minute) that puts a group session's messages first, 429s that slow only their chat, and
    bounded retries of transient failures.

    Replies have no overall limit (the 30 messages per second that PTB's ``AIORateLimiter``
    applies by default is Telegram's limit for bulk notifications; any 429 Telegram sends is
    still honoured). The jobs' sends, the bot's bulk notifications, wait for the jobs' one
    budget (:attr:`jobs`, and :attr:`paid` with paid broadcasts), shared by every instance
    once :meth:`share` is called; a job's sends to one private chat go one a second
    (:data:`~bot.telegram.jobsends.PRIVATE_SECONDS`).

    A 429 (https://core.telegram.org/bots/api#responseparameters, ``retry_after``) on a call
    with a ``chat_id`` holds the calls to that chat for ``retry_after`` seconds (plus
    FLOOD_MARGIN); calls to other chats and calls without a chat (answerCallbackQuery,
    setMyCommands) go on. A 429 on a call without a chat holds every call.

    Args:
        transient_attempts: Tries of a call that fails transiently (the first included).
        max_wait: Longest back-off between those tries, in seconds.
        flood_retries: Retries of a call answered 429 (PTB's ``rate_limit_args`` overrides it
            per call); after the last the ``RetryAfter`` propagates.
        waiting: Returns an async context manager entered while a call waits (a flood wait,
            the group's budget, a back-off): the update processor's ``released``, so that a
            waiting call holds no processing slot. Default: nothing.
        reply_seconds: See :data:`REPLY_SECONDS`.
        job_sends_per_second: The jobs' budget, messages a second.
        paid_broadcast: Send the jobs' messages that can be paid for with
            ``allow_paid_broadcast`` (:data:`PAID_BROADCAST`), within ``job_sends_per_second``;
            the others within the default budget.

    Attributes:
        dropped: How many replies were dropped.
    """

    def __init__(
        self,
        *,
        transient_attempts: int = TRANSIENT_ATTEMPTS,
        max_wait: float = 2.0,
        flood_retries: int = RATE_LIMIT_RETRIES,
        waiting: Callable[[], AbstractAsyncContextManager[None]] | None = None,
        reply_seconds: float = REPLY_SECONDS,
        job_sends_per_second: float = DEFAULT_JOB_SENDS_PER_SECOND,
        paid_broadcast: bool = False,
    ) -> None:
        self._transient_attempts = transient_attempts
        self._flood_retries = flood_retries
        self._exponential = wait_exponential(multiplier=0.2, max=max_wait)
        self._held_until: dict[Hashable, float] = {}  # chat key or _ALL_CHATS -> loop time
        self._waiting = waiting or contextlib.nullcontext
        self.reply_seconds = reply_seconds
        self._groups: OrderedDict[Hashable, AsyncLimiter] = OrderedDict()  # LRU
        self.minute = GroupMinute()
        """What each group was sent in the last minute: the group's budget."""
        self._replied: OrderedDict[Hashable, float] = OrderedDict()  # (group, topic, text) -> time
        self._sessionless: TTLCache[Hashable, bool] = TTLCache(GROUPS_COUNTED, GROUP_TIME_PERIOD)
        """Groups whose session this instance ended in the last minute, without a session call
        since: replies there need not keep the session's reserve."""
        free = (
            min(job_sends_per_second, DEFAULT_JOB_SENDS_PER_SECOND)
            if paid_broadcast
            else job_sends_per_second
        )
        self.jobs = SendBudget("jobs", free)
        """The jobs' one send budget (``job_sends_per_second``), one send at a time: replies to
        what users do never wait for it. With paid broadcasts, the budget of the jobs' calls
        that cannot be paid for (:data:`PAID_BROADCAST`), at most the default rate."""
        self.paid: SendBudget | None = (
            SendBudget("paid", job_sends_per_second) if paid_broadcast else None
        )
        """With paid broadcasts (``Settings.paid_broadcast``): the budget of the jobs' sends
        that go with ``allow_paid_broadcast`` (``job_sends_per_second``); else None."""
        self._private = PrivateTurns(FLOOD_MARGIN, GROUPS_COUNTED, GROUP_TIME_PERIOD)
        self.shared: SharedSends | None = None
        """The budgets of every instance sharing the storage (:meth:`share`), or None."""
        self.dropped = 0

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Result]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Result:
        """Run the call through the flood limits; retry 429s and transient failures.

        Raises:
            Dropped: a reply to a group that is not sent (see the class).
            RetryAfter: still 429 after the flood retries.
            TelegramError: any other failure, once it may not (or may no longer) be retried.
        """
        chat = chat_key(data)
        group = group_key(chat, endpoint)
        session = SESSION_CALL.get()
        turn = job_turn()
        paced = turn if endpoint in JOB_PACED else None  # a job's send: its turn in the budget
        if paced is not None:
            await self._job_slot(chat, endpoint, data, paced)
        elif turn is None and group is not None and not session:
            self._check_reply(group, endpoint, data)
        elif group is not None:
            self._sessionless.pop(group, None)  # a session runs there (again)
        try:  # the common case, without setting up a retry loop
            if group is None and not self._held_until:  # no limit applies: just the call
                return await self._call(chat, callback, args, kwargs)
            return await self._once(chat, callback, args, kwargs, endpoint, data)
        except Exception as exc:
            # a session's own call is tried once (a 429 or a transient failure): its step is
            # tried again by the session runner, with its own back-off and bound (retries do
            # not multiply)
            budget = (
                RetryBudget(endpoint, 0, 0)
                if session
                else RetryBudget(
                    endpoint, rate_limit_args or self._flood_retries, self._transient_attempts - 1
                )
            )
            if not budget.allows(exc):
                raise
            self._log_retry(endpoint, chat, exc)
        retrying = AsyncRetrying(
            retry=retry_if_exception(budget.allows),
            stop=stop_never,  # the budget bounds the tries
            wait=self._backoff,
            sleep=self._sleep,
            before_sleep=lambda state: self._log_retry(
                endpoint, chat, state.outcome.exception() if state.outcome else None
            ),
            reraise=True,
        )
        async for attempt in retrying:  # the tries after the first
            with attempt:
                if paced is not None:  # a job's retry is one more message for Telegram
                    await self._job_slot(chat, endpoint, data, paced)
                return await self._once(chat, callback, args, kwargs, endpoint, data)
        raise AssertionError("unreachable: tenacity reraises the last failure")

    async def _job_slot(
        self, chat: Hashable | None, endpoint: str, data: dict[str, Any], turn: int
    ) -> None:
        """Wait for a slot of the jobs' one send budget (the paid one for a paid broadcast),
        in ``turn``; a private chat's job sends also go one a second. Every try of a job's
        send takes one: Telegram counts each message it is sent, retries too."""
        sends = self.jobs
        if self.paid is not None and endpoint in PAID_BROADCAST:
            sends = self.paid
            data["allow_paid_broadcast"] = True  # the same dict PTB sends
        async with self._waiting():
            if isinstance(chat, int) and chat > 0:
                await self._private.take(chat, sends, turn)
            else:
                await sends.acquire(turn)

    async def _once(
        self,
        chat: Hashable | None,
        callback: Callable[..., Coroutine[Any, Any, Result]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
    ) -> Result:
        """One try: wait out the chat's flood wait, then the group's budget, then the call."""
        if self._held_until and self._held(chat):
            async with self._waiting():
                await self._wait_for_floods(chat)
        group = group_key(chat, endpoint)
        if group is not None and self.shared is not None and isinstance(group, int):
            if job_turn() is not None or SESSION_CALL.get():
                await self._take_group(group)  # waits for room
            else:
                await self._take_reply(group, endpoint)  # room now, or dropped
        if group is not None:
            bucket = self._bucket(group)
            if bucket.has_capacity():
                await bucket.acquire()  # at once
            else:
                async with self._waiting():
                    await bucket.acquire()
            self.minute.note(group)
        return await self._call(chat, callback, args, kwargs)

    async def _call(
        self,
        chat: Hashable | None,
        callback: Callable[..., Coroutine[Any, Any, Result]],
        args: Any,
        kwargs: dict[str, Any],
    ) -> Result:
        """The call itself; a 429 holds ``chat`` (every chat for a call without one) for the
        ``retry_after`` Telegram gave, and is raised."""
        try:
            return await callback(*args, **kwargs)
        except RetryAfter as exc:
            self._hold(chat, retry_after_seconds(exc))
            raise

    def share(self, shared: SharedSends, bot_id: int) -> None:
        """Count the jobs' budgets, and their sends to each group, with every instance of the
        bot ``bot_id`` sharing the storage ``shared`` (several instances on one PostgreSQL):
        together they keep to the rates one instance would."""
        self.shared = shared
        for budget in (self.jobs, self.paid):
            if budget is not None:
                budget.shared = shared
                budget.name = f"{bot_id}:{budget.name}"
                budget.batched()

    async def _take_group(self, group: int) -> None:
        """Count a job's send to ``group`` with the other instances' (the group's 20 a
        minute), waiting while the group's minute is full; alone when the storage cannot be
        reached (said in the log)."""
        assert self.shared is not None
        while True:
            try:
                wait = await self.shared.take_group(group, GROUP_MAX_RATE, GROUP_TIME_PERIOD)
            except StorageError as exc:
                log.warning(
                    "group %s: storage unreachable, its minute counted here alone: %s", group, exc
                )
                return
            if wait <= 0:
                return
            async with self._waiting():
                await asyncio.sleep(wait)

    async def _take_reply(self, group: int, endpoint: str) -> None:
        """Count a reply to ``group`` with the other instances' sends, if the group's minute
        leaves it room (as :meth:`_check_reply` alone); alone if the storage is unreachable.

        Raises:
            Dropped: the minute is full, counted across the instances.
        """
        assert self.shared is not None
        limit = GROUP_MAX_RATE - (0 if group in self._sessionless else SESSION_RESERVE)
        try:
            wait = await self.shared.take_group(group, limit, GROUP_TIME_PERIOD)
        except StorageError as exc:
            log.warning(
                "group %s: storage unreachable, its minute counted here alone: %s", group, exc
            )
            return
        if wait > 0:
            self.dropped += 1
            log.debug("%s to chat %s dropped: its minute is full", endpoint, group)
            raise Dropped(endpoint, group, "the group's minute is full, across the instances")

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to tear down."""

    def _check_reply(self, group: Hashable, endpoint: str, data: dict[str, Any]) -> None:
        """Let a reply to ``group`` through now, or raise :class:`Dropped`."""
        now = asyncio.get_running_loop().time()
        reason = None
        if self._held(group):
            reason = "the chat is in a flood wait"
        elif self.room(group) < 1 + (0 if group in self._sessionless else SESSION_RESERVE):
            reason = "the rest of the group's budget is kept for its session"
        elif endpoint == "sendMessage":
            key = (group, data.get("message_thread_id"), hash(str(data.get("text"))))
            last = self._replied.get(key)
            if last is not None and now - last < self.reply_seconds:
                reason = "the chat got the same reply moments ago"
            else:
                self._replied.pop(key, None)
                self._replied[key] = now  # the latest last
                while (
                    self._replied and now - next(iter(self._replied.values())) >= self.reply_seconds
                ):
                    self._replied.popitem(last=False)  # forget replies long past
        if reason is not None:
            self.dropped += 1
            log.debug("%s to chat %s dropped: %s", endpoint, group, reason)
            raise Dropped(endpoint, group, reason)

    def session_over(self, chat_id: int) -> None:
        """The group's session ended here after its last message: until a session calls again,
        replies to its commands may use the whole budget (a /stop right after a full session
        must not go unanswered for a reserve nobody needs)."""
        self._sessionless[chat_id] = True

    def room(self, chat: Hashable) -> int:
        """How many more sends and edits fit in the group ``chat``'s budget now: Telegram's 20
        a minute less those made in the last minute (:attr:`minute`), replies to commands and
        the session's own alike; 0 while the chat is in a flood wait. A chat that is no group
        (a private chat) has the whole budget."""
        if self._held(chat):
            return 0
        return max(0, GROUP_MAX_RATE - self.minute.used(chat))

    def _bucket(self, group: Hashable) -> AsyncLimiter:
        """The group's leaky bucket (buckets that drained are forgotten: a new one is equal)."""
        bucket = self._groups.pop(group, None) or AsyncLimiter(GROUP_MAX_RATE, GROUP_TIME_PERIOD)
        self._groups[group] = bucket
        while True:
            oldest = next(iter(self._groups.values()))
            if oldest is bucket or not oldest.has_capacity(GROUP_MAX_RATE):
                return bucket
            self._groups.popitem(last=False)

    def _held(self, chat: Hashable | None) -> bool:
        """Whether calls to ``chat`` are in a flood wait right now."""
        now = asyncio.get_running_loop().time()
        return self._held_until.get(_ALL_CHATS, now) > now or (
            chat is not None and self._held_until.get(chat, now) > now
        )

    async def _sleep(self, seconds: float) -> None:
        """The back-off between tries, without holding a processing slot."""
        if seconds <= 0:
            return
        async with self._waiting():
            await asyncio.sleep(seconds)

    def _hold(self, chat: Hashable | None, seconds: float) -> None:
        """Hold the calls to ``chat`` (every call when None) for ``seconds``."""
        key = _ALL_CHATS if chat is None else chat
        until = asyncio.get_running_loop().time() + seconds + FLOOD_MARGIN
        self._held_until[key] = max(self._held_until.get(key, until), until)

    async def _wait_for_floods(self, chat: Hashable | None) -> None:
        """Wait until neither ``chat`` nor all chats are held; forget flood waits that ended."""
        loop = asyncio.get_running_loop()
        while True:
            now = loop.time()
            for key in [key for key, until in self._held_until.items() if until <= now]:
                del self._held_until[key]
            until = max(
                self._held_until.get(_ALL_CHATS, now),
                self._held_until.get(chat, now) if chat is not None else now,
            )
            if until <= now:
                return
            await asyncio.sleep(until - now)

    def _backoff(self, state: RetryCallState) -> float:
        """Seconds before the next try: none after a 429 (the flood wait is the wait),
        exponential after a transient failure."""
        if state.outcome is not None and isinstance(state.outcome.exception(), RetryAfter):
            return 0.0
        return self._exponential(state)

    @staticmethod
    def _log_retry(endpoint: str, chat: Hashable | None, exc: BaseException | None) -> None:
        if isinstance(exc, RetryAfter):
            log.info(
                "%s (chat %s): flood control, waiting %.1f s to try again",
                endpoint,
                chat,
                retry_after_seconds(exc),
            )
        else:
            log.info("%s (chat %s) failed (%r); trying again", endpoint, chat, exc)
