"""Button taps routed by prefix: one ``CallbackQueryHandler`` per kind of button.

Each route names a kind of button (its callback data's prefix and fields are the kind's own:
:func:`bot.render.callback_pattern`), the chats its buttons belong on, and the callback that
handles a tap. A tap no route takes (callback data this bot did not make, or a button of one
kind of chat forged onto a message of the other) is answered as invalid by
:func:`on_unknown_button`, before anything is read or changed: a private quiz never edits a
group's message. A refusal the core raises (a :class:`~bot.kernel.engine.QuizError`) is answered
with its toast from :data:`TOASTS`: each feature's module names the toasts of its own refusals
(its ``TOASTS``), and this module merges them.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from telegram import CallbackQuery, Chat, Update
from telegram.ext import CallbackQueryHandler

from bot import i18n
from bot.features.daily import handlers as daily
from bot.features.exams import handlers as exams
from bot.features.groups import handlers as group
from bot.features.groups import teachers
from bot.features.homework import assignment_handlers as assignments
from bot.features.homework import handlers as homework
from bot.features.importing import sheet_handlers as sheets
from bot.features.learning import handlers as learning
from bot.features.myquizzes import handlers as quizzes
from bot.features.myquizzes.quiz_handlers import CANCEL
from bot.features.myquizzes.quiz_handlers import TOASTS as quiz_toasts
from bot.features.newquiz import handlers as creators
from bot.features.preferences.catalogs import catalog_for
from bot.features.privacy import handlers as privacy
from bot.features.private import handlers
from bot.features.private import settings_handlers as private_settings
from bot.features.private.handlers import LIST_LINK
from bot.i18n import Catalog
from bot.kernel.engine import QuizError
from bot.render import callbacks as render_callbacks
from bot.render.screen import Screen
from bot.render.text import HTML
from bot.telegram.chats import received_at
from bot.telegram.common import Context, QuizApplication, StartLink, send, toast

log = logging.getLogger(__name__)

B = TypeVar("B", bound=render_callbacks.CallbackButton)


class Chats(enum.Enum):
    """The chats a kind of button belongs on (the chat of the message it is under; a tap
    without an accessible message counts as private)."""

    PRIVATE = "private"
    GROUPS = "groups"
    ANY = "any"

    def admit(self, query: CallbackQuery) -> bool:
        """Whether ``query``'s message is in a chat of this kind."""
        if self is Chats.ANY:
            return True
        in_group = query.message is not None and query.message.chat.type != Chat.PRIVATE
        return in_group == (self is Chats.GROUPS)


@dataclass(frozen=True)
class Tap(Generic[B]):
    """A button tap, decoded: what a route's callback is given."""

    update: Update
    query: CallbackQuery
    context: Context
    button: B
    t: Catalog
    """The tapper's catalog."""


@dataclass(frozen=True)
class Route(Generic[B]):
    """Taps on buttons of ``kind`` in ``chats`` (and, with ``when``, only those it admits) go
    to ``on_tap``."""

    kind: type[B]
    chats: Chats
    on_tap: Callable[[Tap[B]], Awaitable[None]]
    when: Callable[[B], bool] | None = None


def merge_toasts(*maps: Mapping[type[QuizError], str]) -> dict[type[QuizError], str]:
    """The features' maps of refusal class -> toast key, as one.

    Raises:
        ValueError: two maps name the same refusal class (a refusal is one feature's).
    """
    merged: dict[type[QuizError], str] = {}
    for toasts in maps:
        for refusal, key in toasts.items():
            if refusal in merged:
                raise ValueError(
                    f"{refusal.__module__}.{refusal.__qualname__} has a toast in two features' maps"
                )
            merged[refusal] = key
    return merged


TOASTS = merge_toasts(
    handlers.TOASTS,
    group.TOASTS,
    teachers.TOASTS,
    learning.TOASTS,
    homework.TOASTS,
    daily.TOASTS,
    privacy.TOASTS,
    exams.TOASTS,
    quiz_toasts,
)
"""Every refusal the core raises (the class itself, not its bases) -> the catalog key of the
toast that answers a tap it refuses; any other :class:`~bot.kernel.engine.QuizError` is answered
``toast_invalid``."""


def _supported(button: render_callbacks.LanguageButton) -> bool:
    return button.language in i18n.SUPPORTED


_ROUTES = (
    # exam mode: Start, an answer without feedback, a tick
    Route(
        render_callbacks.ExamStartButton,
        Chats.PRIVATE,
        lambda tap: exams.on_start(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.ExamAnswerButton,
        Chats.PRIVATE,
        lambda tap: exams.on_answer(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.ExamTickButton,
        Chats.PRIVATE,
        lambda tap: exams.on_tick(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.AnswerButton,
        Chats.PRIVATE,
        lambda tap: handlers.on_answer(tap.query, tap.context, tap.button, tap.t),
    ),
    # questions with several right options: ticks, then Submit
    Route(
        render_callbacks.TickButton,
        Chats.PRIVATE,
        lambda tap: handlers.on_tick(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.SubmitButton,
        Chats.PRIVATE,
        lambda tap: handlers.on_submit(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.GroupTickButton,
        Chats.GROUPS,
        lambda tap: group.on_group_tick(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.GroupSubmitButton,
        Chats.GROUPS,
        lambda tap: group.on_group_submit(
            tap.query, tap.context, tap.button, tap.t, received_at(tap.context, tap.update)
        ),
    ),
    Route(
        render_callbacks.CardTickButton,
        Chats.PRIVATE,
        lambda tap: learning.on_card_tick(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.CardSubmitButton,
        Chats.PRIVATE,
        lambda tap: learning.on_card_submit(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.NextButton,
        Chats.PRIVATE,
        lambda tap: handlers.on_next(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.RetakeButton,
        Chats.PRIVATE,  # a quiz with exam mode is sat as an exam, however it is started
        lambda tap: exams.on_bank(tap.query, tap.context, tap.button.bank_id, tap.t),
    ),
    Route(
        render_callbacks.BankButton,
        Chats.PRIVATE,
        lambda tap: exams.on_bank(tap.query, tap.context, tap.button.bank_id, tap.t),
    ),
    Route(
        render_callbacks.LanguageButton,
        Chats.PRIVATE,
        lambda tap: handlers.on_language(tap.query, tap.context, tap.button),
        when=_supported,
    ),
    Route(
        render_callbacks.FlowButton,
        Chats.PRIVATE,  # the private /settings
        lambda tap: private_settings.on_flow(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.ReviewButton,
        Chats.PRIVATE,  # "review what I missed": a review session
        lambda tap: learning.on_missed(tap.query, tap.context, tap.button.attempt_id, tap.t),
    ),
    Route(
        render_callbacks.CardAnswerButton,
        Chats.PRIVATE,
        lambda tap: learning.on_card_answer(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.CardNextButton,
        Chats.PRIVATE,
        lambda tap: learning.on_card_next(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.ShownButton,
        Chats.ANY,  # an option marked under its answer: nothing to do
        lambda tap: toast(tap.query),
    ),
    Route(
        render_callbacks.StartReviewButton,
        Chats.PRIVATE,
        lambda tap: learning.on_start(tap.query, tap.context, tap.t),
    ),
    Route(
        render_callbacks.DeleteDataButton,
        Chats.PRIVATE,
        lambda tap: privacy.on_delete_data(tap.query, tap.context, tap.button, tap.t),
    ),
    # /newquiz (bot/features/newquiz/handlers.py)
    Route(
        render_callbacks.DraftButton,
        Chats.PRIVATE,
        lambda tap: creators.on_draft_choice(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.UndoButton,
        Chats.PRIVATE,
        lambda tap: creators.on_undo(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.KeepOriginalButton,
        Chats.PRIVATE,
        lambda tap: creators.on_keep_original(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.RightOptionButton,
        Chats.PRIVATE,
        lambda tap: creators.on_right_option(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.RightDoneButton,
        Chats.PRIVATE,
        lambda tap: creators.on_right_done(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.QuizButton,
        Chats.PRIVATE,  # /myquizzes (bot/features/myquizzes/handlers.py)
        lambda tap: quizzes.on_quiz_button(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.SheetButton,
        Chats.PRIVATE,  # /myquizzes' Excel export (bot/features/importing/sheet_handlers.py)
        lambda tap: sheets.on_sheet_export(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.GroupAnswerButton,
        Chats.GROUPS,
        lambda tap: group.on_group_answer(
            tap.query, tap.context, tap.button, tap.t, received_at(tap.context, tap.update)
        ),
    ),
    Route(
        render_callbacks.PlaceButton,
        Chats.GROUPS,
        lambda tap: group.on_group_place(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.SettingButton,
        Chats.GROUPS,
        lambda tap: teachers.on_setting(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.LanguageButton,
        Chats.GROUPS,
        lambda tap: group.on_group_language(tap.query, tap.context, tap.button.language, tap.t),
        when=_supported,
    ),
    # the question of the day (bot/features/daily/handlers.py): taps on a group's or channel's post
    Route(
        render_callbacks.DailyAnswerButton,
        Chats.GROUPS,
        lambda tap: daily.on_daily_answer(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.DailySettingButton,
        Chats.ANY,
        lambda tap: daily.on_setting(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.DailyChannelButton,
        Chats.PRIVATE,
        lambda tap: daily.on_channel(tap.query, tap.context, tap.button, tap.t),
    ),
    # homework (bot/features/homework/handlers.py): /assign's menu, /assignments' buttons
    Route(
        render_callbacks.AssignButton,
        Chats.GROUPS,
        lambda tap: homework.on_assign_button(tap.query, tap.context, tap.button, tap.t),
    ),
    Route(
        render_callbacks.HomeworkButton,
        Chats.GROUPS,
        lambda tap: assignments.on_homework_button(tap.query, tap.context, tap.button, tap.t),
    ),
)
ROUTES: tuple[Route[Any], ...] = _ROUTES
"""Every route; each kind of button (:data:`bot.render.BUTTON_KINDS`) has one per kind of
chat it belongs on (each route's callback is type-checked against its kind in ``_ROUTES``)."""


class ButtonHandler(CallbackQueryHandler[Context, None]):
    """The ``CallbackQueryHandler`` of one route: it takes the taps whose callback data is of
    the route's kind (PTB's pattern), in the route's chats."""

    def __init__(self, route: Route[Any]) -> None:
        super().__init__(self._handle, pattern=render_callbacks.callback_pattern(route.kind))
        self.route = route

    def check_update(self, update: object) -> bool | object | None:
        """PTB's check (callback data of the route's kind), then the route's chats and
        ``when``."""
        check = super().check_update(update)
        if check is None or check is False:
            return check
        assert isinstance(update, Update) and update.callback_query is not None  # PTB's check
        query = update.callback_query
        if not query.data:  # PTB takes a query without data (a broken client) for any pattern
            return None
        if not self.route.chats.admit(query):
            return None
        if self.route.when is not None and not self.route.when(render_callbacks.decode(query.data)):
            return None
        return check

    async def _handle(self, update: Update, context: Context) -> None:
        """Decode the tap, run the route's callback; answer a refusal with its toast."""
        query = update.callback_query
        assert query is not None  # check_update
        t = await catalog_for(context, query.from_user)
        tap = Tap(update, query, context, render_callbacks.decode(query.data), t)
        try:
            await self.route.on_tap(tap)
        except QuizError as exc:
            log.info("refused %s from user %s: %r", query.data, query.from_user.id, exc)
            await toast(query, t(TOASTS.get(type(exc), "toast_invalid")))


async def on_unknown_button(update: Update, context: Context) -> None:
    """A tap no route takes: callback data this bot did not make, or a button forged onto a
    message of the other kind of chat. Answered as invalid; nothing is read or changed."""
    query = update.callback_query
    assert query is not None
    log.info("invalid callback data from user %s: %r", query.from_user.id, query.data)
    t = await catalog_for(context, query.from_user)
    await toast(query, t("toast_invalid"))


def add_routes(app: QuizApplication) -> None:
    """Register one handler per route, then :func:`on_unknown_button` for the rest."""
    for route in ROUTES:
        app.add_handler(ButtonHandler(route))
    app.add_handler(CallbackQueryHandler(on_unknown_button))


async def cmd_start(update: Update, context: Context) -> None:
    """/start [payload]: a deep link's payload opened by the first of :data:`START_LINKS` that
    takes it (a bank's id when no other does); without one, greet and resume the active
    attempt or start one."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    t = await catalog_for(context, user)
    payload = context.args[0] if context.args else None
    if payload is None:  # an exam under way is resumed, else the private quiz's
        await exams.open_exam(context, chat.id, user, None, t)
        return
    link = next(link for link in START_LINKS if link.takes(payload))
    await link.open(context, chat.id, user, payload, t)


START_LINKS: tuple[StartLink, ...] = (
    teachers.QUESTION_LINK,  # q_<session>_<position>: a group reveal's "in my language"
    homework.HOMEWORK_LINK,  # hw<token>: a homework's button
    LIST_LINK,  # list_quizzes: the button above an inline query's empty results
    # anything else: a bank's id (last: it takes every payload), opened as an exam when the bank
    # has exam mode or the user's exam is under way, else as the private quiz's BANK_LINK
    exams.EXAM_LINK,
)
"""The private ``/start`` payloads, in the order they are tried: each feature declares its
:class:`~bot.telegram.common.StartLink` beside its handler and adds it here."""


async def on_other_message(update: Update, context: Context) -> None:
    """Text, stickers or unknown commands in a private chat: a short hint, nothing changes.
    A quiz card the user shared into this chat (a message ``via_bot`` this bot) needs none;
    a text, poll or photo while the user has a /newquiz draft open is a step of the draft."""
    user, chat, message = update.effective_user, update.effective_chat, update.effective_message
    assert chat is not None
    if (
        message is not None
        and message.via_bot is not None
        and (message.via_bot.id == context.bot.id)
    ):
        return
    if await creators.on_draft_message(update, context):  # a step of an open /newquiz draft
        return
    t = await catalog_for(context, user)
    await send(context, chat.id, Screen(HTML.escape(t("unknown_text"))))


async def on_private_text(update: Update, context: Context) -> None:
    """A text (not a command, but /cancel) or a poll in a private chat: the answer to a
    /myquizzes prompt when one waits for the sender (stored: the prompt may have been asked
    on another instance); else /cancel drops the /newquiz draft, and anything else goes as
    :func:`on_other_message` (a step of the draft, or the hint)."""
    if await quizzes.on_edit_text(update, context):
        return
    message = update.effective_message
    cancel = CANCEL.match(message.text.strip()) if message and message.text else None
    if cancel is not None and (
        cancel[1] is None or cancel[1][1:].lower() == context.bot.username.lower()
    ):
        await creators.cmd_cancel(update, context)  # as its CommandHandler: this bot's only
        return
    await on_other_message(update, context)
