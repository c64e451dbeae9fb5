"""/assignments in a group (admins only): the list of the group's homework, and its buttons:
close early, extend (a choice, then by how long), cancel (a question, then the confirmation),
the results file to the admin. Each button's step is an entry of :data:`STEPS`; the
homework's refusals are toasted by the router (:data:`bot.features.homework.handlers.TOASTS`)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import CallbackQuery, Update
from telegram.error import Forbidden, TelegramError

from bot import i18n
from bot.features.groups import rules
from bot.features.homework import jobs, screens
from bot.features.homework.handlers import (
    _send,
    _thread,
)
from bot.features.homework.rules import (
    OPEN,
    Assignment,
    HomeworkCancelled,
    HomeworkClosed,
)
from bot.features.homework.service import HomeworkService
from bot.features.preferences.catalogs import catalog_for, group_catalog
from bot.i18n import Catalog
from bot.kernel.bank import Bank
from bot.render import callbacks as render_callbacks
from bot.render.screen import Screen
from bot.render.teacher_callbacks import HOMEWORK_ACTIONS
from bot.render.text import HTML
from bot.telegram.chats import (
    display_name,
    is_admin,
)
from bot.telegram.common import Context, edit, reach, send, toast
from bot.telegram.limits import Dropped

log = logging.getLogger(__name__)


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
"""What each /assignments step does (:data:`~bot.render.teacher_callbacks.HOMEWORK_ACTIONS`);
all but ``list`` on homework of the tapper's group, and all but ``list`` and ``report`` on
open homework only."""

assert STEPS.keys() == set(HOMEWORK_ACTIONS), "an /assignments step without its entry"


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
