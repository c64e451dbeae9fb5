"""The shape of one language's data (:class:`Language`), which every module of
:mod:`bot.kernel.languages` fills in. Pure data; no defaults, so a language cannot be half added."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields

LATIN = tuple("ABCDEFGHIJKL")
"""Option labels in the Latin script, in order (as many as a question has options at most)."""
CYRILLIC = tuple("АБВГДЕЖЗИКЛМ")
"""Option labels in the Cyrillic script, in order (Й left out, as lettered lists do)."""


@dataclass(frozen=True)
class Sheet:
    """One language's words for a quiz sheet (.xlsx); the first of each tuple is the template's
    (read by :mod:`bot.features.importing.headers`).

    Attributes:
        question, answer, explanation, picture, kind: Headers of those columns.
        option: The word before an option's letter (``Option A``); a bare letter is an option
            header in every language.
        true, false: A true/false question's answers.
        choice, true_false: The kind column's values.
        source, link, shuffle, marks, waive: Headers of the columns of a question's source
            (its title and its URL), whether its options are shuffled, its marks in an exam and
            the checks it waives; ``marks`` names the exam's default marks in the settings too.
        settings: The settings worksheet's name.
        title, description, language, level, minutes, penalty, draw, guide, guide_label: The
            settings' names (:data:`bot.features.importing.headers.SETTINGS`).
    """

    question: tuple[str, ...]
    answer: tuple[str, ...]
    explanation: tuple[str, ...]
    picture: tuple[str, ...]
    kind: tuple[str, ...]
    option: tuple[str, ...]
    true: tuple[str, ...]
    false: tuple[str, ...]
    choice: tuple[str, ...]
    true_false: tuple[str, ...]
    source: tuple[str, ...]
    link: tuple[str, ...]
    shuffle: tuple[str, ...]
    marks: tuple[str, ...]
    waive: tuple[str, ...]
    settings: tuple[str, ...]
    title: tuple[str, ...]
    description: tuple[str, ...]
    language: tuple[str, ...]
    level: tuple[str, ...]
    minutes: tuple[str, ...]
    penalty: tuple[str, ...]
    draw: tuple[str, ...]
    guide: tuple[str, ...]
    guide_label: tuple[str, ...]


@dataclass(frozen=True)
class Numbered:
    """One language's words in a numbered quiz (:mod:`bot.features.importing.numbered`).

    Attributes:
        answer: What starts an answer line (``Answer``, matched in any case).
        explanation: What starts an explanation line.
        letters: The letters its options are labelled with, in order (:data:`LATIN`,
            :data:`CYRILLIC` or the language's own).
        and_words: The words for "and" between labels of an answer (``Answer: A and C``).
    """

    answer: tuple[str, ...]
    explanation: tuple[str, ...]
    letters: tuple[str, ...]
    and_words: tuple[str, ...]


@dataclass(frozen=True)
class Language:
    """Everything quizbot reads or checks in one language's texts, besides its catalog and its
    wording rules (``bot/i18n/locales/<code>/``).

    Attributes:
        code: The language's code, the module's name (``ru``).
        stopwords: Function words, not counted as words of a text by the item-writing checks
            (:data:`bot.kernel.itemtext.STOPWORDS`; Greek ones without accents, Persian ones
            as the parts a zero-width non-joiner separates).
        above_phrases: Regular expressions of "all of the above", "none of the above" and their
            variants (:data:`bot.kernel.checks.ABOVE_PHRASES`), matched case-insensitively in
            text without Greek accents.
        true_words, false_words: Option texts read as True and False in a typed or numbered
            question (:data:`bot.kernel.textformat.TRUE_WORDS`), any case.
        count_words: The words between a number and the number it counts out of ("7 of 8"),
            kept on one line by the terminal (:data:`bot.terminal.text.COUNT_WORDS`).
        sheet: The words of a quiz sheet (:data:`bot.features.importing.vocabulary.VOCABULARY`).
        numbered: The words of a numbered quiz (:data:`bot.features.importing.numbered.WORDS`).
        absent: The fields this language leaves empty, each with the reason (a language that
            genuinely has no such word); every other field is filled.
    """

    code: str
    stopwords: frozenset[str]
    above_phrases: tuple[str, ...]
    true_words: tuple[str, ...]
    false_words: tuple[str, ...]
    count_words: tuple[str, ...]
    sheet: Sheet
    numbered: Numbered
    absent: Mapping[str, str] = field(default_factory=dict)

    def empty_fields(self) -> list[str]:
        """The names of this language's fields that hold nothing (``absent`` aside), its
        sheet's and numbered words' included (``sheet.title``)."""
        empty = [f.name for f in fields(self) if f.name != "absent" and not getattr(self, f.name)]
        for part in ("sheet", "numbered"):
            value = getattr(self, part)
            empty += [f"{part}.{f.name}" for f in fields(value) if not getattr(value, f.name)]
        return empty
