"""Moodle GIFT files to :class:`~bot.features.importing.imported.Parsed` questions
(``qformat_gift``'s reading; the formats' overview is :mod:`bot.features.importing.rules`).

The bank's three kinds come through: multiple choice with one right answer (``=``, or one
full-credit ``%100%`` weight), several right answers (no ``=``; the answers with a positive
``%`` weight are right, and those weights add up to 100%, as Moodle's multiple-answer
questions do), and true/false (``{T}``, ``{TRUE}``, ``{F}``, ``{FALSE}``, optionally with
``#feedback for a wrong answer#feedback for a right answer``, as ``split_truefalse_comment``
reads them).
"""

from __future__ import annotations

import bisect
import html
import re

from bot.features.importing.imported import (
    NOT_A_BANK_KIND,
    Imported,
    Note,
    Parsed,
    counted,
    option_count_problem,
    short,
)

_GIFT_ESCAPES = {
    ":": "\ue000",
    "#": "\ue001",
    "=": "\ue002",
    "{": "\ue003",
    "}": "\ue004",
    "~": "\ue005",
    "n": "\ue006",
}
"""GIFT's escaped characters (``\\:`` ...) -> private-use placeholders while parsing, as Moodle
does with its ``&&058;`` placeholders; ``\\n`` becomes a line break."""
_BACKSLASH = "\ue007"
_GIFT_FORMATS = ("html", "moodle", "plain", "markdown")
_WEIGHT = re.compile(r"^%(-?[0-9]+(?:\.[0-9]*)?)%")
_FULL_CREDIT = 100.0
_SUM_TOLERANCE = 1.0
"""How far from 100 the positive weights of a several-right question may add up (three
right answers of ``%33.333%`` make 99.999)."""
_TRUE_FALSE = {"T": True, "TRUE": True, "F": False, "FALSE": False}


def _gift_escape(line: str) -> str:
    """Replace GIFT escapes by placeholders (``\\\\`` stands for one backslash)."""
    line = line.replace("\\\\", _BACKSLASH)
    for char, placeholder in _GIFT_ESCAPES.items():
        line = line.replace("\\" + char, placeholder)
    return line.replace(_BACKSLASH, "\\")


_TAG_START = re.compile(r"<[a-zA-Z/!?]")
"""Where markup starts (HTML's tag open state: a letter, ``/``, ``!`` or ``?`` after ``<``;
any other ``<`` is text)."""
_TAG_NAME = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)")
_BREAKING_TAGS = frozenset({"br", "p", "div", "li"})
"""Tags whose place becomes a space in the text (a line or a block)."""


def _html_text(fragment: str) -> str:
    """The text of an HTML fragment (GIFT's ``[html]`` format): tags, comments and declarations
    dropped (a ``br``, ``p``, ``div`` or ``li`` tag becomes a space), character references
    decoded. One pass, in time linear in the fragment: ``html.parser`` takes quadratic time on
    a run of unclosed tags (``<a <a <a``...) and raises on some (``<![``). A ``<`` that no
    ``>`` follows is text; an unclosed comment runs to the end."""
    parts: list[str] = []
    position = 0
    while (start := _TAG_START.search(fragment, position)) is not None:
        opened = start.start()
        parts.append(fragment[position:opened])
        if fragment.startswith("<!--", opened):
            closed = fragment.find("-->", opened + 4)
            if closed < 0:
                return html.unescape("".join(parts))
            position = closed + 3
            continue
        closed = fragment.find(">", opened)
        if closed < 0:
            position = opened
            break  # no markup after all: the rest is text
        name = _TAG_NAME.match(fragment, opened)
        if name is not None and name[1].lower() in _BREAKING_TAGS:
            parts.append(" ")
        position = closed + 1
    parts.append(fragment[position:])
    return html.unescape("".join(parts))


def _split_format(text: str, default: str) -> tuple[str, str]:
    """A leading ``[format]`` marker: (format, text without it); ``default`` without one."""
    stripped = text.lstrip()
    if stripped.startswith("["):
        end = stripped.find("]")
        if end > 0 and stripped[1:end] in _GIFT_FORMATS:
            return stripped[1:end], stripped[end + 1 :]
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
    """Convert the multiple-choice, several-right and true/false questions of a GIFT file.

    Blocks are separated by blank lines and read as Moodle's ``qformat_gift`` reads them (see
    the module docstring); ``$CATEGORY:`` lines are ignored. The explanation is the general
    feedback (``####``), else the (first) right answer's feedback (for true/false: its first
    feedback, the one for a wrong answer, else the one for a right answer); other feedback
    is noted as dropped (a bank question has one explanation). Beside one full-credit answer,
    a partial credit (``~%50%text``) counts as wrong, and is noted; weights that make no
    question with right and wrong answers (positive weights not adding up to 100%) are
    reported with the line.
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


def _gift_question(parsed: Parsed, block: list[tuple[int, str]]) -> None:  # noqa: C901 - GIFT's question forms, one branch each
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
    number = counted(parsed)
    name = None
    body_start = 0
    if joined.lstrip().startswith("::"):
        opening = joined.index("::")
        closing = joined.find("::", opening + 2)
        if closing >= 0:
            name = _gift_plain(joined[opening + 2 : closing], "plain")
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
        skip(
            "unbalanced braces: the answers go between '{' and '}' (write \\{ and \\} "
            "for braces in the text)"
        )
        return
    answers = body[answers_open + 1 : answers_close]
    answers_at = body_start + answers_open + 1
    after = body[answers_close + 1 :]
    prompt_raw = body[:answers_open] + ("_____" + after if after.strip() else "")
    general = None
    separator = answers.rfind("####")
    if separator >= 0:
        general = answers[separator + 4 :]
        answers = answers[:separator]
    text_format, prompt_raw = _split_format(prompt_raw, "moodle")
    prompt = _gift_plain(prompt_raw, text_format)
    kind = _gift_kind(answers.strip())
    if kind not in ("multiple choice", "true/false"):
        skip(f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} question: {NOT_A_BANK_KIND}")
        return
    if not prompt:
        skip("the question has no text")
        return
    if kind == "true/false":
        _gift_true_false(parsed, first, number, name, prompt, answers, general, text_format)
        return

    options: list[tuple[str, bool]] = []
    feedback: list[tuple[int, str, bool, int]] = []  # (option index, text, correct, line)
    weights: list[tuple[int, float, int]] = []  # (option index, positive weight, line)
    notes: list[Note] = []
    for position, marker, content in _gift_answers(answers):
        where = line_at(answers_at + position)
        content = content.strip()
        correct = marker == "="
        weight = _WEIGHT.match(content)
        if weight:
            content = content[weight.end() :]
            credit = float(weight[1])
            if credit >= _FULL_CREDIT:  # full credit: a right answer
                correct = True
            elif credit > 0 and not correct:
                weights.append((len(options), credit, where))
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
    if right == 1:  # one right answer: a partial credit beside it counts as wrong
        notes.extend(
            Note(
                where,
                f"partial credit ({credit:g}%) dropped: the option counts as wrong",
                skipped=False,
            )
            for _, credit, where in weights
        )
    elif right > 1:
        skip(
            f"{right} answers have full credit: in Moodle each one alone is right (for several "
            "right answers, give each a % weight adding up to 100%, ~%50%)"
        )
        return
    else:
        total = sum(credit for _, credit, _ in weights)
        if not weights:
            skip("no right answer: no answer starts with '=' or has a positive % weight")
            return
        if len(weights) == 1 or abs(total - _FULL_CREDIT) > _SUM_TOLERANCE:
            parsed.notes.append(
                Note(
                    weights[0][2],
                    f"the positive % weights add up to {total:g}%: for several right answers "
                    "they add up to 100%, one weight for each right answer",
                )
            )
            return
        right_options = {index for index, _, _ in weights}
        options = [(text, i in right_options) for i, (text, _) in enumerate(options)]
        feedback = [(i, said, i in right_options, where) for i, said, _, where in feedback]
    if all(correct for _, correct in options):
        skip("every answer is right: at least one must be wrong")
        return
    problem = option_count_problem(len(options))
    if problem:
        skip(problem)
        return
    explanation = _gift_plain(general, text_format) if general and general.strip() else None
    for index, said, correct, where in feedback:
        if correct and explanation is None:
            explanation = said
            continue
        notes.append(
            Note(
                where,
                f"feedback of answer {index + 1} ({short(said)}) dropped: a "
                "bank question has one explanation",
                skipped=False,
            )
        )
    parsed.notes.extend(notes)
    parsed.questions.append(Imported(first, number, name, prompt, tuple(options), explanation))


def _gift_true_false(
    parsed: Parsed,
    first: int,
    number: int,
    name: str | None,
    prompt: str,
    answers: str,
    general: str | None,
    text_format: str,
) -> None:
    """A true/false question (``{T}``, ``{FALSE#wrong feedback#right feedback}``): the bank's
    ``kind: true-false``, its True and False shown in the player's language."""
    head, _, comment = answers.strip().partition("#")
    wrong_said, _, right_said = comment.partition("#")
    said = [
        text
        for text in (
            _gift_plain(general, text_format) if general else "",
            _gift_plain(wrong_said, text_format),
            _gift_plain(right_said, text_format),
        )
        if text
    ]
    for dropped in said[1:]:
        parsed.notes.append(
            Note(
                first,
                f"feedback {short(dropped)} dropped: a bank question has one explanation",
                skipped=False,
            )
        )
    parsed.questions.append(
        Imported(
            first,
            number,
            name,
            prompt,
            (),
            said[0] if said else None,
            answer=_TRUE_FALSE[head.strip()],
        )
    )


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
    if answers[: marks[0]].strip():
        found.append((0, "~", answers[: marks[0]]))
    for i, start in enumerate(marks):
        end = marks[i + 1] if i + 1 < len(marks) else len(answers)
        found.append((start + 1, answers[start], answers[start + 1 : end]))
    return found
