"""Homework in a group: a quiz set by an admin with a deadline, played by each member
privately at their own pace (issue 22, "Homework in a group"). The records, the refusals and
the pure rules: which reminder is due, who counts (reading a deadline is
:mod:`bot.features.homework.deadlines`, its names re-exported here). The use cases are
:mod:`bot.features.homework.service`; the storage port is :mod:`bot.features.homework.ports`.

Rules (the source: issue 22):

- A member's **first finished attempt before the deadline counts**; attempts after it are
  practice. A homework attempt is an ordinary private attempt (it makes review cards and counts
  in /stats); a link says which attempt is whose homework.
- An attempt **replaced by another quiz** (the member started another bank: one active attempt
  per user) cannot be resumed; opening the homework again starts a new attempt, which counts
  in its place. So does an attempt abandoned because its bank changed version.
- **Reminders**: at :data:`REMINDERS` (24 h and 1 h) before the deadline, members who opened the
  homework before that moment and have not finished get one private reminder per threshold.
  When several thresholds passed unsent (the bot was down), only the nearest is sent and the
  others count as sent.
- **Progress** in the group message is edited when the finished count changed and the last
  edit is at least :data:`PROGRESS_SECONDS` old.
- Deadlines are at most :data:`MAX_DAYS` away.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from bot.features.homework.deadlines import END_OF_DAY as END_OF_DAY
from bot.features.homework.deadlines import MAX_DAYS as MAX_DAYS
from bot.features.homework.deadlines import UNITS as UNITS
from bot.features.homework.deadlines import DeadlinePast as DeadlinePast
from bot.features.homework.deadlines import DeadlineRefused as DeadlineRefused
from bot.features.homework.deadlines import DeadlineTooFar as DeadlineTooFar
from bot.features.homework.deadlines import DeadlineUnreadable as DeadlineUnreadable
from bot.features.homework.deadlines import check_deadline as check_deadline
from bot.features.homework.deadlines import parse_deadline as parse_deadline
from bot.kernel.analysis import ItemStats
from bot.kernel.csvsafe import CsvRow
from bot.kernel.engine import Attempt, QuizError

PROGRESS_SECONDS = 60.0
"""Least seconds between two edits of a group message's progress."""
REMINDERS = (86_400.0, 3_600.0)
"""Seconds before the deadline at which members who have not finished are reminded, farthest
first."""
SEND_LEASE = 300.0
"""Seconds a claim of homework results or a report holds before a later pass may claim it
again, unless its send was settled (confirmed, or released as surely not sent): what a process
that died between the claim and the send, or a send whose result is unknown, costs."""

TOKEN_PREFIX = "hw"
"""The start of every homework deep-link payload."""
TOKEN_PATTERN = re.compile(r"hw[A-Za-z0-9_-]{16}")
"""A homework deep-link payload: ``hw`` and 16 characters of Telegram's payload alphabet."""


class HomeworkStatus(StrEnum):
    """An assignment's status, as stored (``assignments.status``)."""

    OPEN = "open"
    """Before its deadline: members may play it and it counts."""
    CLOSED = "closed"
    """After its deadline (or closed early by an admin): results are final."""
    CANCELLED = "cancelled"
    """Cancelled by an admin: nothing counts, no results."""


OPEN, CLOSED, CANCELLED = HomeworkStatus


# --- refusals ------------------------------------------------------------------------------


class UnknownHomework(QuizError):
    """No homework has this token or id (a forged, garbage or deleted one)."""


class HomeworkEnded(QuizError):
    """Base of the refusals of homework that is no longer open.

    Attributes:
        assignment: The homework as stored.
    """

    def __init__(self, assignment: Assignment) -> None:
        super().__init__(assignment.id)
        self.assignment = assignment


class HomeworkClosed(HomeworkEnded):
    """The deadline passed (or an admin closed it early): it can only be played as practice."""


class HomeworkCancelled(HomeworkEnded):
    """An admin cancelled the homework."""


# --- records -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Assignment:
    """One homework set in a group.

    Attributes:
        id: Storage id.
        chat_id: The group (a supergroup's id after an upgrade moved it).
        thread_id: The forum topic its messages go to, or None.
        token: Its deep-link payload (:data:`TOKEN_PATTERN`).
        bank_id: The quiz.
        bank_version: The quiz's version when it was set (members play the latest).
        language: The group's language when it was set: what group messages are written in.
        set_by: The admin who set it (user id; 0 once they deleted their data, or when an
            anonymous admin set it).
        set_by_name: Their display name when they set it ("" once deleted).
        created_at: Seconds since the epoch.
        deadline: Seconds since the epoch.
        status: :data:`OPEN`, :data:`CLOSED` or :data:`CANCELLED`.
        message_id: The group message showing it (None until posted).
        shown_finished: The finished count that message shows.
        shown_at: When the message was last posted or edited (None until posted).
        closed_at: When it was closed or cancelled, or None.
        announced_at: When its results were claimed for the group (None: not yet).
        reported_at: When its report was claimed for the admin who set it (None: not yet).
        finished: Members whose attempt counts (finished before the deadline), as read.
        final_at: When the last edit of its group message (into "closed" or "cancelled") was
            claimed (None: not yet).
    """

    id: int
    chat_id: int
    thread_id: int | None
    token: str
    bank_id: str
    bank_version: int
    language: str
    set_by: int
    set_by_name: str
    created_at: float
    deadline: float
    status: HomeworkStatus
    message_id: int | None = None
    shown_finished: int = 0
    shown_at: float | None = None
    closed_at: float | None = None
    announced_at: float | None = None
    reported_at: float | None = None
    finished: int = 0
    final_at: float | None = None


@dataclass(frozen=True)
class Member:
    """A member who opened a homework, and their homework attempt.

    Attributes:
        assignment_id: The homework.
        user_id: The member.
        name: Their display name when they last opened it.
        language: Their UI language when they last opened it (reminders are written in it).
        opened_at: When they first opened it (seconds since the epoch).
        attempt_id: Their homework attempt: the one that counts once finished (the latest
            started while none had finished before the deadline).
        attempt_status: That attempt's status (``active``, ``finished``, ``abandoned``), or ""
            when it is gone (deleted).
        started_at: When that attempt started.
        finished_at: When it finished, if it finished before the deadline, else None.
        reminded: The nearest threshold reminded of (seconds before the deadline,
            one of :data:`REMINDERS`), or None.
    """

    assignment_id: int
    user_id: int
    name: str
    language: str
    opened_at: float
    attempt_id: int
    attempt_status: str
    started_at: float
    finished_at: float | None = None
    reminded: float | None = None

    @property
    def counted(self) -> bool:
        """Whether their attempt counts (it finished before the deadline)."""
        return self.finished_at is not None


@dataclass(frozen=True)
class Opened:
    """What opening a homework's deep link did (:meth:`HomeworkService.open`).

    Attributes:
        assignment: The homework.
        attempt: The private attempt started or resumed (pass it to the private quiz's screens).
        counts: Whether this attempt is the member's homework (finishing it before the deadline
            counts); False: practice, they finished already.
        resumed: Whether an attempt in progress goes on (False: it starts at its first question;
            with ``counts`` the first screen says that the first finished attempt counts).
        updated: With ``resumed``: the question at its position was edited since it was shown
            (show it with a notice, as :meth:`bot.features.private.service.QuizService.current`
            says).
        restarted: The member's earlier homework attempt was replaced by another quiz (or its
            bank changed), so this new one counts in its place.
    """

    assignment: Assignment
    attempt: Attempt
    counts: bool
    resumed: bool
    updated: bool = False
    restarted: bool = False


@dataclass(frozen=True)
class Progress:
    """A group message whose progress is due for an edit.

    Attributes:
        assignment: The homework (``shown_finished`` and ``shown_at`` as stored: pass it back to
            :meth:`HomeworkService.mark_progress`).
        finished: The finished count to show.
    """

    assignment: Assignment
    finished: int


@dataclass(frozen=True)
class Reminder:
    """A private reminder due to a member.

    Attributes:
        assignment: The homework.
        member: The member (``language`` is what to write it in).
        left: The threshold (seconds before the deadline, one of :data:`REMINDERS`).
    """

    assignment: Assignment
    member: Member
    left: float


@dataclass(frozen=True)
class Due:
    """What the homework pass has to do at a moment (:meth:`HomeworkService.due`), each list
    oldest deadline first. Every item is claimed by its ``mark``/``close`` compare-and-set
    before it is sent, so that nothing is sent twice.

    Attributes:
        closing: Open homework whose deadline passed: :meth:`HomeworkService.close` each.
        announcing: Closed homework whose results were not posted in the group yet:
            :meth:`HomeworkService.mark_announced`, then post :meth:`HomeworkService.results`.
        reporting: Homework whose group results were claimed but whose report (the CSV and the
            item analysis) was not sent to the admin who set it: :meth:`HomeworkService.
            mark_reported`, then send it. The group results go before the admins' reports.
        progress: Group messages whose progress is due for an edit (ask the group's budget
            first; :meth:`HomeworkService.mark_progress` before editing).
        reminders: Private reminders due (:meth:`HomeworkService.mark_reminded` before each).
        finals: Closed homework whose results were claimed, and cancelled homework, whose
            group message was not edited into its last state yet (ask the group's budget,
            then :meth:`HomeworkService.mark_final` before editing). After the results in a
            pass: no group waits for its results behind another group's edit.
    """

    closing: Sequence[Assignment] = ()
    announcing: Sequence[Assignment] = ()
    reporting: Sequence[Assignment] = ()
    progress: Sequence[Progress] = ()
    reminders: Sequence[Reminder] = ()
    finals: Sequence[Assignment] = ()

    def __bool__(self) -> bool:
        return any(
            (
                self.closing,
                self.announcing,
                self.reporting,
                self.progress,
                self.reminders,
                self.finals,
            )
        )


@dataclass(frozen=True)
class HomeworkAnswer:
    """One stored answer of a member's homework attempt (what results and the CSV read).

    Attributes:
        user_id, name: The member.
        attempt_id: Their homework attempt.
        started_at: When it started; ``finished_at`` when it finished before the deadline
            (None: unfinished, or finished late).
        question_id: The question answered.
        option_index: The chosen option, bank order (the first chosen of several).
        chosen: Every chosen option of a question with several right options, else empty.
        correct: Whether it was right.
        answered_at: When, in seconds since the epoch.
        language: The member's UI language (what the question was shown in, as far as known).
    """

    user_id: int
    name: str
    attempt_id: int
    started_at: float
    finished_at: float | None
    question_id: str
    option_index: int
    chosen: tuple[int, ...]
    correct: bool
    answered_at: float
    language: str


@dataclass(frozen=True)
class Place:
    """One member in the results' ranking.

    Attributes:
        rank: 1-based; members with the same score and time share it.
        user_id, name: The member (the name as typed: escape it to show it).
        score: Right answers (marks, for an exam).
        total: Questions of their attempt (the paper's marks, for an exam).
        seconds: From their attempt's start to its finish.
    """

    rank: int
    user_id: int
    name: str
    score: float
    total: float
    seconds: float


@dataclass(frozen=True)
class Missed:
    """A question many got wrong.

    Attributes:
        question_id: The question.
        number: Its 1-based place in the bank (0 if the bank no longer has it).
        wrong: How many counted attempts got it wrong.
        answers: How many counted attempts answered it.
    """

    question_id: str
    number: int
    wrong: int
    answers: int


@dataclass(frozen=True)
class HomeworkResults:
    """A homework's results (:meth:`HomeworkService.results`).

    Attributes:
        assignment: The homework.
        opened: Members who opened it.
        finished: Members whose attempt counts.
        average: Mean right answers of the counted attempts (0 without any).
        total: Questions of the quiz (of the counted attempts: the most any had).
        places: Counted attempts ranked: most right first, then the quicker; all of them
            (show the first few).
        missed: Up to 3 questions most got wrong (at least one wrong answer each), most
            wrong first.
        items: The item analysis of the counted attempts' answers, per question and language
            (:func:`bot.kernel.analysis.analyse`).
        rows: The CSV rows: every answer of every member's homework attempt given before the
            deadline (unfinished attempts included), by member then question order.
        in_marks: Whether the scores are marks (homework sat as an exam).
    """

    assignment: Assignment
    opened: int
    finished: int
    average: float
    total: float
    places: tuple[Place, ...] = ()
    missed: tuple[Missed, ...] = ()
    items: tuple[ItemStats, ...] = ()
    rows: tuple[CsvRow, ...] = field(default=(), repr=False)
    in_marks: bool = False


# --- rules ---------------------------------------------------------------------------------


def reminder_due(
    deadline: float, opened_at: float, reminded: float | None, now: float
) -> float | None:
    """The reminder threshold due to a member at ``now``, or None.

    The nearest threshold of :data:`REMINDERS` that has passed (``now >= deadline - left``),
    if the member opened the homework before it passed and was not reminded of it or a nearer
    one; none at or after the deadline.

    Args:
        deadline, opened_at, now: Seconds since the epoch.
        reminded: The nearest threshold reminded of already, or None.
    """
    if now >= deadline:
        return None
    passed = [left for left in REMINDERS if now >= deadline - left]
    if not passed:
        return None
    left = min(passed)
    if opened_at >= deadline - left:
        return None
    if reminded is not None and reminded <= left:
        return None
    return left


def progress_due(assignment: Assignment, finished: int, now: float) -> bool:
    """Whether the group message of ``assignment`` is due for a progress edit showing
    ``finished``: it is posted, the count changed, and the last edit is at least
    :data:`PROGRESS_SECONDS` old."""
    return (
        assignment.message_id is not None
        and finished != assignment.shown_finished
        and (assignment.shown_at is None or now - assignment.shown_at >= PROGRESS_SECONDS)
    )
