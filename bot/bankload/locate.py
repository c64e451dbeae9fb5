"""Where a YAML syntax error is, in words an author understands: the place, a hint for the
usual slips, and the question and field guessed from the layout of the text (there is no parsed
tree to ask)."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

import yaml

from bot.bankload.problems import BankProblem

MAX_REASON = 150
"""Longest YAML parser message quoted in a problem, in characters (it may quote the file)."""

_YAML_HINTS = (
    (
        "mapping values are not allowed here",
        "check the indentation of this line or the one before; a value containing ': ' must be "
        "quoted",
    ),
    (
        "could not find expected ':'",
        "put ': ' after the key on this line, or quote a value that goes on over several lines",
    ),
    (
        "cannot start any token",
        "indent with spaces, not tabs, and quote a value that starts with a character such as "
        "@, ` or %",
    ),
    (
        "expected <block end>",
        "check the indentation of this line: it must line up with the keys it belongs with",
    ),
    ("found duplicate key", "remove one of the two, or rename it"),
    ("end of stream", "close the quote or bracket opened here"),
)
"""Plain-words hints for the usual YAML slips, keyed by a phrase of PyYAML's message."""


def yaml_problem(
    exc: yaml.YAMLError, document: str, file: str, keys: Collection[str] = ()
) -> BankProblem:
    """Report a YAML syntax error where the slip is, with a hint and the field it is in.

    PyYAML's problem mark is where the parser gave up. For an unclosed quote or bracket that is
    the end of the file, and for a key without ``:`` it is the next line; there the context mark
    (where the quote, bracket or key starts) is the place to look.

    Args:
        keys: The field names of the bank format (the schema's); a key that lost its colon is
            known by them (see :func:`locate`).
    """
    problem_mark = getattr(exc, "problem_mark", None)
    context_mark = getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    at_context = "end of stream" in problem or "could not find expected ':'" in problem
    mark = context_mark if context_mark is not None and at_context else problem_mark or context_mark
    reason = " ".join(filter(None, (context, problem)))
    if len(reason) > MAX_REASON:
        reason = reason[:MAX_REASON] + "…"
    hint = next((hint for phrase, hint in _YAML_HINTS if phrase in problem), None)
    if (
        hint is None
        and context_mark is not None
        and mark is not context_mark
        and context
        and ("flow" in context)
    ):
        hint = (
            f"close the bracket opened at line {context_mark.line + 1}, column "
            f"{context_mark.column + 1}, or quote a value containing ',', ':' or brackets"
        )
    message = f"bad YAML: {reason}" + (f"; {hint}" if hint else "")
    if mark is None:
        return BankProblem(file, None, None, "(file)", message, key="problem.yaml")
    keyless = "could not find expected ':'" in problem
    question_id, field_path, stray = _locate(document, mark.line + 1, keys if keyless else None)
    if stray:
        message += (
            f'; this line is in a list item ("- ") inside {field_path}, where no list'
            " belongs: line it up with the items or keys it belongs with"
        )
    return BankProblem(
        file, mark.line + 1, question_id, field_path, message, mark.column + 1, key="problem.yaml"
    )


_KEY = re.compile(r"""(?:"([^"]*)"|'([^']*)'|([\w-]+))\s*:(?:\s|$)""")


def locate(document: str, line: int, keys: Collection[str] | None = None) -> tuple[str | None, str]:
    """Guess the question id and the field of ``line`` (1-based) from the text's layout alone.

    For YAML syntax errors, when there is no parsed tree: walking up from ``line``, each line
    less indented than the last one kept is a parent (``key:`` or a ``-`` list item). A
    question's id is read from its ``id:`` line. Block style as in ``banks/README.md``;
    anything else gives ``(file)``.

    Args:
        keys: Given when ``line`` holds a key that lost its ``:`` (PyYAML's "could not find
            expected ':'"): the format's field names. The line's first word is then its field
            if it is one of them or a key elsewhere in the file (``kind true-false`` is in
            ``kind``); other words are a value's, placed in the field above them.

    Returns:
        (question id or None, field path such as ``option 2.text.hi``, or ``(file)``). A line
        inside a list item where the format has no list (a mis-indented ``- text:`` under an
        option) is placed in the field that holds the stray item (``option 2``).
    """
    question_id, field_path, _ = _locate(document, line, keys)
    return question_id, field_path


_LISTS = {None: ("questions", "languages"), "question": ("options",)}
"""The keys that hold a list in the bank format, at the top level and in a question."""


def _locate(document: str, line: int, keys: Collection[str] | None) -> tuple[str | None, str, bool]:
    """:func:`locate`, and whether the line is in a list item where no list belongs."""
    lines = [text.expandtabs(8) for text in document.splitlines()]
    lost = _lost_key(lines, line, keys) if keys is not None else None
    path: list[str | tuple[int, int, int]] = []  # keys, and (index, line, indent) of list items
    limit: int | None = None
    in_item = False  # the last parent kept is a list item, whose key may be as indented as it
    for j in range(min(line, len(lines)) - 1, -1, -1):
        stripped = lines[j].strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(lines[j]) - len(lines[j].lstrip(" "))
        item = stripped == "-" or stripped.startswith("- ")
        if limit is not None and (indent > limit or (indent == limit and (item or not in_item))):
            continue
        rest = stripped[1:].lstrip() if item else stripped
        key = _KEY.match(rest)
        inner = indent + len(stripped) - len(rest)  # where the key starts
        if limit is None and key is None and (lost or re.fullmatch(r"[\w-]+", rest)):
            path.insert(0, lost or rest)  # the line of the error is a key without its ':'
        elif key and (
            limit is None or (_opens_block(rest, key) and (inner < limit or (in_item and not item)))
        ):
            path.insert(0, next(filter(None, key.groups())))
        elif not item:
            continue  # a value going on over several lines, or a key that holds no block
        if item:
            path.insert(0, (_item_index(lines, j, indent), j, indent))
        limit, in_item = indent, item
        if indent == 0 and not item:
            break
    question_id = None
    if len(path) >= 2 and path[0] == "questions" and isinstance(path[1], tuple):
        _, item_line, item_indent = path[1]
        question_id = _question_id_at(lines, item_line, item_indent) or f"#{path[1][0] + 1}"
        path = path[2:]
    parts: list[str] = []
    lists = _LISTS["question" if question_id is not None else None]
    for step, before in zip(path, [None, *path], strict=False):
        if isinstance(step, tuple):
            if before == "options" and question_id is not None:
                parts[-1] = f"option {step[0] + 1}"
            elif before in lists and len(parts) == 1:
                parts[-1] = f"{parts[-1]}, item {step[0] + 1}"
            else:  # a list item where the format has none: the field that holds it
                return question_id, ".".join(parts) or "(file)", bool(parts)
        else:
            parts.append(step)
    return question_id, ".".join(parts) or "(file)", False


def _lost_key(lines: Sequence[str], line: int, keys: Collection[str]) -> str | None:
    """The first word of ``line`` (1-based) if it is a key that lost its ``:``: one of ``keys``
    or a key on another line of the file."""
    if not 0 < line <= len(lines):
        return None
    word = re.match(r"(?:-\s+)?([\w-]+)(?:\s|$)", lines[line - 1].strip())
    if word is None:
        return None
    if word[1] in keys:
        return word[1]
    written = (
        _KEY.match(text.strip().removeprefix("- ").lstrip())
        for j, text in enumerate(lines)
        if j != line - 1
    )
    return word[1] if any(key and word[1] in key.groups() for key in written) else None


def _opens_block(text: str, key: re.Match[str]) -> bool:
    """Whether the ``key:`` at the start of ``text`` holds an indented block (no value on its
    line, or a ``|``/``>`` block scalar)."""
    value = text[key.end() :].strip()
    return not value or value.startswith(("#", "|", ">"))


def _item_index(lines: Sequence[str], item: int, indent: int) -> int:
    """0-based index of the list item starting on line ``item`` (0-based) among its siblings."""
    index = 0
    for j in range(item - 1, -1, -1):
        stripped = lines[j].strip()
        if not stripped or stripped.startswith("#"):
            continue
        here = len(lines[j]) - len(lines[j].lstrip(" "))
        if here < indent or (here == indent and not stripped.startswith("-")):
            break
        if here == indent:
            index += 1
    return index


def _question_id_at(lines: Sequence[str], item: int, indent: int) -> str | None:
    """The ``id:`` of the question whose list item starts on line ``item`` (0-based)."""
    for j in range(item, len(lines)):
        stripped = lines[j].strip()
        here = len(lines[j]) - len(lines[j].lstrip(" "))
        if j > item and stripped and not stripped.startswith("#") and here <= indent:
            break
        found = re.match(r"""(?:-\s+)?id\s*:\s*["']?([a-z0-9-]+)["']?\s*(?:#.*)?$""", stripped)
        if found:
            return found[1]
    return None
