"""``/deletemydata``: a user deletes what the bot keeps about them, after confirming with a
button of a question of its own (thin handlers over
:class:`bot.features.privacy.service.PrivacyService`)."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Update

from bot.features.preferences.catalogs import catalog_for
from bot.features.privacy import screens as privacy_screens
from bot.features.privacy.service import CreatedQuizzes, NotConfirmed, PrivacyService
from bot.i18n import Catalog
from bot.kernel.engine import QuizError
from bot.kernel.ports import StorageError
from bot.render import callbacks as render_callbacks
from bot.render.screen import Screen
from bot.render.text import HTML
from bot.telegram.common import Context, edit, reach, send, toast

log = logging.getLogger(__name__)

TOASTS: dict[type[QuizError], str] = {
    NotConfirmed: "deletemydata_expired",
}
"""/deletemydata's refusals -> the catalog key of the toast that answers a tap they refuse
(merged by :data:`bot.routes.TOASTS`)."""

QUIZZES_CHOSEN = {1: CreatedQuizzes.KEEP, 2: CreatedQuizzes.DELETE, 3: CreatedQuizzes.KEEP}
"""What each confirming button (:class:`bot.render.DeleteDataButton`'s ``confirm``) does with
the tapper's created quizzes: 1 is the question that asked nothing about them (any made since
are kept without owner: nothing the user was not asked about is destroyed)."""


async def cmd_deletemydata(update: Update, context: Context) -> None:
    """/deletemydata (private chats): ask for confirmation; nothing is deleted yet. The
    question's buttons carry a new one-time nonce, stored: only they confirm, once, on
    whichever instance the tap reaches."""
    user, chat = update.effective_user, update.effective_chat
    assert chat is not None and user is not None
    t = await catalog_for(context, user)
    service = reach(context, PrivacyService)
    made = await service.creations(user.id)
    nonce = await service.ask(user.id)
    await send(context, chat.id, privacy_screens.delete_data_question(t, HTML, nonce, made))


async def on_delete_data(
    query: CallbackQuery, context: Context, button: render_callbacks.DeleteDataButton, t: Catalog
) -> None:
    """The answer to the question: delete the tapper's data (their own: the user id is the
    tapper's, whoever's message it is) with their created quizzes or keeping those without
    their name, or keep it all. The question turns into the outcome, in the language the user
    had (their language choice is deleted too). A button whose nonce is not the tapper's
    pending one (forged, tapped again, from an older question or expired) changes nothing: the
    service raises :class:`~bot.features.privacy.service.NotConfirmed`, toasted by the router from
    :data:`TOASTS`.
    """
    service = reach(context, PrivacyService)
    if not button.confirm:
        await service.cancel(query.from_user.id, button.nonce)
        await toast(query)
        await edit(query, Screen(HTML.escape(t("deletemydata_cancelled"))))
        return
    try:
        deleted = await service.confirm(
            query.from_user.id, button.nonce, QUIZZES_CHOSEN[button.confirm]
        )
    except StorageError:
        log.exception("could not delete the data of user %s", query.from_user.id)
        await toast(query, t("deletemydata_failed"))
        return
    await toast(query)
    await edit(query, privacy_screens.delete_data_done(t, HTML, deleted))
