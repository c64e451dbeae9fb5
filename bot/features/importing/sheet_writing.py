"""Quizzes written as .xlsx sheets (the layout :mod:`bot.features.importing.sheets` reads):
/myquizzes' Excel export and /template, each with its settings worksheet
(:mod:`bot.features.importing.sheet_settings`). Pure: a bank in, the file's bytes out."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from bot.features.importing.headers import (
    FIELDS,
    LETTERS,
    SETTINGS,
    kind_word,
    settings_words,
    template_headers,
    truth_word,
)
from bot.features.importing.sheet_settings import bank_settings, question_cells
from bot.kernel.bank import TRUE_FALSE, Bank


def write_sheet(
    headers: dict[str, str],
    rows: Sequence[dict[str, str]],
    *,
    options: int,
    title: str,
    language: str,
    settings: dict[str, str],
) -> bytes:
    """An .xlsx file of a worksheet called ``title``: the header row (``headers``: the
    layout's field or option letter -> its header), then ``rows`` (field -> text) in the
    documented column order with ``options`` option columns; and the settings worksheet in
    ``language``: a row per setting of :data:`~.headers.SETTINGS`, its name and its value in
    ``settings`` (empty when it has none). Every text is written as text: one starting with
    ``=`` never becomes a formula."""
    order = ["question", *LETTERS[: max(options, 2)], *FIELDS[1:]]
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = title[:31]
    sheet.append([headers[name] for name in order])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for number, row in enumerate(rows, start=2):
        for index, name in enumerate(order, start=1):
            _text(sheet, number, index, row.get(name, ""))
    widths = {"question": 48, "explanation": 48, "picture": 30, "source": 30, "link": 30}
    for index, name in enumerate(order, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = widths.get(name, 16)
    sheet.freeze_panes = "A2"
    sheet_name, names = settings_words(language)
    page = book.create_sheet(sheet_name)
    for number, name in enumerate(SETTINGS, start=1):
        _text(page, number, 1, names[name])
        page.cell(number, 1).font = Font(bold=True)
        _text(page, number, 2, settings.get(name, ""))
    page.column_dimensions["A"].width = 24
    page.column_dimensions["B"].width = 60
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _text(sheet: Worksheet, row: int, column: int, value: str) -> None:
    """Write ``value`` (when not empty) as a text cell, never a formula, whatever it starts
    with."""
    if value:
        cell = sheet.cell(row, column)
        cell.value = value
        cell.data_type = "s"
        cell.alignment = Alignment(wrap_text=True, vertical="top")


def bank_rows(bank: Bank, language: str) -> tuple[list[dict[str, str]], int]:
    """A bank's questions as rows of :func:`write_sheet` in ``language`` (else the bank's
    default language), with its kind words and true/false answers in that language; and the
    most options a question has; each row with its source, shuffle, marks and waived checks
    (:func:`~.sheet_settings.question_cells`). The texts of other languages are not: a sheet
    is in one language."""
    rows: list[dict[str, str]] = []
    most = 2
    fallback = bank.default_language
    for question in bank.questions:
        row = {"question": question.prompt.get(language, fallback)}
        if question.kind is TRUE_FALSE:
            row["answer"] = truth_word(language, question.options[0].correct)
            row["kind"] = kind_word(language, true_false=True)
        else:
            most = max(most, len(question.options))
            for letter, option in zip(LETTERS, question.options, strict=False):
                row[letter] = option.text.get(language, fallback)
            row["answer"] = ", ".join(
                letter
                for letter, option in zip(LETTERS, question.options, strict=False)
                if option.correct
            )
            row["kind"] = kind_word(language, true_false=False)
        if question.explanation is not None:
            row["explanation"] = question.explanation.get(language, fallback)
        if question.picture:
            row["picture"] = question.picture
        row.update(question_cells(question, language))
        rows.append(row)
    return rows, most


def bank_sheet(bank: Bank, language: str) -> bytes:
    """A bank as an .xlsx file in ``language`` (:func:`bank_rows`), headers in that language,
    with its settings (:func:`~.sheet_settings.bank_settings`)."""
    rows, options = bank_rows(bank, language)
    title = bank.title.get(language, bank.default_language)
    return write_sheet(
        template_headers(language),
        rows,
        options=options,
        title=_sheet_title(title),
        language=language,
        settings=bank_settings(bank, language),
    )


def template_sheet(language: str, example: dict[str, str]) -> bytes:
    """The template: headers in ``language`` and one worked ``example`` row (field -> text,
    options ``A`` to ``D``), and the settings worksheet with its names and no values."""
    return write_sheet(
        template_headers(language),
        [example],
        options=4,
        title="Quiz",
        language=language,
        settings={},
    )


def _sheet_title(title: str) -> str:
    """A worksheet's name: at most 31 characters, none of ``[]:*?/\\``."""
    return re.sub(r"[\[\]:*?/\\]", " ", title).strip()[:31] or "Quiz"
