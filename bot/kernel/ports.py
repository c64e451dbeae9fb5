"""The small async storage interface the quiz needs (a port; ``storage/`` implements it)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import astuple, dataclass
from enum import StrEnum
from typing import Protocol

from bot.features.groups.rules import RIGHT, GroupAnswer, GroupSession, Scoring, SessionStatus
from bot.features.groups.settings import GroupSettings
from bot.features.learning.rules import Card
from bot.kernel.analysis import Response
from bot.kernel.engine import Answer, Attempt, Plan

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


class PreferenceStore(Protocol):
    """What the preferences keep (:mod:`bot.features.preferences.service`): users' language and
    answer flow, groups' language (the rows of users and of groups' settings).

    Every write is durable when the awaited call returns. Implementations raise
    :class:`StorageError` when a read or write could not be made.
    """

    async def user_language(self, user_id: int) -> str | None:
        """The language the user chose with /language, or None."""
        ...

    async def set_user_language(self, user_id: int, language: str) -> None:
        """Store the user's language choice (it wins over Telegram's language_code)."""
        ...

    async def answer_flow(self, user_id: int) -> str | None:
        """The user's ``/settings`` choice of what follows an answer (an
        :class:`~bot.features.private.flow.AnswerFlow` value), or None."""
        ...

    async def set_answer_flow(self, user_id: int, flow: str, now: float) -> None:
        """Store the user's choice of what follows an answer (their language choice stays)."""
        ...

    async def group_language(self, chat_id: int) -> str | None:
        """The group's language, or None if never set."""
        ...

    async def set_group_language(self, chat_id: int, language: str, *, by_admin: bool) -> None:
        """Set the group's language. ``by_admin`` False (the first starter's language) only
        fills in a group that has none."""
        ...


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
            f"{_count(self.answers, 'answer')}, {_count(self.attempts, 'attempt')}, "
            f"{_count(self.settings, 'setting')} deleted; "
            f"{_count(self.group_answers, 'group answer')} in "
            f"{_count(self.sessions, 'session')} made anonymous; "
            f"{_count(self.drafts, 'draft')} and "
            f"{_count(self.quizzes_deleted, 'created quiz', 'created quizzes')} deleted, "
            f"{self.quizzes_kept} kept without their owner; "
            f"{_count(self.other, 'other record')} deleted or unlinked"
        )


def _count(number: int, noun: str, plural: str | None = None) -> str:
    """``1 answer``, ``2 answers``: a count for an operator's summary (English only)."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


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
        see :func:`bot.features.privacy.service.is_deleted`) with no name, and clear them as starter
        (``starter_id`` 0); their prompts go too. Deleting a user with no data changes
        nothing."""
        ...


@dataclass(frozen=True)
class Learner:
    """A user's study habits and reminder setting.

    Attributes:
        user_id: The user.
        remind: Whether the daily reminder is on (off by default).
        hours: Answers by UTC hour of day (24 decayed counts; empty before any answer).
        next_remind_at: When the next reminder is due, in seconds since the epoch (None: not
            scheduled: reminders off, or the usual hour is not known yet).
        last_reminded_at: When the last reminder was sent, or None.
        blocked: The user blocked the bot (a 403): no reminders until they come back.
        language: The UI language when the user sent /remind (reminders are written in it).
    """

    user_id: int
    remind: bool = False
    hours: tuple[float, ...] = ()
    next_remind_at: float | None = None
    last_reminded_at: float | None = None
    blocked: bool = False
    language: str | None = None


@dataclass(frozen=True)
class ScorePoint:
    """One finished attempt (or group session) of a user, for the progress chart.

    Attributes:
        bank_id: The bank.
        ended_at: When it ended, in seconds since the epoch.
        score: Correct answers.
        total: Questions.
    """

    bank_id: str
    ended_at: float
    score: int
    total: int


@dataclass(frozen=True)
class CardUpdate:
    """One rating for :meth:`CardStore.update_cards`: what :meth:`CardStore.update_card` takes.

    Attributes:
        user_id: The card's user.
        bank_id: The question's bank.
        question_id: The question's id in the bank.
        update: The card -> the card to store (a new card, ``id`` 0, if there is none), or
            None to leave it (``study`` is then not applied either).
        study: The user's :class:`Learner` -> the one to store, or None.
    """

    user_id: int
    bank_id: str
    question_id: str
    update: Callable[[Card], Card | None]
    study: Callable[[Learner], Learner] | None = None


@dataclass(frozen=True)
class UnratedAnswer:
    """A stored answer, private or group, that its user's review card does not reflect yet
    (:meth:`CardStore.unrated_answers`).

    Attributes:
        user_id: Who answered (a Telegram user id: never a deleted user's pseudonym).
        bank_id: The question's bank.
        question_id: The question's id in the bank.
        correct: Whether the answer was right.
        answered_at: When, in seconds since the epoch.
    """

    user_id: int
    bank_id: str
    question_id: str
    correct: bool
    answered_at: float


class CardStore(Protocol):
    """What spaced review keeps: one card per user and question, and each learner's habits.

    Every write is durable when the awaited call returns; failures raise :class:`StorageError`.
    """

    async def update_card(
        self,
        user_id: int,
        bank_id: str,
        question_id: str,
        update: Callable[[Card], Card | None],
        study: Callable[[Learner], Learner] | None = None,
    ) -> Card | None:
        """Apply ``update`` to the user's card of the question (a new card, ``id`` 0, if there
        is none) and store what it returns, with ``study`` applied to the user's
        :class:`Learner` row, in one transaction: no other write comes between the read and
        the write. ``update`` returning None changes nothing (``study`` is not applied).

        Returns:
            The stored card, or None if ``update`` declined.
        """
        ...

    async def update_cards(self, updates: Sequence[CardUpdate]) -> None:
        """Apply ``updates`` as :meth:`update_card` would, one after the other in their order
        (a second rating of a card, or of a learner, sees the first), all durable when the
        awaited call returns. Many ratings cost about as much as one: what group sessions use.
        """
        ...

    async def unrated_answers(self) -> list[UnratedAnswer]:
        """Every stored answer (private attempts and group sessions, deleted users' pseudonyms
        left out) answered after the last rating of its user's card of the question, or with
        no card at all, oldest first. A card never rated (made from the answers before spaced
        review existed: ``last_review`` None) reflects the answers up to its ``due``."""
        ...

    async def card(self, card_id: int) -> Card | None:
        """The card with ``card_id``, or None."""
        ...

    async def cards(
        self, user_id: int, bank_id: str | None = None, question_ids: Sequence[str] = ()
    ) -> list[Card]:
        """The user's cards (of ``bank_id`` and ``question_ids`` when given), in no order."""
        ...

    async def due_cards(
        self, user_id: int, bank_ids: Sequence[str], now: float, limit: int, count_upto: int
    ) -> tuple[list[Card], int]:
        """Up to ``limit`` of the user's cards of ``bank_ids`` due at ``now``, earliest due
        first, and how many are due in all, counted up to ``count_upto``."""
        ...

    async def next_due(self, user_id: int, bank_ids: Sequence[str]) -> float | None:
        """When the user's next card of ``bank_ids`` is due (seconds since the epoch), or
        None when they have none."""
        ...

    async def learner(self, user_id: int) -> Learner:
        """The user's habits and reminder setting (defaults when never stored)."""
        ...

    async def save_learner(self, learner: Learner) -> None:
        """Store the learner's reminder setting, schedule and blocked flag (not ``hours``,
        which only :meth:`update_card` changes)."""
        ...

    async def update_learner(self, user_id: int, change: Callable[[Learner], Learner]) -> Learner:
        """Read the user's learner (defaults when never stored), store what ``change`` makes
        of it as :meth:`save_learner` does, and return that; atomically: no other write to
        the learner comes between the read and the write."""
        ...

    async def reminders_due(
        self, now: float, bank_ids: Sequence[str], limit: int
    ) -> list[tuple[Learner, bool]]:
        """Up to ``limit`` learners with reminders on, not blocked, whose reminder is due at
        ``now``, earliest first; each with whether a card of ``bank_ids`` is due for them."""
        ...

    async def move_reminders(self, planned: Sequence[tuple[int, float]], to: float) -> set[int]:
        """Move the next reminder of each (user id, planned time) of ``planned`` to ``to`` if
        it is still planned then (compare-and-set, in one write: of instances sharing the
        storage, one claims a due reminder); the users whose reminder was moved."""
        ...

    async def blocked_users(self) -> list[int]:
        """The users marked as having blocked the bot."""
        ...

    async def score_history(self, user_id: int) -> list[ScorePoint]:
        """The user's finished attempts and group sessions, oldest first."""
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
