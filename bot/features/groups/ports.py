"""The storage ports of group sessions (:class:`GroupStore`: sessions, answers, settings,
results) and of their leases (:class:`SessionLeases`: one instance moves a session on);
``storage/`` implements them on both engines."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bot.features.groups.rules import RIGHT, GroupAnswer, GroupSession, Scoring, SessionStatus
from bot.features.groups.settings import GroupSettings
from bot.kernel.engine import Plan
from bot.kernel.ports import (
    RecordOutcome,
)


@dataclass(frozen=True)
class GroupTally:
    """What recording a member's answer did, and the open question's counts after it.

    Attributes:
        outcome: :data:`RECORDED`, :data:`DUPLICATE` or :data:`CLOSED`; only RECORDED changed
            anything, and only then are the counts filled in.
        answered: Answers to the open question so far.
        players: Members who answered any question of the session so far.
        joined: Of ``answered``, members whose first answer in the session this is.
    """

    outcome: RecordOutcome
    answered: int = 0
    players: int = 0
    joined: int = 0


class GroupStore(Protocol):
    """What group quiz sessions keep: the group's language, sessions, players and answers.

    Every write is durable when the awaited call returns; failures raise :class:`StorageError`.
    """

    async def group_language(self, chat_id: int) -> str | None:
        """The group's language, or None if never set."""
        ...

    async def set_group_language(self, chat_id: int, language: str, *, by_admin: bool) -> None:
        """Set the group's language. ``by_admin`` False (the first starter's language) only
        fills in a group that has none."""
        ...

    async def start_session(
        self,
        chat_id: int,
        bank_id: str,
        bank_version: int,
        language: str,
        starter_id: int,
        plan: Plan,
        question_seconds: float,
        now: float,
        *,
        message_thread_id: int | None = None,
        scoring: Scoring = RIGHT,
    ) -> GroupSession | None:
        """Create a session at position 0 with nothing posted; None if the chat has one running.
        ``message_thread_id``: the forum topic every message of the session goes to;
        ``scoring``: :data:`~bot.features.groups.rules.SPEED` or
        :data:`~bot.features.groups.rules.RIGHT`."""
        ...

    async def group_settings(self, chat_id: int) -> GroupSettings | None:
        """The group's settings, or None if it never changed any."""
        ...

    async def save_group_settings(
        self,
        chat_id: int,
        settings: GroupSettings,
        expected_version: int,
        *,
        language: str | None = None,
    ) -> bool:
        """Store ``settings`` (and the group's ``language``, set by an admin, unless None) if
        the stored version is still ``expected_version`` (0 when none is stored), checked
        atomically with the write.

        Returns:
            Whether it was stored (False: another change came first; nothing changed).
        """
        ...

    async def last_session(self, chat_id: int, *, ended: bool = True) -> GroupSession | None:
        """The chat's most recent session (only finished or stopped ones with ``ended``)."""
        ...

    async def session(self, session_id: int) -> GroupSession | None:
        """The session, or None."""
        ...

    async def active_session(self, chat_id: int) -> GroupSession | None:
        """The chat's running session, or None."""
        ...

    async def active_sessions(self) -> list[GroupSession]:
        """Every running session (to restore after a restart)."""
        ...

    async def open_question(self, session_id: int, position: int, deadline: float) -> bool:
        """Open question ``position`` until ``deadline`` (before it is posted, so that no tap
        can come before the window); False unless the session is active at ``position`` with
        none open."""
        ...

    async def set_question_message(self, session_id: int, position: int, message_id: int) -> bool:
        """Record the message that shows the open question ``position``."""
        ...

    async def unopen_question(self, session_id: int, position: int) -> bool:
        """Undo :meth:`open_question` when posting the question failed (no message recorded)."""
        ...

    async def record_group_answer(
        self,
        session_id: int,
        position: int,
        answer: GroupAnswer,
        name: str,
        language: str | None = None,
    ) -> GroupTally:
        """Store a member's answer if question ``position`` is still open at
        ``answer.answered_at`` (checked atomically with the insert), and count it in the
        session's counts in the same write; ``language`` is the one the question was shown in
        (the session's), for ``quizbot report``.

        Returns:
            The outcome (:data:`RECORDED`, :data:`DUPLICATE`: the member answered it already,
            :data:`CLOSED`: the window ended first) and, when recorded, the counts after it.
        """
        ...

    async def tick_group_pick(self, session_id: int, position: int, user_id: int, slot: int) -> int:
        """Tick or untick ``slot`` in a member's choice on question ``position`` of a session
        (a question with several right options, before Submit), durably.

        Returns:
            The member's ticked slots after it (bit ``s`` set for slot ``s``).
        """
        ...

    async def group_pick(self, session_id: int, position: int, user_id: int) -> int:
        """A member's ticked slots on question ``position`` of a session (0: none)."""
        ...

    async def close_question(self, session_id: int, position: int) -> GroupSession | None:
        """Close the open question ``position`` (position + 1, no deadline), a compare-and-set
        on the position; the session as the close left it, or None if the question was not open
        (closed already: the reveal belongs to whoever closed it)."""
        ...

    async def mark_revealed(self, session_id: int, position: int, message_id: int) -> bool:
        """Record that the closed question's message ``message_id`` shows its reveal (its
        message id is cleared), so that no retry edits it again; False if the session is not
        at ``position`` between questions with that message."""
        ...

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> int:
        """A group became a supergroup with a new id: move its sessions (history and the running
        one, whose question message stays behind in the old chat), its language and its settings
        to ``new_chat_id``. Returns how many sessions moved."""
        ...

    async def end_session(self, session_id: int, status: SessionStatus, now: float) -> bool:
        """Finish or stop an active session; False if it was not active."""
        ...

    async def group_answers(self, session_id: int) -> list[GroupAnswer]:
        """Every answer of the session."""
        ...

    async def group_players(self, session_id: int) -> dict[int, str]:
        """Display name per member who answered."""
        ...


class SessionLeases(Protocol):
    """Which instance runs a group session's steps when several share the storage (a lease per
    session: whoever holds it closes, reveals and posts; ``storage/leases.py``).

    Attributes:
        shared: Whether other instances may share the storage (False: this one holds every
            lease, and polls).
    """

    shared: bool

    async def claim(self, session_id: int) -> bool:
        """Hold the session's lease: True if this instance holds it (now, or still: checked
        with the storage), False if another instance does.

        Raises:
            StorageError: the storage could not be reached (the lease is not held).
        """
        ...

    async def release(self, session_id: int) -> None:
        """Let the lease of an ended session go."""
        ...

    on_early: Callable[[int, int], None] | None
    """Told (session id, position) when another instance asks this one, the lease's holder,
    to close that question early (:meth:`ask_early`)."""

    async def ask_early(self, session_id: int, position: int) -> None:
        """Ask the instance holding the session's lease to close question ``position`` early
        (everyone answered it, as a tap on this instance found): its ``on_early`` is told.
        Never raises (a failure is logged: the question closes at its deadline)."""
        ...
