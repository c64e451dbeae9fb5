"""Exam mode's rules (:mod:`bot.features.exams.rules`): the draw, the deadline, the marking."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.features.exams.rules import (
    MinutesOutOfRange,
    assigned_exam,
    clock,
    draw,
    mark,
    overdue,
    paper_seed,
    remaining,
    terms_for,
)
from bot.kernel.bank import Exam
from bot.kernel.engine import ACTIVE, Answer, Attempt


def test_a_draw_is_stable_for_its_seed_and_differs_between_learners(banks) -> None:
    bank = next(iter(banks.values()))
    exam = Exam(10, draw=4)
    seed = paper_seed(bank, 7, 1000.0)
    paper = draw(bank, exam, seed)
    assert paper == draw(bank, exam, seed)  # the same paper for the same learner and attempt
    assert len(set(paper.question_order)) == 4
    others = {draw(bank, exam, paper_seed(bank, user, 1000.0)) for user in range(8, 20)}
    assert len(others | {paper}) > 1  # other learners: other papers
    for question_id, slots in zip(paper.question_order, paper.option_orders, strict=True):
        assert sorted(slots) == list(range(len(bank.question(question_id).options)))


def test_without_a_draw_every_question_is_asked(banks) -> None:
    bank = next(iter(banks.values()))
    paper = draw(bank, Exam(5), paper_seed(bank, 1, 0.0))
    assert sorted(paper.question_order) == sorted(q.id for q in bank.questions)


def test_the_deadline_and_the_clock(banks) -> None:
    bank = next(iter(banks.values()))
    paper = draw(bank, Exam(30, draw=2), "s")
    terms = terms_for(bank, Exam(30, draw=2), paper, 1, 100.0)
    assert terms.deadline == 100.0 + 30 * 60
    assert remaining(terms, 100.0 + 17 * 60 + 30) == 12 * 60 + 30
    assert clock(12 * 60 + 30) == "12:30" and clock(0.2) == "0:01" and clock(0) == "0:00"
    assert clock(3723) == "1:02:03"
    assert not overdue(terms, terms.deadline - 0.001) and overdue(terms, terms.deadline)
    assert remaining(terms, terms.deadline + 5) == 0


def test_marks_with_a_penalty_and_a_question_of_its_own(banks) -> None:
    bank = next(iter(banks.values()))
    first, second, third = bank.questions[:3]
    bank = replace(bank, questions=(replace(first, marks=2.5), *bank.questions[1:]))
    exam = Exam(10, marks=4, penalty=1)
    paper = draw(replace(bank, questions=bank.questions[:3]), exam, "s")
    terms = terms_for(bank, exam, paper, 1, 0.0)
    assert terms.marks == {first.id: 2.5, second.id: 4.0, third.id: 4.0}
    attempt = Attempt(1, 7, bank.id, bank.version, paper, 2, ACTIVE, 0.0)
    attempt = replace(
        attempt,
        answers={
            first.id: Answer(first.id, 0, True, 1.0),
            second.id: Answer(second.id, 1, False, 2.0),
        },
    )
    marked = mark(attempt, terms)
    assert (marked.score, marked.total) == (1.5, 10.5)  # 2.5 − 1, the third blank
    assert (marked.right, marked.wrong, marked.blank) == (1, 1, 1)
    wrong = replace(attempt, answers={first.id: Answer(first.id, 1, False, 1.0)})
    assert mark(wrong, terms).score == -1


def test_assign_words_set_homework_as_an_exam() -> None:
    own = Exam(20, 4.0, 1.0, 10)
    assert assigned_exam(["2d"], own) == (["2d"], None)
    assert assigned_exam(["Friday", "17:00", "exam"], own) == (["Friday", "17:00"], own)
    assert assigned_exam(["2d", "EXAM", "45"], own) == (["2d"], Exam(45, 4.0, 1.0, 10))
    assert assigned_exam(["2d", "exam", "45"], None) == (["2d"], Exam(45))
    assert assigned_exam(["2d", "exam"], None) == (["2d"], Exam(30))
    with pytest.raises(MinutesOutOfRange):
        assigned_exam(["2d", "exam", "601"], None)
    with pytest.raises(MinutesOutOfRange):
        assigned_exam(["2d", "exam", "0"], own)
