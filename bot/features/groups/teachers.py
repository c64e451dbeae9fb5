"""Thin PTB callbacks for group admins and teachers: ``/settings`` (the group's settings menu),
``/results`` (the last session's results, sent privately), and a reveal's private deep link
(the question, its answer and explanation in the member's own language)."""

from __future__ import annotations

import datetime
import logging

from telegram import CallbackQuery, InputFile, Update, User
from telegram.error import Forbidden

from bot import i18n
from bot.features.groups import pacing, results, rules
from bot.features.groups import screens as groups_screens
from bot.features.groups import teacher_screens as groups_teacher_screens
from bot.features.groups.service import GroupService
from bot.features.groups.settings import InvalidSetting, StaleSettings
from bot.features.homework.service import HomeworkService
from bot.features.preferences.catalogs import catalog_for, group_catalog
from bot.features.preferences.service import PreferencesService
from bot.i18n import Catalog
from bot.kernel.engine import QuizError
from bot.render import callbacks as render_callbacks
from bot.render import links as render_links
from bot.render.screen import Button, Screen, UrlButton
from bot.render.text import HTML
from bot.telegram.chats import is_admin, reply, thread_of
from bot.telegram.common import Context, StartLink, edit, keyboard, reach, send, toast

log = logging.getLogger(__name__)

TOASTS: dict[type[QuizError], str] = {
    StaleSettings: "settings_stale",
    InvalidSetting: "settings_invalid",
}
"""A group's settings' refusals -> the catalog key of the toast that answers a tap they refuse
(merged by :data:`bot.routes.TOASTS`)."""


async def settings_screen(context: Context, chat_id: int) -> Screen:
    """The group's settings menu, in the group's language, with its time zone."""
    service = reach(context, GroupService)
    chosen = await service.settings(chat_id)
    language = await reach(context, PreferencesService).group_language(chat_id) or i18n.DEFAULT
    t = i18n.catalog(language)
    menu = groups_teacher_screens.settings_menu(
        chosen,
        service.question_seconds,
        await service.choosable(chat_id, chosen),
        language,
        t,
        HTML,
    )
    zone = await reach(context, HomeworkService).zone(chat_id)  # homework's deadlines: /timezone
    return Screen(f"{menu.text}\n{HTML.escape(t('hw.settings_zone', zone=zone))}", menu.keyboard)


async def cmd_group_settings(update: Update, context: Context) -> None:
    """/settings in a group: the settings menu, for admins (anonymous admins included)."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None
    t = await group_catalog(context, chat.id)
    if not await is_admin(context, chat, user, update.effective_message):
        await reply(update, context, t("settings_denied"))
        return
    screen = await settings_screen(context, chat.id)
    await context.bot.send_message(
        chat.id,
        screen.text,
        reply_markup=keyboard(screen),
        message_thread_id=thread_of(update.effective_message),
    )


async def on_setting(
    query: CallbackQuery, context: Context, button: render_callbacks.SettingButton, t: Catalog
) -> None:
    """A tap on a settings menu: admins only; a stale menu or a forged value changes nothing
    (:class:`~bot.features.groups.settings.StaleSettings`,
    :class:`~bot.features.groups.settings.InvalidSetting`, toasted by the router from
    :data:`TOASTS`); else stored, and the menu shows the new settings."""
    assert query.message is not None
    chat = query.message.chat
    if not await is_admin(context, chat, query.from_user):
        await toast(query, t("settings_denied"))
        return
    await reach(context, GroupService).change_setting(
        chat.id, button.version, button.field, button.value
    )
    await toast(query, t("settings_saved"))
    await edit(query, await settings_screen(context, chat.id))


async def cmd_group_results(update: Update, context: Context) -> None:
    """/results in a group (admins): the last ended session's CSV and per-question summary,
    sent to the admin privately. An admin who never started the bot is told in the group, with
    a button that opens the bot (Telegram refuses a bot's first message: 403 "bot can't
    initiate conversation with a user")."""
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    assert chat is not None and message is not None
    t = await group_catalog(context, chat.id)
    if message.sender_chat is not None and message.sender_chat.id == chat.id:
        await reply(update, context, t("results_anonymous"))  # no user to write to
        return
    if user is None or not await is_admin(context, chat, user, message):
        await reply(update, context, t("results_denied"))
        return
    service = reach(context, GroupService)
    session = await service.last_session(chat.id)
    if session is None:
        await reply(update, context, t("results_none"))
        return
    name = " ".join(filter(None, (user.first_name, user.last_name)))
    mine = await catalog_for(context, user)
    try:
        await send_results(context, user.id, session, mine)
    except Forbidden:
        button = Button(
            t("button_open_bot"), UrlButton(render_links.deep_link(context.bot.username))
        )
        screen = Screen(HTML.escape(t("results_open_bot", name=name)), ((button,),))
        await context.bot.send_message(
            chat.id,
            screen.text,
            reply_markup=keyboard(screen),
            message_thread_id=thread_of(message),
        )
        return
    await reply(update, context, t("results_sent", name=name))


async def send_results(
    context: Context, user_id: int, session: rules.GroupSession, t: Catalog
) -> None:
    """Send a session's CSV (sendDocument) and its per-question summary to ``user_id``.

    Raises:
        Forbidden: the user never started the bot (or blocked it).
        BankChanged: the session's bank is gone or has another version.
    """
    service = reach(context, GroupService)
    bank = await service.bank_of(session)
    answers, names = await service.results(session)
    started = datetime.datetime.fromtimestamp(session.started_at, datetime.UTC)
    data = results.session_csv(bank, session, answers, names, t.language).encode("utf-8-sig")
    filename = f"quiz-{session.id}-{bank.id}-{started:%Y%m%d-%H%M}.csv"
    await context.bot.send_document(
        user_id, InputFile(data, filename=filename), caption=t("results_caption")
    )
    for screen in groups_teacher_screens.results_summary(
        bank,
        session,
        results.summary(session, answers),
        len(names),
        f"{started:%Y-%m-%d %H:%M} UTC",
        t,
        HTML,
    ):
        await send(context, user_id, screen)


async def show_group_question(
    context: Context, chat_id: int, session_id: int, position: int, t: Catalog
) -> None:
    """A reveal's deep link in the member's private chat: the question, its right answer and
    explanation in their language; refused while the question is open (or when the session,
    its bank version or the question is gone)."""
    service = reach(context, GroupService)
    try:
        session = await service.session(session_id)
        if not pacing.revealable(session, position):
            raise rules.TooLate(position)
        screen = groups_screens.private_question(
            await service.bank_of(session), session, position, t, HTML
        )
    except (QuizError, KeyError) as exc:
        log.info("question link %s/%s refused: %r", session_id, position, exc)
        await send(context, chat_id, Screen(HTML.escape(t("question_not_available"))))
        return
    await send(context, chat_id, screen)


async def open_question_link(
    context: Context, chat_id: int, user: User, payload: str, t: Catalog
) -> None:
    """``/start q_<session>_<position>`` (:func:`bot.render.question_link`): the question, as
    :func:`show_group_question`."""
    link = render_links.parse_question_payload(payload)
    assert link is not None  # QUESTION_LINK takes no other payload
    await show_group_question(context, chat_id, *link, t)


QUESTION_LINK = StartLink(
    lambda payload: render_links.parse_question_payload(payload) is not None, open_question_link
)
"""A group reveal's "in my language" link (``q_<session>_<position>``)."""
