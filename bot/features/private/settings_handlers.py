"""The private /settings: each user's choice of what follows an answer
(``bot/features/preferences/flow.py``: a "Next" button, or the next question at once), kept in
storage."""

from __future__ import annotations

from telegram import CallbackQuery, Update

from bot.features.preferences.catalogs import catalog_for
from bot.features.preferences.flow import AnswerFlow
from bot.features.preferences.service import PreferencesService
from bot.features.private import screens as private_screens
from bot.i18n import Catalog
from bot.kernel import engine
from bot.render import callbacks as render_callbacks
from bot.render.text import HTML
from bot.telegram.common import SHARED_SENDERS, Context, edit, reach, send, toast


async def cmd_settings(update: Update, context: Context) -> None:
    """/settings in a private chat: the choice of what follows an answer, in the user's
    language, the current one ticked."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    t = await catalog_for(context, user)
    flow = await reach(context, PreferencesService).answer_flow(user.id)
    await send(context, chat.id, private_screens.answer_flow_screen(flow, t, HTML))


async def on_flow(
    query: CallbackQuery, context: Context, button: render_callbacks.FlowButton, t: Catalog
) -> None:
    """A choice on the /settings screen: stored, confirmed by a toast, the screen ticked anew.
    A shared placeholder user (never the sender of a tap) is nobody."""
    if query.from_user.id in SHARED_SENDERS:
        raise engine.NotYourAttempt(0)
    flow = AnswerFlow(button.flow)  # the router's pattern admits the flows only
    await reach(context, PreferencesService).choose_answer_flow(query.from_user.id, flow)
    await toast(query, t("flow_saved"))
    await edit(query, private_screens.answer_flow_screen(flow, t, HTML))
