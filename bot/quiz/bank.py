"""Question banks: the model (frozen dataclasses) and the YAML loader that validates it.

The schema is documented in ``banks/README.md``. :func:`load_bank` checks a file completely and
raises one :class:`BankError` listing every problem, each naming the file, the line (where the YAML
parser knows it), the question id and the field.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

ID_PATTERN = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$")
"""Bank and question ids: 1-32 chars of a-z, 0-9 and "-". Short, so that callback data
(at most 64 bytes, Bot API ``InlineKeyboardButton.callback_data``) and deep-link payloads
(at most 64 chars of A-Z, a-z, 0-9, _ and -, Bot API "Deep linking") always fit."""

LANGUAGE_PATTERN = re.compile(r"^[a-z]{2,3}$")
LEVELS = ("easy", "medium", "hard")
OPTIONS_PER_QUESTION = 4
MAX_QUESTIONS = 100
MAX_GUIDE_LABEL = 40
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
        options: The options in the bank's order (exactly :data:`OPTIONS_PER_QUESTION`).
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


@dataclass(frozen=True)
class BankProblem:
    """One problem found in a bank file.

    Attributes:
        file: The file's path as given.
        line: 1-based line number, or None where the problem has no place in the file.
        question_id: The question's id (or ``#N`` when it has none), None for bank-level fields.
        field: Dotted path of the field, e.g. ``options[2].text.hi``.
        message: What is wrong.
    """

    file: str
    line: int | None
    question_id: str | None
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        question = f" question {self.question_id!r}," if self.question_id else ""
        return f"{where}:{question} field {self.field!r}: {self.message}"


class BankError(Exception):
    """A bank file is invalid. ``problems`` lists every problem found (at least one)."""

    def __init__(self, problems: Sequence[BankProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class _Node(dict):  # type: ignore[type-arg]
    """A YAML mapping that remembers the line of itself and of each key (1-based)."""

    line: int = 0
    key_lines: dict[str, int]


class _LineLoader(yaml.SafeLoader):
    """PyYAML's safe loader, with line numbers kept on mappings."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> _Node:
    loader.flatten_mapping(node)
    mapping = _Node()
    mapping.line = node.start_mark.line + 1
    mapping.key_lines = {}
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
                f"found duplicate key {key!r}", key_node.start_mark)
        mapping[key] = loader.construct_object(value_node, deep=True)
        mapping.key_lines[key] = key_node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class _Checker:
    """Collects problems while walking one parsed bank file."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[BankProblem] = []
        self.question_id: str | None = None

    def problem(self, line: int | None, field_path: str, message: str) -> None:
        """Record a problem, unless the field was already reported missing."""
        missing = [p for p in self.problems if p.message == "is missing"
                   and p.question_id == self.question_id
                   and (field_path == p.field or field_path.startswith(p.field + "."))]
        if not missing:
            self.problems.append(
                BankProblem(self.file, line, self.question_id, field_path, message))

    def mapping(self, value: Any, line: int | None, field_path: str,
                required: Iterable[str], optional: Iterable[str] = ()) -> _Node | None:
        """Check ``value`` is a mapping with the required keys and no unknown ones."""
        if not isinstance(value, _Node):
            self.problem(line, field_path, f"must be a mapping, got {_kind(value)}")
            return None
        required = tuple(required)
        allowed = set(required) | set(optional)
        for key in required:
            if key not in value:
                self.problem(value.line, _join(field_path, key), "is missing")
        for key in value:
            if key not in allowed:
                self.problem(value.key_lines.get(key), _join(field_path, key),
                             f"unknown key (allowed: {', '.join(sorted(allowed))})")
        return value

    def text(self, value: Any, line: int | None, field_path: str,
             languages: Sequence[str]) -> Text | None:
        """Check a localized text: exactly ``languages`` as keys, each a non-empty string."""
        node = self.mapping(value, line, field_path, required=languages)
        if node is None:
            return None
        texts: dict[str, str] = {}
        for language in languages:
            if language not in node:
                continue
            text = node[language]
            if not isinstance(text, str) or not text.strip():
                self.problem(node.key_lines.get(language), _join(field_path, language),
                             f"must be non-empty text, got {_kind(text)}")
                continue
            texts[language] = text.strip()
        return Text(texts) if len(texts) == len(languages) else None

    def url(self, value: Any, line: int | None, field_path: str) -> str | None:
        if not isinstance(value, str) or not re.fullmatch(r"https?://\S+", value):
            self.problem(line, field_path, f"must be an http(s) URL, got {value!r}")
            return None
        return value


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
        return "empty text" if not value.strip() else f"text {value!r}"
    return f"{type(value).__name__} {value!r}"


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
        BankError: the YAML does not parse, or the bank breaks the schema in ``banks/README.md``;
            every problem found is listed.
    """
    try:
        data = yaml.load(document, Loader=_LineLoader)
    except yaml.YAMLError as exc:
        # the problem mark is where the parser gave up; for an unclosed quote or bracket that
        # is the end of the file, and the context mark (where it was opened) is the place to look
        problem_mark = getattr(exc, "problem_mark", None)
        context_mark = getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        mark = (context_mark if context_mark is not None and "end of stream" in problem
                else problem_mark or context_mark)
        line = mark.line + 1 if mark is not None else None
        reason = " ".join(filter(None, (getattr(exc, "context", None), problem)))
        raise BankError([BankProblem(file, line, None, "(file)", f"bad YAML: {reason}")]) from exc

    check = _Checker(file)
    root = check.mapping(data, 1, "(bank)", required=_BANK_KEYS, optional=("guide",))
    if root is None:
        raise BankError(check.problems)
    line_of = root.key_lines.get

    bank_id = root.get("id")
    if not isinstance(bank_id, str) or not ID_PATTERN.fullmatch(bank_id):
        check.problem(line_of("id"), "id",
                      f"must be 1-32 chars of a-z, 0-9 and '-', got {bank_id!r}")
    version = root.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        check.problem(line_of("version"), "version", f"must be a positive integer, got {version!r}")

    languages_value = root.get("languages")
    languages: tuple[str, ...] = ()
    if (not isinstance(languages_value, list) or not languages_value
            or not all(isinstance(x, str) and LANGUAGE_PATTERN.fullmatch(x)
                       for x in languages_value)):
        check.problem(line_of("languages"), "languages",
                      "must be a non-empty list of language codes like 'en',"
                      f" got {languages_value!r}")
    elif len(set(languages_value)) != len(languages_value):
        check.problem(line_of("languages"), "languages", "lists a language twice")
    else:
        languages = tuple(languages_value)

    default_language = root.get("default_language")
    if languages and default_language not in languages:
        check.problem(line_of("default_language"), "default_language",
                      f"must be one of the bank's languages {list(languages)},"
                      f" got {default_language!r}")
    level = root.get("level")
    if level not in LEVELS:
        check.problem(line_of("level"), "level",
                      f"must be one of {', '.join(LEVELS)}, got {level!r}")

    if not languages:  # every text below depends on the language list
        raise BankError(check.problems)

    title = check.text(root.get("title"), line_of("title"), "title", languages)
    description = check.text(root.get("description"), line_of("description"), "description",
                             languages)
    guide = None
    if "guide" in root:
        node = check.mapping(root["guide"], line_of("guide"), "guide", required=("url", "label"))
        if node is not None:
            url = check.url(node.get("url"), node.key_lines.get("url"), "guide.url")
            label = check.text(node.get("label"), node.key_lines.get("label"), "guide.label",
                               languages)
            if label is not None:
                for language, text in label.by_language.items():
                    if len(text) > MAX_GUIDE_LABEL:
                        check.problem(node.key_lines.get("label"), f"guide.label.{language}",
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
        raise BankError(sorted(check.problems, key=lambda p: p.line or 0))
    assert title and description and isinstance(bank_id, str) and isinstance(version, int)
    return Bank(id=bank_id, version=version, default_language=str(default_language),
                languages=languages, level=str(level), title=title, description=description,
                questions=tuple(questions), guide=guide)


def _parse_question(check: _Checker, value: Any, number: int, languages: Sequence[str],
                    seen: dict[str, int]) -> Question | None:
    """Validate one question (``number`` is 1-based); None if it has problems."""
    check.question_id = f"#{number}"
    before = len(check.problems)
    line = value.line if isinstance(value, _Node) else None
    node = check.mapping(value, line, "", required=_QUESTION_KEYS)
    if node is None:
        return None
    line_of = node.key_lines.get

    question_id = node.get("id")
    if not isinstance(question_id, str) or not ID_PATTERN.fullmatch(question_id):
        check.problem(line_of("id"), "id",
                      f"must be 1-32 chars of a-z, 0-9 and '-', got {question_id!r}")
    else:
        if question_id in seen:
            check.problem(line_of("id"), "id",
                          f"duplicate question id (question #{seen[question_id]} has it too)")
        seen.setdefault(question_id, number)
        check.question_id = question_id
        # problems found before the id was known are re-attributed to it
        check.problems[before:] = [
            BankProblem(p.file, p.line, question_id, p.field, p.message)
            for p in check.problems[before:]]

    prompt = check.text(node.get("prompt"), line_of("prompt"), "prompt", languages)
    explanation = check.text(node.get("explanation"), line_of("explanation"), "explanation",
                             languages)
    source = None
    source_node = check.mapping(node.get("source"), line_of("source"), "source",
                                required=("title", "url")) if "source" in node else None
    if source_node is not None:
        title = source_node.get("title")
        if not isinstance(title, str) or not title.strip():
            check.problem(source_node.key_lines.get("title"), "source.title",
                          f"must be non-empty text, got {_kind(title)}")
        url = check.url(source_node.get("url"), source_node.key_lines.get("url"), "source.url")
        if isinstance(title, str) and title.strip() and url:
            source = Source(title.strip(), url)

    options: list[Option] = []
    options_value = node.get("options")
    if not isinstance(options_value, list) or len(options_value) != OPTIONS_PER_QUESTION:
        got = len(options_value) if isinstance(options_value, list) else _kind(options_value)
        check.problem(line_of("options"), "options",
                      f"must be a list of exactly {OPTIONS_PER_QUESTION} options, got {got}")
    else:
        for index, option_value in enumerate(options_value):
            path = f"options[{index}]"
            option_line = (option_value.line if isinstance(option_value, _Node)
                           else line_of("options"))
            option_node = check.mapping(option_value, option_line, path,
                                        required=("text",), optional=("correct",))
            if option_node is None:
                continue
            correct = option_node.get("correct", False)
            if not isinstance(correct, bool):
                check.problem(option_node.key_lines.get("correct"), f"{path}.correct",
                              f"must be true or false, got {correct!r}")
            text = check.text(option_node.get("text"), option_node.key_lines.get("text"),
                              f"{path}.text", languages)
            if text is not None:
                options.append(Option(text, correct is True))
        flagged = [i for i, v in enumerate(options_value)
                   if isinstance(v, dict) and v.get("correct") is True]
        if len(flagged) != 1:
            numbers = " and ".join(str(i + 1) for i in flagged)
            check.problem(line_of("options"), "options",
                          f"must have exactly one option with 'correct: true', got {len(flagged)}"
                          + (f" (options {numbers}, counting from 1)" if flagged else ""))
        elif len(options) == OPTIONS_PER_QUESTION:
            for language in languages:
                texts = [o.text.by_language.get(language) for o in options]
                for i, text in enumerate(texts):
                    if text in texts[:i]:
                        first = texts.index(text)
                        check.problem(line_of("options"), f"options.text.{language}",
                                      f"options {first + 1} and {i + 1} (counting from 1) "
                                      "have the same text")

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

    Raises:
        BankError: the file cannot be read, does not parse, or breaks the schema.
    """
    path = Path(path)
    try:
        document = path.read_text(encoding="utf-8")
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
