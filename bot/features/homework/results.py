"""A homework's results from its members' answers: the ranking, the average, the questions most
got wrong, the item analysis (:mod:`bot.kernel.analysis`) and the CSV rows
(:class:`~bot.features.homework.rules.HomeworkResults`). Pure: rows in, figures out.

Only attempts that count (finished before the deadline) make the figures; the CSV has every
answer given before the deadline, unfinished attempts included, so that the admin sees who
stopped where.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime, tzinfo

from bot.features.exams.rules import ExamTerms
from bot.features.homework.rules import Assignment, HomeworkAnswer, HomeworkResults, Missed, Place
from bot.kernel.analysis import Response, analyse
from bot.kernel.bank import Bank, Question
from bot.kernel.csvsafe import CsvRow
from bot.kernel.zones import zone_info

MISSED = 3
"""Questions the results name as most got wrong, at most."""


class _Times:
    """Moments as ISO 8601 in one zone, to the second; each moment formatted once (a member's
    attempt start and finish repeat on every row of theirs)."""

    def __init__(self, zone: tzinfo) -> None:
        self._zone = zone
        self._done: dict[float, str] = {}

    def __call__(self, moment: float | None) -> str:
        if moment is None:
            return ""
        text = self._done.get(moment)
        if text is None:
            text = self._done[moment] = datetime.fromtimestamp(moment, self._zone).isoformat(
                timespec="seconds"
            )
        return text


def _option_text(bank: Bank | None, question: Question | None, answer: HomeworkAnswer) -> str:
    """The chosen options' text in the member's language (their 1-based numbers when the bank
    no longer has the question), several joined by " | "."""
    chosen = answer.chosen or (answer.option_index,)
    if bank is None or question is None:
        return " | ".join(str(i + 1) for i in chosen)
    language = bank.language_for(answer.language)
    return " | ".join(
        question.options[i].text.get(language, bank.default_language)
        if 0 <= i < len(question.options)
        else str(i + 1)
        for i in chosen
    )


def _seconds(answer: HomeworkAnswer) -> float:
    """Seconds from the start of ``answer``'s attempt to its finish (0 if unfinished)."""
    return (answer.finished_at - answer.started_at) if answer.finished_at is not None else 0.0


def _marks(answer: HomeworkAnswer, terms: Mapping[int, ExamTerms]) -> float | None:
    """What ``answer`` scored in its exam (its question's marks, or less the penalty); None
    when its attempt is no exam."""
    found = terms.get(answer.attempt_id)
    if found is None:
        return None
    return found.marks.get(answer.question_id, 1.0) if answer.correct else -found.penalty


def _score(given: Sequence[HomeworkAnswer], terms: Mapping[int, ExamTerms]) -> tuple[float, float]:
    """A counted attempt's score and its most: right answers of the questions answered, or,
    for an exam, its marks (:func:`bot.features.exams.rules.mark`'s rule) of the paper's."""
    found = terms.get(given[0].attempt_id)
    if found is None:
        return sum(a.correct for a in given), len(given)
    return round(sum(_marks(a, terms) or 0.0 for a in given), 4), round(found.total, 4)


def summarize(
    assignment: Assignment,
    opened: int,
    answers: Sequence[HomeworkAnswer],
    bank: Bank | None,
    zone: str,
    terms: Mapping[int, ExamTerms] | None = None,
) -> HomeworkResults:
    """The results of ``assignment``.

    Args:
        assignment: The homework.
        opened: Members who opened it.
        answers: Its members' answers (:meth:`bot.features.homework.ports.HomeworkStore.
            homework_answers`): those with ``finished_at`` are of counted attempts.
        bank: The quiz at its latest version (None when gone: questions are numbered 0 and
            options by their number).
        zone: The chat's time zone (the CSV's times).
        terms: Attempt id -> its exam's terms, for the attempts sat as exams: their scores
            are marks, and the CSV has each answer's marks.

    Places rank by right answers, then by the time from the attempt's start to its finish;
    members with the same score and the same whole seconds share a rank.
    """
    terms = terms or {}
    counted: dict[int, list[HomeworkAnswer]] = defaultdict(list)
    for answer in answers:
        if answer.finished_at is not None:
            counted[answer.user_id].append(answer)
    ranked = sorted(
        ((*_score(given, terms), given[0]) for given in counted.values()),
        key=lambda entry: (-entry[0], _seconds(entry[2]), entry[2].user_id),
    )
    places: list[Place] = []
    for score, total, first in ranked:
        seconds = _seconds(first)
        rank = (
            places[-1].rank
            if places and places[-1].score == score and int(places[-1].seconds) == int(seconds)
            else len(places) + 1
        )
        places.append(Place(rank, first.user_id, first.name, score, total, seconds))
    questions = (
        {q.id: (n, q) for n, q in enumerate(bank.questions, start=1)} if bank is not None else {}
    )
    wrong: dict[str, int] = defaultdict(int)
    asked: dict[str, int] = defaultdict(int)
    for given in counted.values():
        for answer in given:
            asked[answer.question_id] += 1
            wrong[answer.question_id] += not answer.correct
    last = len(questions) + 1
    missed = sorted(
        (
            Missed(q, questions[q][0] if q in questions else 0, wrong[q], asked[q])
            for q in asked
            if wrong[q] > 0
        ),
        key=lambda m: (-m.wrong, m.number or last, m.question_id),
    )
    responses = [
        Response(
            "private",
            a.attempt_id,
            a.user_id,
            assignment.bank_id,
            a.question_id,
            a.option_index,
            a.correct,
            a.language,
            a.chosen,
        )
        for given in counted.values()
        for a in given
    ]
    option_counts = (
        {(bank.id, q.id): len(q.options) for q in bank.questions} if bank is not None else {}
    )
    iso = _Times(zone_info(zone))
    rows = []
    for answer in answers:
        number, question = questions.get(answer.question_id, (0, None))
        rows.append(
            CsvRow(
                answer.user_id,
                answer.name,
                number,
                answer.question_id,
                _option_text(bank, question, answer),
                answer.correct,
                iso(answer.answered_at),
                iso(answer.started_at),
                iso(answer.finished_at),
                _marks(answer, terms),
            )
        )
    return HomeworkResults(
        assignment=assignment,
        opened=opened,
        finished=len(places),
        average=statistics.fmean(p.score for p in places) if places else 0.0,
        total=max((p.total for p in places), default=0),
        places=tuple(places),
        missed=tuple(missed[:MISSED]),
        items=tuple(analyse(responses, option_counts)),
        rows=tuple(rows),
        in_marks=any(a.attempt_id in terms for given in counted.values() for a in given),
    )
