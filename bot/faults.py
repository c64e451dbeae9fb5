"""What goes wrong, answered: the one error handler (every failure logged by kind, a callback
query left unanswered answered, a storage fault said politely), and the answers to updates the
flood limits refuse or drop (:class:`~bot.telegram.ordering.PerUserOrderedProcessor`)."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Chat, ReplyParameters, Update
from telegram.error import TelegramError

from bot import i18n
from bot.features.preferences.catalogs import user_catalog
from bot.features.preferences.service import PreferencesService
from bot.kernel.ports import StorageError
from bot.render.screen import Screen
from bot.render.text import HTML
from bot.telegram.chats import thread_of
from bot.telegram.common import (
    ANSWERED,
    Context,
    QuizApplication,
    reach_of,
    send,
    toast,
)
from bot.telegram.limits import Dropped
from bot.telegram.outcomes import Kind, classify

log = logging.getLogger(__name__)


async def slow_down(app: QuizApplication, update: Update) -> None:
    """The first update dropped in a sender's flood (``PerUserOrderedProcessor``): ask them
    politely to slow down, once per burst: as the toast of a tap, else as a message in the
    chat (in a group, a reply to their message, which the rate limiter drops when the group got
    a reply moments ago or its budget is kept for a session). Dropped updates change nothing;
    the other taps of the burst are answered without a text (:func:`dropped_tap`)."""
    preferences = reach_of(app, PreferencesService)
    query = update.callback_query
    if query is not None:
        await toast(query, (await user_catalog(preferences, query.from_user))("slow_down"))
        return
    chat, message = update.effective_chat, update.effective_message
    if chat is None or message is None:
        return
    if chat.type == Chat.PRIVATE:
        t = await user_catalog(preferences, update.effective_user)
    else:
        t = i18n.catalog(await preferences.group_language(chat.id) or i18n.DEFAULT)
    try:
        await app.bot.send_message(
            chat.id,
            HTML.escape(t("slow_down")),
            message_thread_id=thread_of(message),
            reply_parameters=ReplyParameters(message.message_id, allow_sending_without_reply=True),
        )
    except Dropped as exc:
        log.debug("slow-down notice not sent: %s", exc.reason)


async def dropped_tap(app: QuizApplication, update: Update) -> None:
    """A tap dropped in a sender's flood after the first (``PerUserOrderedProcessor``): its
    callback query is answered, without a text (the burst's first got the "slow down"), so
    that no spinner is left turning; nothing else is read or changed."""
    if update.callback_query is not None:
        await toast(update.callback_query)


async def on_error(update: object, context: Context) -> None:
    """The one error handler: log by what went wrong; answer a callback query left unanswered.

    A Telegram failure is classified (``outcomes.classify``): an expected one (the user blocked
    the bot, a message is gone, a group migrated) is INFO without a traceback; a transient one
    that outlasted the retries a WARNING; anything else (a refused request, a bug) an ERROR
    with the traceback. A reply to a group that the rate limiter left out on purpose
    (:class:`~bot.telegram.limits.Dropped`) is DEBUG. The bot keeps running.
    """
    error = context.error
    query = update.callback_query if isinstance(update, Update) else None
    where = describe(update)
    if isinstance(error, Dropped):  # a reply to a group left out on purpose (limits.py)
        log.debug("%s: %s", where, error)
    elif isinstance(error, TelegramError):
        outcome = classify(error)
        if outcome.expected:
            log.info("%s: %s (%s)", where, error.message, outcome.kind.value)
        elif outcome.kind is Kind.TRANSIENT:
            log.warning("%s: gave up after a transient failure: %r", where, error)
        else:
            log.error("%s: Telegram refused a call", where, exc_info=error)
    else:
        log.error("%s: error while handling it", where, exc_info=error)
    if isinstance(error, StorageError) and isinstance(update, Update):
        await _storage_failed(update, context, query)
    elif query is not None and not ANSWERED.pop(query.id):
        await toast(query)  # leave no spinner: every callback query gets an answer, once


async def _storage_failed(update: Update, context: Context, query: CallbackQuery | None) -> None:
    """A storage fault stopped an update before it was answered (a new user's /start, whose
    language choice could not be read, say): never silence. The polite "couldn't record
    that, tap again" in the user's app language (their stored choice is out of reach), as a
    toast on a button's spinner (a message in a private chat if the query was answered
    already); nothing in a group (its session tells the group itself)."""
    user, chat = update.effective_user, update.effective_chat
    t = i18n.catalog(i18n.negotiate(user.language_code if user else None))
    try:
        if query is not None and not ANSWERED.pop(query.id):
            await toast(query, t("storage_failed"))
        elif chat is not None and chat.type == Chat.PRIVATE:
            await send(context, chat.id, Screen(HTML.escape(t("storage_failed"))))
    except TelegramError as exc:
        log.info("%s: the storage fault notice could not be sent: %s", describe(update), exc)


def describe(update: object) -> str:
    """A short description of an update for log lines: its kind, user and chat ids."""
    if not isinstance(update, Update):
        return "update"
    user, chat = update.effective_user, update.effective_chat
    kind = "callback query" if update.callback_query is not None else "update"
    return (
        f"{kind} {update.update_id} from user {user.id if user else None}"
        f" in chat {chat.id if chat else None}"
    )
