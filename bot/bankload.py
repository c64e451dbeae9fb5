"""Bank files: read and validate the YAML of a question bank into a :class:`bot.quiz.bank.Bank`.

An adapter outside the pure core (it reads files and parses YAML). The schema is documented in
``banks/README.md``. :func:`load_bank` checks a file completely and raises one
:class:`BankError` listing every problem, each naming the file, the line and column, the
question id and the field (options counted from 1, as ``option 2``), with a hint in plain words
for the usual YAML slips (an unquoted ``no`` or ``1:30``, a value containing ``: ``, a
mis-indented line). A YAML syntax error is located from the layout of the text around it
(:func:`_locate`).
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from bot.quiz.bank import (
    CONTROL_CHARACTERS,
    ID_PATTERN,
    LANGUAGE_PATTERN,
    LEVELS,
    MAX_GUIDE_LABEL,
    MAX_OPTIONS,
    MAX_QUESTION_UTF16,
    MAX_QUESTIONS,
    MIN_OPTIONS,
    Bank,
    Guide,
    Option,
    Question,
    Source,
    Text,
)

MAX_BANK_BYTES = 1024 * 1024
"""Largest bank file, in bytes (1 MiB): a full bank of 100 questions in a few languages is a
tenth of that, and ``quizbot validate`` runs on contributed files."""
MAX_YAML_NODES = 100_000
"""Most YAML nodes a bank file may hold, counting each alias (``*name``) as the whole subtree it
repeats: a few hundred bytes of nested aliases expand to millions of values (the "billion
laughs" attack), and every check below walks the expanded tree. A full bank of 100 questions in
ten languages has about 20,000."""


@dataclass(frozen=True)
class BankProblem:
    """One problem found in a bank file.

    Attributes:
        file: The file's path as given.
        line: 1-based line number, or None where the problem has no place in the file.
        question_id: The question's id (or ``#N`` when it has none), None for bank-level fields.
        field: Dotted path of the field, options counted from 1, e.g. ``option 2.text.hi``.
        message: What is wrong, with a hint where the usual fix is known.
        column: 1-based column, or None where the problem has no place in the file.
    """

    file: str
    line: int | None
    question_id: str | None
    field: str
    message: str
    column: int | None = None

    def __str__(self) -> str:
        return f"{_where(self.file, self.line, self.column)}:{_question(self.question_id)} " \
               f"field {self.field!r}: {self.message}"


def _where(file: str, line: int | None, column: int | None) -> str:
    """``file:line:column``, as compilers and editors write a place in a file."""
    if not line:
        return file
    return f"{file}:{line}:{column}" if column else f"{file}:{line}"


def _question(question_id: str | None) -> str:
    return f" question {question_id!r}," if question_id else ""


class BankError(Exception):
    """A bank file is invalid. ``problems`` lists every problem found (at least one)."""

    def __init__(self, problems: Sequence[BankProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


Pos = tuple[int, int]
"""A place in a file: (line, column), both 1-based."""


class _Node(dict[str, Any]):
    """A YAML mapping that remembers where it, each key and each value start (1-based), and the
    source text of each plain (unquoted) scalar value, to show what YAML made of it."""

    line: int = 0
    column: int = 0
    key_lines: dict[str, int]
    key_pos: dict[str, Pos]
    value_pos: dict[str, Pos]
    plain_source: dict[str, str]

    @property
    def pos(self) -> Pos:
        """Where the mapping starts."""
        return (self.line, self.column)

    def at(self, key: str) -> Pos:
        """Where ``key`` is written (the mapping's start if it is missing)."""
        return self.key_pos.get(key, self.pos)

    def value_at(self, key: str) -> Pos:
        """Where the value of ``key`` starts (the mapping's start if it is missing)."""
        return self.value_pos.get(key, self.pos)


class _LineLoader(yaml.SafeLoader):
    """PyYAML's safe loader, with line numbers kept on mappings and a budget of nodes.

    The composer hands each alias back as the very node it names, so the document is a graph in
    which a few nodes can stand for millions; :meth:`compose_node` weighs every node as the size
    of the tree it expands to and stops at :data:`MAX_YAML_NODES`, before anything walks it.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._weights: dict[int, int] = {}  # id(node) -> size of its expanded tree

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node:
        """Compose a node as PyYAML does, then weigh it against :data:`MAX_YAML_NODES`.

        Raises:
            yaml.composer.ComposerError: the expanded document would pass the budget, or an
                alias names a node that contains it (a recursive structure).
        """
        # the stubs leave peek_event unannotated (it returns the next Event), and type index an
        # int: PyYAML passes a mapping value's key node, or None, as well
        alias = self.peek_event() if self.check_event(yaml.AliasEvent) else None  # type: ignore[no-untyped-call]
        node = super().compose_node(parent, index)  # type: ignore[arg-type]
        assert node is not None  # the stubs say Node | None; PyYAML always returns a node
        if alias is not None:
            if id(node) not in self._weights:
                raise yaml.composer.ComposerError(
                    None, None, "found an alias to a node that contains it", alias.start_mark)
            weight = self._weights[id(node)]
        elif isinstance(node, yaml.SequenceNode):
            weight = 1 + sum(self._weights[id(child)] for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            weight = 1 + sum(self._weights[id(key)] + self._weights[id(value)]
                             for key, value in node.value)
        else:
            weight = 1
        self._weights[id(node)] = weight
        if weight > MAX_YAML_NODES:
            raise yaml.composer.ComposerError(
                None, None, f"the document expands to more than {MAX_YAML_NODES:,} values "
                "(through aliases?); a bank needs far fewer", node.start_mark)
        return node


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> _Node:
    loader.flatten_mapping(node)
    mapping = _Node()
    mapping.line, mapping.column = _pos(node.start_mark)
    mapping.key_lines, mapping.key_pos, mapping.value_pos, mapping.plain_source = {}, {}, {}, {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str | int | float | bool) or key is None:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping", node.start_mark,
                "found an unhashable or null key", key_node.start_mark)
        key = str(key)
        if key in mapping:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping", node.start_mark,
                f"found duplicate key {_show(key)}", key_node.start_mark)
        mapping[key] = loader.construct_object(value_node, deep=True)
        mapping.key_pos[key] = _pos(key_node.start_mark)
        mapping.key_lines[key] = mapping.key_pos[key][0]
        mapping.value_pos[key] = _pos(value_node.start_mark)
        if isinstance(value_node, yaml.ScalarNode) and value_node.style is None:
            mapping.plain_source[key] = value_node.value
    return mapping


def _pos(mark: yaml.Mark) -> Pos:
    return (mark.line + 1, mark.column + 1)


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class _Checker:
    """Collects problems while walking one parsed bank file.

    Places are :data:`Pos` pairs; ``positions`` collects where each localized text was found
    (:attr:`Bank.positions`).
    """

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[BankProblem] = []
        self.question_id: str | None = None
        self.positions: dict[tuple[str | None, str], Pos] = {}

    def problem(self, at: Pos | None, field_path: str, message: str) -> None:
        """Record a problem, unless the field was already reported missing."""
        missing = [p for p in self.problems if p.message == "is missing"
                   and p.question_id == self.question_id
                   and (field_path == p.field or field_path.startswith(p.field + "."))]
        if not missing:
            line, column = at if at is not None else (None, None)
            self.problems.append(
                BankProblem(self.file, line, self.question_id, field_path, message, column))

    def mapping(self, value: Any, at: Pos | None, field_path: str,
                required: Iterable[str], optional: Iterable[str] = ()) -> _Node | None:
        """Check ``value`` is a mapping with the required keys and no unknown ones."""
        if not isinstance(value, _Node):
            self.problem(at, field_path, f"must be a mapping, got {_kind(value)}")
            return None
        required = tuple(required)
        allowed = set(required) | set(optional)
        for key in required:
            if key not in value:
                self.problem(value.pos, _join(field_path, key), "is missing")
        for key in value:
            if key not in allowed:
                shown = key if len(key) <= MAX_KEY_SHOWN else key[:MAX_KEY_SHOWN] + "…"
                self.problem(value.at(key), _join(field_path, shown),
                             f"unknown key (allowed: {', '.join(sorted(allowed))})")
        return value

    def text(self, value: Any, at: Pos | None, field_path: str,
             languages: Sequence[str]) -> Text | None:
        """Check a localized text: exactly ``languages`` as keys, each a non-empty string."""
        node = self.mapping(value, at, field_path, required=languages)
        if node is None:
            return None
        texts: dict[str, str] = {}
        for language in languages:
            if language not in node:
                continue
            text = node[language]
            path = _join(field_path, language)
            if not isinstance(text, str) or not text.strip():
                self.problem(node.value_at(language), path,
                             f"must be non-empty text, got {_got(node, language)}")
                continue
            if self.plain(text, node.value_at(language), path):
                texts[language] = text.strip()
                self.positions[(self.question_id, path)] = node.value_at(language)
        return Text(texts) if len(texts) == len(languages) else None

    def url(self, value: Any, at: Pos | None, field_path: str) -> str | None:
        """Check an http(s) URL without spaces or control characters."""
        if not isinstance(value, str) or not re.fullmatch(r"https?://\S+", value):
            self.problem(at, field_path, f"must be an http(s) URL, got {_show(value)}")
            return None
        return value if self.plain(value, at, field_path) else None

    def plain(self, text: str, at: Pos | None, field_path: str) -> bool:
        """Check ``text`` has no control character but tab and line feed
        (:data:`CONTROL_CHARACTERS`); report the first one found."""
        found = CONTROL_CHARACTERS.search(text)
        if found:
            self.problem(at, field_path,
                         f"contains the control character U+{ord(found[0]):04X} at character "
                         f"{found.start() + 1}; only plain text, tabs and line breaks are allowed")
        return not found


def _got(node: _Node, key: str) -> str:
    """Describe the value of ``key`` for a "got ..." message. An unquoted scalar that YAML
    read as something other than text (``no`` as false, ``1:30`` as 90: YAML 1.1 booleans and
    base-60 numbers, which PyYAML follows) is shown as written, with the fix."""
    value = node.get(key)
    source = node.plain_source.get(key, "")
    if source and not isinstance(value, str | list | dict):
        read = ("nothing" if value is None else str(value).lower() if isinstance(value, bool)
                else f"the number {value}" if isinstance(value, int | float)
                else f"a {type(value).__name__}")
        return (f"{_show(source)}, which YAML reads as {read} when it is not quoted: "
                f"quote it (\"{source if len(source) <= MAX_KEY_SHOWN else '…'}\")")
    return _kind(value)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path and path != "(bank)" else key


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "empty text" if not value.strip() else f"text {_show(value)}"
    return f"{type(value).__name__} {_show(value)}"


class _ShortRepr(reprlib.Repr):
    """``repr`` cut to a few dozen characters, whatever the size of the value: error messages
    quote values from the file, which may be huge (or huge once aliases are expanded)."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 2
        self.maxstring = self.maxother = self.maxlong = 60
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = self.maxfrozenset = 4

    repr__Node = reprlib.Repr.repr_dict  # the loader's mappings (a dict subclass)


_short_repr = _ShortRepr().repr
MAX_SHOWN = 100
"""Longest value quoted in a problem, in characters."""


def _show(value: Any) -> str:
    """The ``repr`` of a value from a bank file, cut for an error message."""
    shown = _short_repr(value)
    return shown if len(shown) <= MAX_SHOWN else shown[:MAX_SHOWN - 1] + "…"


MAX_REASON = 150
MAX_KEY_SHOWN = 40
"""Longest YAML parser message quoted in a problem, in characters (it may quote the file)."""


_BANK_KEYS = ("id", "version", "default_language", "languages", "level", "title",
              "description", "questions")
_QUESTION_KEYS = ("id", "prompt", "options", "explanation", "source")


def parse_bank(document: str, file: str = "<string>") -> Bank:
    """Parse and validate a bank from YAML text.

    Args:
        document: The YAML text.
        file: The name to use in error messages.

    Returns:
        The validated :class:`Bank`.

    Raises:
        BankError: the text is larger than :data:`MAX_BANK_BYTES` in UTF-8, the YAML does not
            parse or expands to more than :data:`MAX_YAML_NODES` nodes, or the bank breaks the
            schema in ``banks/README.md``; every problem found is listed.
    """
    size = len(document.encode("utf-8", "surrogatepass"))
    if size > MAX_BANK_BYTES:
        raise BankError([BankProblem(file, None, None, "(file)", _too_large(size))])
    try:
        data = yaml.load(document, Loader=_LineLoader)
    except yaml.YAMLError as exc:
        raise BankError([_yaml_problem(exc, document, file)]) from exc

    check = _Checker(file)
    root = check.mapping(data, (1, 1), "(bank)", required=_BANK_KEYS, optional=("guide",))
    if root is None:
        raise BankError(check.problems)
    line_of = root.at

    bank_id = root.get("id")
    if not isinstance(bank_id, str) or not ID_PATTERN.fullmatch(bank_id):
        check.problem(root.value_at("id"), "id",
                      f"must be 1-32 chars of a-z, 0-9 and '-', got {_got(root, 'id')}")
    version = root.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        check.problem(root.value_at("version"), "version",
                      f"must be a positive integer, got {_got(root, 'version')}")

    languages_value = root.get("languages")
    languages: tuple[str, ...] = ()
    if (not isinstance(languages_value, list) or not languages_value
            or not all(isinstance(x, str) and LANGUAGE_PATTERN.fullmatch(x)
                       for x in languages_value)):
        check.problem(line_of("languages"), "languages",
                      "must be a non-empty list of language codes like 'en',"
                      f" got {_show(languages_value)}")
    elif len(set(languages_value)) != len(languages_value):
        check.problem(line_of("languages"), "languages", "lists a language twice")
    else:
        languages = tuple(languages_value)

    default_language = root.get("default_language")
    if languages and default_language not in languages:
        check.problem(line_of("default_language"), "default_language",
                      f"must be one of the bank's languages {list(languages)},"
                      f" got {_show(default_language)}")
    level = root.get("level")
    if level not in LEVELS:
        check.problem(root.value_at("level"), "level",
                      f"must be one of {', '.join(LEVELS)}, got {_got(root, 'level')}")

    if not languages:  # every text below depends on the language list
        raise BankError(check.problems)

    title = check.text(root.get("title"), line_of("title"), "title", languages)
    description = check.text(root.get("description"), line_of("description"), "description",
                             languages)
    guide = None
    if "guide" in root:
        node = check.mapping(root["guide"], line_of("guide"), "guide", required=("url", "label"))
        if node is not None:
            url = check.url(node.get("url"), node.value_at("url"), "guide.url")
            label = check.text(node.get("label"), node.at("label"), "guide.label",
                               languages)
            if label is not None:
                for language, text in label.by_language.items():
                    if len(text) > MAX_GUIDE_LABEL:
                        check.problem(node["label"].value_at(language), f"guide.label.{language}",
                                      f"must be at most {MAX_GUIDE_LABEL} characters (a button)")
            if url and label:
                guide = Guide(url, label)

    questions: list[Question] = []
    questions_value = root.get("questions")
    if not isinstance(questions_value, list) or not questions_value:
        check.problem(line_of("questions"), "questions", "must be a non-empty list of questions")
    elif len(questions_value) > MAX_QUESTIONS:
        check.problem(line_of("questions"), "questions",
                      f"has {len(questions_value)} questions; at most {MAX_QUESTIONS}")
    else:
        seen: dict[str, int] = {}
        for number, value in enumerate(questions_value, start=1):
            question = _parse_question(check, value, number, languages, seen)
            if question is not None:
                questions.append(question)
        check.question_id = None

    if check.problems:
        raise BankError(sorted(check.problems, key=lambda p: (p.line or 0, p.column or 0)))
    assert title and description and isinstance(bank_id, str) and isinstance(version, int)
    return Bank(id=bank_id, version=version, default_language=str(default_language),
                languages=languages, level=str(level), title=title, description=description,
                questions=tuple(questions), guide=guide, positions=check.positions)


_YAML_HINTS = (
    ("mapping values are not allowed here",
     "check the indentation of this line or the one before; a value containing ': ' must be "
     "quoted"),
    ("could not find expected ':'",
     "put ': ' after the key on this line, or quote a value that goes on over several lines"),
    ("cannot start any token",
     "indent with spaces, not tabs, and quote a value that starts with a character such as "
     "@, ` or %"),
    ("expected <block end>",
     "check the indentation of this line: it must line up with the keys it belongs with"),
    ("found duplicate key", "remove one of the two, or rename it"),
    ("end of stream", "close the quote or bracket opened here"),
)
"""Plain-words hints for the usual YAML slips, keyed by a phrase of PyYAML's message."""


def _yaml_problem(exc: yaml.YAMLError, document: str, file: str) -> BankProblem:
    """Report a YAML syntax error where the slip is, with a hint and the field it is in.

    PyYAML's problem mark is where the parser gave up. For an unclosed quote or bracket that is
    the end of the file, and for a key without ``:`` it is the next line; there the context mark
    (where the quote, bracket or key starts) is the place to look.
    """
    problem_mark = getattr(exc, "problem_mark", None)
    context_mark = getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    at_context = "end of stream" in problem or "could not find expected ':'" in problem
    mark = (context_mark if context_mark is not None and at_context
            else problem_mark or context_mark)
    reason = " ".join(filter(None, (context, problem)))
    if len(reason) > MAX_REASON:
        reason = reason[:MAX_REASON] + "…"
    hint = next((hint for phrase, hint in _YAML_HINTS if phrase in problem), None)
    if hint is None and context_mark is not None and mark is not context_mark and context and (
            "flow" in context):
        hint = (f"close the bracket opened at line {context_mark.line + 1}, column "
                f"{context_mark.column + 1}, or quote a value containing ',', ':' or brackets")
    message = f"bad YAML: {reason}" + (f"; {hint}" if hint else "")
    if mark is None:
        return BankProblem(file, None, None, "(file)", message)
    question_id, field_path = _locate(document, mark.line + 1)
    return BankProblem(file, mark.line + 1, question_id, field_path, message, mark.column + 1)


_KEY = re.compile(r"""(?:"([^"]*)"|'([^']*)'|([\w-]+))\s*:(?:\s|$)""")


def _locate(document: str, line: int) -> tuple[str | None, str]:
    """Guess the question id and the field of ``line`` (1-based) from the text's layout alone.

    For YAML syntax errors, when there is no parsed tree: walking up from ``line``, each line
    less indented than the last one kept is a parent (``key:`` or a ``-`` list item). A
    question's id is read from its ``id:`` line. Block style as in ``banks/README.md``;
    anything else gives ``(file)``.

    Returns:
        (question id or None, field path such as ``option 2.text.hi``, or ``(file)``).
    """
    lines = [text.expandtabs(8) for text in document.splitlines()]
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
        if limit is None and key is None and re.fullmatch(r"[\w-]+", rest):
            path.insert(0, rest)  # the line of the error is a key without its ':'
        elif key and (limit is None or (_opens_block(rest, key) and (
                inner < limit or (in_item and not item)))):
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
    for step, before in zip(path, [None, *path], strict=False):
        if isinstance(step, tuple):
            if before == "options" and question_id is not None:
                parts[-1] = f"option {step[0] + 1}"
            elif parts:
                parts[-1] += f"[{step[0] + 1}]"
            else:
                parts.append(f"[{step[0] + 1}]")
        else:
            parts.append(step)
    return question_id, ".".join(parts) or "(file)"


def _opens_block(text: str, key: re.Match[str]) -> bool:
    """Whether the ``key:`` at the start of ``text`` holds an indented block (no value on its
    line, or a ``|``/``>`` block scalar)."""
    value = text[key.end():].strip()
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


def _too_large(size: int) -> str:
    return f"is {size:,} bytes; a bank file may have at most {MAX_BANK_BYTES:,} bytes (1 MiB)"


def _parse_question(check: _Checker, value: Any, number: int, languages: Sequence[str],
                    seen: dict[str, int]) -> Question | None:
    """Validate one question (``number`` is 1-based); None if it has problems."""
    check.question_id = f"#{number}"
    before = len(check.problems)
    node = check.mapping(value, value.pos if isinstance(value, _Node) else None, "",
                         required=_QUESTION_KEYS)
    if node is None:
        return None
    line_of = node.at

    question_id = node.get("id")
    if not isinstance(question_id, str) or not ID_PATTERN.fullmatch(question_id):
        check.problem(node.value_at("id"), "id",
                      f"must be 1-32 chars of a-z, 0-9 and '-', got {_got(node, 'id')}")
    else:
        if question_id in seen:
            check.problem(line_of("id"), "id",
                          f"duplicate question id (question #{seen[question_id]} has it too)")
        seen.setdefault(question_id, number)
        check.question_id = question_id
        # problems found before the id was known are re-attributed to it
        check.problems[before:] = [
            BankProblem(p.file, p.line, question_id, p.field, p.message, p.column)
            for p in check.problems[before:]]

    prompt = check.text(node.get("prompt"), line_of("prompt"), "prompt", languages)
    explanation = check.text(node.get("explanation"), line_of("explanation"), "explanation",
                             languages)
    source = None
    source_node = check.mapping(node.get("source"), line_of("source"), "source",
                                required=("title", "url")) if "source" in node else None
    if source_node is not None:
        title = source_node.get("title")
        title_ok = False
        if not isinstance(title, str) or not title.strip():
            check.problem(source_node.value_at("title"), "source.title",
                          f"must be non-empty text, got {_got(source_node, 'title')}")
        else:
            title_ok = check.plain(title, source_node.value_at("title"), "source.title")
        url = check.url(source_node.get("url"), source_node.value_at("url"), "source.url")
        if title_ok and url and isinstance(title, str):  # (title_ok implies a str)
            source = Source(title.strip(), url)

    options: list[Option] = []
    options_value = node.get("options")
    if (not isinstance(options_value, list)
            or not MIN_OPTIONS <= len(options_value) <= MAX_OPTIONS):
        got = len(options_value) if isinstance(options_value, list) else _kind(options_value)
        check.problem(line_of("options"), "options",
                      f"must be a list of {MIN_OPTIONS} to {MAX_OPTIONS} options, got {got}")
    else:
        unclear = False  # an option whose `correct` is not a boolean: the count would mislead
        for index, option_value in enumerate(options_value):
            path = f"option {index + 1}"  # counted from 1, as the bank's authors count
            option_node = check.mapping(
                option_value, option_value.pos if isinstance(option_value, _Node)
                else line_of("options"), path, required=("text",), optional=("correct",))
            if option_node is None:
                continue
            correct = option_node.get("correct", False)
            if not isinstance(correct, bool):
                unclear = True
                hint = (f"the text {_show(correct)}: remove the quotes"
                        if isinstance(correct, str) and correct.lower() in ("true", "false")
                        else _got(option_node, "correct"))
                check.problem(option_node.value_at("correct"), f"{path}.correct",
                              f"must be true or false, got {hint}")
            text = check.text(option_node.get("text"), option_node.at("text"),
                              f"{path}.text", languages)
            if text is not None:
                options.append(Option(text, correct is True))
        flagged = [i for i, v in enumerate(options_value)
                   if isinstance(v, dict) and v.get("correct") is True]
        if len(flagged) != 1 and not unclear:
            numbers = " and ".join(str(i + 1) for i in flagged)
            check.problem(line_of("options"), "options",
                          f"must have exactly one option with 'correct: true', got {len(flagged)}"
                          + (f" (options {numbers})" if flagged else ""))
        elif len(flagged) == 1 and len(options) == len(options_value):
            for language in languages:
                shown = [o.text.by_language.get(language) for o in options]
                for i, text_i in enumerate(shown):
                    if text_i in shown[:i]:
                        field_path = f"option {i + 1}.text.{language}"
                        check.problem(check.positions.get((check.question_id, field_path),
                                                          line_of("options")), field_path,
                                      f"has the same text as option {shown.index(text_i) + 1}")

    if len(check.problems) > before:
        return None
    assert prompt and explanation and source and isinstance(question_id, str)
    for language in languages:
        texts = [prompt.by_language[language], explanation.by_language[language], source.title,
                 *(o.text.by_language[language] for o in options)]
        size = sum(len(text.encode("utf-16-le")) // 2 for text in texts)
        if size > MAX_QUESTION_UTF16:
            check.problem(line_of("prompt"), f"(all texts).{language}",
                          f"prompt, options, explanation and source are {size} UTF-16 units "
                          f"together; at most {MAX_QUESTION_UTF16} fit in one Telegram message")
    if len(check.problems) > before:
        return None
    return Question(question_id, prompt, tuple(options), explanation, source)


def load_bank(path: str | Path) -> Bank:
    """Load and validate one bank file.

    Reads at most :data:`MAX_BANK_BYTES` (plus one, to tell a larger file).

    Raises:
        BankError: the file cannot be read, is larger than :data:`MAX_BANK_BYTES`, is not
            UTF-8, does not parse, or breaks the schema.
    """
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_BANK_BYTES + 1)
        if len(data) > MAX_BANK_BYTES:
            size = max(path.stat().st_size, len(data))
            raise BankError([BankProblem(str(path), None, None, "(file)", _too_large(size))])
        document = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problem = BankProblem(str(path), None, None, "(file)", f"cannot read: {exc}")
        raise BankError([problem]) from exc
    bank = parse_bank(document, str(path))
    return Bank(**{**bank.__dict__, "path": path})


def bank_files(paths: Iterable[str | Path]) -> list[Path]:
    """Expand folders to their ``*.yaml``/``*.yml`` files (sorted); files are kept as given."""
    files: list[Path] = []
    for entry in map(Path, paths):
        if entry.is_dir():
            files.extend(sorted(p for p in entry.iterdir() if p.suffix in (".yaml", ".yml")))
        else:
            files.append(entry)
    return files


def load_banks(paths: Iterable[str | Path]) -> dict[str, Bank]:
    """Load every bank under ``paths`` (files or folders of ``*.yaml``), keyed by bank id.

    Raises:
        BankError: any file is invalid, two files share a bank id, or no bank was found;
            the problems of every file are listed together.
    """
    paths = list(paths)
    banks: dict[str, Bank] = {}
    problems: list[BankProblem] = []
    files = bank_files(paths)
    for file in files:
        try:
            bank = load_bank(file)
        except BankError as exc:
            problems.extend(exc.problems)
            continue
        if bank.id in banks:
            problems.append(BankProblem(
                str(file), None, None, "id",
                f"bank id {bank.id!r} is also used by {banks[bank.id].path}"))
            continue
        banks[bank.id] = bank
    if not files:
        problems.append(BankProblem(", ".join(map(str, paths)), None, None, "(file)",
                                    "no bank files (*.yaml) found"))
    if problems:
        raise BankError(problems)
    return banks
