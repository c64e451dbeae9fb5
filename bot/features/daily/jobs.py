"""The question of the day's pass (a repeating job, :data:`DAILY_INTERVAL`): each due day's post,
the reveal of the day before, the weekly leaderboard, and a chat the bot lost; what is due is
the daily service's to say (:class:`~bot.features.daily.service.DailyService`)."""

from __future__ import annotations

import logging

from telegram import Message
from telegram.error import ChatMigrated, TelegramError

from bot import i18n
from bot.features.daily import rules as daily
from bot.features.daily import screens
from bot.features.daily.service import Board, DailyService, Reveal, Run
from bot.features.preferences.service import PreferencesService
from bot.render.screen import Screen
from bot.render.text import HTML
from bot.telegram.common import Context, keyboard, reach
from bot.telegram.limits import QuizRateLimiter
from bot.telegram.outcomes import Kind, classify

log = logging.getLogger(__name__)


DAILY_INTERVAL = 5.0
"""Seconds between two daily passes (a PTB JobQueue job; the first runs as the bot starts, so
a post that fell due while it was down goes at once): a day's question goes out within this
of its time, plus the time the posts due before it take (the jobs' one send budget,
``jobsends.job_calls``: the pass runs as a job)."""


def _room(context: Context, chat_id: int) -> int:
    limiter = context.bot.rate_limiter
    return limiter.room(chat_id) if isinstance(limiter, QuizRateLimiter) else 1


async def daily_pass(context: Context) -> int:
    """One pass (a JobQueue job): reveal the day's questions whose next day came (an edit,
    if the group's budget has room: else at the next pass), then post each due chat's next
    question (never before its last one is revealed) and, on the chosen weekday, the weekly
    leaderboard; batch after batch until nothing is due, paced by the jobs' send budget. Every
    post is claimed in storage first, so
    nothing goes out twice.

    Returns:
        How many questions were posted.
    """
    service = reach(context, DailyService)
    waiting: set[int] = set()
    posted = 0
    while True:
        reveals = [r for r in await service.reveals_due() if r.post.chat_id not in waiting]
        for reveal in reveals:
            if not await _reveal(context, reveal):
                waiting.add(reveal.post.chat_id)
        due = [s for s in await service.due() if s.chat_id not in waiting]
        for schedule in due:
            run = await service.claim(schedule)
            if run is None:
                continue
            if run.post is None:
                continue
            if not await _post(context, run, schedule):
                # not again in this pass (one claimed again waits for the next)
                waiting.add(run.schedule.chat_id)
            else:
                posted += 1
                if run.board is not None:
                    await _board(context, run, run.board)
        if not reveals and not due:
            return posted


async def _reveal(context: Context, reveal: Reveal) -> bool:
    """Edit a day's post into its reveal; whether it is done (False: try at the next pass)."""
    post = reveal.post
    if _room(context, post.chat_id) < 1:
        return False
    t = i18n.catalog(post.language)
    screen = screens.daily_reveal(
        reveal.bank, post, reveal.question, reveal.tally, t, HTML, last=reveal.last
    )
    assert post.message_id is not None
    try:
        await context.bot.edit_message_text(
            screen.text, chat_id=post.chat_id, message_id=post.message_id, reply_markup=None
        )
    except TelegramError as exc:
        kind = classify(exc).kind
        if kind is Kind.TRANSIENT:
            log.warning("daily: reveal of post %s not sent: %r", post.post_id, exc)
            return False
        if kind is Kind.FORBIDDEN:
            await _lost(context, post.chat_id)
        elif kind not in (Kind.NOT_MODIFIED, Kind.GONE, Kind.MIGRATED):
            log.error("daily: reveal of post %s refused", post.post_id, exc_info=exc)
    await reach(context, DailyService).mark_post_revealed(post.post_id)
    return True


async def _post(context: Context, run: Run, before: daily.DailySchedule) -> bool:
    """Send the day's question of a claimed run; whether it went out. A chat where the bot
    may no longer post loses its schedule (whoever set it is told); an upgraded group is
    moved and the question sent there. A send that surely did not reach Telegram is claimed
    again by a later pass (``before``: the schedule as it was before the claim); one whose
    result is unknown (a time-out, a dropped connection, a 5xx) is never sent twice: the post
    stays "sending", and the first member's tap on it tells its message."""
    post, schedule, service = run.post, run.schedule, reach(context, DailyService)
    assert post is not None and run.question is not None
    t = i18n.catalog(post.language)
    screen = screens.daily_question(run.bank, post, run.question, t, HTML)
    chat_id = post.chat_id
    for _ in range(2):
        try:
            message = await _send(context, chat_id, screen, schedule.thread_id)
        except ChatMigrated as exc:
            await service.move_chat(chat_id, exc.new_chat_id)
            chat_id = exc.new_chat_id
            continue
        except TelegramError as exc:
            outcome = classify(exc)
            if outcome.kind is Kind.TRANSIENT and not outcome.unsent:
                log.warning(
                    "daily: question of post %s may not have been sent (%r): not sent "
                    "again; a tap on it opens it",
                    post.post_id,
                    exc,
                )
                return False
            if outcome.kind is Kind.TRANSIENT and chat_id == post.chat_id:
                again = await service.not_sent(run, before)
                log.warning(
                    "daily: question of post %s not sent (%r)%s",
                    post.post_id,
                    exc,
                    ": a later pass sends it" if again else "",
                )
                return False
            await service.not_posted(post)
            if outcome.kind is Kind.FORBIDDEN:
                await _lost(context, chat_id)
            else:
                log.warning("daily: question of post %s not sent: %r", post.post_id, exc)
            return False
        await service.posted(post.post_id, message.message_id)
        return True
    await service.not_posted(post)
    return False


async def _lost(context: Context, chat_id: int) -> None:
    service = reach(context, DailyService)
    schedule = await service.schedule(chat_id)
    if await service.lost(chat_id) and schedule is not None and schedule.set_by:
        known = await service.bot_chat(chat_id)
        await _tell(
            context,
            schedule.set_by,
            schedule.language,
            "daily_lost",
            chat=known.title if known else str(chat_id),
        )


async def _board(context: Context, run: Run, board: Board) -> None:
    """The weekly leaderboard after the day's question (optional: within the budget)."""
    if _room(context, board.chat_id) < 1:
        log.info("daily: leaderboard of %s skipped (the group's budget is spent)", board.chat_id)
        return
    t = i18n.catalog(board.language)
    try:
        await _send(
            context,
            board.chat_id,
            screens.daily_board(board.bank, board.places, t, HTML),
            run.schedule.thread_id,
        )
    except TelegramError as exc:
        log.warning("daily: leaderboard of %s not sent: %r", board.chat_id, exc)


async def _send(
    context: Context, chat_id: int, screen: Screen, thread_id: int | None = None
) -> Message:
    return await context.bot.send_message(
        chat_id, screen.text, reply_markup=keyboard(screen), message_thread_id=thread_id
    )


async def _tell(context: Context, user_id: int, fallback: str, key: str, **params: object) -> None:
    """A private note to ``user_id`` in their language (their /language choice, else
    ``fallback``); nothing if they never started the bot or blocked it."""
    language = await reach(context, PreferencesService).chosen_language(user_id)
    t = i18n.catalog(language or fallback)
    try:
        await context.bot.send_message(user_id, HTML.escape(t(key, **params)))
    except TelegramError as exc:
        log.info("daily: could not tell user %s (%s)", user_id, exc)
