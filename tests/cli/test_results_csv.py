"""CSV cells neutralised against formula injection (OWASP, "CSV Injection") in every CSV quizbot
writes: /results (:func:`bot.features.groups.results.session_csv`) and ``quizbot report``
(:func:`bot.report.render`), read back as spreadsheets split them, at ``,`` and at ``;``."""

from __future__ import annotations

import csv
import io
import random
import re

import pytest

from bot import report
from bot.features.groups import rules as group
from bot.features.groups.results import FORMULA_START, safe_cell, session_csv
from bot.features.groups.rules import GroupAnswer, GroupSession
from bot.kernel.engine import plan_attempt
from tests.support.banks import BANK_ID

HOSTILE = [
    "x;=1+1;",
    "=1+1",
    " =1+1",
    "\u200f@SUM(A1)",
    "\u202e+1",
    "a, -2",
    "\uff1d1+1",
    "\tx",
    "\r=1",
    "Ana;\u200b\u200b=cmd|'/C calc'!A0",
    "@",
    "-",
    "x,@y;+z",
    '\ufeff=HYPERLINK("http://e.example")',
    "a\n=1",
    "Ann\t=1+1",
    'Lyon\t=HYPERLINK("http://e.example")',
]
"""Names and texts that a spreadsheet could read as a formula, whole or after a separator."""


@pytest.mark.parametrize(
    ("text", "safe"),
    [
        ("x;=1+1;", "x;'=1+1;"),
        ("=1+1", "'=1+1"),
        (" =1", "' =1"),
        ("\u200f@x", "'\u200f@x"),
        ("\u202e+1", "'\u202e+1"),
        ("a, -2", "a,' -2"),
        ("\uff1d1", "'\uff1d1"),
        ("\tx", "'\tx"),
        ("x,@y;+z", "x,'@y;'+z"),
        ("Ana", "Ana"),
        ("Ana-Maria", "Ana-Maria"),
        ("a=b; c+d", "a=b; c+d"),
        ("", ""),
        ("'=1", "'=1"),
        ("1,5; 2", "1,5; 2"),
        ("a\n=1", "a\n'=1"),
        ("Ann\t=1+1", "Ann\t'=1+1"),
        ('Lyon\t=HYPERLINK("x")', 'Lyon\t\'=HYPERLINK("x")'),
    ],
)
def test_a_quote_goes_before_each_part_a_spreadsheet_could_read_as_a_formula(text, safe):
    """The cell, and each part after a ``,`` or ``;``, whose first visible character could
    start a formula gets a ``'`` before it (before its invisible characters too); other text is
    unchanged."""
    assert safe_cell(text) == safe


NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def _visible_start(cell: str) -> str:
    """The cell's first character a spreadsheet would look at, past the invisible ones; ""
    for a number (a sign is no formula there)."""
    if NUMBER.fullmatch(cell):
        return ""
    stripped = cell.lstrip(" \u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e\ufeff\n")
    return stripped[:1]


def assert_no_formula(text: str) -> None:
    """No cell of ``text`` starts with a formula character, read as a spreadsheet would split
    it: at commas (RFC 4180, as written) and at semicolons (Excel's list separator where the
    decimal mark is a comma), by a reader that knows RFC 4180's quotes and by one that splits
    lines and separators only."""
    for delimiter in (",", ";", "\t"):
        for line in re.split(r"\r\n|\r|\n", text):  # a reader ignoring quotes, too
            for cell in line.split(delimiter):
                assert _visible_start(cell.lstrip('"')) not in FORMULA_START, (delimiter, cell)
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
            for cell in row:
                assert _visible_start(cell) not in FORMULA_START, (delimiter, cell, row)


def _session(bank) -> tuple[GroupSession, list[GroupAnswer], dict[int, str]]:
    plan = plan_attempt(bank, random.Random(1))
    session = GroupSession(
        1, -100, bank.id, bank.version, "en", 7, plan, 30.0, status=group.FINISHED
    )
    names = {1000 + i: name for i, name in enumerate(HOSTILE)}
    answers = [GroupAnswer(user_id, plan.question_order[0], 0, True, 1.0, 0.0) for user_id in names]
    return session, answers, names


def test_results_csv_neutralises_every_hostile_name(banks):
    """/results' CSV with members named to inject formulas: read at ``,`` or at ``;``, no cell
    starts a formula, and every name is still there, readable after its quote."""
    bank = banks[BANK_ID]
    session, answers, names = _session(bank)
    text = session_csv(bank, session, answers, names, "en")
    assert_no_formula(text)
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    written = {int(r["user_id"]): r["name"] for r in rows}
    for user_id, name in names.items():
        assert written[user_id].replace("'", "") == name.replace("'", "")
    assert "x;'=1+1;" in text


def test_the_report_csv_neutralises_text_cells_and_leaves_numbers(banks):
    """``quizbot report --format csv``: a hostile bank or question id (as a stored answer may
    name one) or question text (a created quiz's) is neutralised; negative figures (a
    discrimination) stay numbers."""
    table = [
        {
            "bank_id": text,
            "question_id": "q;=2",
            "question": text,
            "language": "-",
            "answers": 3,
            "difficulty": 0.5,
            "discrimination": -0.25,
            "options": [1, 2],
            "correct_option": 1,
            "flags": ["too_hard"],
        }
        for text in HOSTILE
        if "\r" not in text
    ]  # the report's rows end in \n alone
    text = report.render(table, "csv")
    assert_no_formula(text)
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert {r["discrimination"] for r in rows} == {"-0.25"}
    assert rows[0]["question_id"] == "q;'=2" and rows[0]["language"] == "'-"
    assert rows[0]["options"] == "1|2" and rows[0]["flags"] == "too_hard"


def test_unneutralised_cells_would_be_caught():
    """The reading above catches what it must: the raw hostile texts, written as they are, hold
    a formula at ``,`` or at ``;``."""
    for text in HOSTILE:
        out = io.StringIO()
        csv.writer(out).writerow(["Ana", text, 3])
        with pytest.raises(AssertionError):
            assert_no_formula(out.getvalue())


def test_homework_rows_go_through_the_same_guard():
    """A homework results row's typed texts (the member's name, the option) are made safe by
    the same rule as every other CSV: a tab before ``=`` is caught there too."""
    from bot.kernel.csvsafe import CsvRow

    row = CsvRow(
        7,
        "Ann\t=1+1",
        1,
        "q1",
        'Lyon\t=HYPERLINK("x")',
        False,
        "2026-12-03T10:00:00Z",
        "2026-12-03T09:59:00Z",
        "",
    )
    cells = row.cells()
    assert cells[1] == "Ann\t'=1+1" and cells[4] == 'Lyon\t\'=HYPERLINK("x")'
    out = io.StringIO()
    csv.writer(out).writerow(cells)
    assert_no_formula(out.getvalue())
