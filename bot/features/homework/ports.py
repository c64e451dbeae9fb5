"""The storage ports of homework (:class:`HomeworkStore`) and of chats' time zones
(:class:`TimeZoneStore`, shared with the question of the day); ``storage/homework.py``
implements both on both engines.

Every write is durable when the awaited call returns; failures raise
:class:`bot.kernel.ports.StorageError`. Each ``mark_*``, ``close_*``, ``cancel_*`` and
``link_attempt`` is a compare-and-set checked atomically with its write: of two callers (a
retry after a crash, two instances) one wins, the other is told False or None and sends
nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.features.homework.rules import Assignment, HomeworkAnswer, Member


@dataclass(frozen=True)
class NewAssignment:
    """What :meth:`HomeworkStore.create_assignment` stores (see
    :class:`~bot.features.homework.rules.Assignment` for the fields)."""

    chat_id: int
    thread_id: int | None
    token: str
    bank_id: str
    bank_version: int
    language: str
    set_by: int
    set_by_name: str
    deadline: float


class TokenTaken(Exception):
    """Another homework has this token already (:meth:`HomeworkStore.create_assignment`)."""


class TimeZoneStore(Protocol):
    """Each group's or channel's time zone (an IANA name, :mod:`bot.kernel.zones`)."""

    async def time_zone(self, chat_id: int) -> str | None:
        """The chat's time zone, or None if it never set one (then
        :data:`bot.kernel.zones.DEFAULT_ZONE` applies)."""
        ...

    async def set_time_zone(self, chat_id: int, zone: str, now: float) -> None:
        """Store the chat's time zone (``zone`` checked by :func:`bot.kernel.zones.parse_zone`);
        ``now`` in seconds since the epoch. A supergroup upgrade moves it with the chat
        (:meth:`bot.features.groups.ports.GroupStore.move_chat`)."""
        ...


class HomeworkStore(Protocol):
    """What homework keeps: assignments, which attempt is whose homework, what was shown,
    reminded, announced and reported.

    An :class:`~bot.features.homework.rules.Assignment` read from here has ``finished`` filled in:
    the members whose linked attempt finished at or before the deadline.
    """

    async def create_assignment(self, new: NewAssignment, now: float) -> Assignment:
        """Store a new open assignment, nothing posted yet.

        Raises:
            TokenTaken: ``new.token`` is another assignment's (nothing stored).
        """
        ...

    async def assignment(self, assignment_id: int) -> Assignment | None:
        """The assignment, or None."""
        ...

    async def assignment_by_token(self, token: str) -> Assignment | None:
        """The assignment whose deep-link payload is ``token``, or None."""
        ...

    async def assignments_of(self, chat_id: int, *, limit: int) -> list[Assignment]:
        """Up to ``limit`` of the chat's open and closed assignments (not cancelled): open
        ones first, by deadline, then closed ones, the latest closed first."""
        ...

    async def set_assignment_message(self, assignment_id: int, message_id: int, now: float) -> bool:
        """Record the group message that shows the open assignment (``shown_at`` = ``now``,
        ``shown_finished`` the finished count now); False if it is not open."""
        ...

    async def member(self, assignment_id: int, user_id: int) -> Member | None:
        """The member's record of the assignment, or None if they never opened it."""
        ...

    async def members(self, assignment_id: int) -> list[Member]:
        """Every member who opened the assignment, by when they first opened it."""
        ...

    async def link_attempt(
        self,
        assignment_id: int,
        user_id: int,
        attempt_id: int,
        *,
        name: str,
        language: str,
        now: float,
        replacing: int | None,
    ) -> bool:
        """Make ``attempt_id`` the member's homework attempt (name and language updated),
        if the assignment is still open and the member's linked attempt is still
        ``replacing`` (None: they have none yet, the record is made with ``opened_at`` =
        ``now``). False: another open came first, or it closed (nothing changed)."""
        ...

    async def refresh_member(
        self, assignment_id: int, user_id: int, *, name: str, language: str
    ) -> None:
        """Update the member's name and language (they opened it again)."""
        ...

    async def due_closing(self, now: float, *, limit: int) -> list[Assignment]:
        """Up to ``limit`` open assignments whose deadline is at or before ``now``, earliest
        first."""
        ...

    async def due_announcing(
        self, *, limit: int, stale_before: float | None = None
    ) -> list[Assignment]:
        """Up to ``limit`` closed assignments whose results were not sent and are not claimed
        (or were claimed at or before ``stale_before``), earliest deadline first."""
        ...

    async def due_reporting(
        self, *, limit: int, stale_before: float | None = None
    ) -> list[Assignment]:
        """Up to ``limit`` closed assignments whose results were claimed and whose report was
        neither sent nor claimed (or claimed at or before ``stale_before``), earliest deadline
        first."""
        ...

    async def due_finals(self, *, limit: int) -> list[Assignment]:
        """Up to ``limit`` assignments with a group message whose last edit was not claimed:
        closed ones whose results were claimed, and cancelled ones; earliest deadline first."""
        ...

    async def due_progress(self, now: float, *, min_seconds: float, limit: int) -> list[Assignment]:
        """Up to ``limit`` open assignments with a group message whose finished count is not
        the one shown and whose last edit is at least ``min_seconds`` before ``now``, earliest
        deadline first."""
        ...

    async def due_reminders(
        self, now: float, thresholds: Sequence[float], *, limit: int
    ) -> list[tuple[Assignment, Member]]:
        """Up to ``limit`` (assignment, member) pairs that may be due a reminder at ``now``:
        the assignment open with its deadline after ``now`` and within the farthest of
        ``thresholds`` (seconds before it), the member's attempt not counted, and the member
        not reminded of the nearest threshold passed
        (:func:`bot.features.homework.rules.reminder_due` decides). Earliest deadline first."""
        ...

    async def mark_progress(
        self, assignment_id: int, finished: int, now: float, *, shown_at: float | None
    ) -> bool:
        """Record that the group message shows ``finished`` since ``now``, if the assignment
        is open and its ``shown_at`` is still ``shown_at`` (as read)."""
        ...

    async def mark_reminded(self, assignment_id: int, user_id: int, left: float) -> bool:
        """Record that the member was reminded at threshold ``left``, if they were not reminded
        of it or a nearer one."""
        ...

    async def close_assignment(
        self, assignment_id: int, now: float, *, due_by: float | None
    ) -> Assignment | None:
        """Close the open assignment at ``now`` (only if its deadline is at or before
        ``due_by`` unless that is None); the closed assignment, or None if it was not open (or
        not due)."""
        ...

    async def cancel_assignment(self, assignment_id: int, now: float) -> Assignment | None:
        """Cancel the open assignment; the cancelled one, or None if it was not open."""
        ...

    async def extend_assignment(self, assignment_id: int, deadline: float) -> Assignment | None:
        """Move the open assignment's deadline to ``deadline`` and forget who was reminded
        (the thresholds are before the new deadline); None if it was not open."""
        ...

    async def mark_announced(
        self, assignment_id: int, now: float, stale_before: float | None = None
    ) -> bool:
        """Claim the closed assignment's results for the group: if not sent, and not claimed
        (or claimed at or before ``stale_before``: a lease that ran out)."""
        ...

    async def mark_reported(
        self, assignment_id: int, now: float, stale_before: float | None = None
    ) -> bool:
        """Claim the closed assignment's report for its setter, if its results were claimed
        and its report was neither sent nor claimed (or claimed at or before
        ``stale_before``)."""
        ...

    async def settle_send(self, assignment_id: int, what: str, *, sent: bool, now: float) -> bool:
        """A claimed send (``what``: "results" or "report") went out (``sent``: confirmed,
        never sent again) or surely did not (the claim is released for a later pass);
        whether anything changed."""
        ...

    async def mark_final(self, assignment_id: int, now: float) -> bool:
        """Claim the last edit of the group message of a closed (results claimed) or cancelled
        assignment, if it has a message and the edit was not claimed."""
        ...

    async def homework_answers(self, assignment_id: int) -> list[HomeworkAnswer]:
        """Every answer of the members' linked attempts given at or before the deadline, by
        member (when they first opened it) then answer time."""
        ...

    async def move_assignments(self, old_chat_id: int, new_chat_id: int) -> list[Assignment]:
        """A group became a supergroup: move its assignments to ``new_chat_id``, their group
        messages forgotten (they stay behind in the old chat). Returns the open ones moved."""
        ...
