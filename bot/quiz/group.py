"""Group quiz sessions: the pure rules (no Telegram, no SQL).

A session asks a bank's questions one at a time to a whole group chat. Each question is open
for ``question_seconds``; every member may answer it once; when the window ends (or earlier, once
everyone who took part in earlier questions has answered) the question is revealed and the next
one is posted. At the end, a leaderboard ranks players by score, ties broken by total answer time.

Session phases, as stored:

- ``deadline`` set: question ``position`` is open until ``deadline`` (message ``message_id``).
- ``deadline`` None, ``position`` p > 0: question p - 1 (message ``message_id``) is closed and
  must be revealed; question p (or the leaderboard, when p == total) must be posted next.
- ``deadline`` None, ``position`` 0: nothing posted yet.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.quiz.bank import Bank
from bot.quiz.engine import BankChanged, InvalidOption, Plan, QuizError, StaleQuestion


class SessionStatus(StrEnum):
    """A group session's status, as stored (``group_sessions.status``)."""

    ACTIVE = "active"
    """Running: at most one per chat."""
    FINISHED = "finished"
    """Every question revealed and the leaderboard posted."""
    STOPPED = "stopped"
    """Ended early: /stop, the bot removed from the chat, or an error it could not get past."""


ACTIVE, FINISHED, STOPPED = SessionStatus

OVERDUE_WINDOWS = 3
"""A session whose open question's deadline passed this many answer windows ago is stuck (its
progress kept failing): it is ended with a notice."""


class Step(StrEnum):
    """What a session needs next, read from its stored state (see :func:`next_step`)."""

    DONE = "done"
    """The session ended: nothing to do."""
    WAIT = "wait"
    """A question is open until its deadline."""
    CLOSE = "close"
    """The open question's window has ended (or everyone answered): close it."""
    REVEAL = "reveal"
    """The closed question's message must be edited into its reveal."""
    POST = "post"
    """The question at ``position`` must be opened and posted."""
    FINISH = "finish"
    """Every question is closed: post the leaderboard, then finish the session."""


class SessionClosed(QuizError):
    """The session is over (finished or stopped)."""


class TooLate(QuizError):
    """The question's answer window has ended."""


class WrongChat(QuizError):
    """The button was tapped in another chat than the session's (a forwarded message)."""


@dataclass(frozen=True)
class GroupSession:
    """A group quiz session, as stored.

    Attributes:
        id: Storage id.
        chat_id: The group's chat id.
        bank_id: The bank's id.
        bank_version: The bank version the session was planned on.
        language: The group's language for the session's messages.
        starter_id: User id of who started it (may stop it, like admins).
        plan: Question and option order.
        question_seconds: Answer window per question, in seconds.
        position: See the module docstring.
        message_id: The Telegram message of the open (or last closed) question, if any.
        deadline: End of the open question's window, seconds since the epoch; None when no
            question is open.
        status: ``active``, ``finished`` or ``stopped``.
        started_at: Seconds since the epoch.
        ended_at: Seconds since the epoch, or None while active.
        message_thread_id: The forum topic the session runs in (every message of the session
            goes there), or None outside topics (a plain group, or a forum's General topic).
    """

    id: int
    chat_id: int
    bank_id: str
    bank_version: int
    language: str
    starter_id: int
    plan: Plan
    question_seconds: float
    position: int = 0
    message_id: int | None = None
    deadline: float | None = None
    status: SessionStatus = ACTIVE
    started_at: float = 0.0
    ended_at: float | None = None
    message_thread_id: int | None = None

    @property
    def total(self) -> int:
        """Number of questions."""
        return len(self.plan.question_order)

    @property
    def is_open(self) -> bool:
        """Whether a question is accepting answers."""
        return self.status == ACTIVE and self.deadline is not None

    @property
    def opened_at(self) -> float | None:
        """When the open question was posted (deadline minus the window), in epoch seconds."""
        return None if self.deadline is None else self.deadline - self.question_seconds


@dataclass(frozen=True)
class GroupAnswer:
    """One member's answer to one question of a session.

    Attributes:
        user_id: Who answered.
        question_id: The question.
        option_index: The chosen option in the bank's order.
        correct: Whether it is the correct option.
        elapsed: Seconds from the question being posted to the tap.
        answered_at: Seconds since the epoch.
    """

    user_id: int
    question_id: str
    option_index: int
    correct: bool
    elapsed: float
    answered_at: float


@dataclass(frozen=True)
class Standing:
    """A player's line in the leaderboard (rank 1 is best; ties share no rank)."""

    rank: int
    user_id: int
    name: str
    score: int
    answered: int
    seconds: float


def check_bank(session: GroupSession, bank: Bank | None) -> Bank:
    """Return ``bank`` if the session was planned on it.

    Raises:
        BankChanged: the bank is missing, or its version differs from the session's.
    """
    if bank is None or bank.id != session.bank_id or bank.version != session.bank_version:
        raise BankChanged(session.bank_id)
    return bank


def grade_tap(session: GroupSession, bank: Bank | None, chat_id: int, position: int, slot: int,
              user_id: int, now: float) -> GroupAnswer:
    """Grade a member's tap on the session's open question.

    Returns:
        The answer to record (the database still refuses a second one per member and question).

    Raises:
        WrongChat, SessionClosed, BankChanged, StaleQuestion, TooLate, InvalidOption.
    """
    if chat_id != session.chat_id:
        raise WrongChat(chat_id)
    if session.status != ACTIVE:
        raise SessionClosed(session.id)
    bank = check_bank(session, bank)
    if position != session.position:
        raise StaleQuestion(position) if position > session.position else TooLate(position)
    if session.deadline is None or now > session.deadline:
        raise TooLate(position)
    slots = session.plan.option_orders[position]
    if not 0 <= slot < len(slots):
        raise InvalidOption(slot)
    question_id = session.plan.question_order[position]
    option_index = slots[slot]
    opened = session.opened_at or now
    return GroupAnswer(user_id, question_id, option_index,
                       option_index == bank.question(question_id).correct_index,
                       max(0.0, now - opened), now)


def everyone_answered(answered: int, players: int, joined: int) -> bool:
    """Whether the open question can close early: every member who answered an earlier question
    has answered this one.

    Args:
        answered: Answers to the open question.
        players: Members who answered any question of the session.
        joined: Of ``answered``, members whose first answer this is.

    Never when nobody took part before this question (e.g. the first question): someone may
    still be reading it.
    """
    return players - joined > 0 and answered >= players


def next_step(session: GroupSession, now: float, *, close_early: bool = False) -> Step:
    """The one next step of a session's workflow, from its stored state alone.

    The workflow is open -> (window) -> close -> reveal -> open the next ... -> finish; each
    step's write is a compare-and-set on the state this function read, so a step that lost a
    race is seen as such and the state is read again.

    Args:
        session: The session as stored now.
        now: Seconds since the epoch.
        close_early: Close the open question before its deadline (everyone answered).
    """
    if session.status != ACTIVE:
        return Step.DONE
    if session.deadline is not None:
        return Step.CLOSE if close_early or now >= session.deadline else Step.WAIT
    if session.position > 0 and session.message_id is not None:
        return Step.REVEAL
    if session.position < session.total:
        return Step.POST
    return Step.FINISH


def overdue(session: GroupSession, now: float) -> bool:
    """Whether an open question's deadline passed :data:`OVERDUE_WINDOWS` windows ago."""
    return (session.status == ACTIVE and session.deadline is not None
            and now > session.deadline + OVERDUE_WINDOWS * session.question_seconds)


def tally(session: GroupSession, position: int, answers: Iterable[GroupAnswer]) -> list[int]:
    """How many members chose each slot of the question at ``position``."""
    question_id = session.plan.question_order[position]
    slots = session.plan.option_orders[position]
    counts = [0] * len(slots)
    for answer in answers:
        if answer.question_id == question_id:
            counts[slots.index(answer.option_index)] += 1
    return counts


def leaderboard(answers: Iterable[GroupAnswer], names: Mapping[int, str]) -> list[Standing]:
    """Rank players by score (high first), then total answer time (low first), then name.

    Args:
        answers: Every answer of the session.
        names: Display name per user id.
    """
    scores: dict[int, list[float]] = {}
    for answer in answers:
        entry = scores.setdefault(answer.user_id, [0, 0, 0.0])
        entry[0] += int(answer.correct)
        entry[1] += 1
        entry[2] += answer.elapsed
    ordered: Sequence[tuple[int, list[float]]] = sorted(
        scores.items(), key=lambda item: (-item[1][0], item[1][2], names.get(item[0], "")))
    return [Standing(rank, user_id, names.get(user_id, str(user_id)), int(s), int(n), t)
            for rank, (user_id, (s, n, t)) in enumerate(ordered, start=1)]
