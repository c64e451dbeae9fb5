"""Question banks: the model (frozen dataclasses) and the rules a bank keeps.

The schema is documented in ``banks/README.md``. Banks are read from YAML files, and checked
against these rules, by :mod:`bot.bankload`, outside the pure core.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

ID_PATTERN = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$")
"""Bank and question ids: 1-32 chars of a-z, 0-9 and "-". Short, so that callback data
(at most 64 bytes, Bot API ``InlineKeyboardButton.callback_data``) and deep-link payloads
(at most 64 chars of A-Z, a-z, 0-9, _ and -, Bot API "Deep linking") always fit."""

LANGUAGE_PATTERN = re.compile(r"^[a-z]{2,3}$")
LEVELS = ("easy", "medium", "hard")
MIN_OPTIONS, MAX_OPTIONS = 2, 10
"""Options per question, inclusive: two at least for a choice, ten at most so that the labels
A-J and one answer button each fit two rows of a phone's screen (``bot.render``)."""
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


@dataclass(frozen=True)
class Question:
    """A multiple-choice question with exactly one correct option.

    Attributes:
        id: Stable id, unique in the bank; stored with every answer.
        prompt: The question text.
        options: The options in the bank's order (:data:`MIN_OPTIONS` to :data:`MAX_OPTIONS`).
        explanation: Why the correct option is right (2-4 sentences).
        source: The paper or document the explanation cites.
    """

    id: str
    prompt: Text
    options: tuple[Option, ...]
    explanation: Text
    source: Source

    @property
    def correct_index(self) -> int:
        """Index of the correct option in the bank's order."""
        return next(i for i, option in enumerate(self.options) if option.correct)

    @cached_property
    def fingerprint(self) -> str:
        """A short stable hash of what the question asks and how it is graded.

        Counted: the prompt, every option's text (in bank order) and correctness flag, and the
        explanation, each in every language of the bank. Not counted: the id (the fingerprint is
        stored per id), the source (fixing a citation changes neither what is asked nor how it
        is graded). An attempt stores the fingerprints of its questions when it starts, to notice
        a question edited without a version bump (see :func:`bot.quiz.engine.revise`).

        Returns:
            16 lowercase hex digits: BLAKE2b with an 8-byte digest of the canonical JSON of the
            counted content (keys sorted, UTF-8).
        """
        content = {
            "prompt": dict(self.prompt.by_language),
            "options": [[dict(option.text.by_language), option.correct]
                        for option in self.options],
            "explanation": dict(self.explanation.by_language),
        }
        canonical = json.dumps(content, ensure_ascii=False, sort_keys=True,
                               separators=(",", ":"))
        return hashlib.blake2b(canonical.encode("utf-8"), digest_size=8).hexdigest()


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
    path: Path | None = field(default=None, compare=False)
    positions: Mapping[tuple[str | None, str], tuple[int, int]] = field(
        default_factory=dict, compare=False, repr=False)
    """(question id or None, field) -> (line, column) of each localized text in the file, e.g.
    ``("zero-purpose", "option 2.text.hi")``; for reports on the bank's content
    (:mod:`bot.quiz.checks`). Empty for a bank not parsed from YAML."""

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
