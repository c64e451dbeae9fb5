"""banks/schema.json and the loader agree: every bank the loader accepts the schema accepts, and
banks the loader refuses for their structure the schema refuses too."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from bot.bankload import BankError, bank_files, parse_bank
from bot.config import BUNDLED_BANKS
from bot.kernel.bank import MAX_QUESTIONS
from bot.kernel.checks import WAIVABLE
from tests.bankload.test_bankload import make_bank
from tests.support import bankgen, optionbanks

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "banks" / "schema.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SCHEMA_LINE = "# yaml-language-server: $schema=./schema.json"


def dump(data: dict[str, Any]) -> str:
    """A bank mapping as YAML text."""
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000)


def schema_errors(document: str) -> list[str]:
    """The schema's complaints about a YAML document (none: it is accepted)."""
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in VALIDATOR.iter_errors(yaml.safe_load(document))
    ]


def test_the_schema_is_a_valid_draft_2020_12_schema():
    """The schema itself is well-formed for its declared draft."""
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_every_shipped_bank_names_the_schema_on_its_first_line():
    """Editors with the YAML language server find the schema from each bank's first line."""
    files = bank_files([BUNDLED_BANKS])
    assert files
    for path in files:
        assert path.read_text(encoding="utf-8").splitlines()[0] == SCHEMA_LINE, path


ACCEPTED: dict[str, Callable[[], str]] = {
    "test fixture (tests/bankload/test_bankload.make_bank)": lambda: dump(make_bank()),
    "generated 100-question bank with a guide (tests/support/bankgen)": lambda: dump(
        bankgen.bank_data(100, languages=("en", "hi", "el"))
    ),
    **{
        f"{count}-option bank (tests/optionbanks)": (
            lambda count=count: dump(optionbanks.bank_data(count, questions=3))
        )
        for count in range(2, 11)
    },
}


@pytest.mark.parametrize("path", bank_files([BUNDLED_BANKS]), ids=lambda p: p.name)
def test_the_schema_accepts_the_shipped_banks(path):
    """Each bundled bank passes both the loader and the schema."""
    document = path.read_text(encoding="utf-8")
    parse_bank(document, str(path))
    assert schema_errors(document) == []


@pytest.mark.parametrize("name", ACCEPTED)
def test_the_schema_accepts_what_the_loader_accepts(name):
    """Fixtures and generated banks that load pass the schema."""
    document = ACCEPTED[name]()
    parse_bank(document)
    assert schema_errors(document) == []


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change that sets the field at a dotted path (list indices as numbers)."""

    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return change


def _delete(path: str) -> Callable[[dict[str, Any]], None]:
    """A change that removes the field at a dotted path."""

    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        del node[last]

    return change


def _options(count: int) -> Callable[[dict[str, Any]], None]:
    """A change that gives the first question ``count`` options (the first correct)."""

    def change(data: dict[str, Any]) -> None:
        data["questions"][0]["options"] = [
            {
                "text": {"en": f"Option {i}", "hi": f"विकल्प {i}"},
                **({"correct": True} if not i else {}),
            }
            for i in range(count)
        ]

    return change


def _both_correct(data: dict[str, Any]) -> None:
    for option in data["questions"][0]["options"][:2]:
        option["correct"] = True


def _all_correct(data: dict[str, Any]) -> None:
    for option in data["questions"][0]["options"]:
        option["correct"] = True


def _true_false(answer: Any) -> Callable[[dict[str, Any]], None]:
    """A change that makes the first question true/false with ``answer`` (None: none)."""

    def change(data: dict[str, Any]) -> None:
        question = data["questions"][0]
        question.pop("options")
        question["kind"] = "true-false"
        if answer is not None:
            question["answer"] = answer

    return change


def _none_correct(data: dict[str, Any]) -> None:
    for option in data["questions"][0]["options"]:
        option.pop("correct", None)


def _too_many_questions(data: dict[str, Any]) -> None:
    first = data["questions"][0]
    data["questions"] = [{**copy.deepcopy(first), "id": f"q{i}"} for i in range(MAX_QUESTIONS + 1)]


ACCEPTED_KINDS: dict[str, Callable[[dict[str, Any]], None]] = {
    "two correct options": _both_correct,
    "twelve options": _options(12),
    "a true-false question": _true_false(False),
    "a picture by URL": _set("questions.0.picture", "https://example.org/a.png"),
    "a picture by file_id": _set("questions.0.picture", "AgACAgIAAxkBAAIBY2ZfakeFileId0123"),
    "no explanation and no source": lambda data: [
        data["questions"][0].pop(key) for key in ("explanation", "source")
    ],
    "a waived rule": _set("questions.0.waive", ["uneven-lengths"]),
    "every rule that can be waived": _set("questions.0.waive", list(WAIVABLE)),
    "options that keep their order": _set("questions.0.shuffle", False),
}


@pytest.mark.parametrize("name", ACCEPTED_KINDS)
def test_the_schema_and_the_loader_accept_the_question_kinds(name):
    """Several right options, twelve options, true/false and pictures: both accept them."""
    data = make_bank()
    ACCEPTED_KINDS[name](data)
    document = dump(data)
    parse_bank(document)
    assert not schema_errors(document)


REFUSED: dict[str, Callable[[dict[str, Any]], None]] = {
    "a required bank key is missing": _delete("title"),
    "an unknown bank key (a typo)": _set("titel", {"en": "T", "hi": "टी"}),
    "an unknown question key": _set("questions.0.explaination", {"en": "E", "hi": "ई"}),
    "an unknown option key": _set("questions.0.options.0.right", True),
    "one option": _options(1),
    "thirteen options": _options(13),
    "every option correct": _all_correct,
    "a true-false question with options": _set("questions.0.kind", "true-false"),
    "a true-false answer that is text": _true_false("true"),
    "a true-false question without its answer": _true_false(None),
    "an answer on a choice question": _set("questions.0.answer", True),
    "an unknown kind": _set("questions.0.kind", "poll"),
    "a picture that is an http URL": _set("questions.0.picture", "http://example.org/a.png"),
    "no correct option": _none_correct,
    "correct is not a boolean": _set("questions.0.options.0.correct", "yes"),
    "a bank id with capitals": _set("id", "Test-Bank"),
    "a question id with an underscore": _set("questions.0.id", "q_one"),
    "version 0": _set("version", 0),
    "version as text": _set("version", "1"),
    "an unknown level": _set("level", "expert"),
    "no languages": _set("languages", []),
    "a language listed twice": _set("languages", ["en", "en"]),
    "a blank text": _set("questions.0.prompt.en", "   "),
    "a text that is a number": _set("questions.0.prompt.en", 42),
    "an escape character in an option": _set("questions.0.options.1.text.en", "a\x1b[2Jb"),
    "a source URL that is not http(s)": _set("questions.0.source.url", "ftp://example.org/x"),
    "a localized text that is a string": _set("description", "no languages"),
    "no questions": _set("questions", []),
    "too many questions": _too_many_questions,
    "a guide label over 40 characters": _set(
        "guide", {"url": "https://example.org", "label": {"en": "x" * 41, "hi": "य"}}
    ),
    "a guide without a label": _set("guide", {"url": "https://example.org"}),
    "a waived rule not in a list": _set("questions.0.waive", "uneven-lengths"),
    "an empty list of waived rules": _set("questions.0.waive", []),
    "a waived rule that does not exist": _set("questions.0.waive", ["uneven"]),
    "waiving the import placeholders": _set("questions.0.waive", ["import-placeholder"]),
    "shuffle as text": _set("questions.0.shuffle", "false"),
}


@pytest.mark.parametrize("name", REFUSED)
def test_the_schema_refuses_what_the_loader_refuses_for_its_structure(name):
    """A structural mistake: the loader refuses the bank, and so does the schema."""
    data = make_bank()
    REFUSED[name](data)
    document = dump(data)
    with pytest.raises(BankError):
        parse_bank(document)
    assert schema_errors(document), f"the schema accepted: {name}"


def test_the_schema_lists_the_rules_a_question_may_waive():
    """``waive``'s rule names in the schema are the checks' :data:`WAIVABLE`, in order."""
    waive = SCHEMA["$defs"]["question"]["properties"]["waive"]
    assert waive["items"]["enum"] == list(WAIVABLE)
