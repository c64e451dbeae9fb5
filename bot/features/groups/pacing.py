"""A group session's pace, read from its stored state
(:class:`~bot.features.groups.rules.GroupSession`): the one next step of its workflow
(:func:`next_step`), the open question's mid-window clock, the calls it must still make soon,
when it is stuck (overdue), when a question may close early and when one may be revealed.
"""

from __future__ import annotations

import math
from enum import StrEnum

from bot.features.groups.rules import ACTIVE, GroupSession

CLOCK_FRACTION = 1 / 3
"""The mid-window clock edit ("⏱ 10 s left") comes when this fraction of the window is left."""
MIN_CLOCK_SECONDS = 1
"""No clock edit when fewer whole seconds than this would be left (a very short window)."""

OVERDUE_WINDOWS = 3
"""A session whose open question's deadline passed this many answer windows ago is stuck (its
progress kept failing): it is ended with a notice."""


class Step(StrEnum):
    """What a session needs next, read from its stored state (see :func:`next_step`)."""

    DONE = "done"
    """The session ended: nothing to do."""
    WAIT = "wait"
    """A question is open until its deadline."""
    CLOCK = "clock"
    """The open question's message gets its one mid-window edit: how many seconds are left."""
    CLOSE = "close"
    """The open question's window has ended (or everyone answered): close it."""
    REVEAL = "reveal"
    """The closed question's message must be edited into its reveal."""
    POST = "post"
    """The question at ``position`` must be opened and posted."""
    FINISH = "finish"
    """Every question is closed: post the leaderboard, then finish the session."""


def clock_at(session: GroupSession) -> float | None:
    """When the open question's one clock edit is due (seconds since the epoch), or None when
    no question is open or the window is too short for one (:data:`MIN_CLOCK_SECONDS`)."""
    if session.deadline is None or clock_left(session) < MIN_CLOCK_SECONDS:
        return None
    return session.deadline - clock_left(session)


def clock_left(session: GroupSession) -> int:
    """Whole seconds left at the clock edit: :data:`CLOCK_FRACTION` of the window, rounded
    (10 of 30)."""
    return round(session.question_seconds * CLOCK_FRACTION)


def calls_ahead(session: GroupSession, horizon: float) -> int:
    """The sends and edits the session must still make in the next ``horizon`` seconds, at
    most, while question ``position`` is open: its reveal, then the post and reveal of each
    following question that can start within the horizon (one per window), and the
    leaderboard if it can come within it. An optional call (the clock edit) is made only if it
    fits in the group's budget with these kept back."""
    left = session.total - session.position - 1
    fit = math.ceil(horizon / session.question_seconds) if session.question_seconds > 0 else left
    ahead = min(left, fit)
    return 1 + 2 * ahead + (1 if left < fit else 0)


def revealable(session: GroupSession, position: int) -> bool:
    """Whether the question at ``position`` may be shown with its answer (a reveal's private
    link): it was closed, or the session ended; never while it is open."""
    return 0 <= position < session.total and (
        session.status != ACTIVE or position < session.position
    )


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


def next_step(
    session: GroupSession, now: float, *, close_early: bool = False, clocked: bool = True
) -> Step:
    """The one next step of a session's workflow, from its stored state alone.

    The workflow is open -> (window) -> close -> reveal -> open the next ... -> finish; each
    step's write is a compare-and-set on the state this function read, so a step that lost a
    race is seen as such and the state is read again.

    Args:
        session: The session as stored now.
        now: Seconds since the epoch.
        close_early: Close the open question before its deadline (everyone answered).
        clocked: The open question's clock edit was made (or given up); False: it is due at
            :func:`clock_at`.
    """
    if session.status != ACTIVE:
        return Step.DONE
    if session.deadline is not None:
        if close_early or now >= session.deadline:
            return Step.CLOSE
        due = clock_at(session)
        if not clocked and session.message_id is not None and due is not None and now >= due:
            return Step.CLOCK
        return Step.WAIT
    if session.position > 0 and session.message_id is not None:
        return Step.REVEAL
    if session.position < session.total:
        return Step.POST
    return Step.FINISH


def overdue(session: GroupSession, now: float) -> bool:
    """Whether an open question's deadline passed :data:`OVERDUE_WINDOWS` windows ago."""
    return (
        session.status == ACTIVE
        and session.deadline is not None
        and now > session.deadline + OVERDUE_WINDOWS * session.question_seconds
    )
