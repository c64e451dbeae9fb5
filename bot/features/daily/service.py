"""The question of the day's use cases over its rules (:mod:`bot.features.daily.rules`) and its
storage port (:class:`bot.features.daily.ports.DailyStore`): set, change and turn off a chat's
schedule, the due pass's work (what to reveal, what to post, the weekly leaderboard), taps, the
chats the bot may post in. No Telegram, no SQL.

Everything due later is stored (a schedule's next post time, a post's closing time), so a
restart loses nothing: the first pass after it finds what came due meanwhile. What is done is
claimed with a compare-and-set first, so nothing is sent twice (a crash between the claim and
the send loses that one message instead).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from bot.features.daily import rules as daily
from bot.features.daily.ports import Claimed, DailyStore, NewPost, ZoneSource
from bot.features.daily.rules import (
    DEFAULT_MINUTE,
    BoardPlace,
    BotChat,
    DailyAnswer,
    DailyAnswered,
    DailyPost,
    DailySchedule,
    PostStatus,
    RunOut,
    Status,
    Tally,
    UnknownPost,
)
from bot.kernel.bank import Bank, Question
from bot.kernel.engine import QuizError
from bot.kernel.registry import BankRegistry

PASS_LIMIT = 50
"""Schedules (and reveals) one pass handles at most; the rest wait for the next pass."""


@dataclass(frozen=True)
class Reveal:
    """A post to reveal: its bank, question, figures, and whether it was the quiz's last (the
    schedule stopped)."""

    post: DailyPost
    bank: Bank | None
    """None: the bank's version is gone (the reveal says only that it closed)."""
    question: Question | None
    tally: Tally
    last: bool


@dataclass(frozen=True)
class Board:
    """The weekly leaderboard due with a post."""

    chat_id: int
    bank: Bank
    places: list[BoardPlace]
    language: str


@dataclass(frozen=True)
class Run:
    """One due schedule's work, claimed: post ``post`` (None: the quiz ran out and the
    schedule stopped), then the weekly ``board`` if due."""

    schedule: DailySchedule
    bank: Bank
    post: DailyPost | None
    question: Question | None
    board: Board | None


class DailyService:
    """The question of the day's use cases.

    Args:
        store: Where schedules, posts and answers are kept.
        banks: The bank registry shared by the services (or a mapping of featured banks).
        clock: Seconds since the epoch.
        zones: Where chats' time zones are kept (None: every chat is in UTC).
        rng: Random generator of the option shuffles.
    """

    def __init__(
        self,
        store: DailyStore,
        banks: BankRegistry | Mapping[str, Bank],
        *,
        clock: Callable[[], float] = time.time,
        zones: ZoneSource | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.registry = BankRegistry.of(banks)
        self._clock = clock
        self._zones = zones
        self._rng = rng or random.Random()

    def now(self) -> float:
        """The service's clock: seconds since the epoch."""
        return self._clock()

    async def zone(self, chat_id: int) -> str:
        """The chat's time zone (an IANA name; ``UTC`` when none is set)."""
        name = await self._zones.time_zone(chat_id) if self._zones is not None else None
        return name or daily.DEFAULT_ZONE

    # --- the schedule ----------------------------------------------------------------------

    async def set_daily(
        self,
        chat_id: int,
        chat_type: str,
        *,
        bank_id: str | None,
        minute: int | None,
        language: str,
        set_by: int,
        thread_id: int | None = None,
    ) -> DailySchedule:
        """Turn the chat's question of the day on (or change it): ``bank_id`` (None: the one
        set before, else the default bank) every day at ``minute`` (None: the time set before,
        else :data:`~bot.features.daily.rules.DEFAULT_MINUTE`) in the chat's time zone. The same
        quiz goes on where it was; another one starts at its first question.

        Raises:
            UnknownBank: no such quiz (or none at all), or a created quiz taken down.
            NoDailyQuestions: the quiz has no question a post can ask.
        """
        before = await self.store.schedule(chat_id)
        if bank_id is None:
            first = next(iter(self.registry.featured.values()), None)
            bank_id = (
                before.bank_id if before is not None else (first.id if first is not None else "")
            )
        bank = await self.registry.bank(bank_id)
        if not daily.daily_questions(bank):
            raise daily.NoDailyQuestions(bank.id)
        if minute is None:
            minute = before.minute if before is not None else DEFAULT_MINUTE
        now = self.now()
        next_at = daily.next_time(now, minute, await self.zone(chat_id))
        same = before is not None and before.bank_id == bank.id
        schedule = DailySchedule(
            chat_id=chat_id,
            chat_type=chat_type,
            thread_id=thread_id,
            bank_id=bank.id,
            language=language,
            minute=minute,
            run_out=before.run_out if before is not None else RunOut.AGAIN,
            board_day=before.board_day if before is not None else 6,
            status=Status.ON,
            round=before.round if same and before else 0,
            position=before.position if same and before else 0,
            next_at=next_at,
            set_by=set_by,
            updated_at=now,
        )
        await self.store.save_schedule(schedule)
        await self.store.reclose_posts(chat_id, next_at)  # revealed before the next one
        return schedule

    async def schedule(self, chat_id: int) -> DailySchedule | None:
        """The chat's schedule, or None."""
        return await self.store.schedule(chat_id)

    async def turn_off(self, chat_id: int) -> DailySchedule | None:
        """``/daily off``: no more posts (the open one is still revealed at its time). None:
        there was none on."""
        schedule = await self.store.schedule(chat_id)
        if schedule is None or schedule.status is not Status.ON:
            return None
        schedule = replace(schedule, status=Status.OFF, updated_at=self.now())
        await self.store.save_schedule(schedule)
        return schedule

    async def set_options(
        self, chat_id: int, *, run_out: RunOut | None = None, board_day: int | str | None = "keep"
    ) -> DailySchedule | None:
        """Change the run-out setting and the leaderboard's weekday (0-6, None for none;
        ``"keep"`` leaves it). None: the chat has no schedule."""
        schedule = await self.store.schedule(chat_id)
        if schedule is None:
            return None
        changed = replace(schedule, updated_at=self.now())
        if run_out is not None:
            changed = replace(changed, run_out=run_out)
            if schedule.status is Status.DONE and run_out is RunOut.AGAIN:
                next_at = daily.next_time(self.now(), schedule.minute, await self.zone(chat_id))
                changed = replace(changed, status=Status.ON, next_at=next_at)
        if board_day != "keep":
            assert board_day is None or isinstance(board_day, int)
            changed = replace(changed, board_day=board_day)
        await self.store.save_schedule(changed)
        return changed

    # --- the pass --------------------------------------------------------------------------

    async def reveals_due(self, limit: int = PASS_LIMIT) -> list[Reveal]:
        """The open posts whose next day has come, with what their reveal shows."""
        found = []
        for post in await self.store.posts_to_reveal(self.now(), limit):
            found.append(await self._reveal(post))
        return found

    async def _reveal(self, post: DailyPost) -> Reveal:
        bank = await self.registry.find(post.bank_id, post.bank_version)
        question = None
        if bank is not None:
            try:
                question = bank.question(post.question_id)
            except KeyError:
                question = None
        answers = await self.store.daily_answers(post.post_id)
        schedule = await self.store.schedule(post.chat_id)
        last = (
            schedule is not None
            and schedule.status is Status.DONE
            and (schedule.position >= post.position)
            and schedule.round == post.round
        )
        return Reveal(
            post, bank if question is not None else None, question, daily.tally(post, answers), last
        )

    async def mark_post_revealed(self, post_id: int) -> bool:
        """The reveal was shown (or cannot be): False if someone marked it first."""
        return await self.store.mark_post_revealed(post_id)

    async def due(self, limit: int = PASS_LIMIT) -> list[DailySchedule]:
        """The schedules whose next post is due now."""
        return await self.store.due_schedules(self.now(), limit)

    async def claim(self, schedule: DailySchedule) -> Run | None:
        """Claim a due schedule's post: the question to ask (or the stop, the quiz run out)
        and the weekly leaderboard if due. None: claimed by someone else, or its quiz is gone
        (the schedule is then lost: nothing can be posted)."""
        zone = await self.zone(schedule.chat_id)
        due_at = schedule.next_at
        next_at = daily.next_time(max(due_at, self.now()), schedule.minute, zone)
        try:
            bank = await self.registry.bank(schedule.bank_id)
            upcoming = daily.next_question(schedule, bank, self._rng)
        except QuizError:  # an unknown or taken-down quiz, or one without daily questions
            await self.store.set_lost(schedule.chat_id, self.now())
            return None
        new = (
            None
            if upcoming is None
            else NewPost(
                bank_id=bank.id,
                bank_version=bank.version,
                question_id=upcoming.question.id,
                slots=upcoming.slots,
                round=upcoming.round,
                position=upcoming.position,
                language=schedule.language,
                closes_at=next_at,
            )
        )
        claimed: Claimed | None = await self.store.claim_post(
            schedule.chat_id,
            due_at,
            next_at=next_at,
            round=upcoming.round if upcoming else schedule.round,
            position=upcoming.position + 1 if upcoming else schedule.position,
            post=new,
            now=self.now(),
        )
        if claimed is None:
            return None
        board = None
        if claimed.post is not None and daily.board_due(schedule, due_at, zone):
            answers = await self.store.week_answers(
                schedule.chat_id, due_at - daily.WEEK_SECONDS, due_at
            )
            board = Board(schedule.chat_id, bank, daily.board(answers), schedule.language)
        return Run(
            claimed.schedule, bank, claimed.post, upcoming.question if upcoming else None, board
        )

    async def posted(self, post_id: int, message_id: int) -> None:
        """The day's question went out as ``message_id``: taps on it count from now."""
        await self.store.set_post_message(post_id, message_id)

    async def not_posted(self, post: DailyPost) -> None:
        """Telegram refused the day's question: nothing to reveal for it."""
        await self.store.set_post_status(post.post_id, PostStatus.FAILED)

    async def not_sent(self, run: Run, before: DailySchedule) -> bool:
        """The day's question surely did not reach Telegram (a flood wait or no connection
        that outlasted the retries): the claim is undone, so a later pass posts it (the day is
        not skipped), while the day lasts. Whether it was undone (False: the day is over, or
        the schedule moved meanwhile; the post is then marked failed)."""
        post = run.post
        assert post is not None
        if self.now() < run.schedule.next_at and await self.store.unclaim_post(
            post.post_id, before, claimed_next_at=run.schedule.next_at
        ):
            return True
        await self.not_posted(post)
        return False

    async def lost(self, chat_id: int) -> bool:
        """The bot may no longer post in the chat (removed, or no longer allowed to post):
        its schedule stops until ``/daily`` there again; whether one was on."""
        return await self.store.set_lost(chat_id, self.now())

    # --- taps ------------------------------------------------------------------------------

    async def tap(
        self, post_id: int, chat_id: int, message_id: int, slot: int, user_id: int, name: str
    ) -> tuple[DailyPost, DailyAnswer]:
        """A tap on ``slot`` of a day's question: recorded once per user (by user id: taps on
        channel posts come without a member list).

        Raises:
            UnknownPost: no such post on this message (forged or stale).
            DailyClosed: the next question was posted already.
            DailyAnswered: the user answered this one already (nothing changes).
        """
        post = await self.store.post(post_id)
        # a tap may come before the post's message id is stored (it is, once sent)
        if post is None or post.chat_id != chat_id or post.message_id not in (None, message_id):
            raise UnknownPost(post_id)
        if post.message_id is None and post.status is PostStatus.SENDING:
            # the tap shows where the post is: its send took effect though its answer was lost
            # (a time-out), or its answer is still on the way; either way it is open, and its
            # reveal can edit it
            await self.store.set_post_message(post_id, message_id)
        bank = await self.registry.find(post.bank_id, post.bank_version)
        if bank is None:
            raise daily.DailyClosed(post_id)
        try:
            question = bank.question(post.question_id)
        except KeyError:
            raise daily.DailyClosed(post_id) from None
        option_index, correct = daily.grade(post, question, slot, self.now())
        answer = DailyAnswer(post.post_id, user_id, name, option_index, correct, self.now())
        if not await self.store.record_daily_answer(answer):
            raise DailyAnswered(post_id)
        return post, answer

    async def bank_of(self, post: DailyPost) -> Bank | None:
        """The bank a post asked from, at its version (None: gone)."""
        return await self.registry.find(post.bank_id, post.bank_version)

    # --- the chats the bot may post in -----------------------------------------------------

    async def chat_member(
        self,
        chat_id: int,
        chat_type: str,
        title: str,
        status: str,
        can_post_messages: bool | None,
        by: int | None,
    ) -> bool:
        """A my_chat_member update: remember whether the bot may post in the chat; when it
        may no longer, the chat's schedule is lost. Whether a schedule was lost."""
        allowed = daily.can_post(chat_type, status, can_post_messages)
        await self.store.save_bot_chat(
            BotChat(chat_id, chat_type, title, status, allowed, by, self.now())
        )
        if not allowed:
            return await self.lost(chat_id)
        return False

    async def channels_of(self, user_id: int) -> list[BotChat]:
        """The channels where the bot may post that ``user_id`` added it to (or promoted it
        in): what ``/daily`` in the private chat offers."""
        return await self.store.bot_chats(user_id, ("channel",))

    async def bot_chat(self, chat_id: int) -> BotChat | None:
        """What the bot knows of a chat it is (or was) in."""
        return await self.store.bot_chat(chat_id)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> int:
        """A group became a supergroup: its question of the day goes on there."""
        return await self.store.move_daily(old_chat_id, new_chat_id)

    def banks(self) -> Sequence[Bank]:
        """The featured banks a schedule may use (what ``/daily`` lists)."""
        return list(self.registry.featured.values())
