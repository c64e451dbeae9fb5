"""Tests for bot.bankload: the YAML loader of bank files, its validation and its problem reports."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.bankload import (
    MAX_BANK_BYTES,
    BankError,
    BankProblem,
    load_bank,
    load_banks,
    parse_bank,
)
from bot.bankload.yaml_positions import MAX_YAML_NODES
from bot.i18n import SUPPORTED
from bot.kernel.bank import MAX_QUESTION_UTF16

REAL_BANK = Path(__file__).resolve().parents[2] / "banks" / "deepspeed-megatron.yaml"


# --- helpers -------------------------------------------------------------------------------


def make_question(question_id: str, correct: int) -> dict[str, Any]:
    """A valid question (languages en and hi) whose option ``correct`` is the right one."""
    options: list[dict[str, Any]] = []
    for index in range(4):
        option: dict[str, Any] = {
            "text": {"en": f"Option {question_id} {index}", "hi": f"विकल्प {question_id} {index}"}
        }
        if index == correct:
            option["correct"] = True
        options.append(option)
    return {
        "id": question_id,
        "prompt": {"en": f"Prompt {question_id}?", "hi": f"प्रश्न {question_id}?"},
        "options": options,
        "explanation": {"en": f"Because {question_id}.", "hi": f"क्योंकि {question_id}।"},
        "source": {"title": f"Paper {question_id}", "url": "https://example.org/paper"},
    }


def make_bank() -> dict[str, Any]:
    """A valid minimal bank with two questions (q-one, q-two) in en and hi."""
    return {
        "id": "test-bank",
        "version": 1,
        "default_language": "en",
        "languages": ["en", "hi"],
        "level": "easy",
        "title": {"en": "Test bank", "hi": "परीक्षण बैंक"},
        "description": {"en": "A bank for tests.", "hi": "परीक्षणों के लिए बैंक।"},
        "questions": [make_question("q-one", 0), make_question("q-two", 1)],
    }


def dump(bank: dict[str, Any]) -> str:
    """The bank as block-style YAML text, keys in the order given."""
    return yaml.safe_dump(bank, allow_unicode=True, sort_keys=False, width=1000)


def write(tmp_path: Path, text: str, name: str = "bank.yaml") -> Path:
    """Write ``text`` to ``tmp_path / name`` and return the path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(path: Path) -> tuple[BankProblem, ...]:
    """Load ``path``, which must be invalid, and return the problems reported."""
    with pytest.raises(BankError) as info:
        load_bank(path)
    assert info.value.problems, "a BankError must list at least one problem"
    return info.value.problems


def line_of(text: str, needle: str, *, after: str | None = None, occurrence: int = 1) -> int:
    """1-based number of the ``occurrence``-th line containing ``needle`` (after ``after``)."""
    lines = text.splitlines()
    start = 0
    if after is not None:
        start = next(i for i, line in enumerate(lines) if after in line) + 1
    found = [i + 1 for i, line in enumerate(lines) if i >= start and needle in line]
    return found[occurrence - 1]


def find(problems: tuple[BankProblem, ...], field: str) -> BankProblem:
    """The one problem reported for ``field``."""
    matching = [p for p in problems if p.field == field]
    assert matching, f"no problem for field {field!r} in {[str(p) for p in problems]}"
    return matching[0]


def check(
    problem: BankProblem, path: Path, *, question_id: str | None, line: int | set[int] | None
) -> None:
    """Assert ``problem`` names the file, question and line, and its text says so too."""
    assert problem.file == str(path)
    assert problem.question_id == question_id
    if isinstance(line, set):
        assert problem.line in line
    else:
        assert problem.line == line
    text = str(problem)
    assert text.startswith(f"{path}:{problem.line}" if problem.line else str(path))
    assert repr(problem.field) in text
    if question_id is not None:
        assert repr(question_id) in text


# --- the helper and the real bank -----------------------------------------------------------


def test_minimal_bank_is_valid(tmp_path):
    """The test helper's minimal bank loads, so each test below breaks exactly one thing."""
    bank = load_bank(write(tmp_path, dump(make_bank())))
    assert bank.id == "test-bank"
    assert bank.languages == ("en", "hi")
    assert [q.id for q in bank.questions] == ["q-one", "q-two"]
    assert [q.correct_index for q in bank.questions] == [0, 1]
    assert bank.path == tmp_path / "bank.yaml"


def test_real_bank_loads():
    """The bundled bank has 8 questions in every supported language, each with one correct
    option, keyed A-D."""
    bank = load_bank(REAL_BANK)
    assert bank.id == "deepspeed-megatron"
    assert bank.languages == SUPPORTED
    assert bank.default_language == "en"
    assert len(bank.questions) == 8
    assert len({q.id for q in bank.questions}) == 8
    for index, question in enumerate(bank.questions):
        assert len(question.options) == 4
        assert sum(option.correct for option in question.options) == 1
        if question.shuffle:
            assert question.correct_index == index % 4, question.id  # seed key: A, B, C, D, A..
        else:  # the ZeRO stage questions keep their options in the stages' order
            assert [o.text.by_language["en"] for o in question.options] == [
                f"Stage {n}" for n in range(4)
            ], question.id
        for text in (
            question.prompt,
            question.explanation,
            *(option.text for option in question.options),
        ):
            assert set(text.by_language) == set(SUPPORTED)


def test_real_bank_loads_from_its_folder():
    """load_banks on the banks folder finds the bundled bank under its id."""
    banks = load_banks([REAL_BANK.parent])
    assert list(banks) == ["deepspeed-megatron"]
    assert banks["deepspeed-megatron"] == load_bank(REAL_BANK)


def test_markup_characters_load_verbatim(tmp_path):
    """Texts with <, & and * are kept as written: escaping is the renderer's job."""
    data = make_bank()
    prompt = "Is a<b && c>d for *all* x?"
    option = "<b>not bold</b> & *not italic*"
    data["questions"][0]["prompt"]["en"] = prompt
    data["questions"][0]["options"][0]["text"]["en"] = option
    data["title"]["hi"] = "परीक्षण <बैंक> & *"
    bank = load_bank(write(tmp_path, dump(data)))
    assert bank.questions[0].prompt.by_language["en"] == prompt
    assert bank.questions[0].options[0].text.by_language["en"] == option
    assert bank.title.by_language["hi"] == "परीक्षण <बैंक> & *"


# --- localized texts ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("where", "field", "question_id", "anchor"),
    [
        (("title",), "title.hi", None, None),
        (("questions", 1, "prompt"), "prompt.hi", "q-two", "id: q-two"),
        (("questions", 1, "explanation"), "explanation.hi", "q-two", "id: q-two"),
        (("questions", 0, "options", 2, "text"), "option 3.text.hi", "q-one", "Option q-one 1"),
    ],
)
def test_missing_language_in_a_localized_text(tmp_path, where, field, question_id, anchor):
    """A localized text without one of the bank's languages names the file, question and field."""
    data = make_bank()
    node: Any = data
    for step in where:
        node = node[step]
    del node["hi"]
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), field)
    key = where[-1] if isinstance(where[-1], str) else "text"
    key_line = line_of(text, f"{key}:", after=anchor)
    check(problem, path, question_id=question_id, line={key_line, key_line + 1})
    assert "missing" in problem.message


def test_empty_text(tmp_path):
    """An empty option text is reported with its field path and line."""
    data = make_bank()
    data["questions"][0]["options"][1]["text"]["en"] = ""
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "option 2.text.en")
    check(problem, path, question_id="q-one", line=line_of(text, "en: ''"))
    assert "non-empty" in problem.message


def test_invisible_text_is_empty(tmp_path):
    """A title or option of zero-width characters and direction marks only is empty text (an
    invisible button); such a character inside visible text is kept (Persian and Hindi need the
    joiners)."""
    data = make_bank()
    data["title"]["en"] = "\u200b\u200c"
    data["questions"][0]["options"][1]["text"]["en"] = "\u200e\ufeff "
    data["questions"][0]["options"][2]["text"]["en"] = "Stage\u200d 2"
    path = write(tmp_path, dump(data))
    problems = problems_of(path)
    assert "non-empty" in find(problems, "title.en").message
    assert "non-empty" in find(problems, "option 2.text.en").message
    assert not [p for p in problems if p.field == "option 3.text.en"]


def test_whitespace_only_text(tmp_path):
    """A prompt text of only spaces counts as empty."""
    data = make_bank()
    data["questions"][1]["prompt"]["hi"] = "   \t "
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "prompt.hi")
    check(problem, path, question_id="q-two", line=line_of(text, 'hi: "   ', after="id: q-two"))
    assert "non-empty" in problem.message


def test_null_text(tmp_path):
    """A text left without a value (YAML null) is reported like an empty one."""
    data = make_bank()
    data["description"]["en"] = None
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "description.en")
    check(problem, path, question_id=None, line=line_of(text, "en: null"))


# --- options ------------------------------------------------------------------------------


def test_every_option_correct(tmp_path):
    """A question whose options are all marked correct is refused, naming the question and its
    options line (two or more right options are fine: see test_question_kinds.py)."""
    data = make_bank()
    for option in data["questions"][0]["options"]:
        option["correct"] = True
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "options")
    check(problem, path, question_id="q-one", line=line_of(text, "options:", after="id: q-one"))
    assert "all 4 options" in problem.message


def test_no_correct_option(tmp_path):
    """A question with no option marked correct is refused."""
    data = make_bank()
    del data["questions"][1]["options"][1]["correct"]
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "options")
    check(problem, path, question_id="q-two", line=line_of(text, "options:", after="id: q-two"))
    assert "at least one" in problem.message
    assert "got 0" in problem.message


@pytest.mark.parametrize("count", [1, 13])
def test_wrong_option_count(tmp_path, count):
    """A question needs 2 to 12 options: 1 and 13 are refused with the count found."""
    data = make_bank()
    options = data["questions"][1]["options"]
    if count < 4:
        del options[count:]
    else:
        options.extend(
            {"text": {"en": f"Extra {i}", "hi": f"अतिरिक्त {i}"}} for i in range(count - 4)
        )
    assert len(options) == count
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "options")
    check(problem, path, question_id="q-two", line=line_of(text, "options:", after="id: q-two"))
    assert "2 to 12" in problem.message
    assert f"got {count}" in problem.message


def test_two_options_with_the_same_text(tmp_path):
    """Two options of a question with the same text in one language are refused."""
    data = make_bank()
    options = data["questions"][0]["options"]
    options[2]["text"]["hi"] = options[1]["text"]["hi"]
    text = dump(data)
    path = write(tmp_path, text)
    problems = problems_of(path)
    problem = find(problems, "option 3.text.hi")
    check(problem, path, question_id="q-one", line=line_of(text, "hi: विकल्प q-one 1", occurrence=2))
    assert problem.message == "has the same text as option 2"
    assert not [p for p in problems if p.field.endswith(".text.en")]


def test_shuffle_false_keeps_the_options_in_order(tmp_path):
    """``shuffle: false`` is read into the question; a question without it is shuffled."""
    data = make_bank()
    data["questions"][0]["shuffle"] = False
    bank = load_bank(write(tmp_path, dump(data)))
    assert [(q.shuffle, q.shuffled) for q in bank.questions] == [(False, False), (True, True)]


def test_shuffle_must_be_a_boolean(tmp_path):
    """``shuffle: "false"`` (quoted) is refused, with a hint to remove the quotes."""
    data = make_bank()
    data["questions"][1]["shuffle"] = "false"
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "shuffle")
    check(problem, path, question_id="q-two", line=line_of(text, "shuffle: 'false'"))
    assert "remove the quotes" in problem.message


def test_correct_must_be_a_boolean(tmp_path):
    """``correct: "yes"`` is refused as not true/false."""
    data = make_bank()
    data["questions"][0]["options"][0]["correct"] = "yes"
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "option 1.correct")
    check(problem, path, question_id="q-one", line=line_of(text, "correct: 'yes'"))


# --- ids ----------------------------------------------------------------------------------


def test_duplicate_question_ids(tmp_path):
    """A question id used twice is reported at the second use, naming the first question."""
    data = make_bank()
    data["questions"][1]["id"] = "q-one"
    text = dump(data)
    path = write(tmp_path, text)
    problems = problems_of(path)
    problem = find(problems, "id")
    check(problem, path, question_id="q-one", line=line_of(text, "id: q-one", occurrence=2))
    assert "duplicate" in problem.message
    assert "#1" in problem.message
    assert len(problems) == 1


@pytest.mark.parametrize(
    "bad_id",
    ["Test", "under_score", "-lead", "trail-", "a" * 33, "", "dots.in.id", "é", "with space", 12],
)
def test_bad_bank_id(tmp_path, bad_id):
    """A bank id that is not 1-32 chars of a-z, 0-9 and inner '-' is refused."""
    data = make_bank()
    data["id"] = bad_id
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "id")
    check(problem, path, question_id=None, line=line_of(text, "id:"))
    assert "1-32 chars" in problem.message


@pytest.mark.parametrize("bad_id", ["Q1", "q_1", "q-", "x" * 33])
def test_bad_question_id(tmp_path, bad_id):
    """A question id breaking the id pattern is reported for that question (by number)."""
    data = make_bank()
    data["questions"][1]["id"] = bad_id
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "id")
    check(problem, path, question_id="#2", line=line_of(text, "id:", after="id: q-one"))
    assert "1-32 chars" in problem.message


def test_longest_ids_are_valid(tmp_path):
    """Ids of exactly 32 characters and of 1 character are accepted."""
    data = make_bank()
    data["id"] = "b" * 32
    data["questions"][0]["id"] = "x"
    bank = load_bank(write(tmp_path, dump(data)))
    assert bank.id == "b" * 32
    assert bank.questions[0].id == "x"


@pytest.mark.parametrize("where", ["bank", "question"])
def test_id_with_a_trailing_newline_is_refused(tmp_path, where):
    """An id with a trailing newline (a YAML '|' block) is refused: the pattern matches in full."""
    data = make_bank()
    if where == "bank":
        data["id"] = "test-bank\n"
    else:
        data["questions"][0]["id"] = "q-one\n"
    path = write(tmp_path, dump(data))
    assert find(problems_of(path), "id")


# --- bank-level fields --------------------------------------------------------------------


@pytest.mark.parametrize("version", [0, -1, "1", True, 1.5, None])
def test_version_must_be_a_positive_integer(tmp_path, version):
    """Version 0, a negative, a quoted "1", true, a float or nothing are refused."""
    data = make_bank()
    data["version"] = version
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "version")
    check(problem, path, question_id=None, line=line_of(text, "version:"))
    assert "positive integer" in problem.message


def test_default_language_must_be_a_bank_language(tmp_path):
    """A default language not in ``languages`` is refused."""
    data = make_bank()
    data["default_language"] = "el"
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "default_language")
    check(problem, path, question_id=None, line=line_of(text, "default_language:"))
    assert "'el'" in problem.message


@pytest.mark.parametrize("level", ["expert", "Easy", "", None, 2])
def test_level_must_be_easy_medium_or_hard(tmp_path, level):
    """Any level but easy, medium or hard is refused."""
    data = make_bank()
    data["level"] = level
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "level")
    check(problem, path, question_id=None, line=line_of(text, "level:"))
    assert "easy, medium, hard" in problem.message


@pytest.mark.parametrize("languages", [[], "en", ["en", "EN"], ["en", "english"], ["en", "en"]])
def test_bad_languages_list(tmp_path, languages):
    """The languages list must be a non-empty list of distinct lowercase 2-3 letter codes."""
    data = make_bank()
    data["languages"] = languages
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "languages")
    check(problem, path, question_id=None, line=line_of(text, "languages:"))


def test_unknown_key_at_bank_level(tmp_path):
    """A misspelt bank-level key is reported at its line, with the allowed keys."""
    data = make_bank()
    data["levle"] = "hard"
    text = dump(data)
    path = write(tmp_path, text)
    problems = problems_of(path)
    problem = find(problems, "levle")
    check(problem, path, question_id=None, line=line_of(text, "levle:"))
    assert "unknown key" in problem.message
    assert "level" in problem.message
    assert len(problems) == 1


def test_empty_questions_list(tmp_path):
    """A bank with an empty question list is refused."""
    data = make_bank()
    data["questions"] = []
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "questions")
    check(problem, path, question_id=None, line=line_of(text, "questions:"))
    assert "non-empty" in problem.message


def test_a_missing_bank_key(tmp_path):
    """A bank without a description reports the missing field."""
    data = make_bank()
    del data["description"]
    path = write(tmp_path, dump(data))
    problem = find(problems_of(path), "description")
    check(problem, path, question_id=None, line=1)
    assert "missing" in problem.message


# --- unknown keys in questions and options ------------------------------------------------


def test_unknown_key_in_a_question(tmp_path):
    """The typo ``explaination`` is reported at its line (``explanation`` itself is optional)."""
    data = make_bank()
    question = data["questions"][1]
    question["explaination"] = question.pop("explanation")
    text = dump(data)
    path = write(tmp_path, text)
    problems = problems_of(path)
    problem = find(problems, "explaination")
    check(problem, path, question_id="q-two", line=line_of(text, "explaination:"))
    assert "unknown key" in problem.message
    assert "explanation" in problem.message


def test_unknown_key_in_a_question_names_the_question_id(tmp_path):
    """Unknown and missing keys of a question with a valid id name that id, not its number."""
    data = make_bank()
    question = data["questions"][1]
    question["explaination"] = question.pop("explanation")
    del question["prompt"]
    problems = problems_of(write(tmp_path, dump(data)))
    assert {(p.question_id, p.field) for p in problems} == {
        ("q-two", "explaination"),
        ("q-two", "prompt"),
    }


def test_unknown_key_in_an_option(tmp_path):
    """A misspelt option key (``corect``) is reported with the option's path."""
    data = make_bank()
    option = data["questions"][0]["options"][0]
    option["corect"] = option.pop("correct")
    text = dump(data)
    path = write(tmp_path, text)
    problems = problems_of(path)
    problem = find(problems, "option 1.corect")
    check(problem, path, question_id="q-one", line=line_of(text, "corect:"))
    assert "unknown key" in problem.message
    assert "correct" in problem.message
    # with the flag misspelt, q-one has no correct option any more
    assert "got 0" in find(problems, "options").message


def test_unknown_key_in_a_localized_text(tmp_path):
    """A language that the bank does not declare is an unknown key of the text."""
    data = make_bank()
    data["questions"][0]["prompt"]["el"] = "Ερώτηση;"
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "prompt.el")
    check(problem, path, question_id="q-one", line=line_of(text, "el: Ερώτηση;"))
    assert "unknown key" in problem.message


def question_size(question: dict[str, Any], language: str) -> int:
    """UTF-16 units of a question's prompt, options, explanation and source title."""
    texts = [
        question["prompt"][language],
        question["explanation"][language],
        question["source"]["title"],
        *(o["text"][language] for o in question["options"]),
    ]
    return sum(len(text.encode("utf-16-le")) // 2 for text in texts)


def test_question_that_fits_one_message_at_the_limit(tmp_path):
    """A question of exactly MAX_QUESTION_UTF16 units in a language is accepted."""
    data = make_bank()
    question = data["questions"][0]
    question["explanation"]["en"] = ""
    question["explanation"]["en"] = "x" * (MAX_QUESTION_UTF16 - question_size(question, "en"))
    assert question_size(question, "en") == MAX_QUESTION_UTF16
    assert load_bank(write(tmp_path, dump(data))).questions[0].id == "q-one"


def test_question_too_long_for_one_message(tmp_path):
    """A question whose texts exceed MAX_QUESTION_UTF16 units in one language is refused,
    counting astral-plane emoji as 2 units."""
    data = make_bank()
    question = data["questions"][1]
    question["explanation"]["hi"] = ""
    room = MAX_QUESTION_UTF16 - question_size(question, "hi")
    question["explanation"]["hi"] = "😀" * (room // 2 + 1)  # fits by code points, not by units
    assert len(question["explanation"]["hi"]) < room
    text = dump(data)
    path = write(tmp_path, text)
    problems = problems_of(path)
    assert [p.field for p in problems] == ["(all texts).hi"]
    check(problems[0], path, question_id="q-two", line=line_of(text, "prompt:", after="id: q-two"))
    assert str(MAX_QUESTION_UTF16) in problems[0].message


# --- guide and source ---------------------------------------------------------------------


def with_guide(url: str = "https://example.org/guide", label: str = "Read the guide"):
    """The minimal bank with a guide."""
    data = make_bank()
    data["guide"] = {"url": url, "label": {"en": label, "hi": "गाइड पढ़ें"}}
    return data


def test_valid_guide_loads(tmp_path):
    """A guide with an https URL and a 40-character label is accepted."""
    bank = load_bank(write(tmp_path, dump(with_guide(label="x" * 40))))
    assert bank.guide is not None
    assert bank.guide.url == "https://example.org/guide"
    assert bank.guide.label.by_language["en"] == "x" * 40


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.org/guide",
        "javascript:alert(1)",
        "www.example.org",
        "https://exa mple.org",
        "",
    ],
)
def test_guide_url_must_be_http(tmp_path, url):
    """A guide URL that is not http(s) is refused at its line."""
    text = dump(with_guide(url=url))
    path = write(tmp_path, text)
    problem = find(problems_of(path), "guide.url")
    check(problem, path, question_id=None, line=line_of(text, "url:", after="guide:"))
    assert "http(s) URL" in problem.message


def test_guide_label_too_long(tmp_path):
    """A guide label over 40 characters (a button) is refused, naming the language."""
    text = dump(with_guide(label="x" * 41))
    path = write(tmp_path, text)
    problem = find(problems_of(path), "guide.label.en")
    check(problem, path, question_id=None, line=line_of(text, "en: xxx", after="guide:"))
    assert "40" in problem.message


def test_source_missing_url(tmp_path):
    """A source without a URL is reported for the question's ``source.url``."""
    data = make_bank()
    del data["questions"][1]["source"]["url"]
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "source.url")
    source_line = line_of(text, "source:", after="id: q-two")
    check(problem, path, question_id="q-two", line={source_line, source_line + 1})
    assert "missing" in problem.message


@pytest.mark.parametrize(
    ("where", "key", "field"),
    [
        (("questions", 1, "source"), "url", "source.url"),
        (("questions", 1, "source"), "title", "source.title"),
        (("questions", 1), "prompt", "prompt"),
        (("questions", 1), "options", "options"),
        ((), "title", "title"),
        (("guide",), "url", "guide.url"),
        (("guide",), "label", "guide.label"),
    ],
)
def test_a_missing_field_is_reported_once(tmp_path, where, key, field):
    """One missing field is one problem ('is missing'), not also a complaint about its value."""
    data = with_guide()
    node: Any = data
    for step in where:
        node = node[step]
    del node[key]
    problems = problems_of(write(tmp_path, dump(data)))
    assert [(p.field, p.message) for p in problems] == [(field, "is missing")]


def test_source_url_must_be_http(tmp_path):
    """A source URL that is not http(s) is refused."""
    data = make_bank()
    data["questions"][0]["source"]["url"] = "arxiv.org/abs/1910.02054"
    text = dump(data)
    path = write(tmp_path, text)
    problem = find(problems_of(path), "source.url")
    check(problem, path, question_id="q-one", line=line_of(text, "url: arxiv.org"))


# --- YAML-level problems ------------------------------------------------------------------


def test_duplicate_yaml_key(tmp_path):
    """A key given twice in one mapping is a YAML problem reported at the second key."""
    text = dump(make_bank()).replace("level: easy\n", "level: easy\nlevel: hard\n")
    path = write(tmp_path, text)
    problems = problems_of(path)
    assert len(problems) == 1
    check(problems[0], path, question_id=None, line=line_of(text, "level: hard"))
    assert problems[0].field == "level"
    assert problems[0].column == 1
    assert "duplicate key 'level'" in problems[0].message


def test_duplicate_yaml_key_in_a_question(tmp_path):
    """A key given twice inside a question is found too (the loader checks nested mappings)."""
    text = dump(make_bank())
    explanation = line_of(text, "explanation:", after="id: q-two")
    lines = text.splitlines(keepends=True)
    lines.insert(explanation - 1, "  prompt: {en: again, hi: फिर}\n")
    text = "".join(lines)
    path = write(tmp_path, text)
    problems = problems_of(path)
    assert len(problems) == 1
    check(problems[0], path, question_id="q-two", line=explanation)
    assert problems[0].field == "prompt"
    assert "duplicate key 'prompt'" in problems[0].message


def test_bad_indentation_reports_the_line(tmp_path):
    """A mis-indented key makes bad YAML, reported at the offending line."""
    text = dump(make_bank())
    prompt = line_of(text, "prompt:", after="id: q-two")
    lines = text.splitlines(keepends=True)
    lines[prompt - 1] = " " + lines[prompt - 1].lstrip(" ")  # 1 space instead of 2
    text = "".join(lines)
    path = write(tmp_path, text)
    problems = problems_of(path)
    assert len(problems) == 1
    check(problems[0], path, question_id="q-two", line=prompt)
    assert (problems[0].field, problems[0].column) == ("prompt", 2)
    assert problems[0].message.startswith("bad YAML")
    assert "check the indentation of this line" in problems[0].message


@pytest.mark.parametrize(
    ("original", "broken", "question_id", "field"),
    [
        ("en: Prompt q-one?", 'en: "Prompt q-one?', "q-one", "prompt.en"),
        ("en: Test bank", "en: 'Test bank", None, "title.en"),
        ("hi: विकल्प q-two 3", 'hi: "विकल्प q-two 3', "q-two", "option 4.text.hi"),
    ],
)
def test_unclosed_quote_is_reported_where_it_opens(tmp_path, original, broken, question_id, field):
    """An unclosed quote is bad YAML reported at the line and column of the quote, not the end
    of file, with the question and field it is in."""
    text = dump(make_bank()).replace(original, broken)
    quote = line_of(text, broken)
    assert quote < len(text.splitlines())
    path = write(tmp_path, text)
    (problem,) = problems_of(path)
    check(problem, path, question_id=question_id, line=quote)
    assert problem.field == field
    assert problem.column == text.splitlines()[quote - 1].index(broken[:5]) + 5
    assert problem.message.startswith("bad YAML")
    assert "quoted scalar" in problem.message
    assert "close the quote" in problem.message


def test_unclosed_bracket_is_reported(tmp_path):
    """An unclosed flow mapping is bad YAML with a line at or after the bracket."""
    text = dump(make_bank()).replace("languages:\n- en\n- hi\n", "languages: [en, hi\n")
    bracket = line_of(text, "languages: [en, hi")
    (problem,) = problems_of(write(tmp_path, text))
    assert problem.line is not None and problem.line >= bracket
    assert problem.message.startswith("bad YAML")


def test_document_that_is_not_a_mapping(tmp_path):
    """A YAML list at the top is refused as not a mapping."""
    path = write(tmp_path, "- id: x\n")
    (problem,) = problems_of(path)
    assert problem.file == str(path)
    assert "mapping" in problem.message


def test_unreadable_file(tmp_path):
    """A file that does not exist is a problem naming it, not a crash."""
    path = tmp_path / "missing.yaml"
    (problem,) = problems_of(path)
    assert problem.file == str(path)
    assert "cannot read" in problem.message


# --- reporting every problem --------------------------------------------------------------


def test_all_problems_of_a_file_are_reported_together(tmp_path):
    """A file with three distinct problems raises one error listing all three."""
    data = make_bank()
    data["version"] = 0
    data["level"] = "expert"
    data["questions"][1]["options"][2]["text"]["hi"] = ""
    text = dump(data)
    path = write(tmp_path, text)
    with pytest.raises(BankError) as info:
        load_bank(path)
    problems = info.value.problems
    assert sorted(p.field for p in problems) == ["level", "option 3.text.hi", "version"]
    check(find(problems, "version"), path, question_id=None, line=line_of(text, "version:"))
    check(find(problems, "level"), path, question_id=None, line=line_of(text, "level:"))
    check(
        find(problems, "option 3.text.hi"), path, question_id="q-two", line=line_of(text, "hi: ''")
    )
    assert len(str(info.value).splitlines()) == 3


def test_problems_in_several_questions_are_all_reported(tmp_path):
    """Problems in different questions are all listed, each with its own question id."""
    data = make_bank()
    data["questions"][0]["options"][0]["correct"] = False
    data["questions"][1]["explanation"]["en"] = " "
    problems = problems_of(write(tmp_path, dump(data)))
    assert {(p.question_id, p.field) for p in problems} == {
        ("q-one", "options"),
        ("q-two", "explanation.en"),
    }


def test_duplicate_options_are_reported_even_with_a_bad_prompt(tmp_path):
    """An empty prompt text and two identical options are both reported."""
    data = make_bank()
    question = data["questions"][0]
    question["prompt"]["en"] = ""
    question["options"][2]["text"]["en"] = question["options"][1]["text"]["en"]
    problems = problems_of(write(tmp_path, dump(data)))
    assert {p.field for p in problems} == {"prompt.en", "option 3.text.en"}


# --- load_banks ---------------------------------------------------------------------------


def test_two_files_with_the_same_bank_id(tmp_path):
    """Two bank files sharing an id are refused, naming the second file and the first."""
    first = write(tmp_path, dump(make_bank()), "a.yaml")
    second = write(tmp_path, dump(make_bank()), "b.yaml")
    with pytest.raises(BankError) as info:
        load_banks([tmp_path])
    (problem,) = info.value.problems
    assert problem.file == str(second)
    assert problem.field == "id"
    assert "'test-bank'" in problem.message
    assert str(first) in problem.message


def test_empty_folder(tmp_path):
    """A folder without bank files is an error naming the folder."""
    (tmp_path / "notes.txt").write_text("not a bank", encoding="utf-8")
    with pytest.raises(BankError) as info:
        load_banks([tmp_path])
    (problem,) = info.value.problems
    assert problem.file == str(tmp_path)
    assert "no bank files" in problem.message


def test_load_banks_lists_the_problems_of_every_file(tmp_path):
    """With two invalid files, the problems of both are listed in one error."""
    first = make_bank()
    first["version"] = 0
    second = make_bank()
    second["id"] = "other-bank"
    second["level"] = "expert"
    write(tmp_path, dump(first), "a.yaml")
    write(tmp_path, dump(second), "b.yml")
    with pytest.raises(BankError) as info:
        load_banks([tmp_path])
    assert {(Path(p.file).name, p.field) for p in info.value.problems} == {
        ("a.yaml", "version"),
        ("b.yml", "level"),
    }


def test_load_banks_keys_banks_by_id(tmp_path):
    """Valid banks from files and folders are returned keyed by their id."""
    other = make_bank()
    other["id"] = "other-bank"
    folder = tmp_path / "banks"
    folder.mkdir()
    write(folder, dump(make_bank()), "one.yaml")
    single = write(tmp_path, dump(other), "single.yaml")
    banks = load_banks([folder, single])
    assert sorted(banks) == ["other-bank", "test-bank"]
    assert banks["other-bank"].path == single


# --- hostile files (issue "Abuse and privacy", item 8) ----------------------------------------


def alias_bomb(levels: int) -> str:
    """A bank whose title is ``10**levels`` leaves through nested aliases ("billion laughs")."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, levels)]
    return "\n".join([*lines, f"title: *a{levels - 1}", ""])


@pytest.mark.parametrize("levels", [6, 9])
def test_an_alias_bomb_is_refused_before_it_expands(tmp_path, levels):
    """A few hundred bytes that alias their way to 10^6 (or 10^9) leaves are refused at once,
    with one short problem naming the line where the budget ran out."""
    text = alias_bomb(levels)
    assert len(text.encode()) < 800
    (problem,) = problems_of(write(tmp_path, text))
    assert problem.field == "a4"
    assert f"expands to more than {MAX_YAML_NODES:,} values" in problem.message
    assert problem.line == 5  # a4 is the first list over 100,000 values
    assert len(str(problem)) < 300


def test_a_recursive_alias_is_refused(tmp_path):
    """An alias inside the node it names (a structure containing itself) is refused."""
    (problem,) = problems_of(write(tmp_path, "title: &t [1, *t]\n"))
    assert "alias to a node that contains it" in problem.message


def test_aliases_within_the_budget_still_load(tmp_path):
    """Anchors and aliases are ordinary YAML: a bank sharing its source through one loads."""
    text = dump(make_bank()).replace(
        "source:\n    title: Paper q-one\n    url: https://example.org/paper",
        "source: &paper\n    title: Paper q-one\n    url: https://example.org/paper",
        1,
    )
    text = text.replace(
        "source:\n    title: Paper q-two\n    url: https://example.org/paper", "source: *paper", 1
    )
    assert "*paper" in text
    bank = load_bank(write(tmp_path, text))
    assert bank.questions[1].source == bank.questions[0].source


def test_a_file_over_the_size_cap_is_refused_unread(tmp_path):
    """A bank file over 1 MiB is refused with its size, whatever it holds."""
    path = write(tmp_path, dump(make_bank()) + "#" * MAX_BANK_BYTES + "\n")
    (problem,) = problems_of(path)
    assert problem.field == "(file)"
    assert f"is {path.stat().st_size:,} bytes" in problem.message
    assert f"at most {MAX_BANK_BYTES:,} bytes" in problem.message
    with pytest.raises(BankError, match="at most 1,048,576 bytes"):
        parse_bank(path.read_text(encoding="utf-8"))


def test_a_file_at_the_size_cap_is_read(tmp_path):
    """A file of exactly 1 MiB (a valid bank padded with a comment) loads."""
    text = dump(make_bank())
    text += "#" * (MAX_BANK_BYTES - len(text.encode()) - 1) + "\n"
    assert len(text.encode()) == MAX_BANK_BYTES
    assert load_bank(write(tmp_path, text)).id == "test-bank"


@pytest.mark.parametrize(
    "field, value",
    [
        ("id", "x" * 100_000),
        ("version", ["y" * 500] * 1000),
        ("languages", [{"k": "z" * 100_000}] * 1000),
        ("level", "w" * 100_000),
    ],
)
def test_a_long_bad_value_gives_a_short_message(tmp_path, field, value):
    """A huge bad value is quoted cut short: no problem line passes a few hundred characters."""
    data = make_bank()
    data[field] = value
    problems = problems_of(write(tmp_path, dump(data)))
    assert any(p.field == field for p in problems)
    assert all(len(str(p)) < 300 for p in problems), [len(str(p)) for p in problems]


def test_a_long_unknown_key_and_a_long_yaml_error_are_cut(tmp_path):
    """An unknown key of 100,000 characters, and a YAML error quoting a long tag, stay short."""
    data = make_bank()
    data["k" * 100_000] = 1
    (problem,) = problems_of(write(tmp_path, dump(data)))
    assert "unknown key" in problem.message and len(str(problem)) < 300
    (problem,) = problems_of(write(tmp_path, dump(make_bank()) + f"extra: !{'t' * 100_000} 1\n"))
    assert "bad YAML" in problem.message and len(str(problem)) < 300


@pytest.mark.parametrize("char", ["\x1b", "\x9b", "\r", "\x00", "\x7f"])
def test_a_control_character_in_an_option_is_refused(tmp_path, char):
    """ESC (and the other C0/C1 controls but tab and line feed) in an option is refused, naming
    the file, line, question and field; it could drive the terminal of `quizbot play`."""
    data = make_bank()
    data["questions"][1]["options"][2]["text"]["hi"] = f"red{char}[31m text"
    text = dump(data)
    assert char not in text  # YAML writes it escaped, as a contributor would have to
    path = write(tmp_path, text)
    (problem,) = problems_of(path)
    check(problem, path, question_id="q-two", line=line_of(text, "red"))
    assert problem.field == "option 3.text.hi"
    assert f"control character U+{ord(char):04X} at character 4" in problem.message


@pytest.mark.parametrize("where", ["title", "explanation", "source.title", "source.url"])
def test_an_escape_anywhere_in_the_text_is_refused(tmp_path, where):
    """Titles, explanations, source titles and URLs are checked too."""
    data = make_bank()
    if where == "title":
        data["title"]["en"] = "T\x1b]0;pwned\x07"
    elif where == "explanation":
        data["questions"][0]["explanation"]["en"] = "E\x1b[2J"
    elif where == "source.title":
        data["questions"][0]["source"]["title"] = "S\x1b[2J"
    else:
        data["questions"][0]["source"]["url"] = "https://example.org/\x1b[2J"
    problems = problems_of(write(tmp_path, dump(data)))
    assert [p.field for p in problems] == [
        f"{where}.en" if where in ("title", "explanation") else where
    ]
    assert "control character U+001B" in problems[0].message


def test_tabs_and_line_breaks_are_plain_text(tmp_path):
    """Tab and line feed stay allowed (a multi-line explanation is ordinary)."""
    data = make_bank()
    data["questions"][0]["explanation"]["en"] = "Line one,\n\tline two."
    bank = load_bank(write(tmp_path, dump(data)))
    assert bank.questions[0].explanation.by_language["en"] == "Line one,\n\tline two."


# --- messages for bank authors: place, field and a hint ----------------------------------------


def test_every_problem_gives_line_and_column(tmp_path):
    """Each problem is written as ``file:line:column:`` and the column points at the value."""
    data = make_bank()
    data["level"] = "expert"
    data["questions"][1]["options"][2]["text"]["hi"] = ""
    text = dump(data)
    path = write(tmp_path, text)
    problems = problems_of(path)
    level = find(problems, "level")
    assert (level.line, level.column) == (line_of(text, "level: expert"), len("level: ") + 1)
    assert str(level).startswith(f"{path}:{level.line}:{level.column}: field 'level': ")
    empty = find(problems, "option 3.text.hi")
    row = text.splitlines()[empty.line - 1]
    assert row[empty.column - 1 :].startswith("''")
    assert str(empty).startswith(
        f"{path}:{empty.line}:{empty.column}: question 'q-two', field 'option 3.text.hi': "
    )


def test_options_are_counted_from_1_in_every_message(tmp_path):
    """The field of an option's problem and the messages about options both count from 1."""
    data = make_bank()
    options = data["questions"][0]["options"]
    options[0]["text"]["en"] = ""
    options[3]["correct"] = "yes"
    problems = problems_of(write(tmp_path, dump(data)))
    assert find(problems, "option 1.text.en")
    assert find(problems, "option 4.correct")
    assert not [p for p in problems if "[" in p.field or "counting from" in p.message]


def test_a_key_without_its_colon_is_reported_on_its_own_line(tmp_path):
    """``explanation`` without ``:``: PyYAML gives up on the next line; the report names the
    line and column of the key, the question, the field and how to fix it."""
    text = dump(make_bank())
    explanation = line_of(text, "explanation:", after="id: q-two")
    text = text.replace("explanation:", "explanation", 2).replace("explanation", "explanation:", 1)
    (problem,) = problems_of(write(tmp_path, text))
    assert (problem.line, problem.column) == (explanation, 3)
    assert (problem.question_id, problem.field) == ("q-two", "explanation")
    assert "put ': ' after the key" in problem.message


@pytest.mark.parametrize("after", ["id", "prompt", "source"])
def test_a_key_with_a_value_without_its_colon_names_that_key(tmp_path, after):
    """``kind true-false`` (the colon lost, the value kept) is reported in the field 'kind', on
    its own line, wherever it stands among the question's keys (it was named after the key or
    text above it: 'id', 'prompt.hi', 'source.url')."""
    data = make_bank()
    question = data["questions"][1]
    del question["options"]
    question["answer"] = False
    keys = list(question)
    keys.insert(keys.index(after) + 1, "kind")
    data["questions"][1] = {key: question.get(key, "true-false") for key in keys}
    text = dump(data).replace("kind: true-false", "kind true-false")
    row = line_of(text, "kind true-false")
    (problem,) = problems_of(write(tmp_path, text))
    assert (problem.line, problem.column) == (row, 3)
    assert (problem.question_id, problem.field) == ("q-two", "kind")
    assert "put ': ' after the key" in problem.message


def test_a_line_of_text_at_a_keys_indentation_is_not_taken_for_a_key(tmp_path):
    """A value's words at the keys' indentation (no colon, not a key of the format or of the
    file) stay in the field they go on from, as before."""
    text = dump(make_bank()).replace("    en: Prompt q-one?", "    en: Prompt\n    q-one?")
    (problem,) = problems_of(write(tmp_path, text))
    assert (problem.question_id, problem.field) == ("q-one", "prompt.en")


def test_a_value_with_colon_space_gets_the_indentation_and_quoting_hint(tmp_path):
    """``en: Stage 3: the best`` is "mapping values are not allowed here", with the hint to
    check the indentation or quote the value, at the second colon, in the option's field."""
    text = dump(make_bank()).replace("en: Option q-two 2", "en: Option q-two 2: the best")
    row = line_of(text, "Option q-two 2: the best")
    (problem,) = problems_of(write(tmp_path, text))
    assert (problem.line, problem.column) == (row, text.splitlines()[row - 1].index(": the") + 1)
    assert (problem.question_id, problem.field) == ("q-two", "option 3.text.en")
    assert "mapping values are not allowed here" in problem.message
    assert (
        "check the indentation of this line or the one before; a value containing ': ' "
        "must be quoted"
    ) in problem.message


def test_a_mis_indented_key_gets_the_indentation_hint(tmp_path):
    """A key indented one space too far under a text is reported with the hint."""
    text = dump(make_bank()).replace("    hi: प्रश्न q-one?", "     hi: प्रश्न q-one?")
    row = line_of(text, "hi: प्रश्न q-one?")
    (problem,) = problems_of(write(tmp_path, text))
    assert problem.line == row
    assert (problem.question_id, problem.field) == ("q-one", "prompt.hi")
    assert "indentation" in problem.message


@pytest.mark.parametrize(
    ("written", "reading"),
    [("no", "false"), ("yes", "true"), ("1:30", "the number 90"), ("3.0", "the number 3.0")],
)
def test_an_unquoted_value_yaml_reads_as_no_text_says_quote_it(tmp_path, written, reading):
    """YAML 1.1 reads unquoted ``no``/``yes`` as booleans and ``1:30`` as 90 (base 60): the
    problem shows the value as written, what YAML made of it, and says to quote it."""
    text = dump(make_bank()).replace("en: Option q-one 2", f"en: {written}")
    (problem,) = problems_of(write(tmp_path, text))
    assert problem.field == "option 3.text.en"
    assert f"got {written!r}, which YAML reads as {reading}" in problem.message
    assert f'quote it ("{written}")' in problem.message


def test_a_quoted_true_is_one_problem_without_a_misleading_count(tmp_path):
    """``correct: "true"`` is reported once, with "remove the quotes", and no "got 0"."""
    text = dump(make_bank()).replace("correct: true", 'correct: "true"', 1)
    path = write(tmp_path, text)
    (problem,) = problems_of(path)
    check(problem, path, question_id="q-one", line=line_of(text, 'correct: "true"'))
    assert problem.field == "option 1.correct"
    assert problem.message == "must be true or false, got the text 'true': remove the quotes"
    assert problem.column == text.splitlines()[problem.line - 1].index('"true"') + 1


def test_a_tab_in_the_indentation_gets_the_spaces_hint(tmp_path):
    """A tab before a key: the report says to indent with spaces and names the question (the
    field is a guess, as the width of a tab is unknown)."""
    text = dump(make_bank()).replace("  explanation:", "\texplanation:", 1)
    (problem,) = problems_of(write(tmp_path, text))
    assert problem.line == line_of(text, "\texplanation:")
    assert problem.question_id == "q-one"
    assert "indent with spaces, not tabs" in problem.message


def test_the_bank_records_where_each_text_is():
    """``Bank.positions`` gives line and column of each localized text (for item checks)."""
    bank = load_bank(REAL_BANK)
    text = REAL_BANK.read_text(encoding="utf-8").splitlines()
    line, column = bank.positions[("zero-stage-params", "option 4.text.el")]
    assert text[line - 1][column - 1 :].startswith('"Στάδιο 3"')
    line, column = bank.positions[(None, "title.hi")]
    assert text[line - 1].lstrip().startswith("hi:")


# --- advice that is itself valid, fields as an author reads them, waivers -------------------


@pytest.mark.parametrize(
    ("field", "written", "reading"),
    [("version", "1.5", "the number 1.5"), ("level", "2", "the number 2")],
)
def test_no_advice_to_quote_a_value_that_quoted_would_still_be_wrong(
    tmp_path, field, written, reading
):
    """``version: 1.5`` or ``level: 2`` quoted would be text, still no version or level: the
    problem says what YAML read, and does not advise quoting it."""
    data = make_bank()
    text = dump(data).replace(f"{field}: {data[field]}", f"{field}: {written}", 1)
    problem = find(problems_of(write(tmp_path, text)), field)
    assert f"got {written!r}, which YAML reads as {reading}" in problem.message
    assert "quote it" not in problem.message


def test_an_unquoted_number_id_is_advised_to_be_quoted(tmp_path):
    """``id: 2`` is the number 2; quoted, "2" is a valid question id: the advice stands."""
    text = dump(make_bank()).replace("- id: q-two", "- id: 2", 1)
    problem = find(problems_of(write(tmp_path, text)), "id")
    assert problem.message.endswith(
        "got '2', which YAML reads as the number 2 when it is not quoted: quote it (\"2\")"
    )


def test_a_stray_list_item_under_an_option_is_named_as_the_author_reads_it(tmp_path):
    """A ``- text:`` indented under the option before it is reported in that option, in
    words (no ``option 2[1].text``), with what is wrong with the line."""
    text = dump(make_bank())
    row = line_of(text, "en: Option q-two 2")  # the third option's text, under "- text:"
    lines = text.splitlines()
    lines[row - 2] = "  " + lines[row - 2]  # "- text:" of option 3 moved under option 2
    problem = find(problems_of(write(tmp_path, "\n".join(lines) + "\n")), "option 2")
    assert problem.question_id == "q-two"
    assert "[" not in problem.field
    assert 'this line is in a list item ("- ") inside option 2, where no list belongs' in (
        problem.message
    )


def test_a_question_may_waive_rules_by_name(tmp_path):
    """``waive: [uneven-lengths, answer-leak]`` loads as the question's waived rules, and the
    dumped bank keeps them."""
    from bot.bankload.dump import dump_bank

    data = make_bank()
    data["questions"][0]["waive"] = ["uneven-lengths", "answer-leak"]
    bank = load_bank(write(tmp_path, dump(data)))
    assert bank.questions[0].waived == {"uneven-lengths", "answer-leak"}
    assert bank.questions[1].waived == frozenset()
    assert parse_bank(dump_bank(bank)) == bank


@pytest.mark.parametrize(
    ("waive", "says"),
    [
        ("uneven-lengths", "must be a list of rule names: write [uneven-lengths]"),
        (
            [],
            "must be a list of rule names (of: longest-correct, uneven-lengths, "
            "all-none-of-the-above, option-in-stem, answer-leak), got a list",
        ),
        (["uneven"], "names no rule that can be waived: 'uneven' (rules: longest-correct, "),
        (["import-placeholder"], "names no rule that can be waived: 'import-placeholder'"),
    ],
)
def test_a_waiver_that_is_not_a_list_of_rules_is_a_problem(tmp_path, waive, says):
    """A waived rule must be named exactly, in a list; the placeholder rule is not one."""
    data = make_bank()
    data["questions"][1]["waive"] = waive
    text = dump(data)
    problem = find(problems_of(write(tmp_path, text)), "waive")
    assert problem.question_id == "q-two"
    assert problem.line == line_of(text, "waive:")
    assert says in problem.message


def test_a_slip_near_the_start_of_a_large_file_is_read_again_only_up_to_it(monkeypatch):
    """A document that libyaml refuses is read again by PyYAML's own (slow) parser for its
    messages: only up to the error and a margin, and the problem is the one the whole
    document gives; an alias bomb is not read again at all."""
    from bot.bankload import yaml_positions

    document = "a: 1\nb: {en: 'x': y}\n" + "c: 1\n" * 200_000
    whole = parse_problems(document)
    lengths: list[int] = []
    load = yaml.load

    def counted(text, Loader):  # type: ignore[no-untyped-def]
        if Loader is yaml_positions._PureLineLoader:
            lengths.append(len(text))
        return load(text, Loader=Loader)

    monkeypatch.setattr(yaml_positions.yaml, "load", counted)
    assert parse_problems(document) == whole
    assert lengths and max(lengths) <= 30 + yaml_positions.REREAD_MARGIN
    lengths.clear()
    bomb = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(6)
    )
    assert [p.key for p in parse_problems(bomb)] == ["problem.yaml"]
    assert lengths == []


def parse_problems(document: str) -> list[BankProblem]:
    """The problems of ``document`` (parse_bank's)."""
    with pytest.raises(BankError) as raised:
        parse_bank(document)
    return list(raised.value.problems)


def test_a_slip_far_into_a_large_file_is_reported_as_libyaml_puts_it(monkeypatch):
    """Past REREAD_LIMIT characters the slow parser does not read the document again: the
    problem has libyaml's line and column."""
    from bot.bankload import yaml_positions

    document = "c: 1\n" * 60_000 + "b: {en: 'x': y}\n"
    read_again: list[int] = []
    load = yaml.load

    def counted(text, Loader):  # type: ignore[no-untyped-def]
        if Loader is yaml_positions._PureLineLoader:
            read_again.append(len(text))
        return load(text, Loader=Loader)

    monkeypatch.setattr(yaml_positions.yaml, "load", counted)
    (problem,) = parse_problems(document)
    assert (problem.key, problem.line) == ("problem.yaml", 60_001)
    assert read_again == []
