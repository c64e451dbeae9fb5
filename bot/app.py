"""Wiring: build the PTB ``Application`` with its services, handlers and commands.

The only module (with the CLI) that knows both Telegram and storage.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections.abc import Mapping

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
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

from bot import i18n
from bot.config import ConfigError, Settings
from bot.quiz.bank import Bank
from bot.telegram import admin, group, handlers, inline, learning, privacy, router, teachers
from bot.telegram.common import CONTEXT_TYPES, Context, QuizApplication
from bot.telegram.limits import QuizRateLimiter
from bot.telegram.metrics import Metrics
from bot.telegram.monitoring import MeteredProcessor, MeteredRequest
from bot.telegram.ordering import OrderedQueue
from bot.telegram.services import open_services, services, services_of, take_services
from bot.telegram.webhook import WebhookServer
from storage import open_store
from storage.postgres import redact_dsn

log = logging.getLogger(__name__)

COMMANDS = ("start", "quiz", "review", "stats", "remind", "preview", "language", "stop", "help")
"""The private-chat commands registered with ``setMyCommands``, in menu order (their handlers:
:func:`add_handlers`)."""

CONNECTION_POOL_SIZE = 64
"""HTTP connections to the Bot API for everything but getUpdates: one per update in flight
(:data:`bot.telegram.ordering.DEFAULT_MAX_CONCURRENT_UPDATES`), so that no update's call waits
for a connection (calls per second x round trip)."""

POOL_TIMEOUT = 30.0
"""Seconds a call may wait for a free connection before PTB gives up (PTB's default: 1)."""

GROUP_COMMANDS = ("quiz", "stop", "language", "help")
"""The group commands of :mod:`bot.telegram.group`; with :data:`TEACHER_COMMANDS`, the group
commands registered with ``setMyCommands`` (scope: all group chats), in menu order."""

TEACHER_COMMANDS = ("settings", "results")
"""The group commands of :mod:`bot.telegram.teachers` (admins)."""

PRUNE_SECONDS = 86_400.0
"""How often the retention job runs (daily; the first run a minute after the start)."""

ALLOWED_UPDATES = ("message", "callback_query", "my_chat_member", "inline_query")
"""The update types asked of Telegram (``allowed_updates`` of getUpdates and setWebhook): the
handlers' (commands, button taps, the bot added to or removed from a chat, inline queries
"@<bot> text" to share a quiz). Edited messages, channel posts, chosen inline results and the
rest are never sent to the bot."""


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
    :mod:`bot.telegram.admin`).

    Raises:
        ConfigError: no token, or ``QUIZBOT_ADMINS`` is not a list of user ids.
    """
    admins = admin.admins_from_env(os.environ)
    metrics = Metrics()
    requests = (MeteredRequest(metrics, connection_pool_size=CONNECTION_POOL_SIZE,
                               pool_timeout=POOL_TIMEOUT),
                MeteredRequest(metrics, connection_pool_size=1))
    processor = MeteredProcessor(metrics)
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
        .rate_limiter(QuizRateLimiter(waiting=processor.released))
        .concurrent_updates(processor)
        .update_queue(OrderedQueue())  # registers updates across instances (webhook mode)
        .request(requests[0])
        .get_updates_request(requests[1])
        .post_init(_post_init)
        .post_shutdown(_post_shutdown)
    )
    if settings.base_url:
        builder = builder.base_url(settings.base_url)
    if settings.webhook_url:  # the bot's own webhook server (bot/telegram/webhook.py)
        builder = builder.updater(None)
    app = builder.build()
    processor.on_refused = functools.partial(handlers.slow_down, app)
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
    where it is wired; ``tests/test_app.py`` checks that the menus and the handlers agree.
    """
    # new messages only: PTB's CommandHandler would also run on edited messages
    private = filters.ChatType.PRIVATE & filters.UpdateType.MESSAGE
    app.add_handler(CommandHandler("start", handlers.cmd_start, filters=private))
    app.add_handler(CommandHandler("quiz", handlers.cmd_quiz, filters=private))
    app.add_handler(CommandHandler("review", learning.cmd_review, filters=private))
    app.add_handler(CommandHandler("stats", learning.cmd_stats, filters=private))
    app.add_handler(CommandHandler("remind", learning.cmd_remind, filters=private))
    app.add_handler(CommandHandler("preview", handlers.cmd_preview, filters=private))
    app.add_handler(CommandHandler("language", handlers.cmd_language, filters=private))
    app.add_handler(CommandHandler("stop", handlers.cmd_stop, filters=private))
    app.add_handler(CommandHandler("help", handlers.cmd_help, filters=private))
    admins = app.bot_data.admins
    app.add_handler(CommandHandler("deletemydata", privacy.cmd_deletemydata, filters=private))
    if admins:  # for anyone else, /reload falls through to the unknown-command hint below
        app.add_handler(CommandHandler("reload", admin.cmd_reload,
                                       filters=private & filters.User(user_id=admins)))
    # in groups, commands from people only: a message sent on behalf of a channel, or the
    # linked channel's automatic forward, never starts, stops or configures a session (an
    # anonymous admin, whose sender_chat is the group itself, is no channel and is let in)
    groups = (filters.ChatType.GROUPS & filters.UpdateType.MESSAGE
              & ~filters.SenderChat.CHANNEL & ~filters.IS_AUTOMATIC_FORWARD)
    app.add_handler(CommandHandler("quiz", group.cmd_group_quiz, filters=groups))
    app.add_handler(CommandHandler("stop", group.cmd_group_stop, filters=groups))
    app.add_handler(CommandHandler("language", group.cmd_group_language, filters=groups))
    app.add_handler(CommandHandler("help", group.cmd_group_help, filters=groups))
    app.add_handler(CommandHandler("settings", teachers.cmd_group_settings, filters=groups))
    app.add_handler(CommandHandler("results", teachers.cmd_group_results, filters=groups))
    # /start in a group: a shared card's "Start in this group" link (/start@<bot> <bank id>)
    app.add_handler(CommandHandler("start", group.cmd_group_start, filters=groups))
    # "@<bot> text" in any chat: the banks, to share one (bot/telegram/inline.py)
    app.add_handler(InlineQueryHandler(inline.on_inline_query))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, group.on_migrate))
    app.add_handler(ChatMemberHandler(group.on_my_chat_member,
                                      ChatMemberHandler.MY_CHAT_MEMBER))
    router.add_routes(app)  # button taps: one CallbackQueryHandler per kind of button
    # a user who blocked the bot and writes again gets reminders again (before any handler)
    app.add_handler(TypeHandler(Update, learning.on_any_update), group=-1)
    # anything else a person sends in a private chat (text, stickers, unknown commands) gets a
    # hint; edited messages, channel posts and group chatter are left alone
    app.add_handler(MessageHandler(private, handlers.on_other_message))
    app.add_error_handler(handlers.on_error)


async def _post_init(app: QuizApplication) -> None:
    """Open storage, make the services (:func:`~bot.telegram.services.open_services`),
    register the command menu per language,
    restore group sessions. With a webhook, keep each (chat, sender)'s updates in order across
    the instances sharing the storage (:mod:`storage.order`; a no-op on SQLite). With polling
    and storage shared by several instances (PostgreSQL), wait until this instance is the one
    that polls (see :func:`wait_to_poll`); with a webhook every instance receives updates."""
    settings, banks = app.bot_data.settings, app.bot_data.banks
    assert settings is not None  # set by build_application
    store = await open_store(settings.db, create=settings.create_db)
    made = app.bot_data.services = await open_services(app, store)  # closes store if it fails
    if app.job_queue is not None:  # reminders: stored schedules, so they survive restarts
        interval = app.bot_data.reminder_interval  # shorter in tests
        if interval is None:
            interval = learning.REMINDER_INTERVAL
        app.job_queue.run_repeating(learning.remind_pass, interval=interval, first=interval,
                                    name="reminders")
    if made.monitoring is not None:
        try:
            await made.monitoring.start()
        except OSError as exc:  # one line naming the setting, as for the webhook's port
            raise ConfigError(f"cannot serve /healthz and /metrics on {settings.metrics} "
                              f"(QUIZBOT_METRICS / --metrics): "
                              f"{os.strerror(exc.errno) if exc.errno else exc}") from None
    await set_commands(app)
    if not app.bot.supports_inline_queries:
        log.info("inline mode is off: turn it on with @BotFather (/setinline) to let users "
                 "share quizzes (\"@%s\" in any chat, and the Share buttons)", app.bot.username)
    assert app.job_queue is not None
    app.job_queue.run_repeating(prune, interval=PRUNE_SECONDS, first=60.0, name="retention",
                                job_kwargs={"coalesce": True})
    restored = await made.sessions.restore()
    log.info("quizbot ready: %d bank(s), database %s, %d group session(s) restored",
             len(banks), redact_dsn(str(settings.db)), restored)
    if settings.webhook_url:
        order = store.update_order()
        app.update_processor.bot_id = app.bot.id  # type: ignore[attr-defined]
        app.update_processor.order = order  # type: ignore[attr-defined]
        app.update_queue.order = order  # type: ignore[attr-defined]
    elif made.leases.shared:
        await wait_to_poll(app)


async def wait_to_poll(app: QuizApplication) -> None:
    """Several instances share the database: Telegram serves one getUpdates consumer per bot,
    so only the instance holding the poller lease polls (and so handles every update, each
    user's in order). Until this one holds it, it runs the group sessions it holds (its job
    queue is started early); once it does, it adopts the sessions nobody holds (their instance
    died) and returns, and polling starts. If the lease is lost later (its connection to the
    database dropped), the instance stops, so that two never poll at once."""
    made = services_of(app)
    assert app.job_queue is not None
    await app.job_queue.start()  # idempotent: app.start() starts it again (a no-op)
    log.info("waiting for the poller lease (another instance may be polling)")
    await made.leases.wait_poller(app.bot.id,
                                  on_lost=lambda: _poller_lost(app))
    log.info("this instance polls now")
    await made.sessions.check_all()


def _poller_lost(app: QuizApplication) -> None:
    log.error("the poller lease's database connection was lost: stopping, so that another "
              "instance polls alone")
    app.stop_running()


async def prune(context: Context) -> None:
    """Job (daily): delete what the retention keeps no longer (``QuizService.prune``)."""
    try:
        pruned = await services(context).quiz.prune()
    except Exception:  # tried again tomorrow
        log.exception("retention: pruning failed")
        return
    log.info("retention: %d abandoned attempt(s) and %d answer(s) deleted, %d player name(s) "
             "blanked", pruned.attempts, pruned.answers, pruned.names)


async def set_commands(app: QuizApplication) -> None:
    """``setMyCommands`` for private and group chats: English by default, and per supported
    language (Telegram shows each user the list of their app's language)."""
    for language in (None, *i18n.SUPPORTED):
        t = i18n.catalog(language or i18n.DEFAULT)
        await app.bot.set_my_commands(
            [BotCommand(name, t(f"command_{name}")) for name in COMMANDS],
            scope=BotCommandScopeAllPrivateChats(), language_code=language)
        await app.bot.set_my_commands(
            [BotCommand(name, t(f"command_group_{name}"))
             for name in (*GROUP_COMMANDS, *TEACHER_COMMANDS)],
            scope=BotCommandScopeAllGroupChats(), language_code=language)


async def _post_shutdown(app: QuizApplication) -> None:
    """Stop the health and metrics server, and the job queue if it was started early (an
    instance that never polled); close storage (leases included)."""
    if app.job_queue is not None and app.job_queue.scheduler.running:
        await app.job_queue.stop(wait=False)
    made = take_services(app)
    if made is not None:  # health server, the review cards of the last answers, storage
        await made.close()


async def close_transports(app: QuizApplication) -> None:
    """Close the Bot API transports (idempotent): PTB leaves them open when its start fails."""
    for request in app.bot_data.transports:
        await request.shutdown()


def webhook_server(app: QuizApplication, settings: Settings) -> WebhookServer:
    """The webhook server for ``settings`` (webhook mode): it listens on ``settings.listen``,
    serves the webhook URL's path, and tells Telegram the URL, the secret and
    :data:`ALLOWED_UPDATES` (pending updates are kept, as with polling: what users sent while
    the bot was down is still answered). Telegram sends ``secret_token`` in the
    ``X-Telegram-Bot-Api-Secret-Token`` header of every webhook request (Bot API,
    setWebhook); the server answers 403 to a request without it, before reading its body.
    """
    return WebhookServer(app, settings, list(ALLOWED_UPDATES))


async def serve(app: QuizApplication, stop: asyncio.Event, *,
                poll_timeout: float = 10.0) -> None:
    """Run ``app`` until ``stop`` is set (what ``run_polling`` does, minus signal handling: for
    tests, embedding and webhook mode): with the bot's webhook server when its settings have a
    ``webhook_url`` (:func:`webhook_server`), else with long polling.

    Args:
        poll_timeout: getUpdates long-polling timeout, in seconds.
    """
    settings = app.bot_data.settings
    assert settings is not None  # set by build_application
    webhook = webhook_server(app, settings) if settings.webhook_url else None
    await app.initialize()
    try:
        if webhook is not None:
            webhook.bind()  # a port in use fails here, before the bot says it is ready
        if app.post_init:
            await app.post_init(app)
        if webhook is not None:
            await webhook.start()
        else:
            assert app.updater is not None  # build_application's polling application has one
            await app.updater.start_polling(
                poll_interval=0.0, timeout=int(poll_timeout), drop_pending_updates=False,
                allowed_updates=list(ALLOWED_UPDATES))
        await app.start()
        await stop.wait()
        if webhook is not None:
            await webhook.stop()
        elif app.updater is not None and app.updater.running:
            await app.updater.stop()
        await app.stop()
    finally:
        if webhook is not None:
            await webhook.stop()
        await app.shutdown()
        if app.post_shutdown:
            await app.post_shutdown(app)
