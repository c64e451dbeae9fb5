"""Thin PTB callbacks of spaced review: /review, /remind, /stats with its chart, review buttons,
and the daily reminders on PTB's JobQueue.

The rules are in :mod:`bot.features.learning.rules` and
:class:`bot.features.learning.service.LearningService`; the screens in :mod:`bot.render`; the chart
in :mod:`bot.features.learning.chart`.
"""

from __future__ import annotations

import asyncio
import logging
import math

from telegram import CallbackQuery, Update, User
from telegram.error import Forbidden, TelegramError

from bot import i18n
from bot.config import DEFAULT_JOB_SENDS_PER_SECOND
from bot.features.learning import chart
from bot.features.learning import rules as learning
from bot.features.learning import screens as learning_screens
from bot.features.learning.ports import Learner
from bot.features.learning.service import LearningService
from bot.features.preferences.catalogs import catalog_for
from bot.features.private.service import QuizService
from bot.i18n import Catalog
from bot.kernel import engine
from bot.kernel.ports import StorageError
from bot.render import callbacks as render_callbacks
from bot.render import limits as render_limits
from bot.render import text as render_text
from bot.render.screen import Screen
from bot.render.text import HTML
from bot.telegram.common import Context, edit, edit_keyboard, keyboard, reach, send, toast
from bot.telegram.outcomes import Kind, classify

log = logging.getLogger(__name__)

TOASTS: dict[type[engine.QuizError], str] = {
    learning.CardReviewed: "toast_card_reviewed",
    learning.CardGone: "toast_card_gone",
    learning.NoSuchCard: "toast_invalid",
}
"""Spaced review's refusals -> the catalog key of the toast that answers a tap they refuse
(merged by :data:`bot.routes.TOASTS`)."""

REMINDER_INTERVAL = 1.0
"""Seconds between two reminder passes (a PTB JobQueue job)."""


def reminders_per_pass(context: Context) -> int:
    """Reminders a pass takes at most: what the jobs' send budget allows in one interval
    (``Settings.job_sends_per_second``; the budget, shared with the other jobs, paces them);
    :func:`bot.features.learning.rules.reminder_time` spreads the due ones over each hour first."""
    settings = context.bot_data.settings
    rate = settings.job_sends_per_second if settings is not None else DEFAULT_JOB_SENDS_PER_SECOND
    interval = context.bot_data.reminder_interval or REMINDER_INTERVAL
    return max(1, math.ceil(rate * interval))


# --- commands ------------------------------------------------------------------------------


async def cmd_review(update: Update, context: Context) -> None:
    """/review: the earliest due card, or when the next one is due."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    t = await catalog_for(context, user)
    await send_next(context, chat.id, user, t, attempt=None)


async def cmd_remind(update: Update, context: Context) -> None:
    """/remind: turn the daily reminder on or off (it is off by default)."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    t = await catalog_for(context, user)
    on = await reach(context, LearningService).toggle_reminders(user.id, t.language)
    await send(context, chat.id, learning_screens.remind_status(on, t, HTML))


async def cmd_stats(update: Update, context: Context) -> None:
    """/stats: a chart (PNG) with the text summary as its caption; the text alone for a user
    with no history, or when the chart could not be made. A summary longer than a caption
    allows follows the chart as messages."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    quiz, service = reach(context, QuizService), reach(context, LearningService)
    t = await catalog_for(context, user)
    await service.settled(user.id)  # the answers just given are in the chart and the counts
    item = await service.due(user.id)
    due = item.due_count if item is not None else 0
    records = await quiz.stats(user.id)
    screens = learning_screens.stats_with_review(
        records, await quiz.named_banks(r.bank_id for r in records), due, t, HTML
    )
    progress = await service.progress(user.id)
    png = None
    if not progress.empty:
        try:
            png = await asyncio.to_thread(chart.render_png, progress, t)
        except Exception:  # a chart is a bonus: the text still goes out
            log.exception("could not draw the chart of user %s", user.id)
    if png is None:
        for screen in screens:
            await send(context, chat.id, screen)
        return
    if (
        len(screens) == 1
        and render_text.html_length(screens[0].text) <= render_limits.MAX_CAPTION_UTF16
    ):
        await context.bot.send_photo(
            chat.id, png, caption=screens[0].text, reply_markup=keyboard(screens[0])
        )
        return
    await context.bot.send_photo(chat.id, png)
    for screen in screens:
        await send(context, chat.id, screen)


# --- buttons -------------------------------------------------------------------------------


async def send_next(
    context: Context, chat_id: int, user: User, t: Catalog, *, attempt: engine.Attempt | None
) -> None:
    """Send what a review session shows next: a card's question, or when the next is due."""
    service = reach(context, LearningService)
    item = await service.next_item(user.id, attempt)
    if item is None:
        next_due = await service.next_due(user.id)
        next_in = None if next_due is None else next_due - service.now()
        await send(context, chat_id, learning_screens.review_done(next_in, t, HTML))
        return
    await send(
        context,
        chat_id,
        learning_screens.review_question(item, t, HTML, attempt.id if attempt else 0),
    )


def _chat_id(query: CallbackQuery) -> int:
    return query.message.chat.id if query.message else query.from_user.id


async def on_missed(query: CallbackQuery, context: Context, attempt_id: int, t: Catalog) -> None:
    """ "Review what I missed" on an end screen: a review session of the attempt's missed
    questions (then of whatever else is due); once per end screen (a second tap is refused as
    stale), unless sending failed transiently."""
    service = reach(context, QuizService)
    attempt, _ = await service.review(query.from_user.id, attempt_id)
    await toast(query)
    try:
        await send_next(context, _chat_id(query), query.from_user, t, attempt=attempt)
    except TelegramError as exc:
        if classify(exc).kind is Kind.TRANSIENT:
            service.not_reviewed(attempt.id)
        raise
    await service.note_reviewed(attempt.id)


async def on_start(query: CallbackQuery, context: Context, t: Catalog) -> None:
    """ "Review now" (in /stats or on a reminder, however old): like /review."""
    await toast(query)
    await send_next(context, _chat_id(query), query.from_user, t, attempt=None)


async def _session_attempt(context: Context, attempt_id: int) -> engine.Attempt | None:
    if not attempt_id:
        return None
    try:
        return await reach(context, QuizService).attempt(attempt_id)
    except engine.QuizError:
        return None


async def on_card_answer(
    query: CallbackQuery,
    context: Context,
    button: render_callbacks.CardAnswerButton,
    t: Catalog,
    *,
    ticked: int | None = None,
) -> None:
    """A review tap: rate the card, answer the query, edit the question into its feedback.
    Refusals (reviewed meanwhile, bank removed, someone else's) raise a QuizError, answered
    with a toast by the router; nothing changes. With ``ticked``: a Submit of those slots."""
    service = reach(context, LearningService)
    try:
        item, correct, rated = await service.review(
            query.from_user.id, button.card_id, button.reps, button.slot, ticked=ticked
        )
    except StorageError:
        await toast(query)
        log.exception("could not record a review of user %s", query.from_user.id)
        await send(context, _chat_id(query), Screen(HTML.escape(t("storage_failed"))))
        return
    await toast(query)
    attempt = await _session_attempt(context, button.attempt_id)
    more = await service.next_item(query.from_user.id, attempt)
    next_card = (
        None
        if more is None
        else render_callbacks.CardNextButton(rated.id, rated.reps, button.attempt_id)
    )
    next_in = None
    if more is None:
        next_due = await service.next_due(query.from_user.id)
        next_in = None if next_due is None else next_due - service.now()
    await edit(
        query,
        learning_screens.review_feedback(
            item,
            button.slot,
            correct,
            t,
            HTML,
            next_card=next_card,
            next_in=next_in,
            left=0 if more is None else more.due_count,
            ticked=ticked or 0,
        ),
    )


async def on_card_tick(
    query: CallbackQuery, context: Context, button: render_callbacks.CardTickButton, t: Catalog
) -> None:
    """A tick on a card's question with several right options: checked, then the keyboard is
    edited in place; nothing is stored (the ticks live in the buttons until Submit)."""
    ticked = button.ticked ^ (1 << button.slot)
    item = await reach(context, LearningService).tick(
        query.from_user.id, button.card_id, button.reps, ticked
    )
    await toast(query)
    await edit_keyboard(
        query, learning_screens.review_question(item, t, HTML, button.attempt_id, ticked)
    )


async def on_card_submit(
    query: CallbackQuery, context: Context, button: render_callbacks.CardSubmitButton, t: Catalog
) -> None:
    """Submit on a card's question with several right options: rated as a review tap is
    (:func:`on_card_answer`), right only for the exact set of right options."""
    await on_card_answer(
        query,
        context,
        render_callbacks.CardAnswerButton(button.card_id, button.reps, 0, button.attempt_id),
        t,
        ticked=button.ticked,
    )


async def on_card_next(
    query: CallbackQuery, context: Context, button: render_callbacks.CardNextButton, t: Catalog
) -> None:
    """ "Next question" on a review's feedback: the next card (once per feedback)."""
    card = await reach(context, LearningService).card(button.card_id)
    if card.user_id != query.from_user.id:
        raise engine.NotYourAttempt(button.card_id)
    learning = reach(context, LearningService)
    if not learning.take_next(button.card_id, button.reps):
        raise engine.StaleQuestion(button.reps)
    await toast(query)
    attempt = await _session_attempt(context, button.attempt_id)
    await send_next(context, _chat_id(query), query.from_user, t, attempt=attempt)
    await learning.note_next(button.card_id, button.reps)


# --- reminders -----------------------------------------------------------------------------


async def remind_pass(context: Context) -> int:
    """One reminder pass (a JobQueue job): send the reminders due now, at most
    :func:`reminders_per_pass`, all at once (the jobs' send budget paces them; each waits for
    its own reads and writes meanwhile, not for the others'). A user who blocked the bot
    (403) gets none until they come back; a transient failure leaves the reminder due for the
    next pass; another failure is logged.

    Returns:
        How many reminders were sent.
    """
    service = reach(context, LearningService)
    sent = await asyncio.gather(
        *(
            _remind(context, learner)
            for learner in await service.reminders_due(reminders_per_pass(context))
        )
    )
    return sum(sent)


async def _remind(context: Context, learner: Learner) -> bool:
    """Send one learner's reminder (claimed by
    :meth:`bot.features.learning.service.LearningService.reminders_due`); whether it was sent."""
    service = reach(context, LearningService)
    t = i18n.catalog(learner.language or i18n.DEFAULT)
    item = await service.due(learner.user_id)
    if item is None:
        await service.reminded(learner)  # nothing showable after all: tomorrow again
        return False
    try:
        await send(context, learner.user_id, learning_screens.reminder(item.due_count, t, HTML))
    except Forbidden:
        log.info("user %s blocked the bot: reminders stop until they come back", learner.user_id)
        await service.blocked(learner)
        return False
    except TelegramError as exc:
        if classify(exc).kind is Kind.TRANSIENT:
            log.warning("reminder to user %s not sent: %r", learner.user_id, exc)
            await service.not_reminded(learner)  # due again: the next pass tries again
            return False
        log.error("reminder to user %s refused", learner.user_id, exc_info=exc)
    await service.reminded(learner)
    return True


async def on_any_update(update: object, context: Context) -> None:
    """Every update from a person (handler group -1): a user who had blocked the bot and
    writes again gets reminders again. A set lookup for everyone else."""
    if isinstance(update, Update) and update.effective_user is not None:
        await reach(context, LearningService).came_back(update.effective_user.id)
