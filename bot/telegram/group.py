"""Thin PTB callbacks for group quiz sessions, and the runner that moves sessions on.

Telegram lets a bot send about 20 messages a minute to one group (Bot API FAQ, "broadcasting"):
a session sends two per question (the question, then its reveal as an edit), at most one more
(the mid-window clock edit, "⏱ 10 s left", made only when
:class:`~bot.telegram.budget.GroupBudget` says it fits with the calls the session must make in
the next minute), plus the leaderboard, and nothing per answer: each member's answer is
acknowledged privately by the callback query's toast, in that
member's own language. ``AIORateLimiter`` enforces the limit.

The session's progress (close -> reveal -> post the next question ... -> leaderboard) is decided
by :func:`bot.quiz.group.next_step` from the stored state alone and carried out by
:class:`SessionRunner`, one step at a time under a per-session lock; every step's write is a
compare-and-set, and every way a step can fail ends in exactly one of: a retry job (transient,
bounded), the chat moved (a group upgraded to a supergroup), the step skipped (a message that is
gone), or the session ended (the bot was removed, or the failures went on too long). A session is
never left active without a pending job; a watchdog job checks that.

Several instances sharing the storage (PostgreSQL) run each session's steps on exactly one of
them: a step runs only while its instance holds the session's lease
(:class:`~bot.quiz.ports.SessionLeases`, claimed at the start of every :meth:`SessionRunner.drive`
and checked with the storage); an instance that does not hold it drops its job. The watchdog
of every instance claims the running sessions nobody holds (their instance died) and moves them
on from their stored state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import cast

from telegram import CallbackQuery, Chat, ChatMemberUpdated, Message, Update, User
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from bot import i18n, render
from bot.i18n import Catalog
from bot.quiz import group
from bot.quiz.engine import LABELS, QuizError
from bot.quiz.group import GroupSession, Step
from bot.quiz.group_service import GroupService, SessionRunning
from bot.quiz.ports import SessionLeases, StorageError
from bot.quiz.settings import ADMINS
from bot.render import HTML, Screen
from bot.telegram.budget import GroupBudget
from bot.telegram.common import (
    Context,
    QuizApplication,
    app_of,
    catalog_for,
    edit,
    keyboard,
    toast,
)
from bot.telegram.limits import Dropped, session_calls
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

App = QuizApplication


def groups(context: Context) -> GroupService:
    """The group service from ``bot_data``."""
    return groups_of(app_of(context))


def groups_of(app: App) -> GroupService:
    """The group service of an application.

    Raises:
        RuntimeError: used before post_init set it.
    """
    service = app.bot_data.groups
    if service is None:
        raise RuntimeError("group service not initialised (post_init has not run)")
    return service


def runner_of(app: App) -> SessionRunner:
    """The application's session runner (created on first use)."""
    runner = app.bot_data.session_runner
    if runner is None:
        runner = app.bot_data.session_runner = SessionRunner(app)
    return runner


def display_name(user: User) -> str:
    """A member's name for the leaderboard: first and last name, never an @-mention."""
    return " ".join(filter(None, (user.first_name, user.last_name))) or str(user.id)


def received_at(context: Context, update: object) -> float | None:
    """When ``update`` reached the bot (see :meth:`PerUserOrderedProcessor.received_at`), or
    None when updates are not processed by it."""
    processor = context.application.update_processor
    if isinstance(processor, PerUserOrderedProcessor):
        return processor.received_at(update)
    return None


def thread_of(message: Message | None) -> int | None:
    """The forum topic a message was sent in; None outside topics and in a forum's General
    topic (Bot API: ``message_thread_id`` is meaningful only with ``is_topic_message``)."""
    if message is None or not message.is_topic_message:
        return None
    return message.message_thread_id


async def group_catalog(context: Context, chat_id: int) -> Catalog:
    """The group's catalog: its language if set, else English."""
    return i18n.catalog(await groups(context).language(chat_id) or i18n.DEFAULT)


async def is_admin(context: Context, chat: Chat, user: User | None,
                   message: Message | None = None) -> bool:
    """Whether ``user`` administers ``chat`` (an anonymous admin posts as the chat itself)."""
    if message is not None and message.sender_chat is not None:
        return message.sender_chat.id == chat.id
    if user is None:
        return False
    member = await context.bot.get_chat_member(chat.id, user.id)
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def reply(update: Update, context: Context, text: str) -> None:
    """A short plain reply in the group, in the topic the command came from."""
    assert update.effective_chat is not None
    await context.bot.send_message(update.effective_chat.id, HTML.escape(text),
                                   message_thread_id=thread_of(update.effective_message))


def actor_name(update: Update) -> str:
    """Who sent a command: the member's name, or the group's title for an anonymous admin."""
    if update.effective_user is not None and update.effective_message is not None and (
            update.effective_message.sender_chat is None):
        return display_name(update.effective_user)
    chat = update.effective_chat
    return (chat.title if chat is not None else None) or ""


# --- commands ------------------------------------------------------------------------------

async def cmd_group_quiz(update: Update, context: Context) -> None:
    """/quiz [bank] in a group: start a session for everyone (one per chat)."""
    await start_session(update, context, context.args[0] if context.args else None)


async def cmd_group_start(update: Update, context: Context) -> None:
    """/start in a group: with a payload (``/start@<bot> <bank id>``, what a shared card's
    "Start in this group" deep link sends, :func:`bot.render.group_bank_link`), start that
    bank's session as ``/quiz <bank id>`` would, obeying the group's "who may start" setting;
    an unknown payload is answered with the banks there are. Without one: how group quizzes
    work (as /help)."""
    if not context.args:
        await cmd_group_help(update, context)
        return
    payload = context.args[0]
    if payload not in groups(context).banks:
        assert update.effective_chat is not None
        t = await group_catalog(context, update.effective_chat.id)
        await reply(update, context, t("inline.group_unknown_bank", name=render.clip(payload),
                                       banks=", ".join(groups(context).banks)))
        return
    await start_session(update, context, payload)


async def start_session(update: Update, context: Context, requested: str | None) -> None:
    """Start a group session of bank ``requested`` (None: the group's bank setting, else the
    only bank installed), if the sender may start one (group admins only, when the settings
    say so). A bank chosen in the settings that is no longer installed is named in the
    reply: the only bank left is started instead, or, with several, the group is told how to
    choose one."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    service = groups(context)
    chosen = await service.settings(chat.id)
    if chosen.who_starts == ADMINS and not await is_admin(context, chat, user,
                                                          update.effective_message):
        t = await group_catalog(context, chat.id)
        await reply(update, context, t("group_start_denied"))
        return
    bank_id = service.pick_bank(requested, chosen)
    gone = requested is None and chosen.bank_id is not None and (
        chosen.bank_id not in service.banks)
    if bank_id not in service.banks:
        t = await group_catalog(context, chat.id)
        banks = ", ".join(service.banks)
        await reply(update, context, t("settings.bank_gone", name=chosen.bank_id, banks=banks)
                    if gone else t("group_choose_bank", banks=banks))
        return
    starter_language = (await catalog_for(context, user)).language
    try:
        session = await service.start(chat.id, bank_id, user.id, starter_language,
                                      message_thread_id=thread_of(update.effective_message))
    except SessionRunning:
        t = await group_catalog(context, chat.id)
        await reply(update, context, t("group_running"))
        return
    if gone:  # before the first question; a notice the group's budget leaves out is no loss
        t = await group_catalog(context, chat.id)
        bank = service.banks[bank_id]
        title = bank.title.get(bank.language_for(t.language), bank.default_language)
        with contextlib.suppress(Dropped):
            await reply(update, context, t("settings.bank_gone_started", name=chosen.bank_id,
                                           title=render.clip(title, render.MAX_TITLE)))
    runner = runner_of(app_of(context))
    runner.starter_names[session.id] = actor_name(update)
    await runner.drive(session.id)


async def cmd_group_stop(update: Update, context: Context) -> None:
    """/stop in a group: end the session (its starter or an admin; admins only when the group's
    settings say so); show the standings."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None
    service = groups(context)
    t = await group_catalog(context, chat.id)
    session = await service.active(chat.id)
    if session is None:
        await reply(update, context, t("stop_none"))
        return
    admins_only = (await service.settings(chat.id)).who_starts == ADMINS
    by_starter = (not admins_only and user is not None and user.id == session.starter_id
                  and update.effective_message is not None
                  and update.effective_message.sender_chat is None)
    if not (by_starter or await is_admin(context, chat, user, update.effective_message)):
        await reply(update, context, t("group_stop_denied"))
        return
    await runner_of(app_of(context)).stop(session.id, stopped_by=actor_name(update))


async def cmd_group_language(update: Update, context: Context) -> None:
    """/language in a group: the picker, for admins."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None
    t = await group_catalog(context, chat.id)
    if not await is_admin(context, chat, user, update.effective_message):
        await reply(update, context, t("group_language_denied"))
        return
    screen = render.language_picker(t.language, t, HTML)
    await context.bot.send_message(chat.id, screen.text, reply_markup=keyboard(screen),
                                   message_thread_id=thread_of(update.effective_message))


async def cmd_group_help(update: Update, context: Context) -> None:
    """/help or /start in a group: how group quizzes work."""
    chat = update.effective_chat
    assert chat is not None
    t = await group_catalog(context, chat.id)
    await reply(update, context, t("group_help"))


# --- chat events ---------------------------------------------------------------------------

async def on_migrate(update: Update, context: Context) -> None:
    """A group became a supergroup (service message with ``migrate_to_chat_id`` in the old
    chat, or ``migrate_from_chat_id`` in the new one): its sessions and language move to the
    new chat id, and a running session goes on there."""
    message = update.effective_message
    assert message is not None
    if message.migrate_to_chat_id:
        old, new = message.chat.id, message.migrate_to_chat_id
    else:
        assert message.migrate_from_chat_id is not None
        old, new = message.migrate_from_chat_id, message.chat.id
    await runner_of(app_of(context)).move_chat(old, new)


async def on_my_chat_member(update: Update, context: Context) -> None:
    """The bot's own membership changed: removed from a group (kicked or left), its running
    session ends at once (answers so far stay stored; nothing is sent or retried)."""
    change: ChatMemberUpdated | None = update.my_chat_member
    assert change is not None
    if change.chat.type == Chat.PRIVATE:
        return
    if change.new_chat_member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
        log.info("removed from chat %s (%s): ending its session", change.chat.id,
                 change.new_chat_member.status)
        await runner_of(app_of(context)).chat_gone(change.chat.id)


# --- callback queries ----------------------------------------------------------------------

async def on_group_answer(query: CallbackQuery, context: Context,
                          button: render.GroupAnswerButton, t: Catalog,
                          received_at: float | None = None) -> None:
    """A member's tap: record it once (it counts if it reached the bot before the deadline),
    acknowledge privately; close early when everyone who took part so far has answered."""
    if query.message is None:
        raise group.WrongChat(0)
    service = groups(context)
    try:
        session, answer, close_now = await service.tap(
            button.session_id, query.message.chat.id, button.position, button.slot,
            query.from_user.id, display_name(query.from_user), received_at=received_at)
    except group.TooLate:
        await toast(query, t("group_too_late"))
        return
    except StorageError:
        log.exception("could not record a group answer of user %s", query.from_user.id)
        await toast(query, t("storage_failed"))
        return
    await toast(query, t("group_recorded", label=LABELS[button.slot]))
    if close_now:  # in a job: the tap's slot and turn are not held for the reveal
        runner_of(app_of(context)).schedule(session.id, 0.0, early=button.position)
    await service.answered(session, answer)  # the review card, after the acknowledgement


async def on_group_language(query: CallbackQuery, context: Context, language: str,
                            t: Catalog) -> None:
    """A language choice on a group's picker: admins only."""
    assert query.message is not None
    chat = query.message.chat
    if not await is_admin(context, chat, query.from_user):
        await toast(query, t("toast_not_admin"))
        return
    await groups(context).set_language(chat.id, language)
    await toast(query)
    new = i18n.catalog(language)
    await edit(query, Screen(HTML.escape(new("group_language_set"))))


# --- the session's progress ----------------------------------------------------------------

def job_name(session_id: int) -> str:
    """The JobQueue name of a session's pending job (at most one at a time)."""
    return f"group-session-{session_id}"


def describe(exc: BaseException) -> str:
    """A short description of a failure for log lines."""
    return exc.message if isinstance(exc, TelegramError) else repr(exc)


async def on_session_job(context: Context) -> None:
    """Job: a session's deadline, an early close, a retry or a watchdog nudge."""
    assert context.job is not None
    # cast: the data SessionRunner.schedule gives the job (PTB types it object)
    session_id, early = cast(tuple[int, int | None], context.job.data)
    await runner_of(app_of(context)).drive(session_id, early=early)


async def on_watchdog(context: Context) -> None:
    """Job (repeating): every running session has a pending job or is being moved on; one whose
    deadline passed long ago is ended with a notice."""
    await runner_of(app_of(context)).check_all()


class SessionRunner:
    """Moves group sessions on: close, reveal, post the next question, the leaderboard.

    One step at a time per session (an ``asyncio.Lock`` per session: the deadline job, an early
    close, /stop and the watchdog never interleave), each step decided from the state as stored
    (:func:`bot.quiz.group.next_step`). Failures are sorted once, in :meth:`_failed`.

    Args:
        app: The running application (its bot, job queue and group service).
    """

    def __init__(self, app: App) -> None:
        self.app = app
        self.starter_names: dict[int, str] = {}
        """Session id -> who started it, for the first question's announcement."""
        self._locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}  # lock, [users]
        self._failures: dict[int, int] = {}
        self._clocked: dict[int, int] = {}  # session id -> position whose clock edit is done
        self.budget = GroupBudget()
        """The recent sends and edits of sessions per group chat (Telegram's 20 a minute)."""

    @property
    def service(self) -> GroupService:
        """The group service."""
        return groups_of(self.app)

    @property
    def leases(self) -> SessionLeases:
        """The session leases (``bot_data.leases``; one instance alone holds them all when none
        are set)."""
        leases = self.app.bot_data.leases
        return leases if leases is not None else _SOLO

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
        job_queue = self.app.job_queue
        assert job_queue is not None
        name = job_name(session_id) + ("-early" if early is not None else "")
        for job in job_queue.get_jobs_by_name(name):
            job.schedule_removal()
        job_queue.run_once(on_session_job, when=max(0.0, delay), data=(session_id, early),
                           name=name, job_kwargs={"misfire_grace_time": None, "coalesce": True})

    def cancel(self, session_id: int) -> None:
        """Remove the session's pending jobs, if any."""
        job_queue = self.app.job_queue
        if job_queue is None:
            return
        for name in (job_name(session_id), job_name(session_id) + "-early"):
            for job in job_queue.get_jobs_by_name(name):
                job.schedule_removal()

    def has_job(self, session_id: int) -> bool:
        """Whether the session has a pending job."""
        job_queue = self.app.job_queue
        return job_queue is not None and any(
            not job.removed for job in job_queue.get_jobs_by_name(job_name(session_id)))

    def start_watchdog(self) -> None:
        """Start the repeating :func:`on_watchdog` job."""
        assert self.app.job_queue is not None
        self.app.job_queue.run_repeating(on_watchdog, interval=WATCHDOG_SECONDS,
                                         first=WATCHDOG_SECONDS, name="group-watchdog",
                                         job_kwargs={"coalesce": True})

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
            step = group.next_step(session, service.now(),
                                   close_early=early == session.position, clocked=clocked)
            if step is Step.DONE:
                self.cancel(session_id)
                self.starter_names.pop(session_id, None)
                self._clocked.pop(session_id, None)
                await self._release(session_id)
                return
            if step is Step.WAIT:
                assert session.deadline is not None
                due = group.clock_at(session)
                wake = (due if due is not None and not clocked and session.message_id is not None
                        else session.deadline)
                self.schedule(session_id, wake - service.now())
                return
            if step is Step.CLOCK:
                await self._clock(session)
                self._clocked[session_id] = session.position
                continue
            if step is Step.CLOSE:
                if early != session.position and session.deadline is not None:
                    await self._settle(session)
                closed = await service.close(session.id, session.position)
                if closed is None:  # it moved on meanwhile: act on the state as it is now
                    log.info("group session %s: question %s was closed already", session_id,
                             session.position + 1)
                    closed = await service.session(session_id)
                session, early = closed, None
            elif step is Step.REVEAL:
                await self._reveal(session)
                session = await service.revealed(session)
            elif step is Step.POST:
                session = await self._post_question(session)
            else:  # Step.FINISH: posted before the session is marked finished
                await post_leaderboard(self.app, session)
                await service.end(session, group.FINISHED)
                session = replace(session, status=group.FINISHED)

    async def _settle(self, session: GroupSession) -> None:
        """Wait (bounded) for the chat's taps that reached the bot before the deadline."""
        processor = self.app.update_processor
        if isinstance(processor, PerUserOrderedProcessor) and session.deadline is not None:
            if not await processor.settled(session.chat_id, session.deadline, SETTLE_SECONDS):
                log.warning("group session %s: taps from before the deadline still in progress "
                            "after %s s; closing", session.id, SETTLE_SECONDS)

    async def _clock(self, session: GroupSession) -> None:
        """The open question's one mid-window edit ("⏱ 10 s left"), if the group's budget has
        room for it besides what the session must send in the next minute
        (:func:`~bot.quiz.group.calls_ahead`); skipped
        otherwise. Cosmetic: a failure is logged, never retried, and it never holds the
        session past the question's deadline."""
        if not self.budget.allows(session.chat_id,
                                  reserve=group.calls_ahead(session, self.budget.window)):
            log.info("group session %s: clock edit of question %s skipped (group budget: %s "
                     "calls in the last minute)", session.id, session.position + 1,
                     self.budget.used(session.chat_id))
            return
        assert session.message_id is not None and session.deadline is not None
        t = i18n.catalog(session.language)
        screen = render.group_question(self.service.bank_of(session), session, t, HTML,
                                       left=group.clock_left(session))
        self.budget.note(session.chat_id)
        try:
            async with asyncio.timeout(max(0.1, session.deadline - self.service.now())):
                await self.app.bot.edit_message_text(
                    screen.text, chat_id=session.chat_id, message_id=session.message_id,
                    reply_markup=keyboard(screen))
        except (TelegramError, TimeoutError) as exc:
            log.info("group session %s: clock edit of question %s not made: %s", session.id,
                     session.position + 1, describe(exc))

    async def _reveal(self, session: GroupSession) -> None:
        """Edit the closed question's message into its reveal; a message that is gone or
        can't be edited is skipped."""
        try:
            await reveal(self.app, session, session.position - 1)
        except TelegramError as exc:
            if classify(exc).kind not in (Kind.GONE, Kind.NOT_MODIFIED):
                raise
            log.info("group session %s: reveal of question %s skipped: %s", session.id,
                     session.position, exc.message)

    async def _post_question(self, session: GroupSession) -> GroupSession:
        """Open the question at ``session.position``, post it; the session as it is then.

        A send that surely did not reach Telegram is undone (posted again on the retry); after
        any other failure the question stays open without a message id (it may have been
        posted: never post it twice), so its deadline runs and the session goes on.
        """
        service = self.service
        opened = await service.open(session)
        if opened is None:  # stopped or moved on meanwhile
            return await service.session(session.id)
        t = i18n.catalog(session.language)
        screen = render.group_question(service.bank_of(session), opened, t, HTML,
                                       starter_name=self.starter_names.pop(session.id, None)
                                       if session.position == 0 else None)
        self.budget.note(session.chat_id)
        try:
            message = await self.app.bot.send_message(
                session.chat_id, screen.text, reply_markup=keyboard(screen),
                message_thread_id=session.message_thread_id)
        except Exception as exc:
            if surely_not_sent(exc):
                await service.unopen(opened)
                raise
            log.warning("group session %s: question %s may not have been posted (%s); "
                        "its window runs", session.id, session.position + 1, describe(exc))
            return opened
        return await service.posted(opened, message.message_id)

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
            log.error("group session %s: could not move on; ending it", session_id,
                      exc_info=exc)
            await self._end(session_id, notice=True)
            return
        if failures >= MAX_FAILURES:
            log.error("group session %s: %s failures in a row (last: %s); ending it",
                      session_id, failures, describe(exc))
            await self._end(session_id, notice=True)
            return
        delay = RETRY_SECONDS[min(failures, len(RETRY_SECONDS)) - 1]
        log.warning("group session %s: could not move on (%s); try %s of %s in %s s",
                    session_id, describe(exc), failures + 1, MAX_FAILURES, delay)
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
            log.error("group session %s: could not be ended (%s); the watchdog tries again",
                      session_id, describe(exc))
            return
        await self._release(session_id)
        if not ended:
            return
        if notice:
            t = i18n.catalog(session.language)
            try:
                await self.app.bot.send_message(
                    session.chat_id, HTML.escape(t("group_ended_error")),
                    message_thread_id=session.message_thread_id)
            except TelegramError as exc:
                log.info("group session %s: the notice could not be sent: %s", session_id,
                         describe(exc))

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
                    await self.app.bot.edit_message_reply_markup(
                        session.chat_id, session.message_id, reply_markup=None)
                except TelegramError as exc:  # cosmetic: taps on them are refused anyway
                    log.info("group session %s: buttons not cleared: %s", session_id,
                             exc.message)
            await post_leaderboard(self.app, session, stopped_by=stopped_by)

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
            log.info("chat %s became supergroup %s: %s session(s) moved", old_chat_id,
                     new_chat_id, moved)

    async def check_all(self) -> None:
        """The watchdog: a running session without a pending job (and not being moved on) is
        moved on now; one whose deadline passed :data:`~bot.quiz.group.OVERDUE_WINDOWS` answer
        windows ago is ended with a notice. Sessions another instance holds are left to it; one
        nobody holds (its instance died) is claimed here and so moved on from here."""
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
            if group.overdue(session, now):
                log.error("group session %s: its deadline passed %.0f s ago; ending it",
                          session.id, now - (session.deadline or now))
                await self._end(session.id, notice=True)
            elif not self.has_job(session.id):
                log.warning("group session %s had no pending job; moving it on", session.id)
                self.schedule(session.id, 0.0)


class _Solo:
    """The leases of an instance alone with its storage: it holds them all."""

    shared = False

    async def claim(self, session_id: int) -> bool:
        """Always True."""
        return True

    async def release(self, session_id: int) -> None:
        """Nothing to release."""


_SOLO = _Solo()


def surely_not_sent(exc: BaseException) -> bool:
    """Whether a failed send surely did not post the message, so sending it again cannot post
    it twice: Telegram refused it (4xx, a flood wait), the connection could not be made, or the
    storage failed before the send. After a read time-out, a dropped connection or a 5xx it may
    have been posted (``outcomes.Outcome.unsent``)."""
    if isinstance(exc, StorageError):
        return True
    if not isinstance(exc, TelegramError):
        return False
    outcome = classify(exc)
    return outcome.kind is not Kind.TRANSIENT or outcome.unsent


async def reveal(app: App, session: GroupSession, position: int) -> None:
    """Edit the closed question's message into its reveal: correct option, counts, explanation.

    Raises:
        TelegramError: the edit failed (see :meth:`SessionRunner._reveal`).
    """
    service = groups_of(app)
    bank = service.bank_of(session)
    answers, _ = await service.results(session)
    t = i18n.catalog(session.language)
    screen = render.group_reveal(bank, session, position, group.tally(session, position, answers),
                                 t, HTML, bot_username=app.bot.username)
    assert session.message_id is not None
    runner_of(app).budget.note(session.chat_id)
    await app.bot.edit_message_text(screen.text, chat_id=session.chat_id,
                                    message_id=session.message_id,
                                    reply_markup=keyboard(screen))


async def post_leaderboard(app: App, session: GroupSession, *,
                           stopped_by: str | None = None) -> None:
    """Post the standings (final, or so far when stopped) in the session's topic."""
    service = groups_of(app)
    answers, names = await service.results(session)
    t = i18n.catalog(session.language)
    screen = render.group_leaderboard(service.bank_of(session), session,
                                      group.leaderboard(answers, names, session), t, HTML,
                                      stopped_by=stopped_by)
    runner_of(app).budget.note(session.chat_id)
    await app.bot.send_message(session.chat_id, screen.text, reply_markup=keyboard(screen),
                               message_thread_id=session.message_thread_id)


async def restore_sessions(app: App) -> int:
    """After a start: schedule every running session's next step (a deadline that passed while
    the bot was down fires at once; a session between questions moves on at once), and start
    the watchdog.

    Returns:
        How many sessions were restored.
    """
    runner = runner_of(app)
    sessions = await groups_of(app).running()
    now = groups_of(app).now()
    for session in sessions:
        delay = (session.deadline - now) if session.deadline is not None else 0.0
        runner.schedule(session.id, delay)
    runner.start_watchdog()
    return len(sessions)


async def on_group_place(query: CallbackQuery, context: Context, button: render.PlaceButton,
                         t: Catalog) -> None:
    """"My place" on a leaderboard: the tapper's own rank, score and time (or that they did
    not play), privately as the callback query's toast in their language.

    Raises:
        UnknownAttempt: no such session (a forged button).
        WrongChat: the button was tapped outside the session's chat (a forwarded message).
    """
    service = groups(context)
    session = await service.session(button.session_id)
    if query.message is None or query.message.chat.id != session.chat_id:
        raise group.WrongChat(query.message.chat.id if query.message else 0)
    answers, names = await service.results(session)
    await toast(query, render.group_place(session, group.leaderboard(answers, names, session),
                                          query.from_user.id, t))
