"""What every Telegram handler shares: typed context, catalogs, sending and editing screens."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from cachetools import LRUCache
from telegram import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    PhotoSize,
    User,
)
from telegram.constants import ChatID
from telegram.error import TelegramError
from telegram.ext import Application, CallbackContext, ContextTypes, ExtBot, JobQueue
from telegram.request import BaseRequest

from bot.config import Settings
from bot.i18n import Catalog, bidi
from bot.kernel.bank import Bank
from bot.render import callbacks as render_callbacks
from bot.render import limits as render_limits
from bot.render import screen as render_screen
from bot.render import text as render_text
from bot.render.screen import Screen
from bot.telegram.metrics import Metrics
from bot.telegram.outcomes import Kind, classify
from bot.telegram.transport import SENT_KEYBOARD

T = TypeVar("T")

log = logging.getLogger(__name__)


@dataclass
class BotData:
    """``context.bot_data``: the settings and the long-lived objects of the process (set by
    ``bot.app``: in build_application, then in post_init).

    Holds no quiz state: everything that must survive a restart is in storage. Typed only with
    what this module's imports already know: the services, made in post_init, are a
    :class:`bot.services.Services` (the wiring's), and each of them is reachable by its type
    (:func:`reach`).
    """

    # set by build_application
    settings: Settings | None = None
    banks: dict[str, Bank] = field(default_factory=dict)
    """The banks in service (replaced by a reload)."""
    transports: tuple[BaseRequest, ...] = ()
    """The Bot API transports (closed by ``close_transports``)."""
    admins: frozenset[int] = frozenset()
    """The operator's user ids (``QUIZBOT_ADMINS``)."""
    metrics: Metrics | None = None
    """The Prometheus counters the transports and the update processor feed."""
    # may be set before post_init (tests)
    clock: Callable[[], float] = time.time
    """The services' clock (a fake one in tests)."""
    reminder_interval: float | None = None
    """Seconds between reminder passes; None: ``learning.REMINDER_INTERVAL`` (shorter in tests)."""
    daily_interval: float | None = None
    """Seconds between question-of-the-day passes; None:
    ``bot.features.daily.jobs.DAILY_INTERVAL`` (shorter in tests)."""
    homework_interval: float | None = None
    """Seconds between homework passes; None: ``homework_jobs.HOMEWORK_INTERVAL``."""
    exam_interval: float | None = None
    """Seconds between the exams' passes; None: ``exams.jobs.EXAM_INTERVAL``."""
    # set in post_init, cleared in post_shutdown
    services: object = None
    """The :class:`~bot.services.Services` (None before post_init and after
    post_shutdown): the wiring's (:func:`bot.services.services_of`)."""
    reachable: dict[type[Any], object] = field(default_factory=dict)
    """The same services by their type, as the handlers reach them (:func:`reach`); empty
    before post_init and after post_shutdown."""
    reload_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """One bank reload at a time (``admin.reload``)."""


Bot = ExtBot[int]
"""The bot of the application: an ``ExtBot`` with an ``AIORateLimiter`` (its rate limit
arguments are ints: ``QuizRateLimiter``)."""
UserData = dict[Any, Any]
"""``context.user_data``: PTB's default (unused)."""
ChatData = dict[Any, Any]
"""``context.chat_data``: PTB's default (unused)."""
Context = CallbackContext[Bot, UserData, ChatData, BotData]
"""The context of every handler and job."""
QuizApplication = Application[Bot, Context, UserData, ChatData, BotData, JobQueue[Context]]
"""The application, as ``bot.app.build_application`` builds it."""
CONTEXT_TYPES: ContextTypes[Context, UserData, ChatData, BotData] = ContextTypes(
    context=CallbackContext, bot_data=BotData
)


@dataclass(frozen=True)
class StartLink:
    """A kind of private ``/start`` payload (a deep link's, ``t.me/<bot>?start=<payload>``:
    :mod:`bot.render.links`) and what opens it, declared by its feature beside its handler.
    ``bot.routes.START_LINKS`` is the table: the first entry that ``takes`` a
    payload opens it, as ``open(context, chat_id, user, payload, t)`` in the private chat
    ``chat_id``, in the user's catalog ``t``."""

    takes: Callable[[str], bool]
    open: Callable[[Context, int, User, str, Catalog], Awaitable[None]]


def reach_of(app: QuizApplication, kind: type[T]) -> T:
    """The long-lived service of type ``kind`` the wiring made for ``app``
    (:func:`bot.services.open_services`), so that a feature's handlers depend on the services
    they use, not on the wiring that makes all of them.

    Raises:
        RuntimeError: used before post_init made the services, after post_shutdown closed
            them, or for a type the wiring does not make.
    """
    made = app.bot_data.reachable.get(kind)
    if made is None:
        raise RuntimeError(f"no {kind.__name__} (post_init has not run, or it is not a service)")
    return cast(T, made)


def reach(context: Context, kind: type[T]) -> T:
    """The service of type ``kind``, from a callback's or a job's context (see
    :func:`reach_of`)."""
    return reach_of(app_of(context), kind)


def app_of(context: Context) -> QuizApplication:
    """``context.application``, as the :data:`QuizApplication` it is."""
    # cast: PTB types CallbackContext.application as Application[BT, ST, UD, CD, BD, Any], its
    # context type a type variable the property leaves unsolved and its job queue's type Any;
    # it is the application whose CONTEXT_TYPES made this context
    return cast(QuizApplication, context.application)


class Keyboard(InlineKeyboardMarkup):
    """An ``InlineKeyboardMarkup`` (equal to one with the same buttons) that is given its Bot API
    form when it is made, from the same values as its buttons: ``to_dict`` (PTB's documented
    method for an object's Bot API form) returns it, so PTB does not walk every attribute of
    every button to send the keyboard.

    Args:
        rows: The buttons, row by row.
        api: ``{"inline_keyboard": [[{"text": ..., "callback_data" | "url" |
            "switch_inline_query": ...}, ...], ...]}``, what ``to_dict`` of those rows gives.
    """

    __slots__ = ("_api",)

    def __init__(
        self, rows: list[list[InlineKeyboardButton]], api: dict[str, list[list[dict[str, str]]]]
    ) -> None:
        super().__init__(rows)
        self._api = api  # a protected attribute: settable on PTB's frozen objects

    def to_dict(self, recursive: bool = True) -> dict[str, Any]:
        """The keyboard's Bot API form (given when it was made)."""
        return dict(self._api)


def keyboard(screen: Screen) -> InlineKeyboardMarkup | None:
    """The screen's keyboard as an ``InlineKeyboardMarkup`` (a :class:`Keyboard`; None when it
    has no buttons)."""
    if not screen.keyboard:
        return None
    rows, api_rows = [], []
    for row in screen.keyboard:
        buttons, api_row = [], []
        for button in row:
            label = bidi.directed(button.label, mostly=False)  # a Persian "ZeRO ..." label
            if isinstance(button.action, render_screen.UrlButton):
                value = button.action.url
                buttons.append(InlineKeyboardButton(label, url=value))
                api_row.append({"text": label, "url": value})
            elif isinstance(button.action, render_screen.ShareButton):
                value = button.action.query
                buttons.append(InlineKeyboardButton(label, switch_inline_query=value))
                api_row.append({"text": label, "switch_inline_query": value})
            else:
                value = render_callbacks.encode(button.action)
                buttons.append(InlineKeyboardButton(label, callback_data=value, style=button.style))
                api_row.append({"text": label, "callback_data": value})
                if button.style is not None:  # Bot API 9.4
                    api_row[-1]["style"] = str(button.style)
        rows.append(buttons)
        api_rows.append(api_row)
    return Keyboard(rows, {"inline_keyboard": api_rows})


SHARED_SENDERS = frozenset({ChatID.FAKE_CHANNEL, ChatID.SERVICE_CHAT, ChatID.ANONYMOUS_ADMIN})
"""Placeholder users that stand for many senders: 136817688 for everyone posting as a channel,
777000 for a linked channel's automatic forwards, 1087968824 for a group's anonymous admins
(Bot API, ``Message.from``: "a fake sender user in non-channel chats"; PTB's ``ChatID``). They
are nobody's identity: no language choice is read or stored for them."""


async def send(context: Context, chat_id: int, screen: Screen) -> Message:
    """Send a screen as a new message (HTML, without link previews: the bot's ``Defaults``).

    A screen with a photo (a question's picture) is sent as that photo with the text as its
    caption and the keyboard, when the text fits a caption (1,024 UTF-16 units after entity
    parsing, Bot API ``sendPhoto``); else the photo alone, then the text and keyboard as a
    message. A photo Telegram refuses for good (a URL it cannot fetch, a wrong file id:
    ``Kind.INVALID``) is left out: the text goes with the screen's ``photo_note`` above it.
    The message returned carries the keyboard.
    """
    text = screen.text
    if screen.photo is not None:
        try:
            if fits_caption(text):
                return await context.bot.send_photo(
                    chat_id, photo_input(screen.photo), caption=text, reply_markup=keyboard(screen)
                )
            await context.bot.send_photo(chat_id, photo_input(screen.photo))
        except TelegramError as exc:
            if classify(exc).kind is not Kind.INVALID:
                raise
            _picture_refused(screen.photo, exc)
            text = f"{screen.photo_note}\n\n{text}" if screen.photo_note else text
    return await context.bot.send_message(chat_id, text, reply_markup=keyboard(screen))


def photo_input(picture: str) -> PhotoSize:
    """A question's ``picture`` (an https URL or a file id) as PTB sends it: always as the string
    itself, for Telegram to fetch or look up. PTB uploads a plain string that names a file in
    the working folder from the disk (``telegram._utils.files.parse_file_input``), so a bank's
    ``picture`` could make the bot read a local file; a ``PhotoSize`` is sent as its file id."""
    return PhotoSize(picture, picture, 0, 0)


_REFUSED_PICTURES: LRUCache[str, bool] = LRUCache(maxsize=1024)
"""Pictures Telegram refused, each logged once (per process, a bounded memory)."""


def _picture_refused(picture: str, exc: TelegramError) -> None:
    """Log, once per picture, that Telegram refused it (the question goes as text)."""
    if picture not in _REFUSED_PICTURES:
        _REFUSED_PICTURES[picture] = True
        log.warning("picture %s not sent, its question goes without it: %s", picture, exc.message)


def fits_caption(text: str) -> bool:
    """Whether HTML ``text`` fits a photo's caption (Bot API: 0-1024 characters after entities
    parsing)."""
    return render_text.html_length(text) <= render_limits.MAX_CAPTION_UTF16


def is_photo(message: object) -> bool:
    """Whether ``message`` is a photo (a question's picture with its caption): it has no text
    to edit, only a caption (Bot API ``editMessageCaption``)."""
    return bool(getattr(message, "photo", None))


async def edit(query: CallbackQuery, screen: Screen) -> None:
    """Edit the query's message into ``screen``.

    "message is not modified" is success, and a message that is gone (deleted, too old to
    edit) is skipped: both are logged, not raised (``outcomes.classify``).

    A photo message (a question sent with its picture) has a caption, not a text: its caption
    is edited (``editMessageCaption``) when the screen's text fits one; else its keyboard is
    taken away and the screen is sent as a new message below it.

    Raises:
        TelegramError: any other failure, e.g. ``Forbidden`` when the user blocked the bot.
    """
    try:
        if not is_photo(query.message):
            await query.edit_message_text(screen.text, reply_markup=keyboard(screen))
        elif fits_caption(screen.text):
            await query.edit_message_caption(caption=screen.text, reply_markup=keyboard(screen))
        else:
            await query.edit_message_reply_markup(reply_markup=None)
            await query.get_bot().send_message(
                query.message.chat.id if query.message else query.from_user.id,
                screen.text,
                reply_markup=keyboard(screen),
            )
    except TelegramError as exc:
        kind = classify(exc).kind
        if kind is Kind.NOT_MODIFIED:
            log.debug(
                "edit skipped: message %s not modified", query.message and query.message.message_id
            )
        elif kind is Kind.GONE:
            log.info(
                "edit skipped: message %s of user %s is gone: %s",
                query.message and query.message.message_id,
                query.from_user.id,
                exc.message,
            )
        else:
            raise


async def edit_keyboard(query: CallbackQuery, screen: Screen) -> None:
    """Edit only the keyboard of the query's message into ``screen``'s (a tick on a question
    with several right options; a text or a photo message alike). Failures as :func:`edit`.
    """
    try:
        await query.edit_message_reply_markup(reply_markup=keyboard(screen))
    except TelegramError as exc:
        kind = classify(exc).kind
        if kind is Kind.NOT_MODIFIED:
            log.debug(
                "keyboard edit skipped: message %s not modified",
                query.message and query.message.message_id,
            )
        elif kind is Kind.GONE:
            log.info(
                "keyboard edit skipped: message %s is gone: %s",
                query.message and query.message.message_id,
                exc.message,
            )
        else:
            raise


def sent_keyboard(message: object) -> dict[str, Any] | None:
    """The keyboard of a callback query's message in its Bot API form, or None: as Telegram
    sent it (kept unparsed by the transport for polled updates: ``transport.SENT_KEYBOARD``),
    else from the parsed ``reply_markup`` (an update that came by webhook)."""
    api_kwargs = getattr(message, "api_kwargs", None) or {}
    if SENT_KEYBOARD in api_kwargs:
        return cast(dict[str, Any], api_kwargs[SENT_KEYBOARD])
    markup = getattr(message, "reply_markup", None)
    return None if markup is None else markup.to_dict()


def shows(query: CallbackQuery, screen: Screen) -> bool:
    """Whether the query's message already carries ``screen``'s keyboard, so an edit into
    ``screen`` would be refused "message is not modified" (feedback keyboards are unique to
    their question: the "next" button names the attempt and position)."""
    markup = keyboard(screen)
    return markup is not None and sent_keyboard(query.message) == markup.to_dict()


class AnsweredQueries:
    """The ids of the callback queries answered lately, so the error handler answers only the
    others (Bot API, answerCallbackQuery: a query is answered once; a second answer is refused
    "query is too old and response timeout expired or query ID is invalid").

    An id is forgotten when the error handler looks it up or, as more come, oldest first.

    Args:
        size: The most ids kept.
    """

    def __init__(self, size: int = 4096) -> None:
        self._ids: LRUCache[str, None] = LRUCache(size)

    def add(self, query_id: str) -> None:
        """Note that ``query_id`` was answered (or answering it was given up)."""
        self._ids[query_id] = None

    def pop(self, query_id: str) -> bool:
        """Forget ``query_id``; return whether it was answered."""
        return self._ids.pop(query_id, False) is None


ANSWERED = AnsweredQueries()
"""The callback queries answered by :func:`toast` (query ids are unique across Telegram)."""


async def toast(query: CallbackQuery, text: str | None = None) -> None:
    """Answer a callback query (Bot API: every one must be answered, within ~15 s, once).

    A failure is logged, not raised: the work that follows (recording, editing) still matters.
    A query that is too old or already answered is expected (INFO); a transient failure that
    outlasted the retries is a WARNING; anything else an ERROR. ``text`` is clipped to 200
    UTF-16 units (:data:`render.MAX_TOAST_UTF16`, Bot API ``answerCallbackQuery``) as a last
    guard: a longer one would be refused and leave the spinner turning.
    """
    ANSWERED.add(query.id)
    if text is not None:
        text = render_text.clip_utf16(text, render_limits.MAX_TOAST_UTF16)
    try:
        await query.answer(text)
    except TelegramError as exc:
        outcome = classify(exc)
        if outcome.expected:
            log.info("callback query %s not answered: %s", query.id, exc.message)
        elif outcome.kind is Kind.TRANSIENT:
            log.warning("callback query %s not answered: %r", query.id, exc)
        else:
            log.error("callback query %s not answered", query.id, exc_info=exc)


def query_chat_id(query: CallbackQuery) -> int:
    """The chat of the query's message (the user's private chat when the message is gone)."""
    return query.message.chat.id if query.message else query.from_user.id


async def send_to_query_chat(query: CallbackQuery, context: Context, screen: Screen) -> None:
    """Send ``screen`` to the chat of the query's message."""
    await send(context, query_chat_id(query), screen)
