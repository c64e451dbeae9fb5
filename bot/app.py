"""Wiring: build the PTB ``Application`` with its services, handlers and commands.

The only module (with the CLI) that knows both Telegram and storage.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path

from telegram import (
    LinkPreviewOptions,
    Update,
)
from telegram.constants import ParseMode
from telegram.ext import (
    ApplicationBuilder,
    ChatMemberHandler,
    CommandHandler,
    Defaults,
    InlineQueryHandler,
    JobQueue,
    MessageHandler,
    TypeHandler,
    filters,
)
from tenacity import RetryCallState

from bot import faults
from bot import routes as router
from bot.commands import set_commands
from bot.config import ConfigError, Settings
from bot.features.admin import handlers as admin
from bot.features.daily import handlers as daily
from bot.features.daily import jobs as daily_jobs
from bot.features.exams import handlers as exams
from bot.features.exams import jobs as exam_jobs
from bot.features.groups import handlers as group
from bot.features.groups import teachers
from bot.features.homework import assignment_handlers as assignments
from bot.features.homework import handlers as homework
from bot.features.homework import jobs as homework_jobs
from bot.features.importing import handlers as documents
from bot.features.importing import sheet_handlers as sheets
from bot.features.learning import handlers as learning
from bot.features.myquizzes import handlers as quizzes
from bot.features.newquiz import handlers as creators
from bot.features.privacy import handlers as privacy
from bot.features.private import handlers
from bot.features.private import settings_handlers as private_settings
from bot.features.sharing import handlers as inline
from bot.kernel.bank import Bank
from bot.kernel.ports import StorageError
from bot.lifecycle import (
    settle_memory,
    unsettle_memory,
    wait_to_poll,
)
from bot.services import install, open_services, services, take_services
from bot.telegram.arrivals import OrderedQueue
from bot.telegram.common import CONTEXT_TYPES, Context, QuizApplication
from bot.telegram.jobpass import job_pass, quiet_passes_still_running
from bot.telegram.jobsends import JOB_FIRST, JOB_LATER
from bot.telegram.limits import QuizRateLimiter
from bot.telegram.metrics import Metrics
from bot.telegram.monitoring import MeteredProcessor, MeteredRequest
from bot.telegram.polling import PolledUpdates
from storage import PostgresStore, SQLiteStore, is_postgres_url, open_store, outage
from storage.order import PostgresUpdateOrder
from storage.postgres import redact_dsn

log = logging.getLogger(__name__)


CONNECTION_POOL_SIZE = 256
"""HTTP connections to the Bot API for everything but getUpdates: one per update in flight
(:data:`bot.telegram.ordering.DEFAULT_MAX_CONCURRENT_UPDATES`), so that no update's call waits
for a connection (calls per second x round trip)."""


def poll_pace(
    processor: MeteredProcessor, queue: OrderedQueue, polled: PolledUpdates | None = None
) -> Callable[[], Awaitable[None]]:
    """The getUpdates transport's pace, awaited before each getUpdates: none while the bot has
    room (fewer updates queued in ``queue``, PTB's update queue, and in flight in
    ``processor`` than its slots), so an update that reaches Telegram while the bot is busy is
    fetched at once and Telegram's long poll does the waiting; when the bot is saturated, it
    waits until half the slots are free again, woken by the update that frees them, so a
    saturated bot takes its updates in large batches (each getUpdates, its request and its
    parse, costs about what handling an update does) and nothing waits on a timer. After an
    answer that brought only updates in hand (``polled``: the offset confirms only handled
    updates), it waits as :meth:`PolledUpdates.pace` says."""

    async def pace() -> None:
        if polled is not None:
            await polled.pace()
        if queue.qsize() + processor.updates_in_flight >= processor.slots:
            await processor.wait_for_room(max(1, processor.slots // 2))

    return pace


POOL_TIMEOUT = 30.0
"""Seconds a call may wait for a free connection before PTB gives up (PTB's default: 1)."""


PRUNE_SECONDS = 86_400.0
"""How often the retention job runs (daily; the first run a minute after the start)."""


NO_LINK_PREVIEWS = LinkPreviewOptions(is_disabled=True)
"""The bot's messages never show a link preview (a source or a guide link would otherwise
unfold a card under a question): PTB's ``Defaults`` add it to every ``sendMessage``,
``editMessageText`` and inline result's ``InputTextMessageContent``."""


def build_application(settings: Settings, banks: Mapping[str, Bank]) -> QuizApplication:
    """Build the bot: HTML without link previews by default, rate-limited, handlers for
    private chats and groups.

    Args:
        settings: Token (required), optional base URL, database path.
        banks: Validated banks by id.

    The operator's user ids come from ``QUIZBOT_ADMINS`` (``/reload``, see
    :mod:`bot.features.admin.handlers`).

    Raises:
        ConfigError: no token, or ``QUIZBOT_ADMINS`` is not a list of user ids.
    """
    admins = admin.admins_from_env(os.environ)
    metrics = Metrics()
    processor = MeteredProcessor(metrics)
    queue = OrderedQueue()  # registers updates across instances (webhook mode)
    # polling: each update confirmed once handled, and marked (bot/telegram/polling.py)
    polled = None if settings.webhook_url else PolledUpdates()
    processor.polled = queue.polled = polled
    requests = (
        MeteredRequest(
            metrics, connection_pool_size=CONNECTION_POOL_SIZE, pool_timeout=POOL_TIMEOUT
        ),
        MeteredRequest(
            metrics,
            connection_pool_size=1,
            confirm=polled,
            pace=poll_pace(processor, queue, polled),
        ),
    )
    # the job queue PTB would make, given here so that its type is the bot's (PTB's builder
    # keeps its default context type for the job queue whatever context_types says)
    jobs: JobQueue[Context] = JobQueue()
    builder = (
        ApplicationBuilder()
        .token(settings.require_token())
        .defaults(Defaults(parse_mode=ParseMode.HTML, link_preview_options=NO_LINK_PREVIEWS))
        .context_types(CONTEXT_TYPES)
        .job_queue(jobs)
        # a call that waits for a flood wait or a group's budget gives its update's slot up
        .rate_limiter(
            QuizRateLimiter(
                waiting=processor.released,
                job_sends_per_second=settings.job_sends_per_second,
                paid_broadcast=settings.paid_broadcast,
            )
        )
        .concurrent_updates(processor)
        .update_queue(queue)
        .request(requests[0])
        .get_updates_request(requests[1])
        .post_init(_post_init)
        .post_shutdown(_post_shutdown)
    )
    if settings.base_url:
        builder = builder.base_url(settings.base_url)
    if settings.file_url:  # files sent to the bot (bot/features/importing/handlers.py)
        builder = builder.base_file_url(settings.file_url)
    if settings.webhook_url:  # the bot's own webhook server (bot/telegram/webhook.py)
        builder = builder.updater(None)
    app = builder.build()
    processor.on_refused = functools.partial(faults.slow_down, app)
    processor.on_dropped_tap = functools.partial(faults.dropped_tap, app)
    app.bot_data.settings = settings
    app.bot_data.banks = dict(banks)
    app.bot_data.transports = requests
    app.bot_data.admins = admins
    app.bot_data.metrics = metrics
    add_handlers(app)
    return app


def add_handlers(app: QuizApplication) -> None:
    """Register every handler (the one place that does).

    Each command of the menus (:data:`COMMANDS`, :data:`GROUP_COMMANDS`,
    :data:`TEACHER_COMMANDS`) is registered by name, so that a search for a callback finds
    where it is wired; ``tests/telegram/test_app.py`` checks that the menus and the handlers agree.
    """
    # new messages only: PTB's CommandHandler would also run on edited messages
    private = filters.ChatType.PRIVATE & filters.UpdateType.MESSAGE
    # created quizzes: a creator's answer to a /myquizzes prompt comes before anything else
    # (texts, polls and /cancel are the prompt's when one waits, else go where they would)
    app.add_handler(MessageHandler(quizzes.edit_filter(), router.on_private_text))
    app.add_handler(CommandHandler("myquizzes", quizzes.cmd_myquizzes, filters=private))
    app.add_handler(MessageHandler(private & filters.Document.ALL, documents.on_document))
    app.add_handler(CommandHandler("template", sheets.cmd_template, filters=private))
    app.add_handler(CommandHandler("start", router.cmd_start, filters=private))
    # a quiz with exam mode is sat as an exam from /quiz too (else the private quiz's /quiz)
    app.add_handler(CommandHandler("quiz", exams.cmd_quiz, filters=private))
    app.add_handler(CommandHandler("review", learning.cmd_review, filters=private))
    app.add_handler(CommandHandler("stats", learning.cmd_stats, filters=private))
    app.add_handler(CommandHandler("remind", learning.cmd_remind, filters=private))
    app.add_handler(CommandHandler("preview", handlers.cmd_preview, filters=private))
    app.add_handler(CommandHandler("language", handlers.cmd_language, filters=private))
    app.add_handler(CommandHandler("settings", private_settings.cmd_settings, filters=private))
    app.add_handler(CommandHandler("stop", handlers.cmd_stop, filters=private))
    app.add_handler(CommandHandler("help", handlers.cmd_help, filters=private))
    # /newquiz: making a quiz by chatting (bot/features/newquiz/handlers.py); the draft's polls,
    # photos and texts come through on_other_message below
    app.add_handler(CommandHandler("newquiz", creators.cmd_newquiz, filters=private))
    app.add_handler(CommandHandler("skip", creators.cmd_skip, filters=private))
    app.add_handler(CommandHandler("done", creators.cmd_done, filters=private))
    app.add_handler(CommandHandler("cancel", creators.cmd_cancel, filters=private))
    admins = app.bot_data.admins
    app.add_handler(CommandHandler("deletemydata", privacy.cmd_deletemydata, filters=private))
    if admins:  # for anyone else, /reload falls through to the unknown-command hint below
        app.add_handler(
            CommandHandler(
                "reload", admin.cmd_reload, filters=private & filters.User(user_id=admins)
            )
        )
    # in groups, commands from people only: a message sent on behalf of a channel, or the
    # linked channel's automatic forward, never starts, stops or configures a session (an
    # anonymous admin, whose sender_chat is the group itself, is no channel and is let in)
    groups = (
        filters.ChatType.GROUPS
        & filters.UpdateType.MESSAGE
        & ~filters.SenderChat.CHANNEL
        & ~filters.IS_AUTOMATIC_FORWARD
    )
    app.add_handler(CommandHandler("quiz", group.cmd_group_quiz, filters=groups))
    app.add_handler(CommandHandler("stop", group.cmd_group_stop, filters=groups))
    app.add_handler(CommandHandler("language", group.cmd_group_language, filters=groups))
    app.add_handler(CommandHandler("help", group.cmd_group_help, filters=groups))
    app.add_handler(CommandHandler("settings", teachers.cmd_group_settings, filters=groups))
    app.add_handler(CommandHandler("results", teachers.cmd_group_results, filters=groups))
    # the question of the day (bot/features/daily/handlers.py): in groups, and in private for
    # channels
    app.add_handler(CommandHandler("daily", daily.cmd_group_daily, filters=groups))
    app.add_handler(CommandHandler("daily", daily.cmd_private_daily, filters=private))
    # homework (bot/features/homework/handlers.py); its deep link goes through router.cmd_start
    app.add_handler(CommandHandler("assign", homework.cmd_assign, filters=groups))
    app.add_handler(CommandHandler("assignments", assignments.cmd_assignments, filters=groups))
    app.add_handler(CommandHandler("timezone", homework.cmd_timezone, filters=groups))
    # /start in a group: a shared card's "Start in this group" link (/start@<bot> <bank id>)
    app.add_handler(CommandHandler("start", group.cmd_group_start, filters=groups))
    # "@<bot> text" in any chat: the banks, to share one (bot/features/sharing/handlers.py)
    app.add_handler(InlineQueryHandler(inline.on_inline_query))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, group.on_migrate))
    app.add_handler(ChatMemberHandler(group.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    # homework moves with an upgraded group too, and stays open when the bot is removed
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, homework.on_migrate), group=1)
    app.add_handler(
        ChatMemberHandler(homework.on_removed, ChatMemberHandler.MY_CHAT_MEMBER), group=1
    )
    router.add_routes(app)  # button taps: one CallbackQueryHandler per kind of button
    # the question of the day keeps where the bot may post, and follows upgrades (its own
    # handler group: in one group PTB runs only the first handler that matches, and the group
    # sessions' (group 0) and homework's (group 1) handlers must see the same updates)
    app.add_handler(
        ChatMemberHandler(daily.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER), group=2
    )
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, daily.on_migrate), group=2)
    # a user who blocked the bot and writes again gets reminders again (before any handler)
    app.add_handler(TypeHandler(Update, learning.on_any_update), group=-1)
    # anything else a person sends in a private chat (text, stickers, unknown commands) gets a
    # hint; edited messages, channel posts and group chatter are left alone
    app.add_handler(MessageHandler(private, router.on_other_message))
    app.add_error_handler(faults.on_error)


async def _post_init(app: QuizApplication) -> None:
    """Open storage, make the services (:func:`~bot.services.open_services`),
    register the command menu per language,
    restore group sessions. With a webhook, keep each (chat, sender)'s updates in order across
    the instances sharing the storage (:mod:`storage.order`; a no-op on SQLite). With polling
    and storage shared by several instances (PostgreSQL), wait until this instance is the one
    that polls (see :func:`wait_to_poll`); with a webhook every instance receives updates."""
    settings, banks = app.bot_data.settings, app.bot_data.banks
    assert settings is not None  # set by build_application
    store = await _open_store(settings.db, create=settings.create_db)
    made = await open_services(app, store)  # closes store if it fails
    install(app, made)
    if app.job_queue is not None:  # reminders: stored schedules, so they survive restarts
        quiet_passes_still_running()
        interval = app.bot_data.reminder_interval  # shorter in tests
        if interval is None:
            interval = learning.REMINDER_INTERVAL
        # a pass takes a second's budget of reminders and so lasts about a second: the next
        # starts on time beside it (each reminder is claimed, so two passes never share one)
        app.job_queue.run_repeating(
            job_pass(learning.remind_pass, turn=JOB_LATER),
            interval=interval,
            first=interval,
            name="reminders",
            job_kwargs={"coalesce": True, "max_instances": 2},
        )
        # homework: deadlines, results, reports, progress and reminders, all stored; a pass
        # started while one still runs returns at once (homework_jobs.homework_pass)
        interval = app.bot_data.homework_interval or homework_jobs.HOMEWORK_INTERVAL
        app.job_queue.run_repeating(
            job_pass(homework_jobs.homework_pass),
            interval=interval,
            first=0.0,
            name="homework",
            job_kwargs={"coalesce": True, "max_instances": 2},
        )
        # exams: deadlines stored, so an exam whose time ran out while the bot was down is
        # submitted by the first pass
        interval = app.bot_data.exam_interval or exam_jobs.EXAM_INTERVAL
        app.job_queue.run_repeating(
            job_pass(exam_jobs.exam_pass),
            interval=interval,
            first=0.0,
            name="exams",
            job_kwargs={"coalesce": True},
        )
    if app.job_queue is not None:  # the question of the day: stored schedules too
        every = app.bot_data.daily_interval  # shorter in tests
        if every is None:
            every = daily_jobs.DAILY_INTERVAL
        app.job_queue.run_repeating(
            job_pass(daily_jobs.daily_pass, turn=JOB_FIRST),
            interval=every,
            first=0.0,
            name="daily",
            job_kwargs={"coalesce": True},
        )
    if made.monitoring is not None:
        try:
            await made.monitoring.start()
        except OSError as exc:  # one line naming the setting, as for the webhook's port
            raise ConfigError(
                f"cannot serve /healthz and /metrics on {settings.metrics} "
                f"(QUIZBOT_METRICS / --metrics): "
                f"{os.strerror(exc.errno) if exc.errno else exc}"
            ) from None
    await set_commands(app)
    if not app.bot.supports_inline_queries:
        log.info(
            "inline mode is off: turn it on with @BotFather (/setinline) to let users "
            'share quizzes ("@%s" in any chat, and the Share buttons)',
            app.bot.username,
        )
    assert app.job_queue is not None
    app.job_queue.run_repeating(
        prune, interval=PRUNE_SECONDS, first=60.0, name="retention", job_kwargs={"coalesce": True}
    )
    # /newquiz drafts left a week: dropped at the start, then daily
    app.job_queue.run_repeating(
        creators.drop_old_drafts,
        interval=PRUNE_SECONDS,
        first=0.0,
        name="drafts",
        job_kwargs={"coalesce": True},
    )
    restored = await made.sessions.restore()
    settle_memory()
    log.info(
        "quizbot ready: %d bank(s), database %s, %d group session(s) restored",
        len(banks),
        redact_dsn(str(settings.db)),
        restored,
    )
    if settings.webhook_url:
        order = store.update_order()
        # what this instance caches about a user is dropped when another changes it
        order.on_user_changed = made.changed_elsewhere
        if isinstance(order, PostgresUpdateOrder):  # several instances may share it
            # a "Next" or "Review" another instance sent is stale here too
            order.on_noted = made.noted_elsewhere
            made.quiz.announce = made.learning.announce = order.note
            made.learning.shared = True  # and its review cards, read where they are needed
        app.update_processor.bot_id = app.bot.id  # type: ignore[attr-defined]
        app.update_processor.order = order  # type: ignore[attr-defined]
        app.update_queue.order = order  # type: ignore[attr-defined]
    else:
        if made.leases.shared:
            await wait_to_poll(app)
        polled = app.update_processor.polled  # type: ignore[attr-defined]
        if polled is not None:  # each update handled once, across restarts and failovers
            await polled.start(store.handled_marks(), app.bot.id)


async def _open_store(db: str | Path, *, create: bool) -> SQLiteStore | PostgresStore:
    """``open_store(db)``; a PostgreSQL server that cannot be reached (down, restarting) is
    tried again with back-off for up to ``storage.outage.outage_seconds()``. The store is
    closed again if the opening is cancelled (a stop signal during the start): the half-made
    store would otherwise keep its connection's thread alive, and the interpreter waits for
    that thread at exit.

    Raises:
        StorageError: the database cannot be opened (or was still unreachable at the end).
    """
    opening = asyncio.ensure_future(_open_retrying(db, create=create))
    try:
        return await asyncio.shield(opening)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await (await opening).close()
        raise


async def _open_retrying(db: str | Path, *, create: bool) -> SQLiteStore | PostgresStore:
    """:func:`_open_store`'s retries (PostgreSQL only: a SQLite file is there or not)."""
    if not is_postgres_url(db):
        return await open_store(db, create=create)
    try:
        seconds = outage.outage_seconds()
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    tries = 0

    def waiting(state: RetryCallState) -> None:
        log.warning(
            "the database is unreachable (%s): trying again for up to %.0f s",
            state.outcome.exception() if state.outcome else None,
            seconds,
        )

    retrying = outage.reconnecting(seconds)
    retrying.before_sleep = waiting
    try:
        async for attempt in retrying:
            with attempt:
                tries += 1
                return await open_store(db, create=create)
    except StorageError as exc:
        if tries > 1 and outage.unreachable(exc):
            raise StorageError(
                f"{exc} (still unreachable after {seconds:.0f} s: giving up)"
            ) from exc
        raise
    raise AssertionError("unreachable: tenacity re-raises the last failure")


async def prune(context: Context) -> None:
    """Job (daily): delete what the retention keeps no longer (``QuizService.prune``)."""
    try:
        pruned = await services(context).quiz.prune()
    except Exception:  # tried again tomorrow
        log.exception("retention: pruning failed")
        return
    log.info(
        "retention: %d abandoned attempt(s) and %d answer(s) deleted, %d player name(s) blanked",
        pruned.attempts,
        pruned.answers,
        pruned.names,
    )


async def _post_shutdown(app: QuizApplication) -> None:
    """Stop the health and metrics server, and the job queue if it was started early (an
    instance that never polled); write the marks of the updates handled last (polling,
    :mod:`bot.telegram.polling`) and the review ratings still queued; close storage (leases
    included). Each step runs even if the one before failed (logged): storage is always
    closed, or its connection's thread would keep the process from exiting."""
    jobs = app.job_queue
    made = take_services(app)
    polled = getattr(app.update_processor, "polled", None)
    steps: list[tuple[str, Callable[[], Awaitable[object]] | None]] = [
        (
            "stopping the job queue",
            (lambda: jobs.stop(wait=False))
            if jobs is not None and jobs.scheduler.running
            else None,
        ),
        # the marks of the updates handled last, while the storage is open
        ("marking the updates handled", polled.flush if polled is not None else None),
        # the health server, the review ratings of the last answers, storage: each is done
        # even if one before it fails (Services.close)
        ("closing the services", made.close if made is not None else None),
    ]
    for what, step in steps:
        if step is None:
            continue
        try:
            await step()
        except Exception:
            log.exception("stop: %s failed", what)
    unsettle_memory()
