"""The schema of bank files (``banks/README.md``): check a parsed file completely and build
the core's :class:`~bot.kernel.bank.Bank`, listing every problem with its place, question and field
(recorded by :class:`~bot.bankload.checker.Checker`).
"""

from __future__ import annotations

from typing import Any

import yaml

from bot.bankload.checker import Checker, TooManyProblems, too_many_problems
from bot.bankload.exam import EXAM_KEYS, EXAM_OPTIONAL, parse_exam
from bot.bankload.locate import yaml_problem
from bot.bankload.problems import BankError, BankProblem, show
from bot.bankload.questions import (
    QUESTION_KEYS,
    QUESTION_OPTIONAL,
    parse_question,
)
from bot.bankload.values import got, is_id, never
from bot.bankload.yaml_positions import load_yaml
from bot.kernel.bank import (
    ID_PATTERN,
    LANGUAGE_PATTERN,
    LEVELS,
    MAX_GUIDE_LABEL,
    MAX_QUESTIONS,
    Bank,
    Guide,
    Question,
)

MAX_BANK_BYTES = 1024 * 1024
"""Largest bank file, in bytes (1 MiB): a full bank of 100 questions in a few languages is a
tenth of that, and ``quizbot validate`` runs on contributed files."""
MAX_DOCUMENT_BYTES = 8 * MAX_BANK_BYTES
"""Largest YAML document the bot parses of its own writing (8 MiB): a created quiz's version,
made from a file a creator sent. The limit on a creator's file is on the file as sent
(``bot.features.importing.handlers.MAX_FILE_BYTES``, :data:`MAX_BANK_BYTES`); a GIFT, Aiken or CSV
file is converted, and its YAML is larger than the file (each text indented under its keys, each
line of a text indented again, a control character written as a four-byte escape), at most a
few times. This bound keeps the parse of what the bot wrote bounded too."""

_BANK_KEYS = (
    "id",
    "version",
    "default_language",
    "languages",
    "level",
    "title",
    "description",
    "questions",
)
_FIELDS = frozenset(
    (
        *_BANK_KEYS,
        "guide",
        "url",
        "label",
        *QUESTION_KEYS,
        *QUESTION_OPTIONAL,
        "text",
        "correct",
        "title",
        "exam",
        *EXAM_OPTIONAL,
        *EXAM_KEYS,
    )
)
"""Every key the format has, at any level but a language's: how a key that lost its colon is
told from a value's words (:func:`bot.bankload.locate.locate`)."""


def parse_bank(document: str, file: str = "<string>", *, max_bytes: int = MAX_BANK_BYTES) -> Bank:
    """Parse and validate a bank from YAML text.

    Args:
        document: The YAML text.
        file: The name to use in error messages.
        max_bytes: The largest text taken, in UTF-8 bytes: :data:`MAX_BANK_BYTES` for a bank
            file, :data:`MAX_DOCUMENT_BYTES` for a document the bot wrote.

    Returns:
        The validated :class:`Bank`.

    Raises:
        BankError: the text is larger than ``max_bytes`` in UTF-8, the YAML does not
            parse or expands to more than
            :data:`~bot.bankload.yaml_positions.MAX_YAML_NODES` nodes, or the bank breaks the
            schema in ``banks/README.md``; every problem found is listed.
    """
    size = len(document.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise BankError([too_large_problem(file, size, max_bytes)])
    try:
        data = load_yaml(document)
    except yaml.YAMLError as exc:
        raise BankError([yaml_problem(exc, document, file, _FIELDS)]) from exc

    check = Checker(file)
    try:
        return _checked(check, data)
    except TooManyProblems:
        raise BankError([*_in_order(check.problems), too_many_problems(file)]) from None


def _in_order(problems: list[BankProblem]) -> list[BankProblem]:
    return sorted(problems, key=lambda p: (p.line or 0, p.column or 0))


def _checked(check: Checker, data: Any) -> Bank:  # noqa: C901 - the bank's keys checked in file order
    """The bank of the parsed ``data``.

    Raises:
        BankError: its problems, in the order of the file.
        TooManyProblems: :data:`~bot.bankload.checker.MAX_PROBLEMS` were found, and more.
    """
    root = check.mapping(data, (1, 1), "(bank)", required=_BANK_KEYS, optional=("guide", "exam"))
    if root is None:
        raise BankError(check.problems)
    line_of = root.at

    bank_id = root.get("id")
    if not isinstance(bank_id, str) or not ID_PATTERN.fullmatch(bank_id):
        check.problem(
            root.value_at("id"),
            "id",
            f"must be 1-32 chars of a-z, 0-9 and '-', got {got(root, 'id', is_id)}",
            "problem.bad_id",
        )
    version = root.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        check.problem(
            root.value_at("version"),
            "version",
            f"must be a positive integer, got {got(root, 'version', never)}",
            "problem.bad_version",
        )

    languages_value = root.get("languages")
    languages: tuple[str, ...] = ()
    if (
        not isinstance(languages_value, list)
        or not languages_value
        or not all(isinstance(x, str) and LANGUAGE_PATTERN.fullmatch(x) for x in languages_value)
    ):
        check.problem(
            line_of("languages"),
            "languages",
            f"must be a non-empty list of language codes like 'en', got {show(languages_value)}",
            "problem.bad_languages",
        )
    elif len(set(languages_value)) != len(languages_value):
        check.problem(
            line_of("languages"), "languages", "lists a language twice", "problem.language_twice"
        )
    else:
        languages = tuple(languages_value)

    default_language = root.get("default_language")
    if languages and default_language not in languages:
        check.problem(
            line_of("default_language"),
            "default_language",
            f"must be one of the bank's languages {list(languages)}, got {show(default_language)}",
            "problem.bad_default_language",
            languages=", ".join(languages),
        )
    level = root.get("level")
    if level not in LEVELS:
        check.problem(
            root.value_at("level"),
            "level",
            f"must be one of {', '.join(LEVELS)}, got {got(root, 'level', LEVELS.__contains__)}",
            "problem.bad_level",
            levels=", ".join(LEVELS),
        )

    if not languages:  # every text below depends on the language list
        raise BankError(check.problems)

    title = check.text(root.get("title"), line_of("title"), "title", languages)
    description = check.text(
        root.get("description"), line_of("description"), "description", languages
    )
    guide = None
    if "guide" in root:
        node = check.mapping(root["guide"], line_of("guide"), "guide", required=("url", "label"))
        if node is not None:
            url = check.url(node.get("url"), node.value_at("url"), "guide.url")
            label = check.text(node.get("label"), node.at("label"), "guide.label", languages)
            if label is not None:
                for language, text in label.by_language.items():
                    if len(text) > MAX_GUIDE_LABEL:
                        check.problem(
                            node["label"].value_at(language),
                            f"guide.label.{language}",
                            f"must be at most {MAX_GUIDE_LABEL} characters (a button)",
                            "problem.guide_label_long",
                            limit=MAX_GUIDE_LABEL,
                        )
            if url and label:
                guide = Guide(url, label)

    questions: list[Question] = []
    questions_value = root.get("questions")
    if not isinstance(questions_value, list) or not questions_value:
        check.problem(
            line_of("questions"),
            "questions",
            "must be a non-empty list of questions",
            "problem.no_questions",
        )
    elif len(questions_value) > MAX_QUESTIONS:
        check.problem(
            line_of("questions"),
            "questions",
            f"has {len(questions_value)} questions; at most {MAX_QUESTIONS}",
            "problem.too_many_questions",
            count=len(questions_value),
            limit=MAX_QUESTIONS,
        )
    else:
        seen: dict[str, int] = {}
        for number, value in enumerate(questions_value, start=1):
            question = parse_question(check, value, number, languages, seen)
            if question is not None:
                questions.append(question)
        check.question_id = check.question_number = None
    exam = None
    if "exam" in root:
        count = len(questions_value) if isinstance(questions_value, list) else 0
        exam = parse_exam(check, root["exam"], line_of("exam"), count)

    if check.problems:
        raise BankError(_in_order(check.problems))
    assert title and description and isinstance(bank_id, str) and isinstance(version, int)
    return Bank(
        id=bank_id,
        version=version,
        default_language=str(default_language),
        languages=languages,
        level=str(level),
        title=title,
        description=description,
        questions=tuple(questions),
        guide=guide,
        exam=exam,
        positions=check.positions,
    )


def too_large(size: int, limit: int = MAX_BANK_BYTES) -> str:
    return (
        f"is {size:,} bytes; a bank file may have at most {limit:,} bytes "
        f"({limit // MAX_BANK_BYTES} MiB)"
    )


def too_large_problem(file: str, size: int, limit: int = MAX_BANK_BYTES) -> BankProblem:
    """The problem of a file of ``size`` bytes, over ``limit`` (:data:`MAX_BANK_BYTES`)."""
    return BankProblem(
        file,
        None,
        None,
        "(file)",
        too_large(size, limit),
        None,
        "problem.too_large",
        {"size": size, "limit": limit},
    )
