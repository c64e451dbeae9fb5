"""Quiz sheets (.xlsx): read a maker's sheet into a created quiz, and write a quiz or the
template as a sheet.

The layout (banks/README.md, "Excel sheets"): the first worksheet; its first row that is not
empty is the header row; then one row per question. Columns, in any order, named in any
language of :mod:`bot.features.importing.headers`: the question, options ``A`` to ``L`` (as
many as used), the answer (a letter, letters separated by commas for several right options, or
``True``/``False`` for a true/false question, in any of those languages), and optionally the
explanation, a picture (an https URL or a Telegram file_id) and the kind (``choice`` or
``true-false``; without it a row with no options and a true/false answer is true/false), the
question's source (its title and its link), ``Shuffle`` (False: the options keep their order),
its marks in an exam and the checks it waives. A worksheet named "Settings" (in any of those
languages) holds the quiz's title, description, language, level, exam mode and guide
(:mod:`bot.features.importing.sheet_settings`).

Safety: the bytes pass :func:`~bot.features.importing.archives.check_archive` before openpyxl
opens them (read-only, cell by cell); at most :func:`max_rows` rows are read (a longer sheet is
refused when its next row comes, not read in full); formulas are never evaluated nor kept: a
formula cell is a problem of its row (its cached value is not read either, since a formula's
result is what the maker's spreadsheet computed, not text they wrote), and a text that starts
with ``=`` is written back as text, never as a formula.

Pure: bytes in, bank mappings and bytes out (no files, no Telegram).
"""

from __future__ import annotations

import datetime
import io
import re
import warnings
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import ParseError

from bot.features.importing.archives import ArchiveRefused, check_archive
from bot.features.importing.headers import (
    LETTERS,
    column_of,
    is_settings_sheet,
    kind_of,
    letter_of,
    truth,
)
from bot.features.importing.imported import Note, Parsed, bank_mapping
from bot.features.importing.rules import Converted, NoneConverted
from bot.features.importing.sheet_settings import (
    MAX_SETTINGS_ROWS,
    apply_settings,
    question_extras,
    read_settings,
)
from bot.kernel.bank import EXPLANATION_PLACEHOLDER, SOURCE_PLACEHOLDER, TRUE_FALSE

ROW_MARGIN = 50
"""Rows a sheet may have beyond its questions (the header row, blank rows)."""

MAX_COLUMNS = 40
"""Columns read from a sheet: the layout has at most 22 (cells beyond are not read)."""

MAX_SHOWN = 10
"""Problems listed in one answer (the rest are counted)."""

MIME_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
"""The media type of an .xlsx file (Telegram's Document.mime_type)."""


def max_rows(limit: int) -> int:
    """The most rows read from a sheet for a quiz of at most ``limit`` questions."""
    return limit + ROW_MARGIN


@dataclass(frozen=True)
class SheetRefused(Exception):
    """A sheet that could not be read at all.

    Attributes:
        reason: ``"unsafe"`` (the archive check refused it: ``detail`` says why), ``"not xlsx"``
            (not a workbook openpyxl can open), ``"empty"`` (no worksheet or no rows), ``"too
            many rows"`` (more than :func:`max_rows`; ``detail`` the bound).
        detail: More about the reason, in English (for the log and the CLI).
    """

    reason: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.reason}: {self.detail}" if self.detail else self.reason

    def __reduce__(self) -> tuple[type[SheetRefused], tuple[str, str]]:
        # returned from the worker process: pickled by its fields (an exception's default
        # pickling sets attributes, which a frozen dataclass refuses)
        return SheetRefused, (self.reason, self.detail)


@dataclass(frozen=True)
class SheetProblem:
    """What is wrong with one cell, column or row of a sheet.

    Attributes:
        row: The sheet's 1-based row.
        column: The column's letter in the sheet (``C``), or ``""`` for the whole row.
        field: The layout's field (``question``, ``answer``, ``explanation``, ``picture``,
            ``kind``, ``source``, ...: :data:`~.headers.FIELDS`, an option's letter), or ``""``
            for a header cell that names nothing and a row of the settings worksheet.
        code: ``formula``, ``no question``, ``no answer``, ``answer names no option``,
            ``true-false answer``, ``true-false options``, ``unknown kind`` (a row);
            ``unknown column``, ``column twice``, ``missing column`` (the header row);
            ``unknown setting`` (a row of the settings worksheet, which a ``formula`` may be
            too).
        value: The cell's text, where it helps (cut to 40 characters).
    """

    row: int
    column: str
    field: str
    code: str
    value: str = ""

    def english(self) -> str:
        """The problem in English (the CLI's report)."""
        where = f"column {self.column} ({self.field or 'header'})" if self.column else "row"
        value = f": {self.value!r}" if self.value else ""
        return f"{where}: {self.code}{value}"


@dataclass(frozen=True)
class SheetQuestion:
    """One row made a question.

    Attributes:
        row: The sheet's 1-based row; the question's id is ``row-<row>``.
        prompt: The question.
        options: (text, right) per filled option column, A to L; empty for true/false.
        answer: A true/false question's answer; None for a question with options.
        explanation, picture: The row's cells, or None when empty.
        extras: The row's source, shuffle, marks and waived checks in the bank format
            (:func:`~.sheet_settings.question_extras`).
    """

    row: int
    prompt: str
    options: tuple[tuple[str, bool], ...]
    answer: bool | None
    explanation: str | None = None
    picture: str | None = None
    extras: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Sheet:
    """What :func:`read_sheet` found in the first worksheet (and the settings worksheet)."""

    name: str
    questions: list[SheetQuestion] = field(default_factory=list)
    problems: list[SheetProblem] = field(default_factory=list)
    found: int = 0
    """Rows that held a question (made one or not)."""
    settings: dict[str, str] = field(default_factory=dict)
    """The settings worksheet's settings (:data:`~.headers.SETTINGS` -> text)."""


@dataclass(frozen=True)
class SheetProblems:
    """A sheet refused for the problems of its cells: the first :data:`MAX_SHOWN` and how many
    there were in all."""

    sheet: str
    problems: tuple[SheetProblem, ...]
    total: int


# --- reading -----------------------------------------------------------------------------


def read_sheet(data: bytes, *, limit: int) -> Sheet:
    """The questions and problems of an .xlsx file's first worksheet (the layout above).

    Args:
        data: The file's bytes.
        limit: Most questions a quiz may have; a sheet with a row past :func:`max_rows` of it
            is refused when that row comes.

    Raises:
        SheetRefused: see its ``reason``.
    """
    try:
        check_archive(data)
    except ArchiveRefused as refused:
        raise SheetRefused("unsafe", str(refused)) from refused
    from openpyxl import load_workbook  # here: openpyxl takes a while to import, and only a
    from openpyxl.utils.exceptions import InvalidFileException  # sheet needs it

    try:
        with warnings.catch_warnings():  # openpyxl warns of extensions it does not read
            warnings.simplefilter("ignore")
            book = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, ValueError, TypeError,
            OSError, ParseError) as error:  # fmt: skip
        raise SheetRefused("not xlsx", repr(error)) from error
    try:
        if not book.worksheets:
            raise SheetRefused("empty", "no worksheet")
        sheet = book.worksheets[0]
        bound = max_rows(limit)
        try:
            rows = sheet.iter_rows(min_row=1, max_row=bound + 1, max_col=MAX_COLUMNS)
            found = _read(str(sheet.title), rows, bound)
            settings = next(
                (s for s in book.worksheets[1:] if is_settings_sheet(str(s.title))), None
            )
            if settings is not None:
                _settings(found, settings.iter_rows(max_row=MAX_SETTINGS_ROWS, max_col=2))
            return found
        except (KeyError, ValueError, TypeError, ParseError, zipfile.BadZipFile) as error:
            raise SheetRefused("not xlsx", repr(error)) from error
    finally:
        book.close()


def _read(name: str, rows: Iterable[Sequence[Any]], bound: int) -> Sheet:
    found = Sheet(name)
    columns: dict[int, str] | None = None
    for number, row in enumerate(rows, start=1):
        cells = [(index, cell) for index, cell in enumerate(row) if cell.value is not None]
        if not any(_text(cell.value) for _, cell in cells) and not _formulas(cells):
            continue
        if number > bound:
            raise SheetRefused("too many rows", f"more than {bound} rows")
        if columns is None:
            columns = _header(found, number, cells)
            if found.problems:
                return found
            continue
        _question(found, number, columns, cells)
    if columns is None:
        raise SheetRefused("empty", "no rows")
    return found


def _settings(found: Sheet, rows: Iterable[Sequence[Any]]) -> None:
    """The settings worksheet's settings and problems, into ``found``."""

    def cells(row: Sequence[Any]) -> tuple[str, str, bool]:
        texts = [_text(cell.value) if cell.data_type != "f" else "" for cell in row]
        texts += ["", ""]
        return texts[0], texts[1], any(cell.data_type == "f" for cell in row)

    read = ((number, *cells(row)) for number, row in enumerate(rows, start=1))
    settings, problems = read_settings(r for r in read if r[1] or r[2] or r[3])
    found.settings = settings
    found.problems.extend(
        SheetProblem(r, "A", "", code, _short(name)) for r, code, name in problems
    )


def _formulas(cells: list[tuple[int, Any]]) -> list[int]:
    return [index for index, cell in cells if cell.data_type == "f"]


def get_column_letter(number: int) -> str:
    """The letters of the sheet's column ``number`` (1: ``A``), as openpyxl names them."""
    from openpyxl.utils import get_column_letter as letter  # imported once a sheet is read

    return str(letter(number))


def _header(found: Sheet, row: int, cells: list[tuple[int, Any]]) -> dict[int, str]:
    columns: dict[int, str] = {}
    seen: dict[str, int] = {}
    for index, cell in cells:
        text = _text(cell.value) if cell.data_type != "f" else ""
        if not text:
            continue
        name = column_of(text)
        letter = get_column_letter(index + 1)
        if name is None:
            found.problems.append(SheetProblem(row, letter, "", "unknown column", _short(text)))
        elif name in seen:
            found.problems.append(SheetProblem(row, letter, name, "column twice", _short(text)))
        else:
            seen[name] = index
            columns[index] = name
    for name in ("question", "answer"):
        if name not in seen:
            found.problems.append(SheetProblem(row, "", name, "missing column"))
    return columns


def _question(found: Sheet, row: int, columns: dict[int, str], cells: list[tuple[int, Any]]
              ) -> None:  # fmt: skip
    found.found += 1
    values: dict[str, str] = {}
    problems: list[SheetProblem] = []
    for index, cell in cells:
        name = columns.get(index)
        if cell.data_type == "f":
            letter = get_column_letter(index + 1)
            problems.append(SheetProblem(row, letter, name or "", "formula", _short(cell.value)))
        elif name is not None:
            values[name] = _text(cell.value)
    if problems:  # a formula is the row's problem: what it computes is not read
        found.problems.extend(problems)
        return
    column_letter = {name: get_column_letter(index + 1) for index, name in columns.items()}

    def problem(name: str, code: str, value: str = "") -> None:
        problems.append(SheetProblem(row, column_letter.get(name, ""), name, code, _short(value)))

    prompt = values.get("question", "")
    if not prompt:
        problem("question", "no question")
    filled = [(letter, values[letter]) for letter in LETTERS if values.get(letter)]
    kind = kind_of(values.get("kind", ""))
    answer_text = values.get("answer", "")
    answer = truth(answer_text)
    if kind is None:
        problem("kind", "unknown kind", values.get("kind", ""))
    true_false = kind == "true-false" or (kind == "" and not filled and answer is not None)
    right: set[str] = set()
    if true_false:
        if filled:
            problem(filled[0][0], "true-false options", filled[0][1])
        if answer is None:
            problem("answer", "true-false answer", answer_text)
    elif not answer_text:
        problem("answer", "no answer")
    else:
        named = [letter_of(part) for part in re.split(r"[\s,;/+&]+", answer_text) if part]
        right = {letter for letter in named if letter}
        given = {letter for letter, _ in filled}
        if None in named or not right <= given:
            problem("answer", "answer names no option", answer_text)
    if problems:
        found.problems.extend(problems)
        return
    found.questions.append(
        SheetQuestion(
            row,
            prompt,
            () if true_false else tuple((text, letter in right) for letter, text in filled),
            answer if true_false else None,
            values.get("explanation") or None,
            values.get("picture") or None,
            question_extras(values),
        )
    )


def _text(value: object) -> str:
    """A cell's value as text: lines stripped, blank lines and runs of spaces dropped; a whole
    number without ``.0``; a date as ISO 8601."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        value = value.date()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    lines = (" ".join(line.split()) for line in str(value).splitlines())
    return "\n".join(line for line in lines if line)


def _short(value: object, limit: int = 40) -> str:
    text = str(value or "")
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- to a quiz ---------------------------------------------------------------------------


def sheet_questions(sheet: Sheet, language: str) -> list[dict[str, object]]:
    """The bank format's questions (one ``language``) of a sheet's questions; ids ``row-<row>``,
    so that a problem the bank's check names leads back to the row."""
    questions: list[dict[str, object]] = []
    for question in sheet.questions:
        item: dict[str, object] = {"id": f"row-{question.row}"}
        item["prompt"] = {language: question.prompt}
        if question.answer is not None:
            item["kind"] = TRUE_FALSE.value
            item["answer"] = question.answer
        else:
            item["options"] = [
                {"text": {language: text}, **({"correct": True} if right else {})}
                for text, right in question.options
            ]
        if question.picture:
            item["picture"] = question.picture
        if question.explanation:
            item["explanation"] = {language: question.explanation}
        item.update(question.extras)
        questions.append(item)
    return questions


def sheet_notes(sheet: Sheet) -> list[Note]:
    """A sheet's problems as notes of ``quizbot import`` (each a skipped row, named by its
    sheet, column and field)."""
    return [Note(p.row, f"sheet {sheet.name!r}, {p.english()}") for p in sheet.problems]


def sheet_bank_data(
    sheet: Sheet,
    parsed: Parsed,
    *,
    language: str,
    bank_id: str,
    title: str,
    description: str,
    level: str = "medium",
    source: tuple[str, str] | None = None,
) -> tuple[dict[str, object], dict[str, int]]:
    """As :func:`~bot.features.importing.rules.bank_data`, for a sheet's questions (every kind):
    the bank mapping, and the row of each question id. A missing explanation or source gets
    its placeholder, noted in ``parsed.notes``; the sheet's settings are the quiz's
    (:func:`~.sheet_settings.apply_settings`)."""
    language = sheet.settings.get("language", language)
    questions = sheet_questions(sheet, language)
    lines: dict[str, int] = {}
    unsourced = 0
    for question, item in zip(sheet.questions, questions, strict=True):
        lines[str(item["id"])] = question.row
        if "explanation" not in item:
            item["explanation"] = {language: EXPLANATION_PLACEHOLDER}
            parsed.notes.append(
                Note(question.row, "no explanation in the sheet: wrote a TODO placeholder", False)
            )
        if "source" in item:
            continue
        if source is None:
            unsourced += 1
        cited = source or SOURCE_PLACEHOLDER
        item["source"] = {"title": cited[0], "url": cited[1]}
    mapping = bank_mapping(
        parsed,
        questions,
        unsourced,
        language=language,
        bank_id=bank_id,
        title=title,
        description=description,
        level=level,
    )
    apply_settings(mapping, sheet.settings, language)
    return mapping, lines


def convert_sheet(
    data: bytes, *, language: str, title: str, description: str, limit: int
) -> Converted | NoneConverted | SheetProblems | SheetRefused:
    """An .xlsx file as a created quiz in ``language`` (the bank mapping, still to be checked
    as every created quiz is), or why not: picklable in and out (it runs in the bot's worker
    process). A sheet with any problem is refused whole (nothing is stored). The settings
    worksheet's title, description, language, level, exam mode and guide are the quiz's
    (:func:`~.sheet_settings.apply_settings`)."""
    try:
        sheet = read_sheet(data, limit=limit)
    except SheetRefused as refused:
        return refused
    if sheet.problems:
        return SheetProblems(sheet.name, tuple(sheet.problems[:MAX_SHOWN]), len(sheet.problems))
    if not sheet.questions:
        return NoneConverted(sheet.found)
    language = sheet.settings.get("language", language)
    mapping: dict[str, Any] = {
        "id": "imported",
        "version": 1,
        "default_language": language,
        "languages": [language],
        "level": "medium",
        "title": {language: title},
        "description": {language: description},
        "questions": sheet_questions(sheet, language),
    }
    apply_settings(mapping, sheet.settings, language)
    return Converted(mapping, 0)


# --- writing -----------------------------------------------------------------------------
