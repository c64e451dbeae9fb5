"""The small async storage interface the quiz needs (a port; ``storage/`` implements it)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from bot.kernel.analysis import Response
from bot.kernel.bank import Bank
from bot.kernel.engine import (
    Answer,
    Attempt,
    Plan,
)

Planner = Callable[[Bank, float], Plan]
"""Plans a fresh attempt: the bank and the time -> the plan (an exam's draw)."""

Begin = Callable[[Bank, Plan, float], Awaitable[Attempt]]
"""Stores a fresh attempt: the bank, its plan and the time -> the attempt stored (an exam's
start, which keeps its terms in the same transaction)."""

AnswerHook = Callable[[int, str, str, bool, float], Awaitable[object]]
"""Called after an answer is recorded (private quiz or group session) with the user id, bank id,
question id, whether it was right and when (seconds since the epoch): spaced review rates the
user's card of the question (:meth:`bot.features.learning.service.LearningService.answered`)."""


@dataclass(frozen=True)
class BankStats:
    """One user's record on one bank, over finished attempts.

    Attributes:
        bank_id: The bank's id.
        attempts: Number of finished attempts.
        best: Best score (correct answers) of those attempts.
        last: Score of the most recent one.
        total: Number of questions in the most recent one.
        most_missed: Up to 3 ``(question_id, times missed)`` pairs, most missed first.
    """

    bank_id: str
    attempts: int
    best: int
    last: int
    total: int
    most_missed: tuple[tuple[str, int], ...]


class RecordOutcome(StrEnum):
    """What storing an answer did (:meth:`QuizStore.record_answer`,
    :meth:`GroupStore.record_group_answer`)."""

    RECORDED = "recorded"
    """Stored: the only outcome that changed anything."""
    DUPLICATE = "duplicate"
    """Not stored: the user (or member) answered the question already."""
    CLOSED = "closed"
    """Not stored: the attempt ended or moved on, or the question's window ended, first."""


RECORDED, DUPLICATE, CLOSED = RecordOutcome


@dataclass(frozen=True)
class Pruned:
    """What :meth:`QuizStore.prune` deleted.

    Attributes:
        attempts: Abandoned attempts deleted.
        answers: Their answers deleted.
        names: Group players' display names blanked.
    """

    attempts: int = 0
    answers: int = 0
    names: int = 0


class StorageError(Exception):
    """Storage failed (locked, read-only or full database): nothing was recorded."""


Announce = Callable[[int, str, int], Awaitable[None]]
"""``announce(id, what, value)``: tell every instance what this one sent of an attempt or a
review card (``what`` names it, a word without spaces); each hears it before the user's next
update is handled there (the store's news: ``storage.order``). Never raises."""


class QuizStore(Protocol):
    """What the quiz keeps: attempts and answers (users' choices are
    :class:`PreferenceStore`'s).

    Every write is durable when the awaited call returns. Implementations raise
    :class:`StorageError` when a write could not be made.
    """

    async def start_attempt(
        self,
        user_id: int,
        bank_id: str,
        bank_version: int,
        plan: Plan,
        now: float,
        fingerprints: Mapping[str, str] | None = None,
    ) -> Attempt:
        """Abandon the user's active attempt, if any, and start a new one at position 0.

        Args:
            fingerprints: Question id -> content fingerprint, kept with the attempt
                (:attr:`Attempt.fingerprints <bot.kernel.engine.Attempt>`); None: none.
        """
        ...

    async def revise_attempt(
        self,
        attempt_id: int,
        position: int,
        plan: Plan,
        fingerprints: Mapping[str, str],
        finished_at: float | None,
    ) -> bool:
        """Replace an active attempt's plan and fingerprints (see :func:`bot.kernel.engine.revise`),
        finishing it at ``finished_at`` (seconds since the epoch) unless that is None; only if it
        is still active at ``position`` (checked atomically with the write).

        Returns:
            Whether it was revised (False: it moved on or ended first; nothing changed).
        """
        ...

    async def attempt(self, attempt_id: int) -> Attempt | None:
        """The attempt with its answers, or None if there is no such attempt."""
        ...

    async def active_attempt(self, user_id: int) -> Attempt | None:
        """The user's active attempt (at most one), or None."""
        ...

    async def record_answer(
        self,
        attempt_id: int,
        position: int,
        answer: Answer,
        moved: Attempt,
        language: str | None = None,
    ) -> RecordOutcome:
        """Store an answer to the question at ``position``, if the attempt is active and
        asking it (checked atomically with the insert), and in the same write move the attempt
        to where the core moved it: storage applies no rule of its own.

        Args:
            attempt_id: The attempt answered.
            position: The position of the question answered (``answer.question_id`` is there).
            answer: The graded answer (:func:`bot.kernel.engine.grade`).
            moved: The attempt with the answer, as the core moves it on
                (:func:`bot.kernel.engine.with_answer`): its ``position``, ``status`` and
                ``ended_at`` are what is stored (the rest of it is not written).
            language: The language the question was shown in (``quizbot report``), or None.

        Returns:
            :data:`RECORDED`, :data:`DUPLICATE` (answered already) or :data:`CLOSED` (the
            attempt ended or moved on first); only RECORDED changed anything.

        Raises:
            ValueError: ``moved`` is another attempt, or neither active nor finished (nothing
                is written).
        """
        ...

    async def abandon(self, attempt_id: int, now: float) -> bool:
        """Abandon an active attempt; False if it was not active."""
        ...

    async def stats(self, user_id: int) -> list[BankStats]:
        """The user's record per bank, banks ordered by their most recent finished attempt."""
        ...

    async def prune(
        self, *, abandoned_before: float, names_before: float, prompts_before: float | None = None
    ) -> Pruned:
        """Delete abandoned attempts that ended before ``abandoned_before`` with their answers,
        blank (``""``) the display names of the players of group sessions that ended
        (finished or stopped) before ``names_before``, and delete the prompts
        (:class:`PromptStore`) asked before ``prompts_before`` (None: none), in one write.
        Times in seconds since the epoch."""
        ...


class PromptStore(Protocol):
    """What a user was asked in a private chat and answers in a later update (``kind``
    ``delete``: /deletemydata's one-time nonce; ``edit``: a /myquizzes prompt), kept in the
    database so that the answer may reach any instance. One prompt of each kind per user: a
    newer one replaces the older."""

    async def set_prompt(self, user_id: int, kind: str, payload: str, now: float) -> None:
        """Ask ``user_id`` (at ``now``, seconds since the epoch): ``payload`` is what the
        answer needs (a nonce, the edit asked for), replacing their older prompt of ``kind``."""
        ...

    async def prompt(self, user_id: int, kind: str, *, since: float) -> str | None:
        """The payload of the user's prompt of ``kind`` asked at ``since`` or later; None if
        there is none (never asked, answered, or older)."""
        ...

    async def take_prompt(self, user_id: int, kind: str, payload: str, *, since: float) -> bool:
        """Use the user's prompt of ``kind`` up, if it is ``payload`` and was asked at
        ``since`` or later: True once (a compare-and-delete: of two instances taking it at
        once, one gets it). A prompt with another payload stays."""
        ...

    async def drop_prompt(self, user_id: int, kind: str) -> bool:
        """Forget the user's prompt of ``kind``; whether there was one."""
        ...


class ReportStore(Protocol):
    """What ``quizbot report`` reads: every stored answer, private and group."""

    async def item_responses(
        self, *, bank_id: str | None = None, chat_id: int | None = None, since: float | None = None
    ) -> list[Response]:
        """Every answer (private attempts and group sessions), optionally only of one bank,
        only of one group chat's sessions (``chat_id``: no private answers then), and only
        those given at or after ``since`` (seconds since the epoch)."""
        ...


SHOWN = "shown"
"""News of an attempt (:data:`Announce`): what follows its question ``value - 1`` was sent."""


REVIEWED = "reviewed"
"""News of an attempt (:data:`Announce`): the review of its missed questions was sent."""


NEXT_CARD = "next-card"
"""News of a review card (:data:`~bot.kernel.ports.Announce`): the "next" on its feedback
rated to ``value`` repetitions was served."""
