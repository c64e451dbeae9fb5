"""The storage port of deleting a user's data (:class:`PrivacyStore`) and what a deletion
reports (:class:`DeletedData`); ``storage/`` implements it on both engines."""

from __future__ import annotations

from dataclasses import astuple, dataclass
from typing import Protocol

from bot.kernel.checks import counted
from bot.kernel.ports import (
    PromptStore,
)


@dataclass(frozen=True)
class DeletedData:
    """What deleting a user's data removed (:meth:`PrivacyStore.delete_user`).

    Attributes:
        answers: Answers of private quizzes deleted.
        attempts: Private quiz attempts deleted.
        settings: Rows of settings (the language choice) deleted.
        group_answers: Group answers made anonymous (kept for the other players' standings,
            no longer linked to the user: the leaderboard shows "deleted user").
        sessions: Group sessions in which the user was made anonymous, or was the starter.
        drafts: Drafts of a quiz in the making deleted (0 or 1).
        quizzes_deleted: Created quizzes deleted (the user chose to delete them).
        quizzes_kept: Created quizzes kept without an owner (the user chose to keep them).
        other: Rows of the user's other data deleted or no longer linked to them (review
            cards, unsubmitted ticks, answers to the question of the day, homework
            memberships, the schedules, chats and homework they set up).
    """

    answers: int = 0
    attempts: int = 0
    settings: int = 0
    group_answers: int = 0
    sessions: int = 0
    drafts: int = 0
    quizzes_deleted: int = 0
    quizzes_kept: int = 0
    other: int = 0

    @property
    def nothing(self) -> bool:
        """Whether nothing was stored about the user (deleted already, or never seen)."""
        return not any(astuple(self))

    def __str__(self) -> str:
        return (
            f"{counted(self.answers, 'answer')}, {counted(self.attempts, 'attempt')}, "
            f"{counted(self.settings, 'setting')} deleted; "
            f"{counted(self.group_answers, 'group answer')} in "
            f"{counted(self.sessions, 'session')} made anonymous; "
            f"{counted(self.drafts, 'draft')} and "
            f"{counted(self.quizzes_deleted, 'created quiz', 'created quizzes')} deleted, "
            f"{self.quizzes_kept} kept without their owner; "
            f"{counted(self.other, 'other record')} deleted or unlinked"
        )


class PrivacyStore(PromptStore, Protocol):
    """Deleting what is kept about one user (``/deletemydata``, ``quizbot delete-user``); its
    confirmation's nonce is a prompt (:class:`PromptStore`)."""

    async def checkpoint(self) -> bool:
        """Leave no copy of deleted rows in a write-ahead log this process can clear: SQLite
        moves its WAL into the database file and truncates it; on PostgreSQL the WAL is the
        server's (nothing to do here). Returns False when the log could not be emptied now
        (another connection reads an older snapshot: the next checkpoint, or the last close,
        empties it)."""
        ...

    async def delete_user(self, user_id: int) -> DeletedData:
        """In one durable write: delete the user's attempts, answers and settings, and in
        group sessions replace the user by a pseudonym (a negative id, a new one per session,
        see :func:`bot.kernel.members.is_deleted`) with no name, and clear them as starter
        (``starter_id`` 0); their prompts go too. Deleting a user with no data changes
        nothing."""
        ...
