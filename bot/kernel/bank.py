"""Question banks: the model (frozen dataclasses) and the rules a bank keeps.

The schema is documented in ``banks/README.md``. Banks are read from YAML files, and checked
against these rules, by :mod:`bot.bankload`, outside the pure core.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from pathlib import Path

ID_PATTERN = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$")
"""Bank and question ids: 1-32 chars of a-z, 0-9 and "-". Short, so that callback data
(at most 64 bytes, Bot API ``InlineKeyboardButton.callback_data``) and deep-link payloads
(at most 64 chars of A-Z, a-z, 0-9, _ and -, Bot API "Deep linking") always fit."""

LANGUAGE_PATTERN = re.compile(r"^[a-z]{2,3}$")
LEVELS = ("easy", "medium", "hard")
MIN_OPTIONS, MAX_OPTIONS = 2, 12
"""Options per question, inclusive: two at least for a choice, twelve at most, as a Telegram
poll allows (Bot API 10.1 ``sendPoll``: 2-12 options), labelled A-L; one answer button each
fits in three rows of a phone's screen (``bot.render``)."""
MAX_PICTURE = 1024
"""Longest ``picture`` value (an https URL or a Telegram ``file_id``), in characters."""
PICTURE_PATTERN = re.compile(r"^(https://\S+|[A-Za-z0-9_-]{20,})$")
"""A question's picture: an https URL Telegram can fetch (Bot API ``sendPhoto``: "pass an HTTP
URL as a String for Telegram to get a photo from the Internet"), or the ``file_id`` of a photo
already on Telegram's servers (URL-safe base64, 20 characters and more)."""


class QuestionKind(StrEnum):
    """What kind of answer a question asks for (the bank format's ``kind``)."""

    CHOICE = "choice"
    """Options to choose from: one right option, or several (choose all that apply)."""
    TRUE_FALSE = "true-false"
    """A statement that is true or false: no options in the bank; the bot shows its own
    localized True and False (option 0 is True, option 1 False)."""


CHOICE, TRUE_FALSE = QuestionKind
MAX_QUESTIONS = 200
"""Questions per bank: a created quiz may have up to 200 (issue 21's per-quiz limit), and so
may a bank file."""
MAX_GUIDE_LABEL = 40
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Characters refused in bank text: the C0 and C1 control characters (Unicode category Cc)
except tab and line feed. ESC (U+001B) and CSI (U+009B) start terminal escape sequences, which
``quizbot play`` would otherwise send to the terminal; CR overwrites a line."""
MAX_QUESTION_UTF16 = 3500
"""Prompt, options, explanation and source title of one question together, per language, in
UTF-16 units: the feedback message shows them all, and a Telegram message holds at most 4096
UTF-16 units after entity parsing (Bot API ``sendMessage``); the rest is left for the title,
labels and verdict."""


@dataclass(frozen=True)
class Text:
    """A localized text: language code -> non-empty plain text (not HTML)."""

    by_language: Mapping[str, str]

    def get(self, language: str, fallback: str) -> str:
        """Return the text in ``language``, else in ``fallback`` (the bank's default language)."""
        return self.by_language.get(language) or self.by_language[fallback]


@dataclass(frozen=True)
class Option:
    """One answer option of a question."""

    text: Text
    correct: bool


@dataclass(frozen=True)
class Source:
    """Where an explanation's facts come from: a paper or official document."""

    title: str
    url: str


def invisible(char: str) -> bool:
    """Whether ``char`` shows nothing a reader would see: spaces and separators, controls and
    format characters (Unicode category Cf: bidi marks such as U+200F and U+202E, zero-width
    spaces and joiners, the byte order mark, soft hyphens)."""
    return char.isspace() or unicodedata.category(char) in ("Cc", "Cf", "Zs", "Zl", "Zp")


def blank(text: str) -> bool:
    """Whether ``text`` shows nothing (every character :func:`invisible`): a title, prompt or
    option made of them would be an invisible button or line."""
    return all(invisible(char) for char in text)


def true_false_options(answer: bool, languages: tuple[str, ...]) -> tuple[Option, Option]:
    """The two options of a true/false question: True (index 0), then False (index 1), the
    right one being ``answer``. Their texts ("True", "False" in every language of the bank)
    stand in for the bot's own localized words, which the screens show instead."""
    return (
        Option(Text({language: "True" for language in languages}), answer),
        Option(Text({language: "False" for language in languages}), not answer),
    )


@dataclass(frozen=True)
class Question:
    """A question: options with one right option or several, or a true/false statement.

    Attributes:
        id: Stable id, unique in the bank; stored with every answer.
        prompt: The question text.
        options: The options in the bank's order (:data:`MIN_OPTIONS` to :data:`MAX_OPTIONS`);
            for a true/false question the two of :func:`true_false_options`.
        explanation: Why the correct option is right (2-4 sentences), or None (optional: a
            question made from a Telegram poll may have none).
        source: The paper or document the explanation cites, or None (optional).
        kind: :data:`CHOICE` or :data:`TRUE_FALSE`.
        picture: An https URL or a Telegram ``file_id`` of a photo sent with the question, or
            None.
        waived: Item-writing rules (:mod:`bot.kernel.checks`) the bank's author waived for this
            question (the bank format's ``waive``); not counted in the fingerprint.
        shuffle: False when the options keep the bank's order in every attempt (the bank
            format's ``shuffle: false``: options with an order of their own, such as "Stage 0"
            to "Stage 3"); see :attr:`shuffled`.
        marks: What a right answer scores in an exam (the bank format's ``marks``), or None:
            the exam's default (:attr:`Exam.marks`); not counted in the fingerprint.
    """

    id: str
    prompt: Text
    options: tuple[Option, ...]
    explanation: Text | None
    source: Source | None
    kind: QuestionKind = CHOICE
    picture: str | None = None
    waived: frozenset[str] = frozenset()
    shuffle: bool = True
    marks: float | None = None

    @property
    def shuffled(self) -> bool:
        """Whether the options are shown in a shuffled order: not for a true/false question
        (True, then False, as a reader expects) nor for one that keeps its order
        (:attr:`shuffle` False)."""
        return self.shuffle and self.kind != TRUE_FALSE

    @cached_property
    def correct_indices(self) -> frozenset[int]:
        """Indices of the right options in the bank's order (one, or several)."""
        return frozenset(i for i, option in enumerate(self.options) if option.correct)

    @property
    def correct_index(self) -> int:
        """Index of the first right option in the bank's order (the only one unless
        :attr:`several`)."""
        return min(self.correct_indices)

    @property
    def several(self) -> bool:
        """Whether more than one option is right: the player chooses all that apply, and is
        right only when the chosen set is exactly :attr:`correct_indices`."""
        return len(self.correct_indices) > 1

    @property
    def answer(self) -> bool | None:
        """A true/false question's answer (True when the statement is true); None for options."""
        return self.options[0].correct if self.kind == TRUE_FALSE else None

    @cached_property
    def fingerprint(self) -> str:
        """A short stable hash of what the question asks and how it is graded.

        Counted: the kind, the prompt, every option's text (in bank order) and correctness flag,
        the explanation, each in every language of the bank, and the picture (the kind and the
        picture only when they differ from a plain choice question without a picture, so that
        fingerprints stored before kinds existed still match), and ``shuffle: false`` (only
        when set, for the same reason: the options' order on screen changes with it). Not
        counted: the id (the fingerprint is stored per id), the source (fixing a citation
        changes neither what is asked nor how it is graded). An attempt stores the
        fingerprints of its questions when it starts, to notice a question edited without a
        version bump (see :func:`bot.kernel.engine.revise`).

        Returns:
            16 lowercase hex digits: BLAKE2b with an 8-byte digest of the canonical JSON of the
            counted content (keys sorted, UTF-8).
        """
        content: dict[str, object] = {
            "prompt": dict(self.prompt.by_language),
            "options": [[dict(option.text.by_language), option.correct] for option in self.options],
            "explanation": dict(self.explanation.by_language) if self.explanation else {},
        }
        if self.kind != CHOICE or self.picture is not None:  # older fingerprints stay the same
            content["kind"] = str(self.kind)
            content["picture"] = self.picture
        if not self.shuffle:
            content["shuffle"] = False
        canonical = json.dumps(content, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        return hashlib.blake2b(canonical.encode("utf-8"), digest_size=8).hexdigest()


MAX_EXAM_MINUTES = 600
"""Longest exam, in minutes (ten hours): a timer for a sitting, not for days."""
MAX_MARKS = 100.0
"""Most marks a question may score, or a wrong answer cost (the bank format's ``marks`` and
``penalty``)."""


@dataclass(frozen=True)
class Exam:
    """A quiz's exam mode (the bank format's ``exam`` block): one timer for the attempt, no
    feedback until the end, marks per question with a penalty for a wrong answer, and a draw of
    questions from the bank for each attempt.

    Attributes:
        minutes: The whole attempt's time, in minutes (1 to :data:`MAX_EXAM_MINUTES`).
        marks: What a right answer scores, where a question says nothing (default 1).
        penalty: Marks taken for a wrong answer (0 or more; a blank answer costs nothing).
        draw: Questions drawn for each attempt, or None for every question of the bank.
    """

    minutes: int
    marks: float = 1.0
    penalty: float = 0.0
    draw: int | None = None


@dataclass(frozen=True)
class Guide:
    """An optional link to a guide, shown as a URL button."""

    url: str
    label: Text


@dataclass(frozen=True)
class Bank:
    """A validated question bank (see ``banks/README.md``)."""

    id: str
    version: int
    default_language: str
    languages: tuple[str, ...]
    level: str
    title: Text
    description: Text
    questions: tuple[Question, ...]
    guide: Guide | None = None
    exam: Exam | None = None
    path: Path | None = field(default=None, compare=False)
    positions: Mapping[tuple[str | None, str], tuple[int, int]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """(question id or None, field) -> (line, column) of each localized text in the file, e.g.
    ``("zero-purpose", "option 2.text.hi")``; for reports on the bank's content
    (:mod:`bot.kernel.checks`). Empty for a bank not parsed from YAML."""

    def question(self, question_id: str) -> Question:
        """Return the question with ``question_id``.

        Raises:
            KeyError: no such question in this bank.
        """
        for question in self.questions:
            if question.id == question_id:
                return question
        raise KeyError(question_id)

    def language_for(self, language: str) -> str:
        """Return ``language`` if this bank has it, else the bank's default language."""
        return language if language in self.languages else self.default_language


EXPLANATION_PLACEHOLDER = "TODO: explain why the correct option is right."
"""Written where the source gives no explanation (Aiken never does): the loader accepts it, so
the bank can be tried at once, and a search for "TODO" finds what is left to write."""


SOURCE_PLACEHOLDER = ("TODO: the source of the explanation", "https://example.org/TODO")
"""Title and URL written where neither the file nor the command gives a source."""
