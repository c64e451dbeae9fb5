"""A bank's ``exam`` block and a question's ``marks`` (``banks/README.md``, "Exam mode"):
checked and turned into the core's :class:`~bot.kernel.bank.Exam`."""

from __future__ import annotations

from typing import Any

from bot.bankload.checker import Checker
from bot.bankload.problems import show
from bot.bankload.yaml_positions import Pos, YamlMapping
from bot.kernel.bank import MAX_EXAM_MINUTES, MAX_MARKS, Exam

EXAM_KEYS = ("minutes",)
"""The ``exam`` block's required keys."""
EXAM_OPTIONAL = ("marks", "penalty", "draw")
"""The ``exam`` block's optional keys."""


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_marks(
    check: Checker, value: Any, at: Pos | None, field: str, *, zero: bool = False
) -> float | None:
    """A number of marks: above 0 (from 0 with ``zero``: a penalty) up to :data:`MAX_MARKS`;
    a blank value (YAML null) is 0 with ``zero``. None, reported, when it is not one."""
    if value is None and zero:
        return 0.0
    low_ok = _number(value) and (value >= 0 if zero else value > 0)
    if not low_ok or value > MAX_MARKS or value != value:
        check.problem(
            at,
            field,
            f"must be a number {'from 0' if zero else 'above 0'} up to {MAX_MARKS:g}, "
            f"got {show(value)}",
            "problem.exam_penalty" if zero else "problem.exam_marks",
            limit=f"{MAX_MARKS:g}",
        )
        return None
    return float(value)


def parse_exam(check: Checker, value: Any, at: Pos | None, questions: int) -> Exam | None:
    """The ``exam`` block of a bank of ``questions`` questions: ``minutes`` (1 to
    :data:`MAX_EXAM_MINUTES`), ``marks`` (default 1), ``penalty`` (default 0; blank is 0),
    ``draw`` (1 to the number of questions; default all). None, reported, when it has
    problems."""
    before = len(check.problems)
    node = check.mapping(value, at, "exam", required=EXAM_KEYS, optional=EXAM_OPTIONAL)
    if node is None:
        return None
    minutes = node.get("minutes")
    if (
        not isinstance(minutes, int)
        or isinstance(minutes, bool)
        or not 1 <= minutes <= MAX_EXAM_MINUTES
    ):
        check.problem(
            node.value_at("minutes") if "minutes" in node else node.pos,
            "exam.minutes",
            f"must be a whole number of minutes from 1 to {MAX_EXAM_MINUTES}, got {show(minutes)}",
            "problem.exam_minutes",
            limit=MAX_EXAM_MINUTES,
        )
    marks = 1.0
    if "marks" in node:
        marks = check_marks(check, node["marks"], node.value_at("marks"), "exam.marks") or 1.0
    penalty = 0.0
    if "penalty" in node:
        penalty = (
            check_marks(check, node["penalty"], node.value_at("penalty"), "exam.penalty", zero=True)
            or 0.0
        )
    draw = node.get("draw")
    if draw is not None and (
        not isinstance(draw, int) or isinstance(draw, bool) or not 1 <= draw <= max(questions, 1)
    ):
        check.problem(
            node.value_at("draw"),
            "exam.draw",
            f"must be a whole number from 1 to the number of questions ({questions}), "
            f"got {show(draw)}",
            "problem.exam_draw",
            limit=questions,
        )
    if len(check.problems) > before:
        return None
    assert isinstance(minutes, int)
    return Exam(minutes, marks, penalty, draw if isinstance(draw, int) else None)


def question_marks(check: Checker, node: YamlMapping) -> float | None:
    """A question's ``marks`` (what a right answer scores in an exam), or None when it gives
    none."""
    if "marks" not in node:
        return None
    return check_marks(check, node["marks"], node.value_at("marks"), "marks")
