"""What every Telegram handler shares: typed context, catalogs, sending and editing screens."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from telegram import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    LinkPreviewOptions,
    Message,
    User,
)
from telegram.error import BadRequest
from telegram.ext import CallbackContext, ContextTypes, ExtBot

from bot import i18n, render
from bot.i18n import Catalog
from bot.quiz import engine, group
from bot.quiz.engine import QuizError
from bot.quiz.service import GroupService, QuizService, UnknownAttempt, UnknownBank
from bot.render import Screen

log = logging.getLogger(__name__)


@dataclass
class BotData:
    """``context.bot_data``: the services that live as long as the process (set in post_init).

    Holds no quiz state: everything that must survive a restart is in storage.
    """

    quiz: QuizService | None = None
    groups: GroupService | None = None
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def service(self) -> QuizService:
        """The quiz service.

        Raises:
            RuntimeError: used before post_init set it.
        """
        if self.quiz is None:
            raise RuntimeError("quiz service not initialised (post_init has not run)")
        return self.quiz


Context = CallbackContext[ExtBot[None], dict, dict, BotData]  # type: ignore[type-arg]
CONTEXT_TYPES = ContextTypes(context=CallbackContext, bot_data=BotData)

TOAST_KEYS: dict[type[QuizError], str] = {
    engine.StaleQuestion: "toast_stale",
    engine.AlreadyAnswered: "toast_answered",
    engine.AttemptClosed: "toast_closed",
    engine.BankChanged: "toast_bank_changed",
    engine.NotYourAttempt: "toast_not_yours",
    engine.NotAnswered: "toast_not_answered",
    engine.InvalidOption: "toast_invalid",
    engine.NotFinished: "toast_invalid",
    UnknownAttempt: "toast_invalid",
    UnknownBank: "toast_invalid",
    group.SessionClosed: "toast_closed",
    group.TooLate: "group_too_late",
    group.WrongChat: "toast_invalid",
}
"""Engine refusal -> the catalog message sent as the callback query's toast."""

NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


def keyboard(screen: Screen) -> InlineKeyboardMarkup | None:
    """The screen's keyboard as an ``InlineKeyboardMarkup`` (None when it has no buttons)."""
    if not screen.keyboard:
        return None
    rows = []
    for row in screen.keyboard:
        buttons = []
        for button in row:
            if isinstance(button.action, render.UrlButton):
                buttons.append(InlineKeyboardButton(button.label, url=button.action.url))
            else:
                buttons.append(InlineKeyboardButton(button.label,
                                                    callback_data=render.encode(button.action)))
        rows.append(buttons)
    return InlineKeyboardMarkup(rows)


async def catalog_for(context: Context, user: User | None) -> Catalog:
    """The user's catalog: their /language choice, else Telegram's language_code, else English."""
    if user is None:
        return i18n.catalog(i18n.DEFAULT)
    chosen = await context.bot_data.service.chosen_language(user.id)
    return i18n.catalog(chosen or i18n.negotiate(user.language_code))


async def send(context: Context, chat_id: int, screen: Screen) -> Message:
    """Send a screen as a new HTML message without link previews."""
    return await context.bot.send_message(chat_id, screen.text, reply_markup=keyboard(screen),
                                          link_preview_options=NO_PREVIEW)


async def edit(query: CallbackQuery, screen: Screen) -> None:
    """Edit the query's message into ``screen``; "message is not modified" is not an error."""
    try:
        await query.edit_message_text(screen.text, reply_markup=keyboard(screen),
                                      link_preview_options=NO_PREVIEW)
    except BadRequest as exc:
        if "not modified" not in exc.message.lower():
            raise
        log.debug("edit skipped: message %s not modified", query.message and query.message.id)


async def toast(query: CallbackQuery, text: str | None = None) -> None:
    """Answer a callback query (Bot API: every one must be answered, within ~15 s).

    A query that is too old or already answered is logged, not raised: the work that follows
    (recording, editing) still matters. ``text`` is clipped to 200 UTF-16 units
    (:data:`render.MAX_TOAST_UTF16`, Bot API ``answerCallbackQuery``) as a last guard: a
    longer one would be refused and leave the spinner turning.
    """
    if text is not None:
        text = render.clip_utf16(text, render.MAX_TOAST_UTF16)
    try:
        await query.answer(text)
    except BadRequest as exc:
        log.info("callback query %s not answered: %s", query.id, exc.message)
