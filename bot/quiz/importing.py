"""Converters from other quiz formats to banks: Moodle GIFT, Aiken, and a CSV layout.

Pure: each parser takes the file's text and returns the multiple-choice questions it could
convert and a :class:`Note` for everything it could not (with the line), and
:func:`bank_data` turns them into a bank mapping (one language) ready to be written as YAML and
checked by the loader. Reading and writing files is the CLI's (``quizbot import``).

Formats (``banks/README.md`` has the details and the CSV layout):

- GIFT, as Moodle's ``qformat_gift`` reads it: questions separated by blank lines; ``//``
  comment lines; ``::title::``; ``{=right ~wrong}`` answers (also in the middle of the text,
  shown as ``_____``); ``#`` feedback per answer, ``####`` general feedback; ``[html]``,
  ``[moodle]``, ``[plain]``, ``[markdown]`` text formats; ``\\~ \\= \\# \\{ \\} \\:`` escapes,
  ``\\n`` a line break. Other question types (true/false, short answer, matching, numerical,
  essay, descriptions, several right answers) are reported, not converted.
- Aiken: the question, then options ``A. text`` or ``A) text``, then ``ANSWER: X``.
- CSV: a header row, then one row per question (columns ``id``, ``prompt``, ``A`` to ``J``,
  ``correct``, ``explanation``, ``source_title``, ``source_url``).
"""

from __future__ import annotations

import bisect
import csv
import io
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from bot.quiz.bank import ID_PATTERN, MAX_OPTIONS, MIN_OPTIONS

EXPLANATION_PLACEHOLDER = "TODO: explain why the correct option is right."
"""Written where the source gives no explanation (Aiken never does): the loader accepts it, so
the bank can be tried at once, and a search for "TODO" finds what is left to write."""

SOURCE_PLACEHOLDER = ("TODO: the source of the explanation", "https://example.org/TODO")
"""Title and URL written where neither the file nor the command gives a source."""


@dataclass(frozen=True)
class Imported:
    """One converted multiple-choice question, in plain text.

    Attributes:
        line: 1-based line where it starts in the source file.
        number: 1-based position among the file's questions (converted or not): the default
            id is ``q<number>``, stable when a question before it is fixed and imported again.
        name: Its name in the file (GIFT ``::title::``, the CSV ``id``), if any.
        prompt: The question.
        options: (text, correct) per option, in the file's order; exactly one correct.
        explanation: Why the correct option is right, if the file says.
        source: (title, URL) of the explanation's source, if the file gives one.
    """

    line: int
    number: int
    name: str | None
    prompt: str
    options: tuple[tuple[str, bool], ...]
    explanation: str | None = None
    source: tuple[str, str] | None = None


@dataclass(frozen=True)
class Note:
    """Something the converter could not carry over.

    Attributes:
        line: 1-based line in the source file, or None for the whole file.
        message: What and why.
        skipped: True when a whole question was left out; False when only a part was (a
            feedback text, a partial credit) or a placeholder was written.
    """

    line: int | None
    message: str
    skipped: bool = True


@dataclass
class Parsed:
    """What a parser found: the questions it converted and its notes, in file order."""

    questions: list[Imported] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    found: int = 0
    """Questions found in the file (converted or not)."""


def _counted(parsed: Parsed) -> int:
    parsed.found += 1
    return parsed.found


NOT_MULTIPLE_CHOICE = "quizbot asks multiple-choice questions with exactly one correct option"


def _option_count_problem(count: int) -> str | None:
    if MIN_OPTIONS <= count <= MAX_OPTIONS:
        return None
    return f"{count} options: a bank question has {MIN_OPTIONS} to {MAX_OPTIONS}"


# --- GIFT ----------------------------------------------------------------------------------

_GIFT_ESCAPES = {":": "\ue000", "#": "\ue001", "=": "\ue002", "{": "\ue003", "}": "\ue004",
                 "~": "\ue005", "n": "\ue006"}
"""GIFT's escaped characters (``\\:`` ...) -> private-use placeholders while parsing, as Moodle
does with its ``&&058;`` placeholders; ``\\n`` becomes a line break."""
_BACKSLASH = "\ue007"
_GIFT_FORMATS = ("html", "moodle", "plain", "markdown")
_WEIGHT = re.compile(r"^%(-?[0-9]+(?:\.[0-9]*)?)%")


def _gift_escape(line: str) -> str:
    """Replace GIFT escapes by placeholders (``\\\\`` stands for one backslash)."""
    line = line.replace("\\\\", _BACKSLASH)
    for char, placeholder in _GIFT_ESCAPES.items():
        line = line.replace("\\" + char, placeholder)
    return line.replace(_BACKSLASH, "\\")


class _TextOf(HTMLParser):
    """The text of an HTML fragment (for GIFT's ``[html]`` format)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "p", "div", "li"):
            self.parts.append(" ")


def _html_text(fragment: str) -> str:
    parser = _TextOf()
    parser.feed(fragment)
    parser.close()
    return "".join(parser.parts)


def _split_format(text: str, default: str) -> tuple[str, str]:
    """A leading ``[format]`` marker: (format, text without it); ``default`` without one."""
    stripped = text.lstrip()
    if stripped.startswith("["):
        end = stripped.find("]")
        if end > 0 and stripped[1:end] in _GIFT_FORMATS:
            return stripped[1:end], stripped[end + 1:]
    return default, text


def _gift_plain(text: str, text_format: str) -> str:
    """GIFT text as bank text: placeholders back to their characters, HTML (``[html]``) to
    text, runs of spaces and the file's line breaks to one space; ``\\n`` stays a line break."""
    if text_format == "html":
        text = _html_text(text)
    text = "\n".join(" ".join(part.split()) for part in text.split(_GIFT_ESCAPES["n"]))
    for char, placeholder in _GIFT_ESCAPES.items():
        text = text.replace(placeholder, char)
    return text.strip()


def parse_gift(text: str) -> Parsed:
    """Convert the multiple-choice questions of a GIFT file.

    Blocks are separated by blank lines and read as Moodle's ``qformat_gift`` reads them (see
    the module docstring); ``$CATEGORY:`` lines are ignored. The explanation is the general
    feedback (``####``), else the correct answer's feedback; other feedback is noted as
    dropped (a bank question has one explanation). A partial credit (``~%50%text``) counts as
    wrong, and is noted.
    """
    parsed = Parsed()
    block: list[tuple[int, str]] = []
    for number, line in enumerate([*text.splitlines(), ""], start=1):
        if line.strip():
            if not line.strip().startswith("//"):
                block.append((number, _gift_escape(line)))
            continue
        if block:
            _gift_question(parsed, block)
            block = []
    return parsed


def _gift_question(parsed: Parsed, block: list[tuple[int, str]]) -> None:
    first = block[0][0]
    joined = "\n".join(line for _, line in block)
    starts = []
    offset = 0
    for _, line in block:
        starts.append(offset)
        offset += len(line) + 1

    def line_at(position: int) -> int:
        return block[bisect.bisect_right(starts, position) - 1][0]

    if joined.strip().startswith("$CATEGORY:"):
        return
    number = _counted(parsed)
    name = None
    body_start = 0
    if joined.lstrip().startswith("::"):
        opening = joined.index("::")
        closing = joined.find("::", opening + 2)
        if closing >= 0:
            name = _gift_plain(joined[opening + 2:closing], "plain")
            body_start = closing + 2
        else:
            body_start = opening + 2
    body = joined[body_start:]
    answers_open, answers_close = body.find("{"), body.find("}")

    def skip(message: str, position: int | None = None) -> None:
        parsed.notes.append(Note(first if position is None else line_at(position), message))

    if answers_open < 0 and answers_close < 0:
        skip("a description (no answers in braces), not a question")
        return
    if answers_open < 0 or answers_close < answers_open:
        skip("unbalanced braces: the answers go between '{' and '}' (write \\{ and \\} "
             "for braces in the text)")
        return
    answers = body[answers_open + 1:answers_close]
    answers_at = body_start + answers_open + 1
    after = body[answers_close + 1:]
    prompt_raw = body[:answers_open] + ("_____" + after if after.strip() else "")
    general = None
    separator = answers.rfind("####")
    if separator >= 0:
        general = answers[separator + 4:]
        answers = answers[:separator]
    text_format, prompt_raw = _split_format(prompt_raw, "moodle")
    prompt = _gift_plain(prompt_raw, text_format)
    kind = _gift_kind(answers.strip())
    if kind != "multiple choice":
        skip(f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} question: {NOT_MULTIPLE_CHOICE}")
        return
    if not prompt:
        skip("the question has no text")
        return

    options: list[tuple[str, bool]] = []
    feedback: list[tuple[int, str, bool, int]] = []  # (option index, text, correct, line)
    notes: list[Note] = []
    for position, marker, content in _gift_answers(answers):
        where = line_at(answers_at + position)
        content = content.strip()
        correct = marker == "="
        weight = _WEIGHT.match(content)
        if weight:
            content = content[weight.end():]
            credit = float(weight[1])
            if credit >= 100:  # full credit: the right answer
                correct = True
            elif credit > 0 and not correct:
                notes.append(Note(where, f"partial credit ({weight[1]}%) dropped: the option "
                                         "counts as wrong", skipped=False))
        text, _, said = content.partition("#")
        option_format, text = _split_format(text, text_format)
        option = _gift_plain(text, option_format)
        if not option:
            skip("an empty answer", answers_at + position)
            return
        if said.strip():
            feedback.append((len(options), _gift_plain(said, text_format), correct, where))
        options.append((option, correct))

    right = sum(correct for _, correct in options)
    if right != 1:
        skip(f"{right} correct answers: {NOT_MULTIPLE_CHOICE}" if right
             else "no answer starts with '=' (several right answers with % weights, or "
                  f"none): {NOT_MULTIPLE_CHOICE}")
        return
    problem = _option_count_problem(len(options))
    if problem:
        skip(problem)
        return
    explanation = _gift_plain(general, text_format) if general and general.strip() else None
    for index, said, correct, where in feedback:
        if correct and explanation is None:
            explanation = said
            continue
        notes.append(Note(where, f"feedback of answer {index + 1} ({_short(said)}) dropped: a "
                                 "bank question has one explanation, for its correct option",
                          skipped=False))
    parsed.notes.extend(notes)
    parsed.questions.append(Imported(first, number, name, prompt, tuple(options), explanation))


def _gift_kind(answers: str) -> str:
    """The question type of a GIFT answer section, decided as Moodle decides it."""
    if not answers:
        return "essay"
    if answers.startswith("#"):
        return "numerical"
    if "~" in answers:
        return "multiple choice"
    if "=" in answers and "->" in answers:
        return "matching"
    head = answers.split("#", 1)[0].strip() if answers.find("#") > 0 else answers
    if head in ("T", "TRUE", "F", "FALSE"):
        return "true/false"
    return "short answer"


def _gift_answers(answers: str) -> list[tuple[int, str, str]]:
    """Split a multiple-choice answer section at each ``~`` and ``=``: (offset of the
    content, marker, content); text before the first marker is an answer of its own (marker
    ``~``), as in Moodle."""
    marks = [i for i, char in enumerate(answers) if char in "~="]
    found = []
    if answers[:marks[0]].strip():
        found.append((0, "~", answers[:marks[0]]))
    for i, start in enumerate(marks):
        end = marks[i + 1] if i + 1 < len(marks) else len(answers)
        found.append((start + 1, answers[start], answers[start + 1:end]))
    return found


def _short(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[:limit - 1] + "…")


# --- Aiken ---------------------------------------------------------------------------------

_AIKEN_OPTION = re.compile(r"^([A-Z])[.)][ \t]+(.*)$")
_AIKEN_ANSWER = re.compile(r"^ANSWER:(.*)$")


def parse_aiken(text: str) -> Parsed:
    """Convert an Aiken file: a question (one line, or several before the first option),
    options ``A. text`` or ``A) text`` (a letter, a period or bracket, a space), then
    ``ANSWER: X``. Blank lines are ignored, as Moodle ignores them. Aiken has no feedback:
    the explanation is left to write."""
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
                _aiken_question(parsed, start, " ".join(prompt), options, answer[1].strip(),
                                number)
            reset()
        elif option and prompt:
            options.append((number, option[1], option[2].strip()))
        elif option:
            parsed.notes.append(Note(number, "an option without a question before it"))
        else:
            if options:  # a new question while the last one still waits for its ANSWER:
                _counted(parsed)
                parsed.notes.append(Note(start, "no ANSWER: line after the options"))
                reset()
            if not prompt:
                start = number
            prompt.append(line)
    if prompt:
        _counted(parsed)
        parsed.notes.append(Note(start, "no ANSWER: line after the options"
                                 if options else "a question without options"))
    return parsed


def _aiken_question(parsed: Parsed, start: int, prompt: str,
                    options: list[tuple[int, str, str]], answer: str, answer_line: int) -> None:
    number = _counted(parsed)
    labels = [label for _, label, _ in options]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    letter = answer[:1].upper()
    problem: str | None
    if repeated:
        problem = f"option label {', '.join(repeated)} used twice"
    elif not letter or letter not in labels:
        problem = (f"ANSWER: {answer!r} (line {answer_line}) names no option "
                   f"(options: {', '.join(labels) or 'none'})")
    else:
        problem = _option_count_problem(len(options))
    if problem:
        parsed.notes.append(Note(start, problem))
        return
    parsed.questions.append(Imported(
        start, number, None, prompt,
        tuple((text, label == letter) for _, label, text in options)))


# --- CSV -----------------------------------------------------------------------------------

CSV_LABELS = tuple("ABCDEFGHIJ")[:MAX_OPTIONS]
CSV_COLUMNS = ("id", "prompt", *CSV_LABELS, "correct", "explanation", "source_title",
               "source_url")
CSV_REQUIRED = ("prompt", "A", "B", "correct")


def parse_csv(text: str) -> Parsed:
    """Convert a CSV file (RFC 4180, comma-separated, stdlib ``csv``) with a header row naming
    its columns (in any order; letters in either case): ``prompt``, option columns ``A`` to
    ``J`` (``A`` and ``B`` required; empty cells are no option), ``correct`` (the letter of the
    correct option), and optionally ``id``, ``explanation``, ``source_title``, ``source_url``.
    One row per question; a cell may span lines inside quotes."""
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
    names = [_csv_column(name) for name in header]
    unknown = [raw for raw, name in zip(header, names, strict=True) if name not in CSV_COLUMNS]
    missing = [name for name in CSV_REQUIRED if name not in names]
    twice = sorted({name for name in names if names.count(name) > 1})
    if unknown or missing or twice:
        problems = ([f"unknown column(s) {', '.join(map(repr, unknown))}"] if unknown else []) + (
            [f"missing column(s) {', '.join(missing)}"] if missing else []) + (
            [f"column(s) {', '.join(twice)} given twice"] if twice else [])
        parsed.notes.append(Note(1, "bad header row: " + "; ".join(problems)
                                 + f" (columns: {', '.join(CSV_COLUMNS)})"))
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
    number = _counted(parsed)

    def cell(name: str) -> str:
        return " ".join((row.get(name) or "").split())

    if extra:
        parsed.notes.append(Note(line, "more cells than columns"))
        return
    options = [(label, cell(label)) for label in CSV_LABELS if cell(label)]
    correct = cell("correct").upper()
    if not cell("prompt"):
        problem: str | None = "no prompt"
    elif correct not in [label for label, _ in options]:
        problem = (f"correct is {cell('correct')!r}: it must be the letter of a non-empty "
                   f"option ({', '.join(label for label, _ in options) or 'none'})")
    else:
        problem = _option_count_problem(len(options))
    if problem:
        parsed.notes.append(Note(line, problem))
        return
    title, url = cell("source_title"), cell("source_url")
    if bool(title) != bool(url):
        parsed.notes.append(Note(line, "a source needs both source_title and source_url"))
        return
    parsed.questions.append(Imported(
        line, number, cell("id") or None, cell("prompt"),
        tuple((text, label == correct) for label, text in options),
        cell("explanation") or None, (title, url) if url else None))


PARSERS = {"gift": parse_gift, "aiken": parse_aiken, "csv": parse_csv}
"""Format name (``quizbot import --format``) -> parser."""


# --- to a bank -----------------------------------------------------------------------------

def slug(text: str) -> str:
    """``text`` as an id: lower case a-z, 0-9 and single dashes, at most 32 characters
    (:data:`~bot.quiz.bank.ID_PATTERN`); empty when nothing is left."""
    value = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:32].rstrip("-")
    return value if ID_PATTERN.fullmatch(value) else ""


def bank_data(parsed: Parsed, *, language: str, bank_id: str, title: str, description: str,
              level: str = "medium", source: tuple[str, str] | None = None,
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
    questions = []
    unsourced = 0
    for question in parsed.questions:
        question_id = slug(question.name or "") or f"q{question.number}"
        base, copy = question_id, 2
        while question_id in lines:
            suffix = f"-{copy}"
            question_id = base[:32 - len(suffix)].rstrip("-") + suffix
            copy += 1
        lines[question_id] = question.line
        explanation = question.explanation
        if explanation is None:
            explanation = EXPLANATION_PLACEHOLDER
            parsed.notes.append(Note(question.line, "no explanation in the file: wrote a TODO "
                                                    "placeholder", skipped=False))
        cited = question.source or source
        if cited is None:
            cited = SOURCE_PLACEHOLDER
            unsourced += 1
        options: list[dict[str, object]] = []
        for text, correct in question.options:
            option: dict[str, object] = {"text": {language: text}}
            if correct:
                option["correct"] = True
            options.append(option)
        questions.append({
            "id": question_id,
            "prompt": {language: question.prompt},
            "options": options,
            "explanation": {language: explanation},
            "source": {"title": cited[0], "url": cited[1]},
        })
    if unsourced:
        parsed.notes.append(Note(None, f"{unsourced} question(s) without a source: wrote a TODO "
                                       "placeholder (--source-title and --source-url set one "
                                       "for all)", skipped=False))
    data: dict[str, object] = {
        "id": bank_id, "version": 1, "default_language": language, "languages": [language],
        "level": level, "title": {language: title}, "description": {language: description},
        "questions": questions,
    }
    return data, lines

