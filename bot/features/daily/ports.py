"""The storage port of the question of the day (:class:`DailyStore`); ``storage/daily.py``
implements it on both engines.

Every write is durable when the awaited call returns; failures raise
:class:`bot.kernel.ports.StorageError`. :meth:`DailyStore.claim_post` and
:meth:`DailyStore.mark_post_revealed` are compare-and-sets checked atomically with their
write: of two callers (a retry after a crash, two instances) one wins, the other is told None
or False and sends nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.features.daily.rules import BotChat, DailyAnswer, DailyPost, DailySchedule, PostStatus


@dataclass(frozen=True)
class NewPost:
    """What :meth:`DailyStore.claim_post` stores for the day's question (see
    :class:`~bot.features.daily.rules.DailyPost`)."""

    bank_id: str
    bank_version: int
    question_id: str
    slots: tuple[int, ...]
    round: int
    position: int
    language: str
    closes_at: float


@dataclass(frozen=True)
class Claimed:
    """A due post claimed: the schedule as it is now, and the new post (None: the schedule
    stopped instead, its quiz run out)."""

    schedule: DailySchedule
    post: DailyPost | None


class ZoneSource(Protocol):
    """Where a chat's time zone is kept: :class:`bot.features.homework.ports.TimeZoneStore` (an
    IANA name, or None for none set; ``/timezone`` sets it)."""

    async def time_zone(self, chat_id: int) -> str | None:
        """The chat's time zone, or None."""
        ...


class DailyStore(Protocol):
    """What the question of the day keeps: schedules, posts, answers, and the chats the bot
    may post in."""

    async def save_schedule(self, schedule: DailySchedule) -> None:
        """Store ``schedule`` as the chat's (replacing the one before)."""
        ...

    async def schedule(self, chat_id: int) -> DailySchedule | None:
        """The chat's schedule (whatever its status), or None."""
        ...

    async def due_schedules(self, now: float, limit: int) -> list[DailySchedule]:
        """Schedules that are on and whose next post is due at ``now``, earliest first."""
        ...

    async def claim_post(
        self,
        chat_id: int,
        due_at: float,
        *,
        next_at: float,
        round: int,
        position: int,
        post: NewPost | None,
        now: float,
    ) -> Claimed | None:
        """Claim the post of ``chat_id`` due at ``due_at``: only if the schedule is on and its
        next post is still due then, move it on (``next_at``, and ``round``/``position`` past
        the question ``post`` asks) and store ``post`` as sending; with ``post`` None, mark the
        schedule done. None: someone claimed it first (nothing to send)."""
        ...

    async def unclaim_post(
        self, post_id: int, schedule: DailySchedule, *, claimed_next_at: float
    ) -> bool:
        """Undo :meth:`claim_post` of a post surely never sent: delete the post (only while it
        is sending, without a message) and put ``schedule`` back as it was before the claim
        (only while its ``next_at`` is still ``claimed_next_at``), in one transaction; whether
        it was undone."""
        ...

    async def reclose_posts(self, chat_id: int, closes_at: float) -> int:
        """The chat's open posts that close later than ``closes_at`` close then instead (its
        time of day moved earlier: the next post still comes after their reveal); how many."""
        ...

    async def set_post_message(self, post_id: int, message_id: int) -> None:
        """The post was sent as ``message_id``: it is open for taps."""
        ...

    async def set_post_status(self, post_id: int, status: PostStatus) -> None:
        """Set a post's status (failed: Telegram refused it)."""
        ...

    async def post(self, post_id: int) -> DailyPost | None:
        """A post by id, or None."""
        ...

    async def posts_to_reveal(self, now: float, limit: int) -> list[DailyPost]:
        """Open posts whose closing time has come, earliest first."""
        ...

    async def mark_post_revealed(self, post_id: int) -> bool:
        """Mark an open post revealed; False if it was not open (revealed already)."""
        ...

    async def record_daily_answer(self, answer: DailyAnswer) -> bool:
        """Store a user's answer to a post; False if they had answered it already (nothing
        changes)."""
        ...

    async def daily_answers(self, post_id: int) -> list[DailyAnswer]:
        """The answers to a post, in the order they came."""
        ...

    async def week_answers(self, chat_id: int, since: float, until: float) -> list[DailyAnswer]:
        """The answers to the chat's revealed posts due in ``[since, until)``."""
        ...

    async def set_lost(self, chat_id: int, now: float) -> bool:
        """The bot may no longer post in the chat: its schedule (if on) is lost; whether it
        was on."""
        ...

    async def save_bot_chat(self, chat: BotChat) -> None:
        """Store what a my_chat_member update told of a chat the bot is (or was) in."""
        ...

    async def bot_chats(self, added_by: int, chat_types: Sequence[str]) -> list[BotChat]:
        """The chats of ``chat_types`` where the bot may post that ``added_by`` added it to or
        promoted it in, most recent first."""
        ...

    async def bot_chat(self, chat_id: int) -> BotChat | None:
        """A chat the bot is (or was) in, or None."""
        ...

    async def move_daily(self, old_chat_id: int, new_chat_id: int) -> int:
        """A group became a supergroup: its schedule, posts and chat record move to the new
        id; how many posts moved."""
        ...
