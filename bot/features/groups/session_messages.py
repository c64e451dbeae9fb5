"""A group session's messages: the question (with its picture, and who started the session on
the first), its mid-window clock edit, its reveal, the leaderboard; sent by
:class:`SessionMessages` for the session runner (:mod:`bot.features.groups.sessions`), which decides
when and sorts their failures.

Telegram lets a bot send about 20 messages a minute to one group (Bot API FAQ, "broadcasting"):
a session sends two per question (the question, then its reveal as an edit), at most one more
(the mid-window clock edit, "⏱ 10 s left", made only when the group's budget in the rate
limiter, :meth:`~bot.telegram.limits.QuizRateLimiter.room`, has room for it besides the calls
the session must make in the next minute), plus the leaderboard, and nothing per answer: each
member's answer is acknowledged privately by the callback query's toast, in that member's own
language. The rate limiter (:mod:`bot.telegram.limits`) counts and enforces the limit.
"""

from __future__ import annotations

import asyncio
import logging

from telegram.error import TelegramError

from bot import i18n
from bot.features.groups import pacing
from bot.features.groups import rules as group
from bot.features.groups import screens as groups_screens
from bot.features.groups.rules import GroupSession
from bot.features.groups.service import GroupService
from bot.kernel.ports import StorageError
from bot.render.text import HTML
from bot.telegram.common import Bot, keyboard, photo_input
from bot.telegram.groupminute import GROUP_TIME_PERIOD
from bot.telegram.limits import QuizRateLimiter
from bot.telegram.outcomes import Kind, classify

log = logging.getLogger(__name__)


def describe(exc: BaseException) -> str:
    """A short description of a failure for log lines."""
    return exc.message if isinstance(exc, TelegramError) else repr(exc)


class SessionMessages:
    """Sends and edits a group session's messages (the session runner's calls to Telegram).

    Args:
        bot: The application's bot.
        service: The group service.
    """

    def __init__(self, bot: Bot, service: GroupService) -> None:
        self.bot = bot
        self.service = service
        self.starter_names: dict[int, str] = {}
        """Session id -> who started it, for the first question's announcement."""

    async def reveal(self, session: GroupSession, position: int) -> None:
        """Edit the closed question's message into its reveal: correct option, counts,
        explanation.

        Raises:
            TelegramError: the edit failed (see :meth:`reveal_closed`).
        """
        service = self.service
        bank = await service.bank_of(session)
        answers, _ = await service.results(session)
        t = i18n.catalog(session.language)
        screen = groups_screens.group_reveal(
            bank,
            session,
            position,
            group.tally(session, position, answers),
            t,
            HTML,
            bot_username=self.bot.username,
        )
        assert session.message_id is not None
        await self.bot.edit_message_text(
            screen.text,
            chat_id=session.chat_id,
            message_id=session.message_id,
            reply_markup=keyboard(screen),
        )

    async def post_leaderboard(
        self, session: GroupSession, *, stopped_by: str | None = None
    ) -> None:
        """Post the standings (final, or so far when stopped) in the session's topic."""
        service = self.service
        answers, names = await service.results(session)
        t = i18n.catalog(session.language)
        screen = groups_screens.group_leaderboard(
            await service.bank_of(session),
            session,
            group.leaderboard(answers, names, session),
            t,
            HTML,
            stopped_by=stopped_by,
        )
        await self.bot.send_message(
            session.chat_id,
            screen.text,
            reply_markup=keyboard(screen),
            message_thread_id=session.message_thread_id,
        )

    async def clock(self, session: GroupSession) -> None:
        """The open question's one mid-window edit ("⏱ 10 s left"), if the group's budget has
        room for it besides what the session must send in the next minute
        (:func:`~bot.features.groups.pacing.calls_ahead`); skipped otherwise, and when the bot has
        no :class:`~bot.telegram.limits.QuizRateLimiter` to ask. Cosmetic: a failure is logged,
        never retried, and it never holds the session past the question's deadline."""
        limiter = self.bot.rate_limiter
        room = limiter.room(session.chat_id) if isinstance(limiter, QuizRateLimiter) else 0
        if room < 1 + pacing.calls_ahead(session, GROUP_TIME_PERIOD):
            log.info(
                "group session %s: clock edit of question %s skipped (room for %s calls "
                "in the group's budget)",
                session.id,
                session.position + 1,
                room,
            )
            return
        assert session.message_id is not None and session.deadline is not None
        t = i18n.catalog(session.language)
        screen = groups_screens.group_question(
            await self.service.bank_of(session), session, t, HTML, left=pacing.clock_left(session)
        )
        try:
            async with asyncio.timeout(max(0.1, session.deadline - self.service.now())):
                await self.bot.edit_message_text(
                    screen.text,
                    chat_id=session.chat_id,
                    message_id=session.message_id,
                    reply_markup=keyboard(screen),
                )
        except (TelegramError, TimeoutError) as exc:
            log.info(
                "group session %s: clock edit of question %s not made: %s",
                session.id,
                session.position + 1,
                describe(exc),
            )

    async def reveal_closed(self, session: GroupSession) -> None:
        """Edit the closed question's message into its reveal; a message that is gone or
        can't be edited is skipped."""
        try:
            await self.reveal(session, session.position - 1)
        except TelegramError as exc:
            if classify(exc).kind not in (Kind.GONE, Kind.NOT_MODIFIED):
                raise
            log.info(
                "group session %s: reveal of question %s skipped: %s",
                session.id,
                session.position,
                exc.message,
            )

    async def post_question(self, session: GroupSession) -> GroupSession:
        """Open the question at ``session.position``, post it; the session as it is then.

        A send that surely did not reach Telegram is undone (posted again on the retry); after
        any other failure the question stays open without a message id (it may have been
        posted: never post it twice), so its deadline runs and the session goes on.
        """
        service = self.service
        opened = await service.open(session)
        if opened is None:  # stopped or moved on meanwhile
            return await service.session(session.id)
        t = i18n.catalog(session.language)
        screen = groups_screens.group_question(
            await service.bank_of(session),
            opened,
            t,
            HTML,
            starter_name=self.starter_names.pop(session.id, None)
            if session.position == 0
            else None,
        )
        if screen.photo is not None:  # in a group the picture goes first, on its own: the
            # question's message stays a text message that the clock edit and reveal edit
            try:
                await self.bot.send_photo(
                    session.chat_id,
                    photo_input(screen.photo),
                    message_thread_id=session.message_thread_id,
                )
            except TelegramError as exc:  # the question still goes out, without it
                log.info(
                    "group session %s: picture of question %s not sent: %s",
                    session.id,
                    session.position + 1,
                    describe(exc),
                )
        try:
            message = await self.bot.send_message(
                session.chat_id,
                screen.text,
                reply_markup=keyboard(screen),
                message_thread_id=session.message_thread_id,
            )
        except Exception as exc:
            if surely_not_sent(exc):
                await service.unopen(opened)
                raise
            log.warning(
                "group session %s: question %s may not have been posted (%s); its window runs",
                session.id,
                session.position + 1,
                describe(exc),
            )
            return opened
        return await service.posted(opened, message.message_id)


def surely_not_sent(exc: BaseException) -> bool:
    """Whether a failed send surely did not post the message, so sending it again cannot post
    it twice: Telegram refused it (4xx, a flood wait), the connection could not be made, or the
    storage failed before the send. After a read time-out, a dropped connection or a 5xx it may
    have been posted (``outcomes.Outcome.unsent``)."""
    if isinstance(exc, StorageError):
        return True
    if not isinstance(exc, TelegramError):
        return False
    outcome = classify(exc)
    return outcome.kind is not Kind.TRANSIENT or outcome.unsent
