"""``/deletemydata``: a user deletes what the bot keeps about them, after confirming with a
button of a question of its own (thin handlers over :class:`bot.quiz.privacy.PrivacyService`)."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Update

from bot import render
from bot.i18n import Catalog
from bot.quiz.ports import StorageError
from bot.quiz.privacy import NotConfirmed, PrivacyService
from bot.render import HTML, Screen
from bot.telegram.common import Context, QuizApplication, catalog_for, edit, send, toast

log = logging.getLogger(__name__)


def privacy_service(context: Context) -> PrivacyService:
    """The privacy service (set in post_init).

    Raises:
        RuntimeError: used before post_init set it.
    """
    service = context.bot_data.privacy
    if service is None:
        raise RuntimeError("privacy service not initialised (post_init has not run)")
    return service


async def forget_starter(app: QuizApplication, user_id: int) -> None:
    """Drop the name of ``user_id`` from the group sessions they started that are running
    here (the session runner's in-flight state: the first question's announcement), as
    :data:`bot.quiz.privacy.Forget` for their deletion.

    Raises:
        StorageError: the running sessions could not be read (nothing is deleted then).
    """
    runner, service = app.bot_data.session_runner, app.bot_data.groups
    if runner is None or service is None or not runner.starter_names:
        return
    for session in await service.running():
        if session.starter_id == user_id:
            runner.starter_names.pop(session.id, None)


async def cmd_deletemydata(update: Update, context: Context) -> None:
    """/deletemydata (private chats): ask for confirmation; nothing is deleted yet. The
    question's buttons carry a new one-time nonce: only they confirm, once."""
    user, chat = update.effective_user, update.effective_chat
    assert chat is not None and user is not None
    t = await catalog_for(context, user)
    nonce = privacy_service(context).ask(user.id)
    await send(context, chat.id, render.delete_data_question(t, HTML, nonce))


async def on_delete_data(query: CallbackQuery, context: Context,
                         button: render.DeleteDataButton, t: Catalog) -> None:
    """The answer to the question: delete the tapper's data (their own: the user id is the
    tapper's, whoever's message it is), or keep it. The question turns into the outcome, in
    the language the user had (their language choice is deleted too). A button whose nonce
    is not the tapper's pending one (forged, tapped again, from an older question or from
    before a restart) gets a toast and changes nothing.
    """
    service = privacy_service(context)
    if not button.confirm:
        service.cancel(query.from_user.id, button.nonce)
        await toast(query)
        await edit(query, Screen(HTML.escape(t("deletemydata_cancelled"))))
        return
    try:
        await service.confirm(query.from_user.id, button.nonce)
    except NotConfirmed:
        await toast(query, t("deletemydata_expired"))
        return
    except StorageError:
        log.exception("could not delete the data of user %s", query.from_user.id)
        await toast(query, t("deletemydata_failed"))
        return
    await toast(query)
    await edit(query, Screen(HTML.escape(t("deletemydata_done"))))
