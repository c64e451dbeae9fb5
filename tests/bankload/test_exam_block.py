"""The bank format's ``exam`` block and a question's ``marks`` (banks/README.md, "Exam mode")."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.bankload import parse_bank
from bot.bankload.dump import dump_bank
from bot.bankload.problems import BankError
from bot.kernel.bank import Exam

SEED = (Path(__file__).parents[2] / "banks" / "deepspeed-megatron.yaml").read_text("utf-8")


def with_exam(block: str, seed: str = SEED) -> str:
    head, questions = seed.split("\nquestions:", 1)
    return f"{head}\nexam:\n{block}\nquestions:{questions}"


def test_an_exam_block_is_read_and_written_back() -> None:
    bank = parse_bank(with_exam("  minutes: 30\n  marks: 4\n  penalty: 1\n  draw: 3"))
    assert bank.exam == Exam(30, 4.0, 1.0, 3)
    assert parse_bank(dump_bank(bank)) == bank


def test_defaults_and_a_blank_penalty() -> None:
    bank = parse_bank(with_exam("  minutes: 5\n  penalty:"))
    assert bank.exam == Exam(5, 1.0, 0.0, None)


def test_a_bank_without_exam_is_no_exam() -> None:
    assert parse_bank(SEED).exam is None


def test_a_question_may_override_its_marks() -> None:
    text = SEED.replace("\n  - id: ", "\n  - marks: 2.5\n    id: ", 1)
    bank = parse_bank(with_exam("  minutes: 5", text))
    assert bank.questions[0].marks == 2.5
    assert all(q.marks is None for q in bank.questions[1:])
    assert parse_bank(dump_bank(bank)) == bank


@pytest.mark.parametrize(
    ("block", "field", "key"),
    [
        ("  minutes: 0", "exam.minutes", "problem.exam_minutes"),
        ("  minutes: 601", "exam.minutes", "problem.exam_minutes"),
        ("  minutes: '10'", "exam.minutes", "problem.exam_minutes"),
        ("  minutes: 5\n  marks: 0", "exam.marks", "problem.exam_marks"),
        ("  minutes: 5\n  penalty: -1", "exam.penalty", "problem.exam_penalty"),
        ("  minutes: 5\n  draw: 9", "exam.draw", "problem.exam_draw"),
        ("  minutes: 5\n  draw: 0", "exam.draw", "problem.exam_draw"),
        ("  marks: 2", "exam.minutes", "problem.missing"),
        ("  minutes: 5\n  time: 3", "exam.time", "problem.unknown_key"),
    ],
)
def test_a_bad_exam_block_is_refused_by_field(block: str, field: str, key: str) -> None:
    with pytest.raises(BankError) as caught:
        parse_bank(with_exam(block))
    assert [(p.field, p.key) for p in caught.value.problems] == [(field, key)]
