"""Thin PTB callbacks for group quiz sessions: commands, chat events, taps.

Telegram lets a bot send about 20 messages a minute to one group (Bot API FAQ, "broadcasting"):
a session sends two per question (the question, then its reveal as an edit), at most one more
(the mid-window clock edit), plus the leaderboard, and nothing per answer: each member's answer
is acknowledged privately by the callback query's toast, in that member's own language. The
session's progress is :class:`bot.features.groups.sessions.SessionRunner`'s; these callbacks read
the update, ask the group service, and hand the session to the runner.
"""

from __future__ import annotations

import contextlib
import logging

from telegram import CallbackQuery, Chat, ChatMemberUpdated, Update
from telegram.constants import ChatMemberStatus

from bot import i18n
from bot.features.groups import rules as group
from bot.features.groups import screens as groups_screens
from bot.features.groups.service import GroupService, SessionRunning
from bot.features.groups.sessions import SessionRunner
from bot.features.groups.starting import Permission, may_start, may_stop, pick_bank
from bot.features.preferences.catalogs import catalog_for, group_catalog
from bot.features.preferences.service import PreferencesService
from bot.features.private import screens as private_screens
from bot.i18n import Catalog
from bot.kernel.bank import TRUE_FALSE
from bot.kernel.engine import LABELS, QuizError
from bot.kernel.ports import StorageError
from bot.render import callbacks as render_callbacks
from bot.render import question as render_question
from bot.render import text as render_text
from bot.render.screen import Screen
from bot.render.text import HTML
from bot.telegram.chats import actor_name, display_name, is_admin, migration, reply, thread_of
from bot.telegram.common import Context, edit, keyboard, reach, toast
from bot.telegram.limits import Dropped

log = logging.getLogger(__name__)

TOASTS: dict[type[QuizError], str] = {
    group.SessionClosed: "toast_closed",
    group.TooLate: "group_too_late",
    group.WrongChat: "toast_invalid",
    SessionRunning: "toast_invalid",  # /quiz while one runs: cmd_group_quiz says so itself
}
"""A group session's refusals -> the catalog key of the toast that answers a tap they refuse
(merged by :data:`bot.routes.TOASTS`)."""


# --- commands ------------------------------------------------------------------------------


async def cmd_group_quiz(update: Update, context: Context) -> None:
    """/quiz [bank] in a group: start a session for everyone (one per chat)."""
    await start_session(update, context, context.args[0] if context.args else None)


async def cmd_group_start(update: Update, context: Context) -> None:
    """/start in a group: with a payload (``/start@<bot> <bank id>``, what a shared card's
    "Start in this group" deep link sends, :func:`bot.render.group_bank_link`), start that
    bank's session as ``/quiz <bank id>`` would, obeying the group's "who may start" setting;
    an unknown payload is answered with the banks there are. Without one: how group quizzes
    work (as /help)."""
    if not context.args:
        await cmd_group_help(update, context)
        return
    payload = context.args[0]
    registry = reach(context, GroupService).registry
    if not await registry.startable(payload):
        assert update.effective_chat is not None
        t = await group_catalog(context, update.effective_chat.id)
        await reply(
            update,
            context,
            t(
                "inline.group_unknown_bank",
                name=render_text.clip(payload),
                banks=", ".join(registry.featured),
            ),
        )
        return
    await start_session(update, context, payload)


async def start_session(update: Update, context: Context, requested: str | None) -> None:
    """Start a group session of bank ``requested`` (None: the group's bank setting, else the
    only bank installed), if the sender may start one (group admins only, when the settings
    say so). A bank chosen in the settings that is no longer installed is named in the
    reply: the only bank left is started instead, or, with several, the group is told how to
    choose one."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    service = reach(context, GroupService)
    chosen = await service.settings(chat.id)
    if may_start(chosen) is Permission.IF_ADMIN and not await is_admin(
        context, chat, user, update.effective_message
    ):
        t = await group_catalog(context, chat.id)
        await reply(update, context, t("group_start_denied"))
        return
    pick = await pick_bank(service.registry, requested, chosen)
    bank_id = pick.bank_id
    if bank_id is None:
        t = await group_catalog(context, chat.id)
        banks = ", ".join(service.registry.featured)
        await reply(
            update,
            context,
            t("settings.bank_gone", name=pick.gone, banks=banks)
            if pick.gone
            else t("group_choose_bank", banks=banks),
        )
        return
    starter_language = (await catalog_for(context, user)).language
    try:
        session = await service.start(
            chat.id,
            bank_id,
            user.id,
            starter_language,
            message_thread_id=thread_of(update.effective_message),
        )
    except SessionRunning:
        t = await group_catalog(context, chat.id)
        await reply(update, context, t("group_running"))
        return
    if pick.gone:  # before the first question; a notice the group's budget leaves out is no loss
        t = await group_catalog(context, chat.id)
        bank = await service.bank_of(session)
        title = bank.title.get(bank.language_for(t.language), bank.default_language)
        with contextlib.suppress(Dropped):
            await reply(
                update,
                context,
                t(
                    "settings.bank_gone_started",
                    name=pick.gone,
                    title=render_text.clip(title, groups_screens.MAX_TITLE),
                ),
            )
    runner = reach(context, SessionRunner)
    runner.starter_names[session.id] = actor_name(update)
    await runner.drive(session.id)


async def cmd_group_stop(update: Update, context: Context) -> None:
    """/stop in a group: end the session (its starter or an admin; admins only when the group's
    settings say so); show the standings."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None
    service = reach(context, GroupService)
    t = await group_catalog(context, chat.id)
    session = await service.active(chat.id)
    if session is None:
        await reply(update, context, t("stop_none"))
        return
    message = update.effective_message
    permission = may_stop(
        await service.settings(chat.id),
        session,
        user.id if user is not None else None,
        as_person=message is not None and message.sender_chat is None,
    )
    if permission is Permission.IF_ADMIN and not await is_admin(context, chat, user, message):
        await reply(update, context, t("group_stop_denied"))
        return
    await reach(context, SessionRunner).stop(session.id, stopped_by=actor_name(update))


async def cmd_group_language(update: Update, context: Context) -> None:
    """/language in a group: the picker, for admins."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None
    t = await group_catalog(context, chat.id)
    if not await is_admin(context, chat, user, update.effective_message):
        await reply(update, context, t("group_language_denied"))
        return
    screen = private_screens.language_picker(t.language, t, HTML)
    await context.bot.send_message(
        chat.id,
        screen.text,
        reply_markup=keyboard(screen),
        message_thread_id=thread_of(update.effective_message),
    )


async def cmd_group_help(update: Update, context: Context) -> None:
    """/help or /start in a group: how group quizzes work."""
    chat = update.effective_chat
    assert chat is not None
    t = await group_catalog(context, chat.id)
    await reply(update, context, t("group_help"))


# --- chat events ---------------------------------------------------------------------------


async def on_migrate(update: Update, context: Context) -> None:
    """A group became a supergroup (service message with ``migrate_to_chat_id`` in the old
    chat, or ``migrate_from_chat_id`` in the new one): its sessions and language move to the
    new chat id, and a running session goes on there."""
    message = update.effective_message
    assert message is not None
    old, new = migration(message)
    await reach(context, SessionRunner).move_chat(old, new)


async def on_my_chat_member(update: Update, context: Context) -> None:
    """The bot's own membership changed: removed from a group (kicked or left), its running
    session ends at once (answers so far stay stored; nothing is sent or retried)."""
    change: ChatMemberUpdated | None = update.my_chat_member
    assert change is not None
    if change.chat.type == Chat.PRIVATE:
        return
    if change.new_chat_member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
        log.info(
            "removed from chat %s (%s): ending its session",
            change.chat.id,
            change.new_chat_member.status,
        )
        await reach(context, SessionRunner).chat_gone(change.chat.id)


# --- callback queries ----------------------------------------------------------------------


async def on_group_answer(
    query: CallbackQuery,
    context: Context,
    button: render_callbacks.GroupAnswerButton,
    t: Catalog,
    received_at: float | None = None,
) -> None:
    """A member's tap: record it once (it counts if it reached the bot before the deadline),
    acknowledge privately; close early when everyone who took part so far has answered."""
    if query.message is None:
        raise group.WrongChat(0)
    service = reach(context, GroupService)
    try:
        session, answer, close_now = await service.tap(
            button.session_id,
            query.message.chat.id,
            button.position,
            button.slot,
            query.from_user.id,
            display_name(query.from_user),
            received_at=received_at,
        )
    except StorageError:
        log.exception("could not record a group answer of user %s", query.from_user.id)
        await toast(query, t("storage_failed"))
        return
    bank = await service.bank_of(session)
    question = bank.question(answer.question_id)
    await toast(
        query,
        t(
            "group_recorded",
            label=render_question.option_text(bank, question, answer.option_index, t)
            if question.kind == TRUE_FALSE
            else LABELS[button.slot],
        ),
    )
    if close_now:  # in a job: the tap's slot and turn are not held for the reveal
        reach(context, SessionRunner).schedule(session.id, 0.0, early=button.position)
    await service.answered(session, answer)  # the review card, after the acknowledgement


async def on_group_tick(
    query: CallbackQuery, context: Context, button: render_callbacks.GroupTickButton, t: Catalog
) -> None:
    """A member's tick on an open question with several right options: stored per member (the
    keyboard is the group's), acknowledged privately with the choice so far."""
    if query.message is None:
        raise group.WrongChat(0)
    _, ticked = await reach(context, GroupService).tick(
        button.session_id, query.message.chat.id, button.position, button.slot, query.from_user.id
    )
    labels = ", ".join(LABELS[slot] for slot in range(len(LABELS)) if ticked >> slot & 1)
    await toast(query, t("group_ticked", labels=labels) if labels else t("group_ticked_none"))


async def on_group_submit(
    query: CallbackQuery,
    context: Context,
    button: render_callbacks.GroupSubmitButton,
    t: Catalog,
    received_at: float | None = None,
) -> None:
    """A member's Submit of their ticks: recorded once, as a tap is (:func:`on_group_answer`),
    right only for the exact set of right options; nothing ticked is refused with a toast."""
    if query.message is None:
        raise group.WrongChat(0)
    service = reach(context, GroupService)
    try:
        session, answer, close_now = await service.submit(
            button.session_id,
            query.message.chat.id,
            button.position,
            query.from_user.id,
            display_name(query.from_user),
            received_at=received_at,
        )
    except StorageError:
        log.exception("could not record a group answer of user %s", query.from_user.id)
        await toast(query, t("storage_failed"))
        return
    slots = session.plan.option_orders[button.position]
    labels = ", ".join(LABELS[slots.index(i)] for i in sorted(answer.choice, key=slots.index))
    await toast(query, t("group_recorded", label=labels))
    if close_now:
        reach(context, SessionRunner).schedule(session.id, 0.0, early=button.position)
    await service.answered(session, answer)


async def on_group_language(
    query: CallbackQuery, context: Context, language: str, t: Catalog
) -> None:
    """A language choice on a group's picker: admins only."""
    assert query.message is not None
    chat = query.message.chat
    if not await is_admin(context, chat, query.from_user):
        await toast(query, t("toast_not_admin"))
        return
    await reach(context, PreferencesService).set_group_language(chat.id, language)
    await toast(query)
    new = i18n.catalog(language)
    await edit(query, Screen(HTML.escape(new("group_language_set"))))


async def on_group_place(
    query: CallbackQuery, context: Context, button: render_callbacks.PlaceButton, t: Catalog
) -> None:
    """ "My place" on a leaderboard: the tapper's own rank, score and time (or that they did
    not play), privately as the callback query's toast in their language.

    Raises:
        UnknownAttempt: no such session (a forged button).
        WrongChat: the button was tapped outside the session's chat (a forwarded message).
    """
    service = reach(context, GroupService)
    session = await service.session(button.session_id)
    if query.message is None or query.message.chat.id != session.chat_id:
        raise group.WrongChat(query.message.chat.id if query.message else 0)
    answers, names = await service.results(session)
    await toast(
        query,
        groups_screens.group_place(
            session, group.leaderboard(answers, names, session), query.from_user.id, t
        ),
    )
