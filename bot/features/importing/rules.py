"""Converters from other quiz formats to banks: Moodle GIFT, Aiken, and a CSV layout.

Pure: each parser takes the file's text and returns the questions it could convert (one or
several right options, true/false) and a :class:`Note` for everything it could not (with the
line), and :func:`bank_data` turns them into a bank mapping (one language) ready to be written
as YAML and checked by the loader. Reading and writing files is the CLI's (``quizbot import``).

Formats (``banks/README.md`` has the details and the CSV layout):

- GIFT, as Moodle's ``qformat_gift`` reads it: questions separated by blank lines; ``//``
  comment lines; ``::title::``; ``{=right ~wrong}`` answers (also in the middle of the text,
  shown as ``_____``); ``#`` feedback per answer, ``####`` general feedback; ``[html]``,
  ``[moodle]``, ``[plain]``, ``[markdown]`` text formats; ``\\~ \\= \\# \\{ \\} \\:`` escapes,
  ``\\n`` a line break; true/false (``{T}``) and several right answers (positive ``%``
  weights adding up to 100%) too (:mod:`bot.features.importing.gift`). Other question types
  (short answer, matching, numerical, essay, descriptions) are reported, not converted.
- Aiken: the question, then options ``A. text`` or ``A) text``, then ``ANSWER: X``. One
  right answer only (an ``ANSWER:`` naming several letters is reported); two options
  ``True`` and ``False`` (:func:`bot.kernel.textformat.true_false`'s words) make a true/false
  question.
- CSV: a header row, then one row per question (columns ``id``, ``prompt``, ``A`` to ``L``,
  ``correct``, ``kind``, ``explanation``, ``source_title``, ``source_url``): ``correct`` is
  the letter of the right option, the letters of several (``A,C`` or ``A;C``), or, for a
  true/false question (``kind`` ``true-false``, or no options), ``TRUE`` or ``FALSE``.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, cast

from bot.features.importing.gift import parse_gift
from bot.features.importing.imported import (
    Imported,
    Note,
    Parsed,
    bank_mapping,
    counted,
    option_count_problem,
    short,
)
from bot.features.importing.numbered import parse_numbered, txt_kind
from bot.kernel.bank import EXPLANATION_PLACEHOLDER, ID_PATTERN, MAX_OPTIONS, SOURCE_PLACEHOLDER
from bot.kernel.textformat import true_false

_LETTERS = re.compile(r"[\s,;]+")
"""What separates the letters of several right options (CSV ``correct`` ``A,C``, ``A; C``;
an Aiken ``ANSWER: A, C``, reported)."""

# --- Aiken ---------------------------------------------------------------------------------

_AIKEN_OPTION = re.compile(r"^([A-Z])[.)][ \t]+(.*)$")
_AIKEN_ANSWER = re.compile(r"^ANSWER:(.*)$")


def parse_aiken(text: str) -> Parsed:
    """Convert an Aiken file: a question (one line, or several before the first option),
    options ``A. text`` or ``A) text`` (a letter, a period or bracket, a space), then
    ``ANSWER: X``. Blank lines are ignored, as Moodle ignores them. Aiken has no feedback:
    the explanation is left to write. It says one right answer: an ``ANSWER:`` naming several
    letters (``A, C``) is reported, not read as its first; two options True and False (in a
    language of :data:`bot.kernel.textformat.TRUE_WORDS`) make a true/false question."""
    parsed = Parsed()
    prompt: list[str] = []
    options: list[tuple[int, str, str]] = []  # (line, label, text)
    start = 0

    def reset() -> None:
        prompt.clear()
        options.clear()

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        answer = _AIKEN_ANSWER.match(line)
        option = _AIKEN_OPTION.match(line)
        if answer:
            if not prompt:
                parsed.notes.append(Note(number, "an ANSWER: line without a question"))
            else:
                _aiken_question(parsed, start, " ".join(prompt), options, answer[1].strip(), number)
            reset()
        elif option and prompt:
            options.append((number, option[1], option[2].strip()))
        elif option:
            parsed.notes.append(Note(number, "an option without a question before it"))
        else:
            if options:  # a new question while the last one still waits for its ANSWER:
                counted(parsed)
                parsed.notes.append(Note(start, "no ANSWER: line after the options"))
                reset()
            if not prompt:
                start = number
            prompt.append(line)
    if prompt:
        counted(parsed)
        parsed.notes.append(
            Note(
                start,
                "no ANSWER: line after the options" if options else "a question without options",
            )
        )
    return parsed


def _aiken_question(
    parsed: Parsed,
    start: int,
    prompt: str,
    options: list[tuple[int, str, str]],
    answer: str,
    answer_line: int,
) -> None:
    number = counted(parsed)
    labels = [label for _, label, _ in options]
    repeated = sorted(label for label, count in Counter(labels).items() if count > 1)
    letter = answer[:1].upper()
    several = [part for part in _LETTERS.split(answer.upper()) if part]
    problem: str | None
    if repeated:
        problem = f"option label {', '.join(repeated)} used twice"
    elif len(several) > 1 and all(part in labels for part in several):
        problem = (
            f"ANSWER: {answer!r} (line {answer_line}) names several options: Aiken says one "
            "right answer (write several right answers in GIFT or CSV)"
        )
    elif not letter or letter not in labels:
        problem = (
            f"ANSWER: {answer!r} (line {answer_line}) names no option "
            f"(options: {', '.join(labels) or 'none'})"
        )
    else:
        problem = option_count_problem(len(options))
    if problem:
        parsed.notes.append(Note(start, problem))
        return
    texts = [text for _, _, text in options]
    answer_tf = true_false(texts, [labels.index(letter)])
    parsed.questions.append(
        Imported(
            start,
            number,
            None,
            prompt,
            ()
            if answer_tf is not None
            else tuple((text, label == letter) for _, label, text in options),
            answer=answer_tf,
        )
    )


# --- CSV -----------------------------------------------------------------------------------

CSV_LABELS = tuple("ABCDEFGHIJKL")[:MAX_OPTIONS]
CSV_COLUMNS = (
    "id",
    "prompt",
    *CSV_LABELS,
    "correct",
    "kind",
    "explanation",
    "source_title",
    "source_url",
)
CSV_REQUIRED = ("prompt", "correct")
CSV_KINDS = ("choice", "true-false")
"""The ``kind`` column's values (the bank's kinds); empty is ``choice``, or ``true-false`` for
a row without options whose ``correct`` is ``TRUE`` or ``FALSE``."""
_CSV_BOOLEANS = {"TRUE": True, "FALSE": False}
"""``correct`` of a true/false row, in either case (as spreadsheets write booleans)."""

MAX_CSV_COLUMNS = 2 * len(CSV_COLUMNS)
"""A header row with more cells than this is refused before its names are read: no file
needs more (each column once, with room for a few the layout does not know)."""


def parse_csv(text: str) -> Parsed:
    """Convert a CSV file (RFC 4180, comma-separated, stdlib ``csv``) with a header row naming
    its columns (in any order; letters in either case): ``prompt``, option columns ``A`` to
    ``L`` (empty cells are no option), ``correct`` (the letter of the right option, the
    letters of several, ``A,C`` or ``A;C``, or ``TRUE``/``FALSE`` for a true/false question),
    and optionally ``kind`` (:data:`CSV_KINDS`), ``id``, ``explanation``, ``source_title``,
    ``source_url``. One row per question; a cell may span lines inside quotes. A problem is
    named by the row's line and the column."""
    parsed = Parsed()
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        parsed.notes.append(Note(None, "the file is empty"))
        return parsed
    except csv.Error as exc:
        parsed.notes.append(Note(1, f"not CSV: {exc}"))
        return parsed
    if len(header) > MAX_CSV_COLUMNS:
        parsed.notes.append(
            Note(
                1,
                f"bad header row: {len(header)} columns, at most "
                f"{MAX_CSV_COLUMNS} (columns: {', '.join(CSV_COLUMNS)})",
            )
        )
        return parsed
    names = [_csv_column(name) for name in header]
    unknown = [raw for raw, name in zip(header, names, strict=True) if name not in CSV_COLUMNS]
    missing = [name for name in CSV_REQUIRED if name not in names]
    twice = sorted(name for name, count in Counter(names).items() if count > 1)
    if unknown or missing or twice:
        problems = (
            ([f"unknown column(s) {', '.join(map(repr, unknown))}"] if unknown else [])
            + ([f"missing column(s) {', '.join(missing)}"] if missing else [])
            + ([f"column(s) {', '.join(twice)} given twice"] if twice else [])
        )
        parsed.notes.append(
            Note(
                1,
                "bad header row: " + "; ".join(problems) + f" (columns: {', '.join(CSV_COLUMNS)})",
            )
        )
        return parsed
    while True:
        line = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            parsed.notes.append(Note(line, f"not CSV: {exc}"))
            break
        if not any(cell.strip() for cell in row):
            continue
        _csv_question(parsed, line, dict(zip(names, row, strict=False)), len(row) > len(names))
    return parsed


def _csv_column(name: str) -> str:
    name = name.strip().lstrip("\ufeff").strip()
    return name.upper() if name.upper() in CSV_LABELS else name.lower()


def _csv_question(parsed: Parsed, line: int, row: dict[str, str], extra: bool) -> None:
    number = counted(parsed)

    def cell(name: str) -> str:
        return " ".join((row.get(name) or "").split())

    if extra:
        parsed.notes.append(Note(line, "more cells than columns"))
        return
    options = [(label, cell(label)) for label in CSV_LABELS if cell(label)]
    problem, answer, right = _csv_answer(cell("kind"), cell("correct"), options)
    if not cell("prompt"):
        problem = "no prompt"
    if problem:
        parsed.notes.append(Note(line, problem))
        return
    title, url = cell("source_title"), cell("source_url")
    if bool(title) != bool(url):
        parsed.notes.append(Note(line, "a source needs both source_title and source_url"))
        return
    parsed.questions.append(
        Imported(
            line,
            number,
            cell("id") or None,
            cell("prompt"),
            () if answer is not None else tuple((text, label in right) for label, text in options),
            cell("explanation") or None,
            (title, url) if url else None,
            answer,
        )
    )


def _csv_answer(
    kind: str, correct: str, options: list[tuple[str, str]]
) -> tuple[str | None, bool | None, frozenset[str]]:
    """A row's kind and answer: (problem or None, a true/false answer or None, the right
    options' letters). A row is true/false when ``kind`` says so, or when it has no options
    and ``correct`` is ``TRUE`` or ``FALSE``."""
    labels = [label for label, _ in options]
    boolean = _CSV_BOOLEANS.get(correct.upper())
    if kind.lower() not in ("", *CSV_KINDS):
        return f"kind is {short(kind)}: it must be {' or '.join(CSV_KINDS)}", None, frozenset()
    if kind.lower() == "true-false" or (not kind and not options and boolean is not None):
        if boolean is None:
            return (
                f"correct is {short(correct)}: a true-false question's is TRUE or FALSE",
                None,
                frozenset(),
            )
        if options:
            return (
                f"a true-false question has no options: columns {', '.join(labels)} must be "
                "empty (the bot shows True and False in the player's language)",
                None,
                frozenset(),
            )
        return None, boolean, frozenset()
    letters = [letter for letter in _LETTERS.split(correct.upper()) if letter]
    if not letters or any(letter not in labels for letter in letters):
        return (
            f"correct is {short(correct)}: it must be the letter of a non-empty option, or the "
            f"letters of several (A,C) ({', '.join(labels) or 'none'})",
            None,
            frozenset(),
        )
    right = frozenset(letters)
    count_problem = option_count_problem(len(labels))
    if count_problem:
        return count_problem, None, frozenset()
    if len(right) == len(labels):
        return (
            f"correct is {short(correct)}: every option is right; at least one must be wrong",
            None,
            frozenset(),
        )
    return None, None, right


PARSERS = {"gift": parse_gift, "aiken": parse_aiken, "csv": parse_csv}
"""Format name (``quizbot import --format``) -> parser."""


# --- to a bank -----------------------------------------------------------------------------


def slug(text: str) -> str:
    """``text`` as an id: lower case a-z, 0-9 and single dashes, at most 32 characters
    (:data:`~bot.kernel.bank.ID_PATTERN`); empty when nothing is left."""
    value = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:32].rstrip("-")
    return value if ID_PATTERN.fullmatch(value) else ""


def bank_data(
    parsed: Parsed,
    *,
    language: str,
    bank_id: str,
    title: str,
    description: str,
    level: str = "medium",
    source: tuple[str, str] | None = None,
) -> tuple[dict[str, object], dict[str, int]]:
    """The bank mapping (``banks/README.md`` schema, one language) for the converted questions.

    Missing explanations and sources get placeholders (:data:`EXPLANATION_PLACEHOLDER`,
    :data:`SOURCE_PLACEHOLDER`), each noted in ``parsed.notes`` (not skipped).

    Args:
        parsed: A parser's result; its notes are extended.
        language: The bank's one language (its code).
        bank_id, title, description, level: The bank's fields.
        source: (title, URL) for questions without a source of their own.

    Returns:
        The mapping, and the source line of each question id (for reporting).
    """
    lines: dict[str, int] = {}
    copies: dict[str, int] = {}  # an id given twice -> the next copy number to try
    questions = []
    unsourced = 0
    for question in parsed.questions:
        question_id = slug(question.name or "") or f"q{question.number}"
        base = question_id
        while question_id in lines:  # each copy number is tried once per base: linear
            copy = copies.get(base, 2)
            copies[base] = copy + 1
            suffix = f"-{copy}"
            question_id = base[: 32 - len(suffix)].rstrip("-") + suffix
        lines[question_id] = question.line
        explanation = question.explanation
        if explanation is None:
            explanation = EXPLANATION_PLACEHOLDER
            parsed.notes.append(
                Note(
                    question.line,
                    "no explanation in the file: wrote a TODO placeholder",
                    skipped=False,
                )
            )
        cited = question.source or source
        if cited is None:
            cited = SOURCE_PLACEHOLDER
            unsourced += 1
        entry: dict[str, object] = {"id": question_id, "prompt": {language: question.prompt}}
        if question.answer is not None:  # True and False come in the player's language
            entry["kind"] = "true-false"
            entry["answer"] = question.answer
        else:
            options: list[dict[str, object]] = []
            for text, correct in question.options:
                option: dict[str, object] = {"text": {language: text}}
                if correct:
                    option["correct"] = True
                options.append(option)
            entry["options"] = options
        entry["explanation"] = {language: explanation}
        entry["source"] = {"title": cited[0], "url": cited[1]}
        questions.append(entry)
    return bank_mapping(
        parsed,
        questions,
        unsourced,
        language=language,
        bank_id=bank_id,
        title=title,
        description=description,
        level=level,
    ), lines


# --- a file sent to the bot ----------------------------------------------------------------


MAX_PROBLEMS_SHOWN = 5
"""Most problems of a file said to its maker, in the maker's language (the first ones)."""


@dataclass(frozen=True)
class Converted:
    """A file's questions as a created quiz's bank mapping (one language), how many of the
    file's questions were left out, and the first problems that have a message in the maker's
    language (:attr:`Note.key`; at most :data:`MAX_PROBLEMS_SHOWN`)."""

    data: dict[str, object]
    skipped: int
    problems: tuple[Note, ...] = ()


@dataclass(frozen=True)
class NoneConverted:
    """No question of the file could be converted; ``found``: how many it seemed to have."""

    found: int


@dataclass(frozen=True)
class TooManyQuestions:
    """The file has more questions than a quiz may hold: ``count`` of at most ``limit``."""

    count: int
    limit: int


def convert(
    kind: str, text: str, *, language: str, title: str, description: str, limit: int
) -> Converted | NoneConverted | TooManyQuestions:
    """A GIFT, Aiken or CSV file (``kind``, a key of :data:`PARSERS`), a numbered quiz
    (``numbered``) or ``txt`` (as :func:`txt_kind` tells) as a created quiz in
    ``language``: linear in the file, picklable in and out (it runs in the bot's worker
    process). Placeholders for a missing explanation or source are left out (a created quiz
    needs neither; the check names what a bank requires); more than ``limit`` questions are
    refused before a bank is made of them."""
    kind = txt_kind(text) if kind == "txt" else kind
    parsed = parse_numbered(text) if kind == "numbered" else PARSERS[kind](text)
    if not parsed.questions:
        return NoneConverted(parsed.found)
    if len(parsed.questions) > limit:
        return TooManyQuestions(len(parsed.questions), limit)
    data, _ = bank_data(
        parsed, language=language, bank_id="imported", title=title, description=description
    )
    # cast: bank_data's "questions" is the list of question mappings (edited in place)
    for question in cast(list[dict[str, Any]], data["questions"]):
        if question["explanation"] == {language: EXPLANATION_PLACEHOLDER}:
            del question["explanation"]
        if (question["source"]["title"], question["source"]["url"]) == SOURCE_PLACEHOLDER:
            del question["source"]
    problems = tuple(note for note in parsed.notes if note.key)
    return Converted(
        data,
        sum(1 for note in parsed.notes if note.skipped),
        problems[:MAX_PROBLEMS_SHOWN],
    )
