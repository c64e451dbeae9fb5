"""Exam mode's rules: the draw of a paper, the deadline, the marking. Pure: no I/O.

An exam is a private attempt (:class:`~bot.kernel.attempt.Attempt`) whose plan is the paper:
the questions drawn for it, in the order asked, with their options' order. The plan is stored
with the attempt, so a restart never changes a paper under a learner; a retake is a new attempt,
with a new draw. The terms (:class:`ExamTerms`: the deadline, each question's marks and the
penalty) are fixed when the exam starts and stored beside the attempt, so a maker's later edit
of the exam's settings changes no paper being sat.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from bot.kernel.bank import MAX_EXAM_MINUTES, Bank, Exam
from bot.kernel.engine import Attempt, Plan

MINUTE = 60.0
"""Seconds in a minute."""


def paper_seed(bank: Bank, user_id: int, nonce: float) -> str:
    """The seed of a learner's draw: the bank, its version, the learner and a nonce (when the
    exam starts), so that two learners, or two attempts of one, draw their own papers, and the
    same call draws the same paper."""
    return f"{bank.id}/{bank.version}/{user_id}/{nonce!r}"


def draw(bank: Bank, exam: Exam, seed: str) -> Plan:
    """A paper: ``exam.draw`` questions of ``bank`` (every one when None) drawn and ordered by
    a generator seeded with ``seed`` (:func:`paper_seed`), each question's options shuffled as
    :func:`bot.kernel.engine.plan_attempt` shuffles them (a true/false question, or one with
    ``shuffle: false``, keeps its order)."""
    rng = random.Random(seed)
    count = len(bank.questions) if exam.draw is None else min(exam.draw, len(bank.questions))
    drawn = rng.sample(bank.questions, count)
    orders = []
    for question in drawn:
        order = list(range(len(question.options)))
        if question.shuffled:
            rng.shuffle(order)
        orders.append(tuple(order))
    return Plan(tuple(q.id for q in drawn), tuple(orders))


@dataclass(frozen=True)
class ExamTerms:
    """An exam attempt's terms, fixed when it starts and stored with it.

    Attributes:
        attempt_id: The attempt.
        minutes: Its time, in minutes.
        deadline: When it is submitted by itself, in seconds since the epoch.
        marks: Question id -> what a right answer scores, for every question of the paper.
        penalty: Marks taken for a wrong answer.
    """

    attempt_id: int
    minutes: int
    deadline: float
    marks: Mapping[str, float]
    penalty: float

    @property
    def total(self) -> float:
        """The most marks the paper can score."""
        return sum(self.marks.values())


def terms_for(bank: Bank, exam: Exam, plan: Plan, attempt_id: int, started_at: float) -> ExamTerms:
    """The terms of an exam started at ``started_at`` on the paper ``plan``: the deadline
    ``started_at + minutes``, each question's own ``marks`` or the exam's."""
    marks = {}
    for question_id in plan.question_order:
        own = bank.question(question_id).marks
        marks[question_id] = exam.marks if own is None else own
    return ExamTerms(
        attempt_id, exam.minutes, started_at + exam.minutes * MINUTE, marks, exam.penalty
    )


def remaining(terms: ExamTerms, now: float) -> float:
    """Seconds left before the deadline (0 once it passed)."""
    return max(0.0, terms.deadline - now)


def overdue(terms: ExamTerms, now: float) -> bool:
    """Whether the deadline has come: the exam is submitted with what was answered."""
    return now >= terms.deadline


def clock(seconds: float) -> str:
    """Time left as a clock: ``12:30`` (minutes and seconds), ``1:02:03`` from an hour up;
    rounded up to the second, so that ``0:00`` shows only once time is up."""
    whole = max(0, int(-(-seconds // 1)))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass(frozen=True)
class Marked:
    """An exam attempt marked.

    Attributes:
        score: Marks scored: right answers' marks less the penalty of each wrong one (may be
            below 0).
        total: The most marks the paper can score.
        right: Right answers.
        wrong: Wrong answers.
        blank: Questions left unanswered.
    """

    score: float
    total: float
    right: int
    wrong: int
    blank: int


def mark(attempt: Attempt, terms: ExamTerms) -> Marked:
    """Mark ``attempt`` by its ``terms``: a right answer (for a question with several right
    options, exactly its right options, as the engine grades it) scores its marks, a wrong one
    loses the penalty, a blank one scores 0."""
    score, right, wrong = 0.0, 0, 0
    for question_id in attempt.plan.question_order:
        answer = attempt.answers.get(question_id)
        if answer is None:
            continue
        if answer.correct:
            score += terms.marks.get(question_id, 1.0)
            right += 1
        else:
            score -= terms.penalty
            wrong += 1
    blank = attempt.total - right - wrong
    return Marked(round(score, 4), round(terms.total, 4), right, wrong, blank)


def number(value: float) -> str:
    """Marks as people write them: ``4``, ``2.5``, ``-1``."""
    return f"{value:g}"


class MinutesOutOfRange(ValueError):
    """An exam's time asked for by /assign is not 1 to :data:`MAX_EXAM_MINUTES` minutes."""


EXAM_WORD = "exam"
"""The word that sets homework as an exam: ``/assign <quiz> <deadline> exam [minutes]``."""
DEFAULT_MINUTES = 30
"""An exam's time when neither /assign nor the quiz says one."""


def assigned_exam(words: list[str], own: Exam | None) -> tuple[list[str], Exam | None]:
    """Split ``/assign``'s words after the quiz into the deadline's words and the exam asked
    for by a trailing ``exam [minutes]`` (the quiz's own marks, penalty and draw kept, its
    time replaced when minutes are given; :data:`DEFAULT_MINUTES` when neither says one).

    Returns:
        The deadline's words, and the exam (None: no ``exam`` word).

    Raises:
        MinutesOutOfRange: the minutes given are not 1 to :data:`MAX_EXAM_MINUTES`.
    """
    minutes: int | None = None
    if len(words) >= 2 and words[-2].lower() == EXAM_WORD and words[-1].isdigit():
        minutes, words = int(words[-1]), words[:-2]
    elif words and words[-1].lower() == EXAM_WORD:
        words = words[:-1]
    else:
        return words, None
    base = own or Exam(DEFAULT_MINUTES)
    if minutes is None:
        return words, base
    if not 1 <= minutes <= MAX_EXAM_MINUTES:
        raise MinutesOutOfRange(minutes)
    return words, Exam(minutes, base.marks, base.penalty, base.draw)
