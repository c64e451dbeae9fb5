"""``/deletemydata``: a user deletes what the bot keeps about them, after confirming with a
button (thin handlers over :class:`bot.quiz.privacy.PrivacyService`)."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Update

from bot import render
from bot.i18n import Catalog
from bot.quiz.ports import StorageError
from bot.render import HTML, Screen
from bot.telegram.common import Context, edit, send, toast
from bot.telegram.services import catalog_for, services

log = logging.getLogger(__name__)


async def cmd_deletemydata(update: Update, context: Context) -> None:
    """/deletemydata (private chats): ask for confirmation; nothing is deleted yet."""
    user, chat = update.effective_user, update.effective_chat
    assert chat is not None
    t = await catalog_for(context, user)
    await send(context, chat.id, render.delete_data_question(t, HTML))


async def on_delete_data(query: CallbackQuery, context: Context,
                         button: render.DeleteDataButton, t: Catalog) -> None:
    """The answer to the question: delete the tapper's data (their own: the user id is the
    tapper's, whoever's message it is), or keep it. The question turns into the outcome, in
    the language the user had (their language choice is deleted too).
    """
    if not button.confirm:
        await toast(query)
        await edit(query, Screen(HTML.escape(t("deletemydata_cancelled"))))
        return
    try:
        await services(context).privacy.delete_user(query.from_user.id)
    except StorageError:
        log.exception("could not delete the data of user %s", query.from_user.id)
        await toast(query, t("storage_failed"))
        return
    await toast(query)
    await edit(query, Screen(HTML.escape(t("deletemydata_done"))))
