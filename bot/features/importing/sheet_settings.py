"""What a quiz sheet (.xlsx) holds beside a question's text and options, both ways: a question's
source, shuffle, marks and waived checks (columns of the questions' worksheet), and the quiz's
settings (the settings worksheet: its title, description, language and level, its exam mode and
its guide), so that /myquizzes' Excel export carries what the YAML export does and reads back
the same (:mod:`bot.features.importing.sheets` reads, :mod:`.sheet_writing` writes).

The settings worksheet is the first worksheet after the questions' whose name is "Settings" in
a language of :mod:`~bot.features.importing.headers`; a row is a setting's name (in any of
those languages) and its value; an empty value is no setting. Values are passed on as the bank
format has them (numbers made numbers, True/False made booleans where they read as such, else
the text as typed), for the check every created quiz goes through to name what is wrong.

Pure: cell texts in, bank data out, and back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from bot.features.importing.headers import setting_of, truth, truth_word
from bot.kernel.bank import TRUE_FALSE, Bank, Question

MAX_SETTINGS_ROWS = 30
"""Rows read from the settings worksheet (it has ten settings)."""

MAX_WAIVED = 20
"""Most checks a question's waive cell names (the check refuses names it does not know)."""


def number(text: str) -> int | float | str:
    """A cell's text as a number (``2``, ``1.5``, ``1,5``), or the text itself when it is none
    (for the quiz's check to refuse, naming the field)."""
    try:
        value = float(text.replace(",", ".", 1))
    except ValueError:
        return text
    return int(value) if value.is_integer() else value


def shown(value: float) -> str:
    """A number of marks or minutes as a cell shows it: ``4``, not ``4.0``."""
    return str(int(value)) if value == int(value) else str(value)


def read_settings(
    rows: Iterable[tuple[int, str, str, bool]],
) -> tuple[dict[str, str], list[tuple[int, str, str]]]:
    """The settings of the settings worksheet's ``rows`` (row number, name cell, value cell,
    whether a cell of the row is a formula): setting -> value; and the problems, as (row,
    code, the name cell): ``unknown setting``, ``formula``. A setting given twice keeps its
    first value."""
    settings: dict[str, str] = {}
    problems: list[tuple[int, str, str]] = []
    for row, name, value, formula in rows:
        setting = setting_of(name)
        if formula:
            problems.append((row, "formula", name))
        elif setting is None:
            problems.append((row, "unknown setting", name))
        elif value:
            settings.setdefault(setting, value)
    return settings, problems


def question_extras(values: Mapping[str, str]) -> dict[str, Any]:
    """A question's ``source``, ``shuffle``, ``marks`` and ``waive`` in the bank format, from
    its row's cells (field -> text); only those given."""
    extras: dict[str, Any] = {}
    if values.get("source") or values.get("link"):
        extras["source"] = {"title": values.get("source", ""), "url": values.get("link", "")}
    if values.get("shuffle"):
        answer = truth(values["shuffle"])
        extras["shuffle"] = values["shuffle"] if answer is None else answer
    if values.get("marks"):
        extras["marks"] = number(values["marks"])
    if values.get("waive"):
        extras["waive"] = [w for w in re.split(r"[\s,;]+", values["waive"]) if w][:MAX_WAIVED]
    return extras


def apply_settings(mapping: dict[str, Any], settings: Mapping[str, str], language: str) -> None:
    """Put the sheet's ``settings`` into a converted quiz's bank ``mapping`` (texts in
    ``language``): its title, description and level; the ``exam`` block when any exam
    setting is given; the ``guide`` when its link or label is."""
    for name in ("title", "description"):
        if settings.get(name):
            mapping[name] = {language: settings[name]}
    if settings.get("level"):
        mapping["level"] = settings["level"].casefold()
    exam = {
        name: number(settings[name])
        for name in ("minutes", "marks", "penalty", "draw")
        if settings.get(name)
    }
    if exam:
        mapping["exam"] = exam
    if settings.get("guide") or settings.get("guide_label"):
        mapping["guide"] = {
            "url": settings.get("guide", ""),
            "label": {language: settings.get("guide_label", "")},
        }


def question_cells(question: Question, language: str) -> dict[str, str]:
    """The cells of a question's source, shuffle, marks and waived checks (field -> text); a
    shuffled question's and one of the exam's default marks are left empty."""
    cells: dict[str, str] = {}
    if question.source is not None:
        cells["source"] = question.source.title
        cells["link"] = question.source.url
    if not question.shuffle and question.kind is not TRUE_FALSE:
        cells["shuffle"] = truth_word(language, False)
    if question.marks is not None:
        cells["marks"] = shown(question.marks)
    if question.waived:
        cells["waive"] = ", ".join(sorted(question.waived))
    return cells


def bank_settings(bank: Bank, language: str) -> dict[str, str]:
    """A quiz's settings as the settings worksheet's values in ``language`` (setting -> text):
    its title, description, language and level always; its exam mode and guide when it has
    them (the exam's defaults left out)."""
    fallback = bank.default_language
    settings = {
        "title": bank.title.get(language, fallback),
        "description": bank.description.get(language, fallback),
        "language": language,
        "level": bank.level,
    }
    if bank.exam is not None:
        settings["minutes"] = str(bank.exam.minutes)
        if bank.exam.marks != 1:
            settings["marks"] = shown(bank.exam.marks)
        if bank.exam.penalty:
            settings["penalty"] = shown(bank.exam.penalty)
        if bank.exam.draw is not None:
            settings["draw"] = str(bank.exam.draw)
    if bank.guide is not None:
        settings["guide"] = bank.guide.url
        settings["guide_label"] = bank.guide.label.get(language, fallback)
    return settings
