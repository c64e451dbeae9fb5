"""Wiring: build the PTB ``Application`` with its services, handlers and commands.

The only module (with the CLI) that knows both Telegram and storage.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Mapping

from telegram import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from telegram.constants import ParseMode
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    Defaults,
    MessageHandler,
    filters,
)

from bot import i18n
from bot.config import Settings
from bot.quiz.bank import Bank
from bot.quiz.service import GroupService, QuizService
from bot.telegram import admin, group, handlers
from bot.telegram.common import CONTEXT_TYPES
from bot.telegram.limits import QuizRateLimiter
from bot.telegram.ordering import PerUserOrderedProcessor
from bot.telegram.transport import AiohttpRequest
from storage import PostgresStore, SQLiteStore, open_store
from storage.postgres import redact_dsn

log = logging.getLogger(__name__)

COMMANDS = ("start", "quiz", "preview", "stats", "language", "stop", "help")
"""The private-chat commands registered with ``setMyCommands``, in menu order."""

CONNECTION_POOL_SIZE = 32
"""HTTP connections to the Bot API for everything but getUpdates: enough for the concurrent
updates' calls in flight (calls per second x round trip)."""

POOL_TIMEOUT = 30.0
"""Seconds a call may wait for a free connection before PTB gives up (PTB's default: 1)."""

GROUP_COMMANDS = ("quiz", "stop", "language", "help")
"""The group commands registered with ``setMyCommands`` (scope: all group chats)."""


def build_application(settings: Settings, banks: Mapping[str, Bank]) -> Application:  # type: ignore[type-arg]
    """Build the bot: HTML by default, rate-limited, handlers for private chats.

    Args:
        settings: Token (required), optional base URL, database path.
        banks: Validated banks by id.

    The operator's user ids come from ``QUIZBOT_ADMINS`` (``/reload``, see
    :mod:`bot.telegram.admin`).

    Raises:
        ConfigError: no token, or ``QUIZBOT_ADMINS`` is not a list of user ids.
    """
    admins = admin.admins_from_env(os.environ)
    requests = (AiohttpRequest(connection_pool_size=CONNECTION_POOL_SIZE,
                               pool_timeout=POOL_TIMEOUT),
                AiohttpRequest(connection_pool_size=1))
    builder = (
        ApplicationBuilder()
        .token(settings.require_token())
        .defaults(Defaults(parse_mode=ParseMode.HTML))
        .context_types(CONTEXT_TYPES)
        .rate_limiter(QuizRateLimiter())
        .concurrent_updates(PerUserOrderedProcessor())
        .request(requests[0])
        .get_updates_request(requests[1])
        .post_init(_post_init)
        .post_shutdown(_post_shutdown)
    )
    if settings.base_url:
        builder = builder.base_url(settings.base_url)
    app = builder.build()
    app.bot_data.extra["settings"] = settings
    app.bot_data.extra["banks"] = dict(banks)
    app.bot_data.extra["transports"] = requests
    app.bot_data.extra["admins"] = admins
    add_handlers(app)
    return app


def add_handlers(app: Application) -> None:  # type: ignore[type-arg]
    """Register every handler (the one place that does)."""
    # new messages only: PTB's CommandHandler would also run on edited messages
    private = filters.ChatType.PRIVATE & filters.UpdateType.MESSAGE
    for name in COMMANDS:
        app.add_handler(CommandHandler(name, getattr(handlers, f"cmd_{name}"), filters=private))
    admins: frozenset[int] = app.bot_data.extra.get("admins", frozenset())  # type: ignore[assignment]
    if admins:  # for anyone else, /reload falls through to the unknown-command hint below
        app.add_handler(CommandHandler("reload", admin.cmd_reload,
                                       filters=private & filters.User(user_id=admins)))
    # in groups, commands from people only: a message sent on behalf of a channel, or the
    # linked channel's automatic forward, never starts, stops or configures a session (an
    # anonymous admin, whose sender_chat is the group itself, is no channel and is let in)
    groups = (filters.ChatType.GROUPS & filters.UpdateType.MESSAGE
              & ~filters.SenderChat.CHANNEL & ~filters.IS_AUTOMATIC_FORWARD)
    for name in GROUP_COMMANDS:
        app.add_handler(CommandHandler(name, getattr(group, f"cmd_group_{name}"), filters=groups))
    app.add_handler(CommandHandler("start", group.cmd_group_help, filters=groups))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, group.on_migrate))
    app.add_handler(ChatMemberHandler(group.on_my_chat_member,
                                      ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(CallbackQueryHandler(handlers.on_callback_query))
    # anything else a person sends in a private chat (text, stickers, unknown commands) gets a
    # hint; edited messages, channel posts and group chatter are left alone
    app.add_handler(MessageHandler(private, handlers.on_other_message))
    app.add_error_handler(handlers.on_error)


async def _post_init(app: Application) -> None:  # type: ignore[type-arg]
    """Open storage, create the quiz service, register the command menu per language,
    restore group sessions; with storage shared by several instances (PostgreSQL), wait until
    this instance is the one that polls (see :func:`wait_to_poll`)."""
    settings: Settings = app.bot_data.extra["settings"]  # type: ignore[assignment]
    banks: dict[str, Bank] = app.bot_data.extra["banks"]  # type: ignore[assignment]
    store = await open_store(settings.db)
    app.bot_data.extra["store"] = store
    leases = app.bot_data.extra["leases"] = store.leases()
    app.bot_data.quiz = QuizService(store, banks)
    app.bot_data.groups = GroupService(store, banks, question_seconds=settings.question_seconds)
    await set_commands(app)
    restored = await group.restore_sessions(app)
    log.info("quizbot ready: %d bank(s), database %s, %d group session(s) restored",
             len(banks), redact_dsn(str(settings.db)), restored)
    if leases.shared:
        await wait_to_poll(app)


async def wait_to_poll(app: Application) -> None:  # type: ignore[type-arg]
    """Several instances share the database: Telegram serves one getUpdates consumer per bot,
    so only the instance holding the poller lease polls (and so handles every update, each
    user's in order). Until this one holds it, it runs the group sessions it holds (its job
    queue is started early); once it does, it adopts the sessions nobody holds (their instance
    died) and returns, and polling starts. If the lease is lost later (its connection to the
    database dropped), the instance stops, so that two never poll at once."""
    leases = app.bot_data.extra["leases"]
    assert app.job_queue is not None
    await app.job_queue.start()  # idempotent: app.start() starts it again (a no-op)
    log.info("waiting for the poller lease (another instance may be polling)")
    await leases.wait_poller(app.bot.id,  # type: ignore[attr-defined]
                             on_lost=lambda: _poller_lost(app))
    log.info("this instance polls now")
    await group.runner_of(app).check_all()


def _poller_lost(app: Application) -> None:  # type: ignore[type-arg]
    log.error("the poller lease's database connection was lost: stopping, so that another "
              "instance polls alone")
    app.stop_running()


async def set_commands(app: Application) -> None:  # type: ignore[type-arg]
    """``setMyCommands`` for private and group chats: English by default, and per supported
    language (Telegram shows each user the list of their app's language)."""
    for language in (None, *i18n.SUPPORTED):
        t = i18n.catalog(language or i18n.DEFAULT)
        await app.bot.set_my_commands(
            [BotCommand(name, t(f"command_{name}")) for name in COMMANDS],
            scope=BotCommandScopeAllPrivateChats(), language_code=language)
        await app.bot.set_my_commands(
            [BotCommand(name, t(f"command_group_{name}")) for name in GROUP_COMMANDS],
            scope=BotCommandScopeAllGroupChats(), language_code=language)


async def _post_shutdown(app: Application) -> None:  # type: ignore[type-arg]
    """Stop the job queue if it was started early (an instance that never polled), and close
    storage (leases included)."""
    if app.job_queue is not None and app.job_queue.scheduler.running:
        await app.job_queue.stop(wait=False)
    store = app.bot_data.extra.pop("store", None)
    if isinstance(store, SQLiteStore | PostgresStore):
        await store.close()


async def close_transports(app: Application) -> None:  # type: ignore[type-arg]
    """Close the Bot API transports (idempotent): PTB leaves them open when its start fails."""
    for request in app.bot_data.extra.get("transports", ()):  # type: ignore[union-attr]
        await request.shutdown()


async def serve(app: Application, stop: asyncio.Event, *,  # type: ignore[type-arg]
                poll_timeout: float = 10.0) -> None:
    """Run ``app`` with long polling until ``stop`` is set (what ``run_polling`` does, minus
    signal handling: for tests and embedding).

    Args:
        poll_timeout: getUpdates long-polling timeout, in seconds.
    """
    await app.initialize()
    try:
        if app.post_init:
            await app.post_init(app)
        await app.updater.start_polling(  # type: ignore[union-attr]
            poll_interval=0.0, timeout=int(poll_timeout), drop_pending_updates=False)
        await app.start()
        await stop.wait()
        await app.updater.stop()  # type: ignore[union-attr]
        await app.stop()
    finally:
        await app.shutdown()
        if app.post_shutdown:
            await app.post_shutdown(app)
