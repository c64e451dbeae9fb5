"""Homework's sends and its pass: the group message (posted, edited with the progress, closed),
the results in the group, the report (CSV and item analysis) to the admin who set it, the
members' reminders, and :func:`homework_pass`, the repeating JobQueue job that asks
:meth:`bot.features.homework.service.HomeworkService.due` what is due at the clock and does it.

Everything the pass does is stored and claimed first (``close``, ``mark_*``: compare-and-set),
so a restart reschedules it by itself and nothing is sent twice. Telegram's limits: a group
gets at most 20 messages a minute (the rate limiter's budget, asked first with
:meth:`~bot.telegram.limits.QuizRateLimiter.room`: a group without room is left for a later
pass, before anything is claimed), and the pass's sends, all of them, are paced by the jobs'
one send budget (``jobsends.job_calls``: the pass runs as a job), under Telegram's ~30 messages
a second overall (Bot API FAQ, "My bot is hitting limits"), leaving room for the bot's answers
to its users.
Results come first: a pass that posted results does nothing else, so no group waits for its
results behind other groups' edits, reports or reminders.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Iterable

from telegram import InputFile, Message
from telegram.error import Forbidden, TelegramError

from bot import i18n
from bot.features.groups import results
from bot.features.homework import screens
from bot.features.homework.rules import SEND_LEASE, Assignment, Progress, Reminder
from bot.features.homework.service import HomeworkService
from bot.features.preferences.service import PreferencesService
from bot.features.private.service import QuizService
from bot.i18n import Catalog
from bot.kernel.bank import Bank
from bot.kernel.engine import UnknownBank
from bot.render import links as render_links
from bot.render import text as render_text
from bot.render.screen import Button, Screen, UrlButton
from bot.render.text import HTML
from bot.telegram.chats import is_admin_id
from bot.telegram.common import Context, keyboard, reach, send
from bot.telegram.limits import SESSION_RESERVE, Dropped, QuizRateLimiter
from bot.telegram.outcomes import Kind, classify

log = logging.getLogger(__name__)

HOMEWORK_INTERVAL = 1.0
"""Seconds between two homework passes (``BotData.homework_interval`` overrides it)."""

_RUNNING: weakref.WeakKeyDictionary[object, asyncio.Lock] = weakref.WeakKeyDictionary()


def room(context: Context, chat_id: int) -> bool:
    """Whether the group's budget has room for one more optional message now, besides what a
    running session keeps (:data:`~bot.telegram.limits.SESSION_RESERVE`)."""
    limiter = context.bot.rate_limiter
    if not isinstance(limiter, QuizRateLimiter):
        return True
    return limiter.room(chat_id) >= 1 + SESSION_RESERVE


async def bank_or_none(context: Context, assignment: Assignment) -> Bank | None:
    """The homework's quiz at its latest version, or None when it is gone."""
    try:
        return await reach(context, QuizService).bank(assignment.bank_id)
    except UnknownBank:
        return None


async def post_screen(
    context: Context, assignment: Assignment, finished: int | None = None
) -> Screen:
    """The group message of ``assignment`` as it stands (its language, the chat's zone)."""
    hw = reach(context, HomeworkService)
    t = i18n.catalog(assignment.language)
    return screens.homework_post(
        assignment,
        await bank_or_none(context, assignment),
        assignment.finished if finished is None else finished,
        zone=await hw.zone(assignment.chat_id),
        now=hw.now(),
        bot_username=context.bot.username,
        t=t,
        m=HTML,
    )


async def post(context: Context, assignment: Assignment) -> Message:
    """Send the group message of ``assignment`` and record it (``posted``).

    Raises:
        Dropped: the group's budget had no room (nothing recorded).
        TelegramError: Telegram refused it.
    """
    screen = await post_screen(context, assignment)
    message = await context.bot.send_message(
        assignment.chat_id,
        screen.text,
        reply_markup=keyboard(screen),
        message_thread_id=assignment.thread_id,
    )
    await reach(context, HomeworkService).posted(assignment.id, message.message_id)
    return message


async def edit_post(context: Context, assignment: Assignment, finished: int | None = None) -> bool:
    """Edit the group message of ``assignment`` into what it shows now (progress, closed,
    cancelled, a new deadline); False when it could not be (no message, gone, the bot
    removed, no room in the group's budget). Never raises for Telegram's refusals."""
    if assignment.message_id is None:
        return False
    screen = await post_screen(context, assignment, finished)
    try:
        await context.bot.edit_message_text(
            screen.text,
            chat_id=assignment.chat_id,
            message_id=assignment.message_id,
            reply_markup=keyboard(screen),
        )
    except Dropped as exc:
        log.info("homework %s: group message not edited: %s", assignment.id, exc.reason)
        return False
    except TelegramError as exc:
        kind = classify(exc).kind
        if kind is Kind.NOT_MODIFIED:
            return True
        log.info(
            "homework %s: group message not edited (%s): %s", assignment.id, kind.value, exc.message
        )
        return False
    return True


async def announce(context: Context, assignment: Assignment) -> bool:
    """Post the results of closed homework in its group (claimed by the caller with
    ``mark_announced``; the group message's edit into "closed" is a later step, ``finals``).
    False when the group is out of reach (the bot removed: the admin's report still goes)."""
    hw = reach(context, HomeworkService)
    outcome = await hw.results(assignment.id)
    bank = await bank_or_none(context, assignment)
    t = i18n.catalog(assignment.language)
    screen = screens.homework_results(outcome, bank, bot_username=context.bot.username, t=t, m=HTML)
    try:
        await context.bot.send_message(
            assignment.chat_id,
            screen.text,
            reply_markup=keyboard(screen),
            message_thread_id=assignment.thread_id,
        )
    except (Dropped, TelegramError) as exc:
        await _settle_failed(hw, assignment, "results", exc)
        return False
    await hw.settle(assignment.id, "results", sent=True)
    return True


async def _settle_failed(
    hw: HomeworkService, assignment: Assignment, what: str, exc: Exception
) -> None:
    """Settle a claimed send that failed: surely not sent (a flood wait or no connection that
    outlasted the retries, a reply dropped on purpose): released, a later pass sends it; its
    result unknown (a time-out, a dropped connection, a 5xx): left to its lease, so it is sent
    again after :data:`~bot.features.homework.rules.SEND_LEASE` (twice, at worst, never lost);
    refused for good (the chat out of reach, a bad request): settled, nothing more to do."""
    outcome = classify(exc) if isinstance(exc, TelegramError) else None
    if outcome is None or (outcome.kind is Kind.TRANSIENT and outcome.unsent):
        await hw.settle(assignment.id, what, sent=False)
        log.warning(
            "homework %s: %s not sent to chat %s (%r): a later pass sends them",
            assignment.id,
            what,
            assignment.chat_id,
            exc,
        )
    elif outcome.kind is Kind.TRANSIENT:
        log.warning(
            "homework %s: %s may not have reached chat %s (%r): sent again after %.0f s"
            " unless confirmed",
            assignment.id,
            what,
            assignment.chat_id,
            exc,
            SEND_LEASE,
        )
    else:
        await hw.settle(assignment.id, what, sent=True)
        log.warning(
            "homework %s: %s not sent to chat %s: %r", assignment.id, what, assignment.chat_id, exc
        )


async def send_report(
    context: Context, assignment: Assignment, user_id: int, t: Catalog | None = None
) -> None:
    """Send the homework's CSV (sendDocument) and item analysis to ``user_id`` privately, in
    ``t``'s language (None: their /language choice, else the group's language).

    Raises:
        Forbidden: they never started the bot, or blocked it.
    """
    hw = reach(context, HomeworkService)
    outcome = await hw.results(assignment.id)
    bank = await bank_or_none(context, assignment)
    if t is None:
        chosen = await reach(context, PreferencesService).chosen_language(user_id)
        t = i18n.catalog(chosen or assignment.language)
    zone = await hw.zone(assignment.chat_id)
    data = results.homework_csv(outcome.rows).encode("utf-8-sig")
    filename = f"homework-{assignment.id}-{assignment.bank_id}.csv"
    caption = t("hw.report_caption", title=screens.homework_title(bank, assignment, t), zone=zone)
    await context.bot.send_document(
        user_id,
        InputFile(data, filename=filename),
        caption=HTML.escape(render_text.clip(caption, 900)),
    )
    for screen in screens.item_analysis(outcome, bank, t, HTML):
        await send(context, user_id, screen)


async def report(context: Context, assignment: Assignment) -> None:
    """The report of closed homework (claimed by the caller with ``mark_reported``) to the
    admin who set it, unless they no longer administer the group (when Telegram can't tell,
    the bot removed from it, they get it: they were an admin when they set it). An admin who
    never started the bot (Telegram refuses a bot's first message) is told in the group how to
    get it (the "Results" button under /assignments), when the group's budget has room."""
    hw = reach(context, HomeworkService)
    user_id = assignment.set_by
    if not user_id or await is_admin_id(context, assignment.chat_id, user_id) is False:
        log.info(
            "homework %s: no report sent (set by %s, not an admin now)",
            assignment.id,
            user_id or "an anonymous admin",
        )
        await hw.settle(assignment.id, "report", sent=True)
        return
    try:
        await send_report(context, assignment, user_id)
    except Forbidden:
        await hw.settle(assignment.id, "report", sent=True)
        await tell_open_bot(
            context,
            assignment.chat_id,
            assignment.thread_id,
            assignment.set_by_name,
            i18n.catalog(assignment.language),
        )
    except TelegramError as exc:
        await _settle_failed(hw, assignment, "report", exc)
    else:
        await hw.settle(assignment.id, "report", sent=True)


async def tell_open_bot(
    context: Context, chat_id: int, thread_id: int | None, name: str, t: Catalog
) -> None:
    """Tell ``name`` in the group to start a chat with the bot to get the results file (a
    button opens it); skipped when the group's budget has no room."""
    button = Button(t("button_open_bot"), UrlButton(render_links.deep_link(context.bot.username)))
    screen = Screen(
        HTML.escape(t("hw.report_open_bot", name=screens.unmention(name))), ((button,),)
    )
    try:
        await context.bot.send_message(
            chat_id, screen.text, reply_markup=keyboard(screen), message_thread_id=thread_id
        )
    except (Dropped, TelegramError) as exc:
        log.info("chat %s: not told how to get the results: %r", chat_id, exc)


async def remind(context: Context, reminder: Reminder) -> None:
    """A member's private reminder (claimed by the caller), in their language, with a button
    that resumes the homework. A member who blocked the bot is skipped (logged)."""
    assignment, member = reminder.assignment, reminder.member
    hw = reach(context, HomeworkService)
    t = i18n.catalog(member.language if member.language in i18n.SUPPORTED else i18n.DEFAULT)
    screen = screens.homework_reminder(
        assignment,
        await bank_or_none(context, assignment),
        zone=await hw.zone(assignment.chat_id),
        now=hw.now(),
        bot_username=context.bot.username,
        t=t,
        m=HTML,
    )
    try:
        await send(context, member.user_id, screen)
    except TelegramError as exc:
        log.info(
            "homework %s: reminder to user %s not sent: %r", assignment.id, member.user_id, exc
        )


async def close_and_announce(context: Context, assignment: Assignment) -> None:
    """Closed homework's results in the group (if not claimed yet), its group message edited
    into "closed", and the report to the admin (if not claimed yet): what an early close does
    at once and the pass does at the deadline."""
    hw = reach(context, HomeworkService)
    if await hw.mark_announced(assignment.id):
        await announce(context, assignment)
        if await hw.mark_final(assignment.id):
            await edit_post(context, await hw.assignment(assignment.id))
    if await hw.mark_reported(assignment.id):
        await report(context, assignment)


async def homework_pass(context: Context) -> int:
    """One homework pass (a JobQueue job): close the homework whose deadline passed and post
    their results; when no results were due, edit the group messages of closed and cancelled
    homework into their last state, send the admins' reports, edit progress and send
    reminders. Each phase's items go out concurrently, paced by the jobs' send budget and each
    group's budget. A pass still running when the next is due makes that one a no-op.

    Returns:
        How many items it did.
    """
    app = context.application
    lock = _RUNNING.setdefault(app, asyncio.Lock())
    if lock.locked():
        return 0
    async with lock:
        return await _pass(context)


async def _each(items: Iterable[Awaitable[bool]]) -> int:
    """Run ``items`` concurrently; how many did something."""
    return sum(await asyncio.gather(*items))


async def _pass(context: Context) -> int:
    hw = reach(context, HomeworkService)
    due = await hw.due()
    done = sum([await hw.close(a.id, early=False) is not None for a in due.closing])
    announced = await _each(_announce(context, a) for a in due.announcing)
    if announced or done:
        return done + announced  # results first: the rest waits for the next pass
    done += await _each(_final(context, a) for a in due.finals)
    done += await _each(_report(context, a) for a in due.reporting)
    done += await _each(_progress(context, p) for p in due.progress)
    done += await _each(_remind(context, r) for r in due.reminders)
    return done


async def _announce(context: Context, assignment: Assignment) -> bool:
    """The results of ``assignment`` if its group's budget has room (asked before the claim)."""
    if not room(context, assignment.chat_id):
        return False  # the next pass
    if not await reach(context, HomeworkService).mark_announced(assignment.id):
        return False
    await announce(context, assignment)
    return True


async def _final(context: Context, assignment: Assignment) -> bool:
    """The last edit of a group message (closed or cancelled), if the group has room."""
    hw = reach(context, HomeworkService)
    if not room(context, assignment.chat_id) or not await hw.mark_final(assignment.id):
        return False
    await edit_post(context, await hw.assignment(assignment.id))
    return True


async def _report(context: Context, assignment: Assignment) -> bool:
    if not await reach(context, HomeworkService).mark_reported(assignment.id):
        return False
    await report(context, assignment)
    return True


async def _progress(context: Context, progress: Progress) -> bool:
    """Edit a group message's progress if the group's budget has room (asked before the
    claim)."""
    assignment = progress.assignment
    if not room(context, assignment.chat_id):
        return False
    if not await reach(context, HomeworkService).mark_progress(progress):
        return False
    await edit_post(context, assignment, progress.finished)
    return True


async def _remind(context: Context, reminder: Reminder) -> bool:
    if not await reach(context, HomeworkService).mark_reminded(reminder):
        return False
    await remind(context, reminder)
    return True
