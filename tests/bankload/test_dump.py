"""The bank dumper (bot/bankload/dump.py), the check of created quizzes (creators.py) and the
catalog keys the loader's problems carry."""

from __future__ import annotations

import pytest

from bot.bankload import BankError, load_bank, parse_bank
from bot.bankload.checker import MAX_PROBLEMS
from bot.bankload.creators import check_document, parse_document
from bot.bankload.dump import dump_bank
from bot.bankload.schema import MAX_BANK_BYTES, MAX_DOCUMENT_BYTES
from bot.features.importing.rules import PARSERS
from bot.features.importing.rules import bank_data as imported_bank_data
from bot.i18n import SUPPORTED, catalog, placeholders
from bot.i18n.messages import MESSAGES
from bot.kernel.bankdata import bank_data

TRICKY = [
    "no",
    "yes",
    "on",
    "1:30",
    "0x1F",
    "- a dash",
    "# not a comment",
    "a: colon",
    "'quoted'",
    '"double"',
    "<b>HTML</b> & *stars*",
    "line one\nline two",
    "ending in a break\n\nand a gap",
    "tab\there",
    "trailing space \nnext",
    "null",
    "~",
    "100",
    "3.0",
    "Ελληνικά και हिन्दी",
    "@at",
    "`tick`",
    "%percent",
    "[bracket",
    "{brace",
]


def bank_with(texts: list[str]) -> dict[str, object]:
    """A one-language bank whose option texts are ``texts``, two per question."""
    questions = []
    for n in range(0, len(texts), 2):
        pair = texts[n : n + 2] if n + 1 < len(texts) else [texts[n], "other option"]
        questions.append(
            {
                "id": f"q{n}",
                "prompt": {"en": f"Which one is question {n} about?"},
                "options": [{"text": {"en": pair[0]}, "correct": True}, {"text": {"en": pair[1]}}],
                "explanation": {"en": f"Because {pair[1]}."},
                "source": {"title": "A title: with a colon", "url": "https://example.org/a?b=1#c"},
            }
        )
    return {
        "id": "c-abcdefghij",
        "version": 1,
        "default_language": "en",
        "languages": ["en"],
        "level": "easy",
        "title": {"en": "no"},
        "description": {"en": "1:30"},
        "questions": questions,
    }


def test_the_bundled_bank_round_trips():
    """The bundled bank, dumped and parsed again, is the same bank (``shuffle: false`` of its
    ZeRO stage questions too)."""
    bank = load_bank("banks/deepspeed-megatron.yaml")
    assert parse_bank(dump_bank(bank)) == bank
    assert any(not question.shuffle for question in bank.questions)


def test_texts_yaml_would_misread_round_trip():
    """Texts that unquoted YAML reads as something else (no, 1:30, null, a dash) come back as
    the same texts."""
    data = bank_with(TRICKY)
    bank = parse_bank(dump_bank(data))
    shown = [o.text.by_language["en"] for q in bank.questions for o in q.options]
    assert shown[: len(TRICKY)] == [t.strip() for t in TRICKY]
    assert bank.title.by_language["en"] == "no"
    assert bank.description.by_language["en"] == "1:30"
    assert parse_bank(dump_bank(bank)) == bank


def test_bank_data_and_bank_dump_the_same_document():
    """A bank and its bank data dump to the same document, keys in the documented order."""
    bank = load_bank("banks/deepspeed-megatron.yaml")
    assert dump_bank(bank) == dump_bank(bank_data(bank))
    assert list(bank_data(bank)) == [
        "id",
        "version",
        "default_language",
        "languages",
        "level",
        "title",
        "description",
        "guide",
        "questions",
    ]


def test_unicode_is_written_as_is():
    """Hindi and Greek are written as UTF-8 text, not escaped."""
    document = dump_bank(bank_with(["हिन्दी", "Ελληνικά"]))
    assert "हिन्दी" in document and "Ελληνικά" in document and "\\u" not in document


def test_schema_problems_carry_a_key_params_and_question_number():
    """A schema problem names its catalog key, its parameters and the question's number."""
    data = bank_with(["same", "same", "fine", "other"])
    with pytest.raises(BankError) as raised:
        parse_bank(dump_bank(data))
    (problem,) = raised.value.problems
    assert (problem.key, dict(problem.params), problem.question) == (
        "problem.same_option",
        {"number": 1},
        1,
    )
    assert problem.field == "option 2.text.en" and problem.line


def test_problems_after_the_id_keep_their_key():
    """Problems found before a question's id was read keep key and number when re-attributed."""
    data = bank_with(["a", "b", "c", "d"])
    questions = data["questions"]
    assert isinstance(questions, list)
    del questions[1]["prompt"]
    with pytest.raises(BankError) as raised:
        parse_bank(dump_bank(data))
    (problem,) = raised.value.problems
    assert (problem.key, problem.question, problem.question_id, problem.field) == (
        "problem.missing",
        2,
        "q2",
        "prompt",
    )


def test_yaml_slips_and_large_files_have_keys():
    """A YAML syntax error and a file over 1 MiB have their own keys."""
    with pytest.raises(BankError) as raised:
        parse_bank("id: [unclosed\n")
    assert raised.value.problems[0].key == "problem.yaml"
    with pytest.raises(BankError) as raised:
        parse_bank("x" * (1024 * 1024 + 1))
    assert raised.value.problems[0].key == "problem.too_large"


def test_check_document_applies_the_strict_checks():
    """check_document returns the item-writing findings as problems (check.<rule>), with the
    question's number; a clean document gives its bank."""
    data = bank_with(["short", "a much much longer distractor option"])
    problems = check_document(dump_bank(data))
    assert isinstance(problems, list)
    assert {p.key for p in problems} == {"check.uneven-lengths"}
    assert problems[0].question == 1
    clean = bank_with(["Paris", "Lyon"])
    assert not isinstance(check_document(dump_bank(clean)), list)


def test_every_problem_key_is_a_message_with_its_params():
    """Each key the loader and the checks give is in the catalogs, and its placeholders are
    the parameters given."""
    import re
    from pathlib import Path

    source = "".join(
        Path(f"bot/bankload/{name}.py").read_text()
        for name in ("schema", "locate", "files", "creators")
    )
    keys = set(re.findall(r'"(problem\.[a-z_]+)"', source))
    from bot.kernel.checks import RULES

    keys |= {f"check.{rule}" for rule in RULES}
    for key in keys:
        assert key in MESSAGES, key
        for language in SUPPORTED:
            assert placeholders(catalog(language).messages[key]) <= {
                "allowed",
                "code",
                "position",
                "languages",
                "levels",
                "limit",
                "count",
                "number",
                "low",
                "high",
                "size",
                "other",
                "kinds",
            }


def test_question_kinds_round_trip():
    """A true/false question, one with several right options and one with a picture dump and
    parse back to the same questions."""
    data = bank_with(["Paris", "Lyon"])
    questions = data["questions"]
    assert isinstance(questions, list)
    questions.append(
        {
            "id": "tf",
            "kind": "true-false",
            "prompt": {"en": "The sky is green."},
            "answer": False,
            "explanation": {"en": "It is blue by day."},
            "source": {"title": "Sky", "url": "https://example.org/sky"},
        }
    )
    questions.append(
        {
            "id": "many",
            "prompt": {"en": "Which are prime numbers?"},
            "picture": "https://example.org/primes.png",
            "options": [
                {"text": {"en": "2"}, "correct": True},
                {"text": {"en": "3"}, "correct": True},
                {"text": {"en": "4"}},
            ],
            "explanation": {"en": "Four is two times two."},
            "source": {"title": "Primes", "url": "https://example.org/primes"},
        }
    )
    bank = parse_bank(dump_bank(data))
    assert parse_bank(dump_bank(bank)) == bank
    assert bank_data(bank)["questions"][1:] == questions[1:]


def _padded(kind: str, filler: str) -> str:
    """A file of ``kind`` just under 1 MiB: 200 questions (a quiz's most) whose prompts are
    ``filler`` repeated, the rest what the format needs."""
    shapes = {
        "gift": "::q{n}::{text}{{=a ~b}}\n\n",
        "aiken": "{text}\nA. a\nB. b\nANSWER: A\n",
        "csv": "{text},a,b,A\n",
    }
    head = "prompt,A,B,correct\n" if kind == "csv" else ""
    size = (MAX_BANK_BYTES - 200 * 40) // 200 // len(filler.encode())
    return head + "".join(shapes[kind].format(n=n, text=filler * size) for n in range(200))


@pytest.mark.parametrize("kind", ["gift", "aiken", "csv"])
@pytest.mark.parametrize("filler", ["\x01", "\ufeff", "x"])
def test_the_yaml_of_a_converted_file_stays_within_the_document_bound(kind, filler):
    """A file under the 1 MiB limit, converted, is written as YAML larger than the file (a
    control character is a four-byte escape there) but within MAX_DOCUMENT_BYTES, so that its
    check answers with what is wrong in it, not its size."""
    text = _padded(kind, filler)
    assert len(text.encode()) <= MAX_BANK_BYTES
    parsed = PARSERS[kind](text)
    assert len(parsed.questions) == 200
    data, _ = imported_bank_data(
        parsed, language="en", bank_id="imported", title="T", description="D"
    )
    document = dump_bank(data)
    assert len(document.encode()) <= MAX_DOCUMENT_BYTES
    problems = check_document(document)
    assert isinstance(problems, list)
    assert "problem.too_large" not in {p.key for p in problems}


def test_a_stored_document_over_the_file_limit_parses():
    """A created quiz's document (the bot's writing) may be over the bank file's 1 MiB: it
    parses; over MAX_DOCUMENT_BYTES it is refused with its size."""
    data = bank_with(["a\n" * 500 + "a", "b\n" * 500 + "b"] * 200)  # lines: indented in YAML
    document = dump_bank(data)
    assert MAX_BANK_BYTES < len(document.encode()) < MAX_DOCUMENT_BYTES
    with pytest.raises(BankError):
        parse_bank(document)
    assert len(parse_document(document).questions) == 200
    with pytest.raises(BankError) as raised:
        parse_document(document + "#" * MAX_DOCUMENT_BYTES)
    assert raised.value.problems[0].key == "problem.too_large"


def test_a_check_stops_after_max_problems():
    """A file of thousands of unknown keys gets the first MAX_PROBLEMS problems, in the file's
    order, then one saying the check stopped (its work bounded however many there are); a
    field reported missing is not reported again under it."""
    document = "".join(f"key{n}: 1\n" for n in range(5000))
    with pytest.raises(BankError) as raised:
        parse_bank(document)
    problems = raised.value.problems
    assert len(problems) == MAX_PROBLEMS + 1
    assert problems[-1].key == "problem.too_many_problems"
    assert problems[-1].params == {"count": MAX_PROBLEMS}
    lines = [p.line or 0 for p in problems[:-1]]
    assert lines == sorted(lines)


def test_the_item_writing_findings_are_capped_too():
    """check_document returns at most MAX_PROBLEMS findings, then the stop problem."""
    data = bank_with(["x", "a much much longer distractor option"] * (MAX_PROBLEMS + 5))
    problems = check_document(dump_bank(data))
    assert isinstance(problems, list) and len(problems) == MAX_PROBLEMS + 1
    assert problems[-1].key == "problem.too_many_problems"
