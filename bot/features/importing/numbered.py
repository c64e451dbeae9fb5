"""The numbered form people write quizzes in (a text file, a Word document, a PDF's text).

::

    1. Which city is the capital of France?
    A) Lyon
    B) Paris
    Answer: B
    Explanation: The seat of government has been there since 987.

- A question is a line ``1.`` or ``1)`` (``Q1.`` too; any digits, Arabic-Indic ones as well) and
  the lines after it up to its first option; a question without a number starts on the first
  line of text after the last question's answer.
- Options: a label and ``)``, ``.``, ``]`` or ``-``, or the label in brackets: ``A)``,
  ``a.``, ``(A)``, ``1)`` (numbers under a numbered question too: ``1)``, ``2)`` in order),
  in the letters of the language's script (``а)`` ``б)``, ``α)``, ``أ)``, ``الف)``, ``क)``).
  A line of text under an option continues it.
- The answer line: a word of :data:`WORDS` (``Answer``, ``Ответ``, ``Javob``, ``پاسخ``,
  ...), any case, then ``:`` or ``-``, then one label (``B``), several (``A, C``: a question
  with several right options), an option's label and text (``B) Paris``) or its text, or,
  for a question without options, True or False in a language of
  :data:`~bot.kernel.textformat.TRUE_WORDS` (a true/false question). Two options True and
  False with one right make a true/false question too.
- An optional explanation line after the answer (``Explanation:``, ``Объяснение:``, ...);
  the lines after it up to a blank line continue it.

A letter typed in another script that looks the same (a Latin ``B`` for the Cyrillic ``В``)
names the option that looks like it. Each problem is a :class:`~.imported.Note` naming the line,
the question (its own number when it has one) and the field.

Pure and linear: one pass over the lines, each matched by anchored patterns; a text of more
than :data:`MAX_LINES` lines is refused before it is split.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from bot.features.importing.imported import Imported, Note, Parsed, counted, option_count_problem
from bot.kernel.languages import LANGUAGES, Numbered
from bot.kernel.textformat import FALSE_WORDS, TRUE_WORDS, true_false

MAX_LINES = 6_000
"""Most lines a numbered text may have (a question with four options, its answer, an
explanation and a blank line takes eight: room for the most questions a quiz holds, and more
for ``quizbot import``)."""


WORDS: dict[str, Numbered] = {code: language.numbered for code, language in LANGUAGES.items()}
"""Each language's words in a numbered quiz (its :attr:`~bot.kernel.languages.Language.numbered`;
True and False are :data:`~bot.kernel.textformat.TRUE_WORDS` and
:data:`~bot.kernel.textformat.FALSE_WORDS`)."""

_LOOKALIKE = str.maketrans("АВСЕНКМОРТХΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABCEHKMOPTXABEZHIKMNOPTYX")
"""Cyrillic and Greek capitals that look like Latin ones, as the Latin ones."""


def _alternatives(words: set[str]) -> str:
    # longest first, so that "Correct answer" is tried before "Answer"
    return "|".join(re.escape(word) for word in sorted(words, key=lambda w: (-len(w), w)))


_SEPARATOR = r"\s*[:：\-–—]\s*"
_ANSWER = re.compile(
    rf"^(?:{_alternatives({w for v in WORDS.values() for w in v.answer})}){_SEPARATOR}(.*)$",
    re.IGNORECASE,
)
_EXPLANATION = re.compile(
    rf"^(?:{_alternatives({w for v in WORDS.values() for w in v.explanation})}){_SEPARATOR}(.*)$",
    re.IGNORECASE,
)
_LETTERS = {letter for v in WORDS.values() for letter in v.letters}
_LABEL = rf"(?:{_alternatives(_LETTERS | {letter.lower() for letter in _LETTERS})}|\d{{1,2}})"
_OPTION = re.compile(rf"^(?:\(({_LABEL})\)|({_LABEL})(?:[)\]]|\.\s|\s*[-–]\s))\s*(\S.*)$")
_QUESTION = re.compile(r"^(?:[Qq]\s?)?(\d{1,4})\s*[.)](?!\d)\s*(\S.*)$")
_AND = {word.casefold() for v in WORDS.values() for word in v.and_words}
"""Every language's words for "and" between an answer's labels (``Answer: A and C``)."""


def _key(label: str) -> str:
    """An option label as compared with an answer's: digits as numbers, letters upper case."""
    return str(int(label)) if label.isdigit() else label.upper()


@dataclass
class _Draft:
    line: int
    written: int | None  # the question's own number in the file
    prompt: list[str]
    options: list[tuple[int, str, list[str]]] = field(default_factory=list)  # line, key, parts
    answer: tuple[int, str] | None = None
    explanation: list[str] | None = None
    mode: str = "prompt"  # prompt, options, answer, explanation

    @property
    def numeric(self) -> bool:
        return bool(self.options) and self.options[0][1].isdigit()


def parse_numbered(text: str) -> Parsed:
    """Convert a numbered quiz (the module's form) into questions and notes.

    Returns:
        The :class:`~.imported.Parsed` questions (one right option, several, or true/false)
        and a note for each question left out and each line that belongs to none.
    """
    reader = _Reader()
    if text.count("\n") >= MAX_LINES:
        reader.parsed.notes.append(Note(None, f"more than {MAX_LINES:,} lines: split the file"))
        return reader.parsed
    for number, raw in enumerate(text.splitlines(), start=1):
        reader.read(number, " ".join(raw.split()))
    reader.finish()
    return reader.parsed


class _Reader:
    """The question being read, line by line."""

    def __init__(self) -> None:
        self.parsed = Parsed()
        self.draft: _Draft | None = None

    def finish(self) -> None:
        if self.draft is not None:
            _question(self.parsed, self.draft)
        self.draft = None

    def read(self, number: int, line: str) -> None:
        draft = self.draft
        if not line:
            if draft is not None and draft.mode == "explanation":
                draft.mode = "answer"
            return
        answer = _ANSWER.match(line)
        if answer:
            if draft is None or draft.answer is not None:
                self.finish()
                self.parsed.notes.append(_stray(number, "an answer line without a question"))
            else:
                draft.answer = (number, answer[1].strip())
                draft.mode = "answer"
            return
        explanation = _EXPLANATION.match(line)
        if explanation:
            if draft is None or draft.answer is None:
                self.parsed.notes.append(
                    _stray(number, "an explanation line without a question and answer before it")
                )
            else:
                draft.explanation = [explanation[1].strip()]
                draft.mode = "explanation"
            return
        option = _OPTION.match(line)
        if option and draft is not None and _is_option(draft, _key(option[1] or option[2])):
            draft.options.append((number, _key(option[1] or option[2]), [option[3]]))
            draft.mode = "options"
            return
        self.text(number, line, bool(option))

    def text(self, number: int, line: str, option: bool) -> None:
        """A line that is not an answer, an explanation or an option of the question."""
        draft = self.draft
        question = _QUESTION.match(line)
        if question:
            self.finish()
            self.draft = _Draft(number, int(question[1]), [question[2]])
        elif draft is not None and draft.mode == "prompt":
            draft.prompt.append(line)
        elif draft is not None and draft.mode == "options":
            draft.options[-1][2].append(line)  # parts joined once: linear however long
        elif draft is not None and draft.explanation is not None and draft.mode == "explanation":
            draft.explanation.append(line)
        elif option:
            self.finish()
            self.parsed.notes.append(_stray(number, "an option without a question before it"))
        else:
            self.finish()
            self.draft = _Draft(number, None, [line])


def _is_option(draft: _Draft, label: str) -> bool:
    """Whether a line labelled ``label`` is the draft's next option: a letter before the
    answer line; a number only as the first option (1) or the next of numbered options."""
    if draft.mode not in ("prompt", "options"):
        return False
    if not label.isdigit():
        return True
    if draft.mode == "prompt":
        return label == "1"
    return draft.numeric and int(label) == len(draft.options) + 1


def is_answer_line(line: str) -> bool:
    """Whether ``line`` (stripped) is an answer line (``Answer: B``, ``Ответ - б``)."""
    return _ANSWER.match(line) is not None


def txt_kind(text: str) -> str:
    """The format of a ``.txt`` file: ``numbered`` (this module's form) when it has an answer
    line Aiken does not write (``Answer: B``, ``Ответ: Б``), or Aiken's ``ANSWER:`` lines
    under numbered questions; ``aiken`` when its answer lines are all ``ANSWER:``; else
    ``gift`` when it has a ``{``, else ``numbered``. At most :data:`MAX_LINES` lines are
    looked at."""
    aiken = numbered = counted_questions = False
    for line in text.splitlines()[:MAX_LINES]:
        line = line.strip()
        if _ANSWER.match(line):
            if line.startswith("ANSWER:"):
                aiken = True
            else:
                numbered = True
        elif _QUESTION.match(line):
            counted_questions = True
    if numbered or (aiken and counted_questions):
        return "numbered"
    if aiken:
        return "aiken"
    return "gift" if "{" in text else "numbered"


def _question(parsed: Parsed, draft: _Draft) -> None:
    number = counted(parsed)
    shown = draft.written if draft.written is not None else number
    name = f"question {shown}"
    prompt = " ".join(draft.prompt)
    explanation = " ".join(draft.explanation) if draft.explanation else None

    def left_out(line: int, problem: str, key: str, **values: str) -> None:
        parsed.notes.append(
            Note(
                line,
                f"{name}, {problem}",
                question=shown,
                key=f"documents.problem.{key}",
                values=tuple((name, _cut(value)) for name, value in values.items()),
            )
        )

    if draft.answer is None:
        left_out(
            draft.line,
            "answer: no answer line after "
            + ("its options (Answer: B)" if draft.options else "it (Answer: B, or True/False)"),
            "no_answer",
        )
        return
    answer_line, answer = draft.answer
    if not draft.options:
        truth = _truth(answer)
        if truth is None:
            left_out(
                answer_line,
                f"answer: {answer!r} is not True or False, and the question has no options",
                "not_true_false",
                answer=answer,
            )
            return
        parsed.questions.append(
            Imported(draft.line, number, None, prompt, (), explanation, answer=truth)
        )
        return
    keys = [key for _, key, _ in draft.options]
    repeated = sorted(key for key, count in Counter(keys).items() if count > 1)
    if repeated:
        left_out(
            draft.options[0][0],
            f"options: label {', '.join(repeated)} used twice",
            "label_twice",
            label=repeated[0],
        )
        return
    problem = option_count_problem(len(keys))
    if problem:
        left_out(draft.options[0][0], f"options: {problem}", "option_count")
        return
    texts = [" ".join(parts) for _, _, parts in draft.options]
    right = _right(answer, keys, texts)
    if right is None:
        left_out(
            answer_line,
            f"answer: {answer!r} names no option (options: {', '.join(keys)})",
            "no_option_named",
            answer=answer,
        )
        return
    if len(right) == len(keys):
        left_out(
            answer_line, "answer: every option is right; at least one must be wrong", "all_right"
        )
        return
    truth = true_false(texts, sorted(right))
    if truth is not None:
        parsed.questions.append(
            Imported(draft.line, number, None, prompt, (), explanation, answer=truth)
        )
        return
    options = tuple((text, index in right) for index, text in enumerate(texts))
    parsed.questions.append(Imported(draft.line, number, None, prompt, options, explanation))


def _cut(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters for a message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _stray(line: int, message: str) -> Note:
    """A line that belongs to no question."""
    return Note(line, message, skipped=False, key="documents.problem.stray")


def _folded(text: str) -> str:
    return unicodedata.normalize("NFC", text.strip().rstrip(".!").casefold())


def _truth(answer: str) -> bool | None:
    word = _folded(answer)
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    return None


def _right(answer: str, keys: list[str], texts: list[str]) -> set[int] | None:
    """The indexes of the options ``answer`` names: labels (``B``, ``A, C``, ``(b)``,
    ``A and C``), one label and its option's text (``B) Paris``) or an option's text; None
    when it names none."""
    tokens = [
        token.strip("().]")
        for token in re.split(r"[\s,;/&]+", answer.strip().rstrip("."))
        if token and token.casefold() not in _AND
    ]
    found = [_index(token, keys) for token in tokens]
    if tokens and all(index is not None for index in found):
        return {index for index in found if index is not None}
    option = _OPTION.match(answer.strip())
    if option:
        index = _index(option[1] or option[2], keys)
        if index is not None and _folded(option[3]) == _folded(texts[index]):
            return {index}
    folded = [_folded(text) for text in texts]
    if folded.count(_folded(answer)) == 1:
        return {folded.index(_folded(answer))}
    return None


def _index(token: str, keys: list[str]) -> int | None:
    """The index of the option labelled ``token`` (or a letter that looks like it)."""
    if not token:
        return None
    key = _key(token)
    if key in keys:
        return keys.index(key)
    shape = key.translate(_LOOKALIKE)
    alike = [i for i, label in enumerate(keys) if label.translate(_LOOKALIKE) == shape]
    return alike[0] if len(alike) == 1 else None
