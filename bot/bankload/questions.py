"""A bank file's questions (``banks/README.md``): each question's keys checked and turned into
the core's :class:`~bot.kernel.bank.Question`, its kind, options, answer, picture, shuffle and
waived checks; the bank around them is :mod:`bot.bankload.schema`'s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from bot.bankload.checker import Checker
from bot.bankload.exam import question_marks
from bot.bankload.problems import show
from bot.bankload.values import described, got, is_id, is_picture, never
from bot.bankload.yaml_positions import Pos, YamlMapping
from bot.kernel.bank import (
    ID_PATTERN,
    MAX_OPTIONS,
    MAX_PICTURE,
    MAX_QUESTION_UTF16,
    MIN_OPTIONS,
    PICTURE_PATTERN,
    TRUE_FALSE,
    Option,
    Question,
    QuestionKind,
    Source,
    blank,
    true_false_options,
)
from bot.kernel.checks import WAIVABLE

QUESTION_KEYS = ("id", "prompt")
"""A question's required keys."""
QUESTION_OPTIONAL = (
    "kind",
    "options",
    "answer",
    "shuffle",
    "picture",
    "explanation",
    "source",
    "waive",
    "marks",
)
"""A question's optional keys."""
_KINDS = tuple(str(kind) for kind in QuestionKind)


def parse_question(  # noqa: C901 - a question's keys checked in file order
    check: Checker,
    value: Any,
    number: int,
    languages: Sequence[str],
    seen: dict[str, int],
) -> Question | None:
    """Validate one question (``number`` is 1-based); None if it has problems."""
    check.question_id, check.question_number = f"#{number}", number
    before = len(check.problems)
    node = check.mapping(
        value,
        value.pos if isinstance(value, YamlMapping) else None,
        "",
        required=QUESTION_KEYS,
        optional=QUESTION_OPTIONAL,
    )
    if node is None:
        return None
    line_of = node.at

    question_id = node.get("id")
    if not isinstance(question_id, str) or not ID_PATTERN.fullmatch(question_id):
        check.problem(
            node.value_at("id"),
            "id",
            f"must be 1-32 chars of a-z, 0-9 and '-', got {got(node, 'id', is_id)}",
            "problem.bad_id",
        )
    else:
        if question_id in seen:
            check.problem(
                line_of("id"),
                "id",
                f"duplicate question id (question #{seen[question_id]} has it too)",
                "problem.duplicate_id",
                number=seen[question_id],
            )
        seen.setdefault(question_id, number)
        check.question_id = question_id
        # problems found before the id was known are re-attributed to it
        check.problems[before:] = [
            dataclasses.replace(p, question_id=question_id) for p in check.problems[before:]
        ]

    prompt = check.text(node.get("prompt"), line_of("prompt"), "prompt", languages)
    explanation = (
        check.text(node.get("explanation"), line_of("explanation"), "explanation", languages)
        if "explanation" in node
        else None
    )
    source = None
    source_node = (
        check.mapping(node.get("source"), line_of("source"), "source", required=("title", "url"))
        if "source" in node
        else None
    )
    if source_node is not None:
        title = source_node.get("title")
        title_ok = False
        if not isinstance(title, str) or blank(title):
            check.problem(
                source_node.value_at("title"),
                "source.title",
                f"must be non-empty text, got {got(source_node, 'title')}",
                "problem.not_text",
            )
        else:
            title_ok = check.plain(title, source_node.value_at("title"), "source.title")
        url = check.url(source_node.get("url"), source_node.value_at("url"), "source.url")
        for key in ("title", "url"):  # where the item-writing checks point at the source
            check.positions[(check.question_id, f"source.{key}")] = source_node.value_at(key)
        if title_ok and url and isinstance(title, str):  # (title_ok implies a str)
            source = Source(title.strip(), url)

    kind = _kind_of(check, node)
    picture = _picture(check, node)
    waived = _waived(check, node)
    shuffle = _shuffle(check, node)
    marks = question_marks(check, node)
    options: list[Option] = []
    if kind == TRUE_FALSE:
        options = _true_false(check, node, languages)
    else:
        if "answer" in node:
            check.problem(
                line_of("answer"),
                "answer",
                "is only for a question with 'kind: true-false'; mark the right"
                " options with 'correct: true'",
                "problem.answer_not_true_false",
            )
        if kind is not None:
            options = _choice_options(check, node, languages)

    if len(check.problems) > before:
        return None
    assert prompt and isinstance(question_id, str)
    for language in languages:
        texts = [
            prompt.by_language[language],
            *(o.text.by_language[language] for o in options),
            *([explanation.by_language[language]] if explanation else []),
            *([source.title] if source else []),
        ]
        size = sum(len(text.encode("utf-16-le")) // 2 for text in texts)
        if size > MAX_QUESTION_UTF16:
            check.problem(
                line_of("prompt"),
                f"(all texts).{language}",
                f"prompt, options, explanation and source are {size} UTF-16 units "
                f"together; at most {MAX_QUESTION_UTF16} fit in one Telegram message",
                "problem.question_too_long",
                size=size,
                limit=MAX_QUESTION_UTF16,
            )
    if len(check.problems) > before:
        return None
    assert kind is not None
    return Question(
        question_id,
        prompt,
        tuple(options),
        explanation,
        source,
        kind,
        picture,
        waived,
        shuffle,
        marks,
    )


def _choice_options(check: Checker, node: YamlMapping, languages: Sequence[str]) -> list[Option]:
    """A choice question's options: :data:`MIN_OPTIONS` to :data:`MAX_OPTIONS`, one or more of
    them right but not all, no two with the same text; problems are reported."""
    line_of = node.at
    options: list[Option] = []
    options_value = node.get("options")
    if "options" not in node:
        check.problem(node.pos, "options", "is missing", "problem.missing")
    elif (
        not isinstance(options_value, list) or not MIN_OPTIONS <= len(options_value) <= MAX_OPTIONS
    ):
        found = len(options_value) if isinstance(options_value, list) else described(options_value)
        check.problem(
            line_of("options"),
            "options",
            f"must be a list of {MIN_OPTIONS} to {MAX_OPTIONS} options, got {found}",
            "problem.option_count",
            low=MIN_OPTIONS,
            high=MAX_OPTIONS,
        )
    else:
        unclear = False  # an option whose `correct` is not a boolean: the count would mislead
        for index, option_value in enumerate(options_value):
            path = f"option {index + 1}"  # counted from 1, as the bank's authors count
            option_node = check.mapping(
                option_value,
                option_value.pos if isinstance(option_value, YamlMapping) else line_of("options"),
                path,
                required=("text",),
                optional=("correct",),
            )
            if option_node is None:
                continue
            correct = option_node.get("correct", False)
            if not isinstance(correct, bool):
                unclear = True
                _not_boolean(
                    check,
                    option_node.value_at("correct"),
                    f"{path}.correct",
                    correct,
                    got(option_node, "correct", never),
                )
            text = check.text(
                option_node.get("text"), option_node.at("text"), f"{path}.text", languages
            )
            if text is not None:
                options.append(Option(text, correct is True))
        flagged = [
            i
            for i, v in enumerate(options_value)
            if isinstance(v, dict) and v.get("correct") is True
        ]
        if not flagged and not unclear:
            check.problem(
                line_of("options"),
                "options",
                "must have at least one option with 'correct: true', got 0",
                "problem.no_correct",
            )
        elif len(flagged) == len(options_value) and not unclear:
            check.problem(
                line_of("options"),
                "options",
                f"has all {len(flagged)} options marked 'correct: true'; at least one"
                " must be wrong, or there is nothing to choose",
                "problem.all_correct",
            )
        elif flagged and len(options) == len(options_value):
            for language in languages:
                shown = [o.text.by_language.get(language) for o in options]
                for i, text_i in enumerate(shown):
                    if text_i in shown[:i]:
                        field_path = f"option {i + 1}.text.{language}"
                        check.problem(
                            check.positions.get(
                                (check.question_id, field_path), line_of("options")
                            ),
                            field_path,
                            f"has the same text as option {shown.index(text_i) + 1}",
                            "problem.same_option",
                            number=shown.index(text_i) + 1,
                        )
    return options


def _kind_of(check: Checker, node: YamlMapping) -> QuestionKind | None:
    """The question's ``kind`` (default ``choice``); None, reported, if it is not a kind."""
    value = node.get("kind", "choice")
    if value not in _KINDS:
        check.problem(
            node.value_at("kind"),
            "kind",
            f"must be one of {', '.join(_KINDS)}, got {got(node, 'kind', _KINDS.__contains__)}",
            "problem.bad_kind",
            kinds=", ".join(_KINDS),
        )
        return None
    return QuestionKind(value)


def _true_false(check: Checker, node: YamlMapping, languages: Sequence[str]) -> list[Option]:
    """A true/false question's two options, from its ``answer``; none when it has problems
    (options given, the answer missing or not a boolean)."""
    if "options" in node:
        check.problem(
            node.at("options"),
            "options",
            "must not be given for 'kind: true-false': the bot shows its own True"
            " and False; give 'answer: true' or 'answer: false'",
            "problem.options_true_false",
        )
    if "answer" not in node:
        check.problem(node.pos, "answer", "is missing", "problem.missing")
        return []
    answer = node["answer"]
    if not isinstance(answer, bool):
        _not_boolean(check, node.value_at("answer"), "answer", answer, described(answer))
        return []
    return list(true_false_options(answer, tuple(languages)))


def _not_boolean(check: Checker, at: Pos, field: str, value: object, other: str) -> None:
    """Report ``field`` (at ``at``) as not a boolean: a quoted ``true``/``false`` is told to
    lose its quotes, anything else is described as ``other`` says."""
    hint = (
        f"the text {show(value)}: remove the quotes"
        if isinstance(value, str) and value.lower() in ("true", "false")
        else other
    )
    check.problem(at, field, f"must be true or false, got {hint}", "problem.not_boolean")


def _shuffle(check: Checker, node: YamlMapping) -> bool:
    """Whether the question's options are shuffled per attempt (``shuffle``, a boolean; true
    when not given)."""
    if "shuffle" not in node:
        return True
    value = node["shuffle"]
    if not isinstance(value, bool):
        _not_boolean(check, node.value_at("shuffle"), "shuffle", value, described(value))
        return True
    return value


def _waived(check: Checker, node: YamlMapping) -> frozenset[str]:
    """The item-writing rules the question waives (``waive``: a list of rule names of
    :data:`bot.kernel.checks.WAIVABLE`); empty, reported, when the list is not one."""
    if "waive" not in node:
        return frozenset()
    value = node["waive"]
    allowed = ", ".join(WAIVABLE)
    if isinstance(value, str) and value in WAIVABLE:
        check.problem(
            node.at("waive"),
            "waive",
            f"must be a list of rule names: write [{value}]",
            "problem.invalid",
        )
        return frozenset()
    if not isinstance(value, list) or not value:
        check.problem(
            node.at("waive"),
            "waive",
            f"must be a list of rule names (of: {allowed}), got {described(value)}",
            "problem.invalid",
        )
        return frozenset()
    unknown = [rule for rule in value if rule not in WAIVABLE]
    if unknown:
        check.problem(
            node.at("waive"),
            "waive",
            f"names no rule that can be waived: {show(unknown[0])} (rules: {allowed})",
            "problem.invalid",
        )
        return frozenset()
    return frozenset(value)


def _picture(check: Checker, node: YamlMapping) -> str | None:
    """The question's ``picture`` (an https URL or a Telegram file_id), or None."""
    if "picture" not in node:
        return None
    value = node["picture"]
    if (
        not isinstance(value, str)
        or len(value) > MAX_PICTURE
        or not PICTURE_PATTERN.fullmatch(value)
    ):
        check.problem(
            node.value_at("picture"),
            "picture",
            "must be an https URL of a photo or a Telegram file_id (at most"
            f" {MAX_PICTURE} characters), got {got(node, 'picture', is_picture)}",
            "problem.bad_picture",
            limit=MAX_PICTURE,
        )
        return None
    if not check.plain(value, node.value_at("picture"), "picture"):
        return None
    check.positions[(check.question_id, "picture")] = node.value_at("picture")
    return value
