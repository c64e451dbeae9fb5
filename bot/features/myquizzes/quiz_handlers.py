"""What /myquizzes' handlers share: a quiz's screen with its languages, a quiz's questions
checked to be the tapper's, the quoted parts of a creator's message, /cancel."""

from __future__ import annotations

import re

from telegram import CallbackQuery, Message

from bot.features.myquizzes import screens
from bot.features.myquizzes.problems import NotYourQuiz, QuizBusy, QuizGone
from bot.features.myquizzes.service import Owned, QuizzesService
from bot.i18n import Catalog
from bot.kernel.engine import QuizError
from bot.kernel.library import QuizRecord
from bot.kernel.ports import StorageError
from bot.kernel.registry import BankRegistry
from bot.render.screen import Screen
from bot.render.text import HTML
from bot.telegram.common import Context, reach, toast

CANCEL = re.compile(r"^/cancel(@\w+)?$")


async def _questions_of(
    query: CallbackQuery, context: Context, record: QuizRecord, t: Catalog
) -> Owned | None:
    """The quiz with its questions, this time; the tap answered.

    Raises:
        QuizGone, NotYourQuiz: its refusals (the router toasts them).
    """
    owned = await reach(context, QuizzesService).quiz(query.from_user.id, record.id)
    await toast(query)
    return owned


def _quotes(message: Message) -> list[str]:
    """The texts of the message's quote blocks (an explanation typed after ``>``)."""
    return [
        message.parse_entity(entity)
        for entity in message.entities
        if entity.type in ("blockquote", "expandable_blockquote")
    ]


async def quiz_screen_for(context: Context, record: QuizRecord, t: Catalog) -> Screen:
    """A quiz's screen, with Share only when the bot's inline mode is on, and its languages
    (its latest version's, from the bank registry; only its own language when the registry
    cannot serve it: a quiz taken down, the storage out of reach)."""
    try:
        languages = (await reach(context, BankRegistry).bank(record.id)).languages
    except (QuizError, StorageError):
        languages = (record.language,)
    return screens.quiz_screen(
        record,
        t,
        HTML,
        context.bot.username,
        share=bool(context.bot.supports_inline_queries),
        languages=languages,
    )


TOASTS: dict[type[QuizError], str] = {
    NotYourQuiz: "quizzes.toast_not_yours",
    QuizGone: "quizzes.toast_gone",
    QuizBusy: "quizzes.toast_busy",
}
"""A created quiz's refusals -> the catalog key of the toast that answers a tap they refuse
(merged by :data:`bot.routes.TOASTS`; a reply to a prompt says the same)."""
