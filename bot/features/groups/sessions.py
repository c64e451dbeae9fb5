"""Group quiz sessions moved on: the runner, its jobs, the watchdog, the restore.

The session's messages (the question, its clock edit, its reveal, the leaderboard, within
Telegram's 20 a minute to a group) are sent by
:class:`~bot.features.groups.session_messages.SessionMessages`.

The session's progress (close -> reveal -> post the next question ... -> leaderboard) is decided
by :func:`bot.features.groups.pacing.next_step` from the stored state alone and carried out by
:class:`SessionRunner`, one step at a time under a per-session lock; every step's write is a
compare-and-set, and every way a step can fail ends in exactly one of: a retry job (transient,
bounded), the chat moved (a group upgraded to a supergroup), the step skipped (a message that is
gone), or the session ended (the bot was removed, or the failures went on too long). A session is
never left active without a pending job; a watchdog job checks that.

Several instances sharing the storage (PostgreSQL) run each session's steps on exactly one of
them: a step runs only while its instance holds the session's lease
(:class:`~bot.features.groups.ports.SessionLeases`, claimed at the start of every
:meth:`SessionRunner.drive` and checked with the storage); an instance that does not hold it drops
its job. The watchdog of every instance claims the running sessions nobody holds (their instance
died) and moves them on from their stored state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import cast

from telegram.error import TelegramError
from telegram.ext import JobQueue

from bot import i18n
from bot.features.groups import pacing
from bot.features.groups import rules as group
from bot.features.groups.leases import SOLO
from bot.features.groups.pacing import Step
from bot.features.groups.ports import SessionLeases
from bot.features.groups.rules import GroupSession
from bot.features.groups.service import GroupService
from bot.features.groups.session_messages import SessionMessages, describe
from bot.kernel.engine import QuizError
from bot.kernel.ports import StorageError
from bot.render.text import HTML
from bot.telegram.calls import session_calls
from bot.telegram.common import Bot, Context
from bot.telegram.limits import QuizRateLimiter
from bot.telegram.ordering import PerUserOrderedProcessor
from bot.telegram.outcomes import Kind, classify

log = logging.getLogger(__name__)

SETTLE_SECONDS = 3.0
"""At a deadline, the close waits at most this long for the chat's taps that reached the bot
before the deadline to be processed (they count, however busy the bot was)."""

RETRY_SECONDS = (1.0, 2.0, 5.0, 10.0, 20.0, 30.0)
"""Back-off between tries of a session step that failed transiently (network, 5xx, storage)."""

MAX_FAILURES = 12
"""Consecutive failed tries of a session's step (about 3 minutes with RETRY_SECONDS) after which
the session is ended with a notice instead of being tried again."""

WATCHDOG_SECONDS = 30.0
"""How often the watchdog checks that every running session has a pending job."""


def job_name(session_id: int) -> str:
    """The JobQueue name of a session's pending job (at most one at a time)."""
    return f"group-session-{session_id}"


class SessionRunner:
    """Moves group sessions on: close, reveal, post the next question, the leaderboard.

    One step at a time per session (an ``asyncio.Lock`` per session: the deadline job, an early
    close, /stop and the watchdog never interleave), each step decided from the state as stored
    (:func:`bot.features.groups.pacing.next_step`). Failures are sorted once, in :meth:`_failed`.

    Args:
        bot: The application's bot.
        job_queue: The application's job queue (deadlines, retries, the watchdog).
        service: The group service.
        leases: The session leases of the open storage; None: this instance is alone with its
            storage and holds them all.
        processor: The update processor, when it is the per-user ordered one (the close then
            waits for the taps that reached the bot before the deadline).
    """

    def __init__(
        self,
        bot: Bot,
        job_queue: JobQueue[Context],
        service: GroupService,
        leases: SessionLeases | None = None,
        processor: PerUserOrderedProcessor | None = None,
    ) -> None:
        self.bot = bot
        self.job_queue = job_queue
        self.service = service
        """The group service."""
        self.leases: SessionLeases = leases if leases is not None else SOLO
        """The session leases (one instance alone holds them all when none are given)."""
        self.processor = processor
        self.messages = SessionMessages(bot, service)
        """The session's messages (question, clock edit, reveal, leaderboard)."""
        self.starter_names = self.messages.starter_names
        """Session id -> who started it, for the first question's announcement."""
        self._locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}  # lock, [users]
        self._failures: dict[int, int] = {}
        self._clocked: dict[int, int] = {}  # session id -> position whose clock edit is done
        self.leases.on_early = self._asked_early

    def _asked_early(self, session_id: int, position: int) -> None:
        """Another instance's tap found everyone answered question ``position`` of a session
        run here (its lease is held here): close it now."""
        log.info(
            "group session %s: question %s closes early (everyone answered, as another "
            "instance found)",
            session_id,
            position + 1,
        )
        self.schedule(session_id, 0.0, early=position)

    async def forget_starter(self, user_id: int) -> None:
        """Drop the name of ``user_id`` from the group sessions they started that are running
        here (the first question's announcement), as :data:`bot.features.privacy.service.Forget` for
        their deletion.

        Raises:
            StorageError: the running sessions could not be read (nothing is deleted then).
        """
        if not self.starter_names:
            return
        for session in await self.service.running():
            if session.starter_id == user_id:
                self.starter_names.pop(session.id, None)

    async def _claim(self, session_id: int) -> bool:
        """Hold the session's lease; False (and its job here dropped) if another instance
        holds it.

        Raises:
            StorageError: the storage could not be reached.
        """
        if await self.leases.claim(session_id):
            return True
        log.debug("group session %s is run by another instance", session_id)
        self.cancel(session_id)
        self._failures.pop(session_id, None)
        return False

    async def _release(self, session_id: int) -> None:
        """Let an ended session's lease go."""
        try:
            await self.leases.release(session_id)
        except StorageError as exc:  # its connection is gone: so is the lease
            log.info("group session %s: lease not released (%s)", session_id, exc)

    # -- scheduling ---------------------------------------------------------------------

    def schedule(self, session_id: int, delay: float, *, early: int | None = None) -> None:
        """Run :meth:`drive` for the session after ``delay`` seconds, replacing its pending job;
        with ``early`` (close question ``early`` now), beside it: the pending deadline stays
        until the close is stored (a stale deadline job then finds nothing to do). Jobs run
        however late they are (no misfire grace: a deadline restored after a slow start still
        fires)."""
        job_queue = self.job_queue
        name = job_name(session_id) + ("-early" if early is not None else "")
        for job in job_queue.get_jobs_by_name(name):
            job.schedule_removal()
        job_queue.run_once(
            self._on_job,
            when=max(0.0, delay),
            data=(session_id, early),
            name=name,
            job_kwargs={"misfire_grace_time": None, "coalesce": True},
        )

    def cancel(self, session_id: int) -> None:
        """Remove the session's pending jobs, if any."""
        job_queue = self.job_queue
        for name in (job_name(session_id), job_name(session_id) + "-early"):
            for job in job_queue.get_jobs_by_name(name):
                job.schedule_removal()

    def has_job(self, session_id: int) -> bool:
        """Whether the session has a pending job."""
        return any(not job.removed for job in self.job_queue.get_jobs_by_name(job_name(session_id)))

    def start_watchdog(self) -> None:
        """Start the repeating watchdog job (:meth:`check_all`)."""
        self.job_queue.run_repeating(
            self._on_watchdog,
            interval=WATCHDOG_SECONDS,
            first=WATCHDOG_SECONDS,
            name="group-watchdog",
            job_kwargs={"coalesce": True},
        )

    async def _on_job(self, context: Context) -> None:
        """Job: a session's deadline, an early close, a retry or a watchdog nudge."""
        assert context.job is not None
        # cast: the data schedule gives the job (PTB types it object)
        session_id, early = cast(tuple[int, int | None], context.job.data)
        await self.drive(session_id, early=early)

    async def _on_watchdog(self, context: Context) -> None:
        """Job (repeating): every running session has a pending job or is being moved on; one
        whose deadline passed long ago is ended with a notice (:meth:`check_all`)."""
        await self.check_all()

    async def restore(self) -> int:
        """After a start: schedule every running session's next step (a deadline that passed
        while the bot was down fires at once; a session between questions moves on at once),
        and start the watchdog.

        Returns:
            How many sessions were restored.
        """
        sessions = await self.service.running()
        now = self.service.now()
        for session in sessions:
            delay = (session.deadline - now) if session.deadline is not None else 0.0
            self.schedule(session.id, delay)
        self.start_watchdog()
        return len(sessions)

    # -- driving ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _turn(self, session_id: int) -> AsyncIterator[None]:
        """Hold the session's lock (forgotten once nobody holds or waits for it); the calls made
        meanwhile are the session's own (they come before replies to commands)."""
        lock, users = self._locks.setdefault(session_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                with session_calls():
                    yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[session_id]

    def busy(self, session_id: int) -> bool:
        """Whether the session is being moved on (or waits to be) right now."""
        return session_id in self._locks

    async def drive(self, session_id: int, *, early: int | None = None) -> None:
        """Carry the session's steps out until it waits for a deadline or has ended.

        Args:
            session_id: The session.
            early: Close question ``early`` now if it is still the open one (everyone
                answered), without waiting for its deadline.

        Never raises for a Telegram or storage failure: each is sorted by :meth:`_failed`.
        """
        async with self._turn(session_id):
            try:
                if not await self._claim(session_id):
                    if early is not None:  # the holder closes it (a tap here found it done)
                        await self.leases.ask_early(session_id, early)
                    return
                await self._run(session_id, early)
            except Exception as exc:  # every failure is sorted in one place
                await self._failed(session_id, exc)
            else:
                self._failures.pop(session_id, None)

    async def _run(self, session_id: int, early: int | None) -> None:
        service = self.service
        session = await service.session(session_id)
        while True:
            clocked = self._clocked.get(session_id) == session.position
            step = pacing.next_step(
                session, service.now(), close_early=early == session.position, clocked=clocked
            )
            if step is Step.DONE:
                self.cancel(session_id)
                self.starter_names.pop(session_id, None)
                self._clocked.pop(session_id, None)
                await self._release(session_id)
                return
            if step is Step.WAIT:
                assert session.deadline is not None
                due = pacing.clock_at(session)
                wake = (
                    due
                    if due is not None and not clocked and session.message_id is not None
                    else session.deadline
                )
                self.schedule(session_id, wake - service.now())
                return
            if step is Step.CLOCK:
                await self.messages.clock(session)
                self._clocked[session_id] = session.position
                continue
            if step is Step.CLOSE:
                if early != session.position and session.deadline is not None:
                    await self._settle(session)
                closed = await service.close(session.id, session.position)
                if closed is None:  # it moved on meanwhile: act on the state as it is now
                    log.info(
                        "group session %s: question %s was closed already",
                        session_id,
                        session.position + 1,
                    )
                    closed = await service.session(session_id)
                session, early = closed, None
            elif step is Step.REVEAL:
                await self.messages.reveal_closed(session)
                session = await service.revealed(session)
            elif step is Step.POST:
                session = await self.messages.post_question(session)
            else:  # Step.FINISH: posted before the session is marked finished
                await self.messages.post_leaderboard(session)
                await service.end(session, group.FINISHED)
                self._over(session.chat_id)  # the leaderboard was its last message
                session = replace(session, status=group.FINISHED)

    async def _settle(self, session: GroupSession) -> None:
        """Wait (bounded) for the chat's taps that reached the bot before the deadline."""
        processor = self.processor
        if processor is not None and session.deadline is not None:
            if not await processor.settled(session.chat_id, session.deadline, SETTLE_SECONDS):
                log.warning(
                    "group session %s: taps from before the deadline still in progress "
                    "after %s s; closing",
                    session.id,
                    SETTLE_SECONDS,
                )

    async def _failed(self, session_id: int, exc: Exception) -> None:
        """Sort a failed step (``outcomes.classify`` for Telegram's): move a migrated chat and
        go on; end the session at once when the chat is out of reach (the bot was removed);
        retry a transient failure (network, 5xx, 429, storage) with back-off, at most
        :data:`MAX_FAILURES` times; end the session with a notice for anything else."""
        kind = classify(exc).kind if isinstance(exc, TelegramError) else None
        if kind is Kind.MIGRATED:
            assert isinstance(exc, TelegramError)  # the kind says so
            new_chat_id = classify(exc).new_chat_id
            old = await self._chat_of(session_id)
            if old is not None and new_chat_id is not None:
                await self.move_chat(old, new_chat_id)
            self.schedule(session_id, 0.0)
            return
        if kind is Kind.FORBIDDEN:
            log.info("group session %s: %s; ending it", session_id, describe(exc))
            await self._end(session_id, notice=False)
            return
        if isinstance(exc, QuizError):  # the bank is gone or changed version
            log.warning("group session %s: %r; ending it", session_id, exc)
            await self._end(session_id, notice=True)
            return
        transient = kind is Kind.TRANSIENT or isinstance(exc, StorageError)
        failures = self._failures[session_id] = self._failures.get(session_id, 0) + 1
        if not transient:  # a request Telegram refuses, or a bug: retrying won't help
            log.error("group session %s: could not move on; ending it", session_id, exc_info=exc)
            await self._end(session_id, notice=True)
            return
        if failures >= MAX_FAILURES:
            log.error(
                "group session %s: %s failures in a row (last: %s); ending it",
                session_id,
                failures,
                describe(exc),
            )
            await self._end(session_id, notice=True)
            return
        delay = RETRY_SECONDS[min(failures, len(RETRY_SECONDS)) - 1]
        log.warning(
            "group session %s: could not move on (%s); try %s of %s in %s s",
            session_id,
            describe(exc),
            failures + 1,
            MAX_FAILURES,
            delay,
        )
        self.schedule(session_id, delay)

    async def _chat_of(self, session_id: int) -> int | None:
        try:
            return (await self.service.session(session_id)).chat_id
        except QuizError:
            return None

    async def _end(self, session_id: int, *, notice: bool) -> None:
        """End the session (stopped); post a short notice when ``notice`` (best effort)."""
        self._failures.pop(session_id, None)
        self.cancel(session_id)
        self.starter_names.pop(session_id, None)
        try:
            session = await self.service.session(session_id)
            ended = await self.service.end(session, group.STOPPED)
        except (StorageError, QuizError) as exc:
            log.error(
                "group session %s: could not be ended (%s); the watchdog tries again",
                session_id,
                describe(exc),
            )
            return
        await self._release(session_id)
        if not ended:
            return
        if notice:
            t = i18n.catalog(session.language)
            try:
                await self.bot.send_message(
                    session.chat_id,
                    HTML.escape(t("group_ended_error")),
                    message_thread_id=session.message_thread_id,
                )
            except TelegramError as exc:
                log.info(
                    "group session %s: the notice could not be sent: %s", session_id, describe(exc)
                )
        self._over(session.chat_id)

    # -- events -------------------------------------------------------------------------

    async def stop(self, session_id: int, *, stopped_by: str) -> None:
        """/stop: end the session, clear the open question's buttons, post the standings."""
        async with self._turn(session_id):
            session = await self.service.session(session_id)
            if not await self.service.end(session, group.STOPPED):
                return  # it ended meanwhile
            self.cancel(session_id)
            self._failures.pop(session_id, None)
            await self._release(session_id)
            if session.is_open and session.message_id is not None:  # its buttons answer nothing
                try:
                    await self.bot.edit_message_reply_markup(
                        session.chat_id, session.message_id, reply_markup=None
                    )
                except TelegramError as exc:  # cosmetic: taps on them are refused anyway
                    log.info("group session %s: buttons not cleared: %s", session_id, exc.message)
            await self.messages.post_leaderboard(session, stopped_by=stopped_by)
            self._over(session.chat_id)

    def _over(self, chat_id: int) -> None:
        """Tell the rate limiter the group's session ended here, its last message sent."""
        limiter = self.bot.rate_limiter
        if isinstance(limiter, QuizRateLimiter):
            limiter.session_over(chat_id)

    async def chat_gone(self, chat_id: int) -> None:
        """The bot was removed from ``chat_id``: end its running session, send nothing."""
        session = await self.service.active(chat_id)
        if session is not None:
            await self._end(session.id, notice=False)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """The group ``old_chat_id`` is now the supergroup ``new_chat_id``: move its sessions
        and language; a running session goes on in the new chat."""
        moved = await self.service.move_chat(old_chat_id, new_chat_id)
        if moved:
            log.info(
                "chat %s became supergroup %s: %s session(s) moved", old_chat_id, new_chat_id, moved
            )

    async def check_all(self) -> None:
        """The watchdog: a running session without a pending job (and not being moved on) is
        moved on now; one whose deadline passed :data:`~bot.features.groups.pacing.OVERDUE_WINDOWS`
        answer windows ago is ended with a notice. Sessions another instance holds are left to it;
        one nobody holds (its instance died) is claimed here and so moved on from here."""
        now = self.service.now()
        for session in await self.service.running():
            if self.busy(session.id):
                continue
            try:
                if not await self._claim(session.id):
                    continue
            except StorageError as exc:
                log.warning("watchdog: could not claim group session %s (%s)", session.id, exc)
                continue
            if pacing.overdue(session, now):
                log.error(
                    "group session %s: its deadline passed %.0f s ago; ending it",
                    session.id,
                    now - (session.deadline or now),
                )
                await self._end(session.id, notice=True)
            elif not self.has_job(session.id):
                log.warning("group session %s had no pending job; moving it on", session.id)
                self.schedule(session.id, 0.0)
