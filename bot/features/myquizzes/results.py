"""A created quiz's results for its creator (``/myquizzes`` Results): attempts, players, the
average score, and per question the share right and the wrong option chosen most, over the
stored answers of private and group plays (``bot.kernel.ports.ReportStore.item_responses``).
Pure: rows in, figures out."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.kernel.analysis import Response
from bot.kernel.bank import Bank


@dataclass(frozen=True)
class QuestionResult:
    """How one question of a quiz went.

    Attributes:
        number: Its 1-based place in the latest version.
        question_id: Its id.
        answers: How many answers it got.
        right: Share of right answers (0-1); 0 without answers.
        wrong_option: Index (bank order) of the wrong option chosen most often, None if no
            wrong option was chosen.
        wrong_count: How many chose it.
    """

    number: int
    question_id: str
    answers: int
    right: float
    wrong_option: int | None
    wrong_count: int


@dataclass(frozen=True)
class QuizResults:
    """A quiz's results, private and group plays together.

    Attributes:
        attempts: Sittings (a private attempt, or one member in one group session) with at
            least one answer.
        players: Distinct users who answered.
        average: Mean share of right answers per sitting (0-1); 0 without sittings.
        questions: Per question of the latest version, in its order.
    """

    attempts: int
    players: int
    average: float
    questions: tuple[QuestionResult, ...]


class Responses(Protocol):
    """What results read: the stored answers (``bot.kernel.ports.ReportStore``)."""

    async def item_responses(
        self, *, bank_id: str | None = None, chat_id: int | None = None, since: float | None = None
    ) -> list[Response]: ...


def summarize(bank: Bank, responses: Sequence[Response]) -> QuizResults:
    """Attempts, players, the average score and per-question figures of ``responses`` (answers
    to ``bank``'s questions; those to questions it no longer has count in the totals only)."""
    sittings: dict[tuple[str, int, int], list[bool]] = defaultdict(list)
    by_question: dict[str, list[Response]] = defaultdict(list)
    for response in responses:
        sittings[response.kind, response.sitting, response.user_id].append(response.correct)
        by_question[response.question_id].append(response)
    average = (
        statistics.fmean(sum(marks) / len(marks) for marks in sittings.values())
        if sittings
        else 0.0
    )
    results = []
    for number, question in enumerate(bank.questions, start=1):
        answers = by_question.get(question.id, [])
        wrong = Counter(
            r.option_index
            for r in answers
            if not r.correct
            and 0 <= r.option_index < len(question.options)
            and not question.options[r.option_index].correct
        )
        most = wrong.most_common(1)
        results.append(
            QuestionResult(
                number,
                question.id,
                len(answers),
                sum(r.correct for r in answers) / len(answers) if answers else 0.0,
                most[0][0] if most else None,
                most[0][1] if most else 0,
            )
        )
    return QuizResults(len(sittings), len({r.user_id for r in responses}), average, tuple(results))
