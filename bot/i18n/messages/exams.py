"""Exam mode's messages (:mod:`bot.features.exams`): the exam's intro, its timer, its end
screen, the makers' setting in /myquizzes, and the loader's problems with an ``exam`` block."""

from __future__ import annotations

from bot.i18n.declare import N_, Plural, Text

MESSAGES: tuple[Text | Plural, ...] = (
    N_("problem.exam_minutes", "must be a whole number of minutes from 1 to {limit}"),
    N_("problem.exam_marks", "must be a number above 0, at most {limit}"),
    N_("problem.exam_penalty", "must be a number from 0 to {limit}, or blank"),
    N_("problem.exam_draw", "must be a whole number from 1 to the number of questions ({count})"),
)
