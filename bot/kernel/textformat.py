"""The plain text format of a question typed in a chat (``/newquiz``; README "Making a quiz").

One message is one question::

    What is the capital of France?
    Berlin
    *Paris
    Madrid
    > Paris has been the capital since 987.

- the first line is the question;
- every other line is an option (2 to :data:`~bot.kernel.bank.MAX_OPTIONS`); the right one is
  marked with a leading ``*`` (or a trailing ``✓``, ``✔`` or ``✅``); several marked options
  make a question with several right options;
- a line starting with ``>`` is the explanation (several such lines are joined), as is a
  quote block (Telegram's apps turn a typed ``>`` line into one);
- options may carry labels ``A)``, ``B.``, ... or bullets ``-``, ``•`` (when every option has
  one, they are dropped); blank lines are ignored;
- two options "True" and "False" (or सही/गलत, Σωστό/Λάθος, Benar/Salah, Правда/Неправда,
  صواب/خطأ), one marked, make a true/false question.

The text is plain: ``<b>``, ``**`` or ``&amp;`` stay as typed (the screens escape them).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from bot.kernel.languages import LANGUAGES

MARK = "*"
"""The leading mark of a right option."""
TRAILING_MARKS = ("✓", "✔", "✅")
"""Marks of a right option accepted at the end of its line."""
EXPLANATION_MARK = ">"

_LABEL = re.compile(r"^([A-La-l])\s*[.)]\s+")
_BULLET = re.compile(r"^[-•–]\s+")

TRUE_WORDS = frozenset(
    word.casefold() for language in LANGUAGES.values() for word in language.true_words
)
FALSE_WORDS = frozenset(
    word.casefold() for language in LANGUAGES.values() for word in language.false_words
)
"""Option texts read as True and False (casefolded: Greek's final ς folds to σ), in the bot's
languages (each one's :attr:`~bot.kernel.languages.Language.true_words` and ``false_words``)."""


@dataclass(frozen=True)
class TypedQuestion:
    """A question read from a text message.

    Attributes:
        prompt: The question.
        options: The option texts, in the order typed (empty for a true/false question).
        correct: Indexes of the marked options (possibly none or all: the caller checks).
        explanation: The explanation ("" when none was given).
        answer: A true/false question's answer; None for options.
    """

    prompt: str
    options: tuple[str, ...]
    correct: tuple[int, ...]
    explanation: str
    answer: bool | None = None


def text_lines(text: str, quotes: Sequence[str] = ()) -> tuple[list[str], list[str]]:
    """A typed message's non-blank lines, stripped, and its explanation: the quote blocks'
    texts (``quotes``, taken out of ``text``) and the lines after the first that start with
    :data:`EXPLANATION_MARK` (the mark dropped), in order."""
    explanation: list[str] = []
    rest = text
    for quote in quotes:
        if quote.strip() and quote in rest:
            rest = rest.replace(quote, "\n", 1)
            explanation.append(quote.strip())
    lines: list[str] = []
    for raw in rest.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith(EXPLANATION_MARK) and lines:
            explanation.append(line[len(EXPLANATION_MARK) :].strip())
        else:
            lines.append(line)
    return lines, explanation


def parse_question(text: str, quotes: Sequence[str] = ()) -> TypedQuestion | None:
    """Read one question in the format above.

    Args:
        text: The message text (or a photo's caption).
        quotes: The texts of the message's quote blocks (``blockquote`` entities), which are
            its explanation.

    Returns:
        The question, or None when the text has no question line and at least one option
        line (it is not a question in this format).
    """
    lines, explanation = text_lines(text, quotes)
    if len(lines) < 2:
        return None
    prompt, typed = lines[0], lines[1:]
    marked, texts = [], []
    for line in typed:
        right, line = _marked(line)
        marked.append(right)
        texts.append(line)
    texts = _unlabelled(texts, marked)
    correct = tuple(i for i, right in enumerate(marked) if right)
    note = "\n".join(part for part in explanation if part)
    answer = true_false(texts, correct)
    if answer is not None:
        return TypedQuestion(prompt, (), (), note, answer)
    return TypedQuestion(prompt, tuple(texts), correct, note)


def true_false(options: Sequence[str], correct: Sequence[int]) -> bool | None:
    """The answer of a true/false question written as two options "True" and "False" (in any
    of :data:`TRUE_WORDS` and :data:`FALSE_WORDS`) with exactly one right; None otherwise."""
    if len(options) != 2 or len(correct) != 1:
        return None
    words = [_folded(option) for option in options]
    if words[0] in TRUE_WORDS and words[1] in FALSE_WORDS:
        return correct[0] == 0
    if words[0] in FALSE_WORDS and words[1] in TRUE_WORDS:
        return correct[0] == 1
    return None


def _folded(text: str) -> str:
    return unicodedata.normalize("NFC", text.strip().rstrip(".!").casefold())


def _marked(line: str) -> tuple[bool, str]:
    """Whether an option line is marked right, and its text without the mark."""
    if line.startswith(MARK):
        return True, line[len(MARK) :].strip()
    for mark in TRAILING_MARKS:
        if line.endswith(mark):
            return True, line[: -len(mark)].strip()
    label = _LABEL.match(line) or _BULLET.match(line)  # "B) *Paris"
    if label is not None and line[label.end() :].startswith(MARK):
        return True, line[: label.end()] + line[label.end() + len(MARK) :].strip()
    return False, line


def _unlabelled(texts: list[str], marked: list[bool]) -> list[str]:
    """The option texts without their labels (``A)``, ``B.``, ... in order) or bullets, when
    every option has one; as typed otherwise ("A. Lincoln" among unlabelled options stays)."""
    labels = [_LABEL.match(text) for text in texts]
    if all(labels) and [m[1].upper() for m in labels if m] == [
        chr(ord("A") + i) for i in range(len(texts))
    ]:
        return [_unmarked(text[m.end() :]) for text, m in zip(texts, labels, strict=True) if m]
    bullets = [_BULLET.match(text) for text in texts]
    if all(bullets):
        return [_unmarked(text[m.end() :]) for text, m in zip(texts, bullets, strict=True) if m]
    return texts


def _unmarked(text: str) -> str:
    return text[len(MARK) :].strip() if text.startswith(MARK) else text.strip()
