"""Thin PTB callbacks of homework in a group: ``/assign`` (with arguments, or a menu for the
quiz and the deadline), ``/assignments`` (close early, extend, cancel with a confirmation, the
results file), ``/timezone``, a homework's deep link in a member's private chat, and the group's
upgrade to a supergroup. The rules are :mod:`bot.features.homework.rules`, the use cases
:class:`bot.features.homework.service.HomeworkService`; the sends and the pass are
:mod:`bot.features.homework.jobs`.

Who may set and manage homework: the group's admins (anonymous admins included); the results
file goes to admins only, as /results' does.
"""

from __future__ import annotations

import contextlib
import logging

from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.error import TelegramError

from bot.features.exams import handlers as exam_handlers
from bot.features.exams.rules import MinutesOutOfRange, assigned_exam
from bot.features.exams.service import ExamService
from bot.features.homework import jobs, screens
from bot.features.homework.rules import (
    OPEN,
    TOKEN_PREFIX,
    Assignment,
    DeadlinePast,
    DeadlineRefused,
    DeadlineTooFar,
    DeadlineUnreadable,
    HomeworkCancelled,
    HomeworkClosed,
    HomeworkEnded,
    UnknownHomework,
)
from bot.features.homework.service import HomeworkService
from bot.features.preferences.catalogs import group_catalog
from bot.features.private import screens as private_screens
from bot.features.private.service import QuizService
from bot.i18n import Catalog
from bot.kernel.bank import MAX_EXAM_MINUTES, Exam
from bot.kernel.engine import QuizError, UnknownBank
from bot.kernel.zones import UnknownZone
from bot.render import callbacks as render_callbacks
from bot.render import text as render_text
from bot.render.screen import Screen
from bot.render.text import HTML
from bot.telegram.chats import (
    actor_name,
    display_name,
    is_admin,
    is_member,
    migration,
    reply,
    thread_of,
)
from bot.telegram.common import Context, StartLink, edit, keyboard, reach, send, toast
from bot.telegram.limits import Dropped

log = logging.getLogger(__name__)

TOASTS: dict[type[QuizError], str] = {
    UnknownHomework: "toast_invalid",
    HomeworkEnded: "toast_invalid",  # a base: its kinds have their own toasts
    HomeworkClosed: "hw.toast_closed",
    HomeworkCancelled: "hw.toast_cancelled",
    DeadlineUnreadable: "toast_invalid",  # typed deadlines are answered by /assign itself
    DeadlineRefused: "toast_invalid",  # a base: its kinds have their own toasts
    DeadlinePast: "hw.toast_deadline_past",
    DeadlineTooFar: "hw.toast_deadline_far",
    UnknownZone: "toast_invalid",  # /timezone answers it itself
}
"""Homework's refusals -> the catalog key of the toast that answers a tap they refuse (merged
by :data:`bot.routes.TOASTS`)."""

REFUSAL_KEYS: dict[type[DeadlineRefused], str] = {
    DeadlinePast: "hw.deadline_past",
    DeadlineTooFar: "hw.deadline_far",
}
"""A typed deadline's refusals -> the catalog key of /assign's reply (a message, not a toast:
it names the deadline read)."""


# --- /assign -------------------------------------------------------------------------------


async def cmd_assign(update: Update, context: Context) -> None:
    """/assign [quiz] [deadline] in a group (admins): set homework. Without a quiz, a menu of
    the quizzes; without a deadline, deadline buttons and how to type one."""
    chat, message = update.effective_chat, update.effective_message
    assert chat is not None
    t = await group_catalog(context, chat.id)
    if not await is_admin(context, chat, update.effective_user, message):
        await reply(update, context, t("hw.assign_denied"))
        return
    hw, registry = reach(context, HomeworkService), reach(context, QuizService).registry
    args = context.args or []
    if not args:
        await _send(update, context, screens.assign_menu(registry.featured.values(), t, HTML))
        return
    bank_id = args[0]
    if not await registry.startable(bank_id):
        await reply(
            update,
            context,
            t(
                "hw.unknown_quiz",
                name=render_text.clip(bank_id),
                banks=", ".join(registry.featured),
            ),
        )
        return
    bank = await reach(context, QuizService).bank(bank_id)
    zone = await hw.zone(chat.id)
    if len(args) == 1:
        await _send(update, context, screens.assign_deadline(bank, zone, t, HTML))
        return
    try:  # "... exam [minutes]": sat as an exam
        words, exam = assigned_exam(args[1:], bank.exam)
    except MinutesOutOfRange:
        await reply(update, context, t("exam.assign_minutes", most=MAX_EXAM_MINUTES))
        return
    text = " ".join(words)
    try:
        deadline = await hw.deadline(chat.id, text)
    except DeadlineUnreadable:
        await reply(
            update, context, screens.deadline_refusal("hw.deadline_unreadable", None, text, zone, t)
        )
        return
    except DeadlineRefused as exc:
        await reply(
            update,
            context,
            screens.deadline_refusal(REFUSAL_KEYS[type(exc)], exc.deadline, text, zone, t),
        )
        return
    anonymous = message is not None and message.sender_chat is not None
    user = update.effective_user
    setter = (0, "") if anonymous or user is None else (user.id, actor_name(update))
    try:
        await _assign(context, chat.id, thread_of(message), bank_id, deadline, setter, t, exam)
    except Dropped:  # the group's budget is spent: the refusal may be dropped as well
        with contextlib.suppress(Dropped):
            await reply(update, context, t("hw.post_failed"))


async def _send(update: Update, context: Context, screen: Screen) -> None:
    """Send a screen in the group, in the topic of the command."""
    assert update.effective_chat is not None
    await context.bot.send_message(
        update.effective_chat.id,
        screen.text,
        reply_markup=keyboard(screen),
        message_thread_id=thread_of(update.effective_message),
    )


async def _assign(
    context: Context,
    chat_id: int,
    thread_id: int | None,
    bank_id: str,
    deadline: float,
    setter: tuple[int, str],
    t: Catalog,
    exam: Exam | None = None,
) -> Assignment:
    """Store the homework and post its group message; homework whose message the group's
    budget would not let out is cancelled again (nothing half-set stays).

    Raises:
        Dropped: the group's budget had no room for the message.
    """
    hw = reach(context, HomeworkService)
    assignment = await hw.assign(
        chat_id,
        bank_id,
        deadline,
        language=t.language,
        set_by=setter[0],
        set_by_name=setter[1],
        thread_id=thread_id,
        exam=exam,
    )
    try:
        await jobs.post(context, assignment)
    except (Dropped, TelegramError):
        await hw.cancel(assignment.id)
        raise
    return assignment


async def on_assign_button(
    query: CallbackQuery, context: Context, button: render_callbacks.AssignButton, t: Catalog
) -> None:
    """A tap on /assign's menu (admins): a quiz, then a deadline; the menu message becomes
    the homework's group message."""
    assert query.message is not None
    chat = query.message.chat
    group_t = await group_catalog(context, chat.id)
    if not await is_admin(context, chat, query.from_user):
        await toast(query, t("toast_not_admin"))
        return
    quiz = reach(context, QuizService)
    bank = await quiz.bank(button.bank_id)  # UnknownBank: the router's toast
    hw = reach(context, HomeworkService)
    if not button.seconds:
        await toast(query)
        await edit(query, screens.assign_deadline(bank, await hw.zone(chat.id), group_t, HTML))
        return
    assignment = await hw.assign(
        chat.id,
        bank.id,
        hw.now() + button.seconds,
        language=group_t.language,
        set_by=query.from_user.id,
        set_by_name=display_name(query.from_user),
        thread_id=_thread(query),
    )
    await toast(query, t("hw.toast_set"))
    await edit(query, await jobs.post_screen(context, assignment))
    await hw.posted(assignment.id, query.message.message_id)


# --- /timezone -----------------------------------------------------------------------------


async def cmd_timezone(update: Update, context: Context) -> None:
    """/timezone [zone] in a group: show the group's time zone, or set it (admins)."""
    chat = update.effective_chat
    assert chat is not None
    t = await group_catalog(context, chat.id)
    hw = reach(context, HomeworkService)
    if not context.args:
        zone = await hw.zone(chat.id)
        await reply(
            update,
            context,
            t(
                "hw.zone_show",
                zone=zone,
                time=screens.local_time(hw.now(), zone, t),
                examples="/timezone Europe/Athens, /timezone Kolkata",
            ),
        )
        return
    if not await is_admin(context, chat, update.effective_user, update.effective_message):
        await reply(update, context, t("hw.zone_denied"))
        return
    text = " ".join(context.args)
    try:
        zone = await hw.set_zone(chat.id, text)
    except UnknownZone:
        await reply(
            update,
            context,
            t("hw.zone_unknown", text=render_text.clip(text), examples=screens.ZONE_EXAMPLES),
        )
        return
    await reply(
        update, context, t("hw.zone_set", zone=zone, time=screens.local_time(hw.now(), zone, t))
    )


# --- the deep link, in a member's private chat ---------------------------------------------


async def open_link(context: Context, chat_id: int, user: User, token: str, t: Catalog) -> None:
    """``/start hw...`` in private: the member's homework attempt, started or resumed (the
    first screen says that the first finished attempt counts), or practice after they
    finished; a forged or garbage token, another group's homework, closed or cancelled
    homework, or a quiz taken down: each told plainly, nothing started."""
    hw, quiz = reach(context, HomeworkService), reach(context, QuizService)
    try:
        assignment = await hw.by_token(token)
    except UnknownHomework:
        await send(context, chat_id, screens.homework_notice("hw.unknown", t, HTML))
        return
    if await is_member(context, assignment.chat_id, user.id) is False:
        await send(context, chat_id, screens.homework_notice("hw.not_member", t, HTML))
        return
    zone = await hw.zone(assignment.chat_id)
    try:
        opened = await hw.open(token, user.id, display_name(user), t.language)
    except HomeworkClosed as exc:
        await send(context, chat_id, screens.homework_closed(exc.assignment, zone, t, HTML))
        return
    except HomeworkCancelled:
        await send(context, chat_id, screens.homework_notice("hw.cancelled", t, HTML))
        return
    except (UnknownHomework, UnknownBank):
        await send(context, chat_id, screens.homework_notice("hw.bank_gone", t, HTML))
        return
    bank = await quiz.bank_of(opened.attempt)
    await send(context, chat_id, screens.homework_opened(opened, zone, hw.now(), t, HTML))
    exams = reach(context, ExamService)
    if await exams.terms(opened.attempt.id) is not None:  # sat as an exam (practice too)
        await exam_handlers.show(
            context, chat_id, await exams.sitting(user.id, opened.attempt.id), t
        )
        return
    if opened.resumed:
        for screen in private_screens.current_screens(
            bank, opened.attempt, opened.updated, t, HTML
        ):
            await send(context, chat_id, screen)
        return
    await send(context, chat_id, private_screens.intro(bank, t, HTML))
    await send(context, chat_id, private_screens.attempt_question(bank, opened.attempt, t, HTML))


HOMEWORK_LINK = StartLink(lambda payload: payload.startswith(TOKEN_PREFIX), open_link)
"""A homework's button (``hw`` and its token): every payload so begun is taken for a token,
a forged one told plainly (:func:`open_link`)."""


# --- chat events ---------------------------------------------------------------------------


async def on_migrate(update: Update, context: Context) -> None:
    """A group became a supergroup: its homework moves to the new chat id, and each open one
    is posted again there (the old chat's messages can no longer be edited)."""
    message = update.effective_message
    assert message is not None
    old, new = migration(message)
    for assignment in await reach(context, HomeworkService).move_chat(old, new):
        try:
            await jobs.post(context, assignment)
        except (Dropped, TelegramError) as exc:
            log.warning("homework %s: not posted again in chat %s: %r", assignment.id, new, exc)


async def on_removed(update: Update, context: Context) -> None:
    """The bot was removed from a group with open homework: the homework stays open (members
    who opened it go on privately; the results go to the admin who set it at the deadline,
    even if the group can't be written to)."""
    change = update.my_chat_member
    if change is None or change.chat.type == Chat.PRIVATE:
        return
    if change.new_chat_member.status in ("left", "kicked"):
        listed = await reach(context, HomeworkService).assignments(change.chat.id)
        open_ = [a.id for a in listed if a.status == OPEN]
        if open_:
            log.info(
                "removed from chat %s with open homework %s: it stays open", change.chat.id, open_
            )


__all__ = [
    "HOMEWORK_LINK",
    "cmd_assign",
    "cmd_timezone",
    "on_assign_button",
    "on_migrate",
    "on_removed",
    "open_link",
]


def _thread(query: CallbackQuery) -> int | None:
    """The forum topic of the query's message (None outside topics)."""
    return thread_of(query.message) if isinstance(query.message, Message) else None
