"""Item analysis of stored answers (classical test theory): per question and language, how many
answered, how hard it was, how well it told stronger from weaker players, and how often each
option was chosen. Pure: plain rows in, statistics out (``statistics`` from the standard
library does the arithmetic).

- **Difficulty** ``p``: the proportion of right answers (higher is easier).
- **Discrimination**: the *corrected point-biserial correlation* between answering the item
  right (0/1) and the rest score (the sitting's right answers without this item), i.e. Pearson's
  r with a dichotomous variable (Crocker & Algina, *Introduction to Classical and Modern Test
  Theory*, 1986, ch. 14; the item is left out of the total so that it does not correlate with
  itself). ``statistics.correlation`` computes Pearson's r.
- **Flags**: ``too_easy`` (p > 0.90), ``too_hard`` (p < 0.20), ``negative`` (discrimination
  below 0: stronger players miss it more often; check its key), ``few_answers`` (fewer than
  :data:`MIN_ANSWERS`: the figures are noise). Thresholds after Ebel & Frisbie, *Essentials
  of Educational Measurement*, 1991 (an index under 0.20 is poor, under 0 a flawed item).

A *sitting* is one private attempt, or one member's answers in one group session.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

TOO_EASY, TOO_HARD = 0.90, 0.20
"""Difficulty bounds outside which a question is flagged."""
MIN_ANSWERS = 10
"""Answers below which a question is flagged ``few_answers``."""


@dataclass(frozen=True)
class Response:
    """One stored answer.

    Attributes:
        kind: ``private`` (an attempt) or ``group`` (a group session).
        sitting: The attempt's or session's id.
        user_id: Who answered.
        bank_id: The bank.
        question_id: The question.
        option_index: The chosen option, 0-based in the bank's order (the first chosen one
            for a question with several right options).
        correct: Whether it was right.
        language: The language it was shown in ("" when unknown: a private attempt of a user
            who never chose one with /language follows Telegram's language, not stored).
        chosen: Every chosen option for a question with several right options (bank order);
            empty otherwise.
    """

    kind: str
    sitting: int
    user_id: int
    bank_id: str
    question_id: str
    option_index: int
    correct: bool
    language: str
    chosen: tuple[int, ...] = ()


@dataclass
class ItemStats:
    """The figures of one question in one language.

    Attributes:
        bank_id, question_id, language: What they are about.
        answers: How many answered.
        difficulty: Proportion right (0-1).
        discrimination: Corrected point-biserial correlation, or None when it is undefined
            (fewer than 2 answers, or everyone right, or all rest scores equal).
        options: How many chose each option (bank order, option 1 first; an answer of several
            options counts in each).
        flags: See the module docstring.
    """

    bank_id: str
    question_id: str
    language: str
    answers: int
    difficulty: float
    discrimination: float | None
    options: list[int] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)


def analyse(
    responses: Iterable[Response], option_counts: dict[tuple[str, str], int]
) -> list[ItemStats]:
    """Item statistics per (bank, question, language), in that order.

    Args:
        responses: The answers to analyse.
        option_counts: Number of options per (bank id, question id) as the bank has them now
            (answers to options beyond are still counted in ``answers``).
    """
    responses = list(responses)
    totals: dict[tuple[str, int, int], int] = defaultdict(int)
    for r in responses:
        totals[r.kind, r.sitting, r.user_id] += int(r.correct)
    items: dict[tuple[str, str, str], list[Response]] = defaultdict(list)
    for r in responses:
        items[r.bank_id, r.question_id, r.language].append(r)
    result = []
    for (bank_id, question_id, language), group in sorted(items.items()):
        right = [int(r.correct) for r in group]
        rest = [totals[r.kind, r.sitting, r.user_id] - int(r.correct) for r in group]
        try:
            discrimination: float | None = statistics.correlation(right, rest)
        except statistics.StatisticsError:  # < 2 answers, or a constant variable
            discrimination = None
        options = [0] * option_counts.get((bank_id, question_id), 0)
        for r in group:
            for option_index in r.chosen or (r.option_index,):
                if 0 <= option_index < len(options):
                    options[option_index] += 1
        difficulty = sum(right) / len(right)
        flags = []
        if difficulty > TOO_EASY:
            flags.append("too_easy")
        if difficulty < TOO_HARD:
            flags.append("too_hard")
        if discrimination is not None and discrimination < 0:
            flags.append("negative")
        if len(group) < MIN_ANSWERS:
            flags.append("few_answers")
        result.append(
            ItemStats(
                bank_id,
                question_id,
                language,
                len(group),
                difficulty,
                discrimination,
                options,
                flags,
            )
        )
    return result


def most_chosen_wrong(item: ItemStats, right: Iterable[int]) -> int | None:
    """The wrong option chosen most often (0-based, bank order; the first of a tie), or None
    when no wrong option was chosen.

    Args:
        item: The question's figures (:attr:`ItemStats.options`).
        right: The question's right options (one, or several:
            :attr:`bot.kernel.bank.Question.correct_indices`): a right option ticked in a wrong
            set of several is not a wrong option.
    """
    right = set(right)
    wrong = [
        (count, -index)
        for index, count in enumerate(item.options)
        if index not in right and count > 0
    ]
    return -max(wrong)[1] if wrong else None
