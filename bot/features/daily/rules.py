"""The question of the day, as pure rules and records: a group's or channel's schedule (one
question of a quiz a day at a local time), each day's post, the answers to it (once per user
per post, counted by user id: taps on channel posts come without a member list), the reveal's
figures, the weekly leaderboard and what happens when the quiz runs out.

Pure: times in seconds since the epoch, time zones as IANA names (:mod:`zoneinfo`), the random
generator given; storage is :class:`bot.features.daily.ports.DailyStore`, the use cases
:class:`bot.features.daily.service.DailyService`.
"""

from __future__ import annotations

import random
import re
import zoneinfo
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from bot.kernel.bank import Bank, Question
from bot.kernel.engine import AlreadyAnswered, QuizError

DEFAULT_MINUTE = 9 * 60
"""The time of day of a schedule set without one: 09:00 in the chat's time zone."""
DEFAULT_ZONE = "UTC"
"""The time zone of a chat that never set one (Telegram gives bots none)."""
WEEK_SECONDS = 7 * 86_400
BOARD_PLACES = 10
"""Places the weekly leaderboard lists."""

_TIME = re.compile(r"([01]?[0-9]|2[0-3])[:.h]([0-5][0-9])")


class Status(StrEnum):
    """A schedule's state."""

    ON = "on"
    """Posting every day."""
    OFF = "off"
    """Turned off (``/daily off``)."""
    DONE = "done"
    """The quiz ran out and the run-out setting says stop."""
    LOST = "lost"
    """The bot may no longer post in the chat (removed, or no longer an admin of the channel);
    ``/daily`` there turns it on again."""


class RunOut(StrEnum):
    """What a schedule does when its quiz ran out."""

    AGAIN = "again"
    """Start over, the options shuffled again."""
    STOP = "stop"
    """Stop after the last question is revealed."""


class PostStatus(StrEnum):
    """A day's post."""

    SENDING = "sending"
    """Claimed by a pass; its message not sent yet (or lost in a crash: never sent twice)."""
    OPEN = "open"
    """Sent; taps count until :attr:`DailyPost.closes_at`."""
    REVEALED = "revealed"
    """Closed, its answer shown."""
    FAILED = "failed"
    """Telegram refused it: nothing to reveal."""


class TimeUnreadable(QuizError):
    """A time of day that is not ``HH:MM`` (00:00 to 23:59)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class DailyClosed(QuizError):
    """A tap on a day's question after it closed (the next one was posted), or on one whose
    schedule lost the chat."""


class DailyAnswered(AlreadyAnswered):
    """A second tap of a user on a day's question: the first answer stays (nothing changes)."""


class UnknownPost(QuizError):
    """A tap naming no day's question of this message (a forged or stale button)."""


class NoDailyQuestions(QuizError):
    """The quiz has no question a day's post can ask (only questions with several right
    options)."""

    def __init__(self, bank_id: str) -> None:
        super().__init__(bank_id)
        self.bank_id = bank_id


@dataclass(frozen=True)
class DailySchedule:
    """One chat's question of the day.

    Attributes:
        chat_id: The group, supergroup or channel.
        chat_type: Telegram's ``Chat.type`` ("group", "supergroup", "channel").
        thread_id: The forum topic the posts go to (None: General, or no forum).
        bank_id: The quiz.
        language: The chat's language for the posts.
        minute: The time of day, in minutes after midnight in the chat's time zone.
        run_out: What happens when the quiz ran out.
        board_day: The weekday of the weekly leaderboard (0 Monday to 6 Sunday; None: none).
        status: On, off, done or lost.
        round: How many times the quiz started over (0 the first time).
        position: The next question's index among the bank's :func:`daily_questions`.
        next_at: When the next post is due (seconds since the epoch).
        set_by: Who set it (user id).
        updated_at: When it was last changed (seconds since the epoch).
    """

    chat_id: int
    chat_type: str
    thread_id: int | None
    bank_id: str
    language: str
    minute: int
    run_out: RunOut
    board_day: int | None
    status: Status
    round: int
    position: int
    next_at: float
    set_by: int
    updated_at: float

    @property
    def hhmm(self) -> str:
        """The time of day as ``HH:MM``."""
        return f"{self.minute // 60:02d}:{self.minute % 60:02d}"


@dataclass(frozen=True)
class DailyPost:
    """One day's question in a chat.

    Attributes:
        post_id: Its id (in its answer buttons).
        chat_id: The chat.
        bank_id: The quiz; ``bank_version`` the version it was asked from.
        question_id: The question.
        slots: The bank option index shown in each slot ("A" first): shuffled per post.
        round: The schedule's round; ``position`` the question's index in it.
        language: The chat's language when it was posted.
        due_at: The scheduled time (one post per chat and time).
        closes_at: When taps stop counting: the next post's time.
        message_id: The message, once sent.
        status: Sending, open, revealed or failed.
    """

    post_id: int
    chat_id: int
    bank_id: str
    bank_version: int
    question_id: str
    slots: tuple[int, ...]
    round: int
    position: int
    language: str
    due_at: float
    closes_at: float
    message_id: int | None
    status: PostStatus


@dataclass(frozen=True)
class DailyAnswer:
    """One user's answer to a day's question (one per user and post)."""

    post_id: int
    user_id: int
    name: str
    option_index: int
    correct: bool
    answered_at: float


@dataclass(frozen=True)
class Tally:
    """A day's answers as the reveal shows them: how many chose each slot, and how many were
    right."""

    counts: tuple[int, ...]
    right: int

    @property
    def answered(self) -> int:
        """How many answered."""
        return sum(self.counts)


@dataclass(frozen=True)
class BoardPlace:
    """A line of the weekly leaderboard: rank (ties share one), name, right answers and
    questions answered of the week."""

    rank: int
    user_id: int
    name: str
    right: int
    answered: int


@dataclass(frozen=True)
class BotChat:
    """A group or channel the bot is in, as its my_chat_member updates told (where /daily in
    the private chat offers to post).

    Attributes:
        chat_id: The chat; ``chat_type`` and ``title`` as Telegram gave them.
        status: The bot's ChatMember status ("administrator", "member", "left", "kicked").
        can_post: Whether the bot may post there (a channel: an administrator with
            can_post_messages; a group: a member).
        added_by: Who last changed the bot's membership (the admin who added or promoted it).
        updated_at: When (seconds since the epoch).
    """

    chat_id: int
    chat_type: str
    title: str
    status: str
    can_post: bool
    added_by: int | None
    updated_at: float


# --- rules -------------------------------------------------------------------------------


def parse_time(text: str) -> int:
    """The time of day ``text`` names (``09:00``, ``9:00``, ``21.30``, ``7h05``), in minutes
    after midnight.

    Raises:
        TimeUnreadable: anything else.
    """
    match = _TIME.fullmatch(text.strip())
    if match is None:
        raise TimeUnreadable(text.strip())
    return int(match[1]) * 60 + int(match[2])


def looks_like_time(text: str) -> bool:
    """Whether ``text`` is meant as a time of day (digits with ``:``), readable or not."""
    return bool(re.fullmatch(r"\d{1,2}[:.h]\d{1,2}", text.strip()))


def zone_of(name: str | None) -> zoneinfo.ZoneInfo:
    """The zone of a stored name; :data:`DEFAULT_ZONE` for None or a name this machine does
    not know."""
    try:
        return zoneinfo.ZoneInfo(name or DEFAULT_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(DEFAULT_ZONE)


def next_time(after: float, minute: int, zone: str | None) -> float:
    """The first moment strictly after ``after`` when the clock in ``zone`` shows ``minute``
    (minutes after midnight). A time a DST change skips is taken as the clock reads it after
    the change (``zoneinfo``'s fold 0)."""
    tz = zone_of(zone)
    local = datetime.fromtimestamp(after, tz)
    day = local.date()
    for offset in range(3):
        date = day + timedelta(days=offset)
        candidate = datetime(
            date.year, date.month, date.day, minute // 60, minute % 60, tzinfo=tz
        ).timestamp()
        if candidate > after:
            return candidate
    raise AssertionError("unreachable: a day later is always later")


def weekday(moment: float, zone: str | None) -> int:
    """The weekday of ``moment`` in ``zone`` (0 Monday to 6 Sunday)."""
    return datetime.fromtimestamp(moment, zone_of(zone)).weekday()


def daily_questions(bank: Bank) -> tuple[Question, ...]:
    """The questions a day's post asks, in bank order: those with one right answer (a
    question with several right options needs ticks and a Submit, which a one-tap post in a
    chat has not)."""
    return tuple(q for q in bank.questions if not q.several)


@dataclass(frozen=True)
class NextQuestion:
    """What the next post asks: the question at ``position`` of ``round``, its options in
    ``slots`` order; None from :func:`next_question` when the schedule stops instead."""

    question: Question
    round: int
    position: int
    slots: tuple[int, ...]


def next_question(schedule: DailySchedule, bank: Bank, rng: random.Random) -> NextQuestion | None:
    """The question the next post asks: the schedule's position in the bank's daily
    questions; once they ran out, the first again with the round moved on and the options
    shuffled anew (:attr:`RunOut.AGAIN`), or None (:attr:`RunOut.STOP`).

    Raises:
        NoDailyQuestions: the bank has no question a post can ask.
    """
    questions = daily_questions(bank)
    if not questions:
        raise NoDailyQuestions(bank.id)
    round_, position = schedule.round, schedule.position
    if position >= len(questions):
        if schedule.run_out is RunOut.STOP:
            return None
        round_, position = round_ + 1, 0
    question = questions[position]
    slots = list(range(len(question.options)))
    if question.shuffle:  # the bank's ``shuffle: false`` keeps its order
        rng.shuffle(slots)
    return NextQuestion(question, round_, position, tuple(slots))


def is_last(schedule: DailySchedule, bank: Bank) -> bool:
    """Whether the question just posted was the quiz's last and the schedule stops after it."""
    return schedule.run_out is RunOut.STOP and schedule.position >= len(daily_questions(bank))


def grade(post: DailyPost, question: Question, slot: int, now: float) -> tuple[int, bool]:
    """A tap on ``slot`` of ``post``: the bank option chosen and whether it is right.

    Raises:
        DailyClosed: the post is no longer open (or ``now`` is past its closing time); a
            post being sent is open already (a tap may come before its message id is
            stored).
        UnknownPost: no such slot (a forged button).
    """
    if post.status not in (PostStatus.OPEN, PostStatus.SENDING) or now >= post.closes_at:
        raise DailyClosed(post.post_id)
    if not 0 <= slot < len(post.slots):
        raise UnknownPost(post.post_id)
    option_index = post.slots[slot]
    return option_index, option_index in question.correct_indices


def tally(post: DailyPost, answers: Iterable[DailyAnswer]) -> Tally:
    """How many chose each slot of ``post`` (answers of options no longer shown are left out),
    and how many were right."""
    counts = [0] * len(post.slots)
    right = 0
    for answer in answers:
        if answer.option_index in post.slots:
            counts[post.slots.index(answer.option_index)] += 1
        right += answer.correct
    return Tally(tuple(counts), right)


def board(answers: Sequence[DailyAnswer], places: int = BOARD_PLACES) -> list[BoardPlace]:
    """The weekly leaderboard of ``answers`` (the week's revealed posts): most right answers
    first, then fewest answered (fewer misses), then the user id; tied users share a rank. A
    user's name is the one of their latest answer. Users with no right answer are left out."""
    right: dict[int, int] = {}
    answered: dict[int, int] = {}
    names: dict[int, tuple[float, str]] = {}
    for answer in answers:
        right[answer.user_id] = right.get(answer.user_id, 0) + answer.correct
        answered[answer.user_id] = answered.get(answer.user_id, 0) + 1
        if answer.user_id not in names or names[answer.user_id][0] <= answer.answered_at:
            names[answer.user_id] = (answer.answered_at, answer.name)
    order = sorted((u for u in right if right[u] > 0), key=lambda u: (-right[u], answered[u], u))
    lines: list[BoardPlace] = []
    for index, user_id in enumerate(order[:places]):
        rank = index + 1
        if lines and (right[user_id], answered[user_id]) == (lines[-1].right, lines[-1].answered):
            rank = lines[-1].rank
        lines.append(
            BoardPlace(rank, user_id, names[user_id][1], right[user_id], answered[user_id])
        )
    return lines


def board_due(schedule: DailySchedule, due_at: float, zone: str | None) -> bool:
    """Whether the post due at ``due_at`` brings the weekly leaderboard (its local weekday is
    the schedule's leaderboard day)."""
    return schedule.board_day is not None and weekday(due_at, zone) == schedule.board_day


def can_post(chat_type: str, status: str, can_post_messages: bool | None) -> bool:
    """Whether the bot may post in a chat, from its ChatMember there (Bot API: in a channel
    only an administrator with can_post_messages; in a group any member)."""
    if status in ("left", "kicked"):
        return False
    if chat_type == "channel":
        return status in ("administrator", "creator") and bool(can_post_messages)
    return True
