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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.error import Forbidden, TelegramError

from bot import i18n
from bot.features.groups import rules
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
from bot.features.preferences.catalogs import catalog_for, group_catalog
from bot.features.private import screens as private_screens
from bot.features.private.service import QuizService
from bot.i18n import Catalog
from bot.kernel.bank import Bank
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
    text = " ".join(args[1:])
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
        await _assign(context, chat.id, thread_of(message), bank_id, deadline, setter, t)
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


# --- /assignments --------------------------------------------------------------------------


async def list_screen(context: Context, chat_id: int, t: Catalog) -> Screen:
    """The group's homework (open, then closed) with the admins' buttons."""
    hw = reach(context, HomeworkService)
    listed = await hw.assignments(chat_id)
    banks = {a.bank_id: await jobs.bank_or_none(context, a) for a in listed}
    return screens.assignments_list(
        listed, banks, zone=await hw.zone(chat_id), now=hw.now(), t=t, m=HTML
    )


async def cmd_assignments(update: Update, context: Context) -> None:
    """/assignments in a group: its homework, open and closed (anyone may look; the buttons
    are for admins)."""
    chat = update.effective_chat
    assert chat is not None
    t = await group_catalog(context, chat.id)
    await _send(update, context, await list_screen(context, chat.id, t))


async def on_homework_button(
    query: CallbackQuery, context: Context, button: render_callbacks.HomeworkButton, t: Catalog
) -> None:
    """A tap on /assignments' buttons (admins only): close early, extend (a choice, then by
    how long), cancel (a question, then the confirmation), the results file, back to the list;
    what each step does is its entry of :data:`STEPS`, answered in the group's language.

    Raises:
        UnknownHomework: no such homework (a forged button).
        WrongChat: homework of another group (a forged or forwarded button).
        HomeworkClosed, HomeworkCancelled: it is no longer open (a stale button).
    """
    assert query.message is not None
    chat = query.message.chat
    group_t = await group_catalog(context, chat.id)
    if not await is_admin(context, chat, query.from_user):
        await toast(query, t("toast_not_admin"))
        return
    await STEPS[button.step](query, context, button, group_t)


HomeworkStep = Callable[
    [CallbackQuery, Context, render_callbacks.HomeworkButton, Catalog], Awaitable[None]
]
"""What an /assignments button does, tapped by an admin (with the group's catalog)."""


@dataclass(frozen=True)
class Tapped:
    """The homework an /assignments button names, found in the tapper's group: its quiz at
    the latest version (None: gone) and the group's time zone."""

    assignment: Assignment
    bank: Bank | None
    zone: str


OnHomework = Callable[
    [CallbackQuery, Context, render_callbacks.HomeworkButton, Tapped, Catalog], Awaitable[None]
]
"""What an /assignments button does to its homework."""


def _on_homework(run: OnHomework, *, open_only: bool = True) -> HomeworkStep:
    """``run`` on the button's homework, which must be the group's (and, ``open_only``,
    still open).

    Raises:
        UnknownHomework, WrongChat, HomeworkClosed, HomeworkCancelled: as
            :func:`on_homework_button`.
    """

    async def on_homework(
        query: CallbackQuery, context: Context, button: render_callbacks.HomeworkButton, t: Catalog
    ) -> None:
        assert query.message is not None
        chat_id = query.message.chat.id
        hw = reach(context, HomeworkService)
        assignment = await hw.assignment(button.assignment_id)
        if assignment.chat_id != chat_id:
            raise rules.WrongChat(chat_id)
        bank = await jobs.bank_or_none(context, assignment)
        zone = await hw.zone(chat_id)
        if open_only and assignment.status != OPEN:
            raise (HomeworkCancelled if assignment.status == "cancelled" else HomeworkClosed)(
                assignment
            )
        await run(query, context, button, Tapped(assignment, bank, zone), t)

    return on_homework


async def _list(
    query: CallbackQuery, context: Context, button: render_callbacks.HomeworkButton, t: Catalog
) -> None:
    """/assignments again."""
    assert query.message is not None
    await toast(query)
    await edit(query, await list_screen(context, query.message.chat.id, t))


async def _report(
    query: CallbackQuery,
    context: Context,
    button: render_callbacks.HomeworkButton,
    tapped: Tapped,
    t: Catalog,
) -> None:
    """The results file, privately to the admin who tapped (open or not)."""
    await toast(query)
    await _report_to(query, context, tapped.assignment, t)


async def _extend_choice(
    query: CallbackQuery,
    context: Context,
    button: render_callbacks.HomeworkButton,
    tapped: Tapped,
    t: Catalog,
) -> None:
    """How long to extend by."""
    await toast(query)
    await edit(query, screens.extend_choice(tapped.assignment, tapped.bank, tapped.zone, t, HTML))


async def _extend_by(
    query: CallbackQuery,
    context: Context,
    button: render_callbacks.HomeworkButton,
    tapped: Tapped,
    t: Catalog,
) -> None:
    """Extend the deadline by ``value`` seconds; the group's post and the list say so."""
    hw, bank, zone = reach(context, HomeworkService), tapped.bank, tapped.zone
    assignment = tapped.assignment
    extended = await hw.extend(assignment.id, assignment.deadline + button.value)
    await toast(query)
    await jobs.edit_post(context, extended)
    line = t(
        "hw.extended",
        title=screens.homework_title(bank, extended, t),
        date=screens.local_time(extended.deadline, zone, t),
        zone=zone,
        relative=t.relative(extended.deadline - hw.now()),
    )
    await edit(query, _headed(line, await list_screen(context, assignment.chat_id, t)))


async def _ask_cancel(
    query: CallbackQuery,
    context: Context,
    button: render_callbacks.HomeworkButton,
    tapped: Tapped,
    t: Catalog,
) -> None:
    """Ask whether to cancel, saying how many members are part-way through."""
    members = [
        m
        for m in await reach(context, HomeworkService).members(tapped.assignment.id)
        if not m.counted and m.attempt_status == "active"
    ]
    await toast(query)
    await edit(
        query, screens.cancel_question(tapped.assignment, tapped.bank, len(members), t, HTML)
    )


async def _cancel(
    query: CallbackQuery,
    context: Context,
    button: render_callbacks.HomeworkButton,
    tapped: Tapped,
    t: Catalog,
) -> None:
    """Cancel the homework (the answer to :func:`_ask_cancel`); each member part-way through
    is told privately, in their language."""
    hw, bank = reach(context, HomeworkService), tapped.bank
    cancelled, members = await hw.cancel(tapped.assignment.id)
    await toast(query)
    if await hw.mark_final(cancelled.id):  # claimed: the pass won't edit it again
        await jobs.edit_post(context, cancelled)
    line = t("hw.cancel_done", title=screens.homework_title(bank, cancelled, t))
    await edit(query, _headed(line, await list_screen(context, tapped.assignment.chat_id, t)))
    for member in members:  # each privately, in their language
        member_t = _catalog(member.language)
        try:
            await send(
                context,
                member.user_id,
                screens.homework_cancelled_member(cancelled, bank, member_t, HTML),
            )
        except TelegramError as exc:
            log.info(
                "homework %s: user %s not told of the cancellation: %r",
                cancelled.id,
                member.user_id,
                exc,
            )


async def _close(
    query: CallbackQuery,
    context: Context,
    button: render_callbacks.HomeworkButton,
    tapped: Tapped,
    t: Catalog,
) -> None:
    """Close the homework early: the list says so, the group gets the results.

    Raises:
        HomeworkClosed: it closed meanwhile.
    """
    closed = await reach(context, HomeworkService).close(tapped.assignment.id, early=True)
    if closed is None:
        raise HomeworkClosed(tapped.assignment)
    await toast(query)
    line = t("hw.closed_early", title=screens.homework_title(tapped.bank, closed, t))
    await edit(query, _headed(line, await list_screen(context, tapped.assignment.chat_id, t)))
    await jobs.close_and_announce(context, closed)


async def _keep(
    query: CallbackQuery,
    context: Context,
    button: render_callbacks.HomeworkButton,
    tapped: Tapped,
    t: Catalog,
) -> None:
    """Nothing (the question's "Keep" button is ``list``'s; a ``keep`` button changes
    nothing)."""


STEPS: dict[str, HomeworkStep] = {
    "list": _list,
    "report": _on_homework(_report, open_only=False),
    "extend": _on_homework(_extend_choice),
    "by": _on_homework(_extend_by),
    "cancel": _on_homework(_ask_cancel),
    "confirm": _on_homework(_cancel),
    "close": _on_homework(_close),
    "keep": _on_homework(_keep),
}
"""What each /assignments step does (:data:`bot.render.callbacks.HOMEWORK_ACTIONS`); all but
``list`` on homework of the tapper's group, and all but ``list`` and ``report`` on open
homework only."""
assert STEPS.keys() == set(render_callbacks.HOMEWORK_ACTIONS), (
    "an /assignments step without its entry"
)


def _thread(query: CallbackQuery) -> int | None:
    """The forum topic of the query's message (None outside topics)."""
    return thread_of(query.message) if isinstance(query.message, Message) else None


def _catalog(language: str) -> Catalog:
    return i18n.catalog(language if language in i18n.SUPPORTED else i18n.DEFAULT)


def _headed(line: str, screen: Screen) -> Screen:
    """``screen`` with ``line`` (plain text) above it."""
    return Screen(f"{HTML.escape(line)}\n\n{screen.text}", screen.keyboard)


async def _report_to(
    query: CallbackQuery, context: Context, assignment: Assignment, t: Catalog
) -> None:
    """The results file of homework, privately to the admin who tapped "Results"; one who
    never started the bot is told in the group how to."""
    user = query.from_user
    name = display_name(user)
    try:
        await jobs.send_report(context, assignment, user.id, await catalog_for(context, user))
    except Forbidden:
        await jobs.tell_open_bot(context, assignment.chat_id, _thread(query), name, t)
        return
    try:
        await context.bot.send_message(
            assignment.chat_id,
            HTML.escape(t("hw.report_sent", name=screens.unmention(name))),
            message_thread_id=_thread(query),
        )
    except (Dropped, TelegramError) as exc:
        log.info("chat %s: report note not sent: %r", assignment.chat_id, exc)


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
    "STEPS",
    "cmd_assign",
    "cmd_assignments",
    "cmd_timezone",
    "on_assign_button",
    "on_homework_button",
    "on_migrate",
    "on_removed",
    "open_link",
]
