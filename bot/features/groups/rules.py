"""Group quiz sessions: the pure rules (no Telegram, no SQL).

A session asks a bank's questions one at a time to a whole group chat. Each question is open
for ``question_seconds``; every member may answer it once; when the window ends (or earlier, once
everyone who took part in earlier questions has answered) the question is revealed and the next
one is posted. At the end, a leaderboard ranks players (see :func:`leaderboard` for the scoring
and the order).

Scoring (:data:`SPEED`, the default, as in Kahoot): a right answer earns
``round(1000 * (1 - elapsed / window / 2))`` points (1,000 for an instant answer, 500 at the
deadline), plus a streak bonus of 100 points per right answer in a row before it, at most 500
(:func:`streak_bonus`); a wrong or missing answer earns 0 and ends the streak. With
:data:`RIGHT` the score is the number of right answers.

Session phases, as stored:

- ``deadline`` set: question ``position`` is open until ``deadline`` (message ``message_id``).
- ``deadline`` None, ``position`` p > 0: question p - 1 (message ``message_id``) is closed and
  must be revealed; question p (or the leaderboard, when p == total) must be posted next.
- ``deadline`` None, ``position`` 0: nothing posted yet.

What a session needs next, read from these phases, is :mod:`bot.features.groups.pacing`'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.kernel.bank import MAX_OPTIONS, Bank, Question
from bot.kernel.engine import (
    InvalidOption,
    NothingChosen,
    Plan,
    QuizError,
    StaleQuestion,
    check_bank,
    chosen_slots,
)


class SessionStatus(StrEnum):
    """A group session's status, as stored (``group_sessions.status``)."""

    ACTIVE = "active"
    """Running: at most one per chat."""
    FINISHED = "finished"
    """Every question revealed and the leaderboard posted."""
    STOPPED = "stopped"
    """Ended early: /stop, the bot removed from the chat, or an error it could not get past."""


ACTIVE, FINISHED, STOPPED = SessionStatus


class Scoring(StrEnum):
    """A session's scoring rule, as stored (``group_sessions.scoring``, a group's setting)."""

    SPEED = "speed"
    """Points for speed and streaks (:func:`points`, :func:`streak_bonus`)."""
    RIGHT = "right"
    """One point per right answer."""


SPEED, RIGHT = Scoring
SCORINGS = tuple(Scoring)

MAX_POINTS = 1000
"""Points for a right answer given at once; one given at the deadline earns half."""
STREAK_STEP = 100
"""Streak bonus per right answer in a row before this one (Kahoot's answer streak bonus)."""
MAX_STREAK_BONUS = 500
"""The largest streak bonus for one answer."""


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
        scoring: :data:`SPEED` or :data:`RIGHT` (the group's setting when it started).
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
    scoring: Scoring = RIGHT

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
        option_index: The chosen option in the bank's order (the first chosen one for a
            question with several right options).
        correct: Whether it is the correct option (the exact set of right options, for a
            question with several).
        elapsed: Seconds from the question being posted to the tap.
        answered_at: Seconds since the epoch.
        chosen: For a question with several right options: every chosen option, bank order,
            ascending; empty otherwise.
    """

    user_id: int
    question_id: str
    option_index: int
    correct: bool
    elapsed: float
    answered_at: float
    chosen: tuple[int, ...] = ()

    @property
    def choice(self) -> frozenset[int]:
        """The chosen options, as bank option indices (one, or several)."""
        return frozenset(self.chosen) if self.chosen else frozenset((self.option_index,))


@dataclass(frozen=True)
class Standing:
    """A player's line in the leaderboard (rank 1 is best; ties share no rank).

    Attributes:
        rank: 1 for the best.
        user_id: The player.
        name: Their display name.
        score: Points (:data:`SPEED`) or right answers (:data:`RIGHT`).
        answered: Questions answered.
        seconds: Total answer time of all their answers, in seconds.
        right: Right answers.
        best_streak: The longest run of right answers in a row (in question order).
    """

    rank: int
    user_id: int
    name: str
    score: int
    answered: int
    seconds: float
    right: int = 0
    best_streak: int = 0


def grade_tap(
    session: GroupSession,
    bank: Bank | None,
    chat_id: int,
    position: int,
    slot: int,
    user_id: int,
    now: float,
) -> GroupAnswer:
    """Grade a member's tap on the session's open question.

    Returns:
        The answer to record (the database still refuses a second one per member and question).

    Raises:
        WrongChat, SessionClosed, BankChanged, StaleQuestion, TooLate, InvalidOption.
    """
    mask = 1 << slot if 0 <= slot < MAX_OPTIONS else -1  # -1: no such slot
    return grade_choice(session, bank, chat_id, position, mask, user_id, now)


def grade_choice(
    session: GroupSession,
    bank: Bank | None,
    chat_id: int,
    position: int,
    mask: int,
    user_id: int,
    now: float,
) -> GroupAnswer:
    """Grade a member's chosen slots (``mask``: bit ``s`` for slot ``s``) for the session's open
    question: right only when they are exactly the right options' slots (as
    :func:`bot.kernel.engine.grade_choice`).

    Raises:
        NothingChosen: ``mask`` is 0 (Submit before any tick).
        InvalidOption: a slot the question lacks, or several for a question with one right
            option.
        The refusals of :func:`grade_tap`.
    """
    question, slots = open_question(session, bank, chat_id, position, now)
    chosen = chosen_slots(mask, len(slots))
    if not chosen:
        raise NothingChosen(position)
    if len(chosen) > 1 and not question.several:
        raise InvalidOption(mask)
    indices = tuple(sorted(slots[slot] for slot in chosen))
    opened = session.opened_at or now
    return GroupAnswer(
        user_id,
        question.id,
        indices[0],
        frozenset(indices) == question.correct_indices,
        max(0.0, now - opened),
        now,
        indices if question.several else (),
    )


def open_question(
    session: GroupSession, bank: Bank | None, chat_id: int, position: int, now: float
) -> tuple[Question, tuple[int, ...]]:
    """Check that the session's question at ``position`` is open to taps at ``now`` (the checks
    of :func:`grade_tap`, also made for a tick of a question with several right options).

    Returns:
        The question and its slots (bank option index per slot).

    Raises:
        WrongChat, SessionClosed, BankChanged, StaleQuestion, TooLate.
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
    return (
        bank.question(session.plan.question_order[position]),
        session.plan.option_orders[position],
    )


def tally(session: GroupSession, position: int, answers: Iterable[GroupAnswer]) -> list[int]:
    """How many members chose each slot of the question at ``position`` (a member who chose
    several options counts once in each)."""
    question_id = session.plan.question_order[position]
    slots = session.plan.option_orders[position]
    counts = [0] * len(slots)
    for answer in answers:
        if answer.question_id == question_id:
            for option_index in answer.choice:
                if option_index in slots:
                    counts[slots.index(option_index)] += 1
    return counts


def answer_points(correct: bool, elapsed: float, window: float) -> int:
    """Points for one answer before its streak bonus: 0 when wrong, else
    ``round(MAX_POINTS * (1 - elapsed / window / 2))`` with ``elapsed`` (seconds) clamped to
    the window (Kahoot's formula: "How points work", support.kahoot.com)."""
    if not correct:
        return 0
    fraction = min(max(elapsed / window, 0.0), 1.0) if window > 0 else 0.0
    return round(MAX_POINTS * (1 - fraction / 2))


def streak_bonus(streak: int) -> int:
    """The bonus of a right answer that makes a run of ``streak`` right answers in a row:
    :data:`STREAK_STEP` per earlier one, at most :data:`MAX_STREAK_BONUS` (0 for the first)."""
    return min(STREAK_STEP * max(streak - 1, 0), MAX_STREAK_BONUS)


def points(session: GroupSession, answers: Iterable[GroupAnswer]) -> dict[tuple[int, str], int]:
    """Points per ``(user id, question id)`` answer under the session's scoring: with
    :data:`SPEED` the answer's points plus its streak bonus (streaks counted in the session's
    question order; a question a player skipped ends their streak), with :data:`RIGHT` 1 for a
    right answer, else 0."""
    by_user: dict[int, dict[str, GroupAnswer]] = {}
    for recorded in answers:
        by_user.setdefault(recorded.user_id, {})[recorded.question_id] = recorded
    result: dict[tuple[int, str], int] = {}
    for user_id, mine in by_user.items():
        streak = 0
        for question_id in session.plan.question_order:
            answer = mine.get(question_id)
            streak = streak + 1 if answer is not None and answer.correct else 0
            if answer is None:
                continue
            if session.scoring == RIGHT:
                result[user_id, question_id] = int(answer.correct)
            else:
                result[user_id, question_id] = answer_points(
                    answer.correct, answer.elapsed, session.question_seconds
                ) + (streak_bonus(streak) if answer.correct else 0)
    return result


def best_streaks(session: GroupSession, answers: Iterable[GroupAnswer]) -> dict[int, int]:
    """The longest run of right answers in a row per player, in the session's question order."""
    right: dict[int, set[str]] = {}
    for answer in answers:
        if answer.correct:
            right.setdefault(answer.user_id, set()).add(answer.question_id)
        else:
            right.setdefault(answer.user_id, set())
    best: dict[int, int] = {}
    for user_id, questions in right.items():
        run = top = 0
        for question_id in session.plan.question_order:
            run = run + 1 if question_id in questions else 0
            top = max(top, run)
        best[user_id] = top
    return best


def leaderboard(
    answers: Iterable[GroupAnswer], names: Mapping[int, str], session: GroupSession | None = None
) -> list[Standing]:
    """Rank the players.

    The order (stable, documented in the README): score, high first (points with
    :data:`SPEED`, right answers with :data:`RIGHT`); then right answers, more first; then
    total answer time, less first; then user id, lower first (ids never change, unlike names).

    Args:
        answers: Every answer of the session.
        names: Display name per user id.
        session: The session (its scoring, window and question order); None: right answers
            only, streaks in the order of ``answers``.
    """
    answers = list(answers)
    if session is None:
        order = tuple(dict.fromkeys(a.question_id for a in answers))
        session = GroupSession(0, 0, "", 0, "", 0, Plan(order, tuple(() for _ in order)), 1.0)
    scored = points(session, answers)
    streaks = best_streaks(session, answers)
    totals: dict[int, list[float]] = {}
    for answer in answers:
        entry = totals.setdefault(answer.user_id, [0, 0, 0.0, 0])
        entry[0] += scored.get((answer.user_id, answer.question_id), 0)
        entry[1] += 1
        entry[2] += answer.elapsed
        entry[3] += int(answer.correct)
    ordered: Sequence[tuple[int, list[float]]] = sorted(
        totals.items(), key=lambda item: (-item[1][0], -item[1][3], item[1][2], item[0])
    )
    return [
        Standing(
            rank,
            user_id,
            names.get(user_id, str(user_id)),
            int(s),
            int(n),
            t,
            int(r),
            streaks.get(user_id, 0),
        )
        for rank, (user_id, (s, n, t, r)) in enumerate(ordered, start=1)
    ]
