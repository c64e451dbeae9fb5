"""What the converters of :mod:`bot.features.importing.rules` find: converted questions and notes.

Pure data and the small rules every converter shares (counting questions, the option count).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.kernel.bank import (
    MAX_OPTIONS,
    MIN_OPTIONS,
)


@dataclass(frozen=True)
class Imported:
    """One converted question, in plain text: a choice question (one or several right
    options) or a true/false one (``answer`` given, no options).

    Attributes:
        line: 1-based line where it starts in the source file.
        number: 1-based position among the file's questions (converted or not): the default
            id is ``q<number>``, stable when a question before it is fixed and imported again.
        name: Its name in the file (GIFT ``::title::``, the CSV ``id``), if any.
        prompt: The question.
        options: (text, correct) per option, in the file's order; one or more correct, not
            all; empty for a true/false question.
        explanation: Why the answer is right, if the file says.
        source: (title, URL) of the explanation's source, if the file gives one.
        answer: A true/false question's answer (the bank's ``kind: true-false``); None for a
            choice question.
    """

    line: int
    number: int
    name: str | None
    prompt: str
    options: tuple[tuple[str, bool], ...]
    explanation: str | None = None
    source: tuple[str, str] | None = None
    answer: bool | None = None


@dataclass(frozen=True)
class Note:
    """Something the converter could not carry over.

    Attributes:
        line: 1-based line in the source file, or None for the whole file.
        message: What and why.
        skipped: True when a whole question was left out; False when only a part was (a
            feedback text, a partial credit) or a placeholder was written.
        question: The question's number (its own in the file, else its place), if the note
            is about one.
        key: The key of the message saying the problem in the maker's language
            (``documents.problem.*``), or ``""`` when there is none (the English ``message``
            is for ``quizbot import``).
        values: The message's parameters, (name, value) pairs.
    """

    line: int | None
    message: str
    skipped: bool = True
    question: int | None = None
    key: str = ""
    values: tuple[tuple[str, str], ...] = ()


@dataclass
class Parsed:
    """What a parser found: the questions it converted and its notes, in file order."""

    questions: list[Imported] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    found: int = 0
    """Questions found in the file (converted or not)."""


def counted(parsed: Parsed) -> int:
    """Count one more question found in the file; return its 1-based number."""
    parsed.found += 1
    return parsed.found


NOT_A_BANK_KIND = (
    "quizbot asks questions with one or several right options, and true/false questions"
)
"""Why a question of another type (short answer, matching, numerical, essay) is left out."""
NOT_MULTIPLE_CHOICE = NOT_A_BANK_KIND
"""The old name of :data:`NOT_A_BANK_KIND`, for converters written against it."""


def option_count_problem(count: int) -> str | None:
    """Why ``count`` options cannot make a bank question, or None when they can."""
    if MIN_OPTIONS <= count <= MAX_OPTIONS:
        return None
    return f"{count} options: a bank question has {MIN_OPTIONS} to {MAX_OPTIONS}"


def short(text: str, limit: int = 40) -> str:
    """``text`` quoted for a note, cut to ``limit`` characters."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def bank_mapping(
    parsed: Parsed,
    questions: list[dict[str, object]],
    unsourced: int,
    *,
    language: str,
    bank_id: str,
    title: str,
    description: str,
    level: str,
) -> dict[str, object]:
    """A converted file's bank mapping (one language, version 1) around its ``questions``;
    the ``unsourced`` questions given a source placeholder are noted in ``parsed.notes``."""
    if unsourced:
        parsed.notes.append(
            Note(
                None,
                f"{unsourced} question(s) without a source: wrote a TODO placeholder "
                "(--source-title and --source-url set one for all)",
                skipped=False,
            )
        )
    return {
        "id": bank_id,
        "version": 1,
        "default_language": language,
        "languages": [language],
        "level": level,
        "title": {language: title},
        "description": {language: description},
        "questions": questions,
    }
