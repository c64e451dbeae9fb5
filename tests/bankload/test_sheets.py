"""Quiz sheets (.xlsx): real files made by openpyxl read into created quizzes (any column order,
headers in any supported language, every kind), refused when hostile (a zip bomb, a formula, a
10,000-row sheet), written back (export, template) and read again; `quizbot import --format
xlsx`."""

from __future__ import annotations

import io
import os
import pickle
import subprocess
import sys
from dataclasses import replace
from typing import Any

import pytest
from openpyxl import load_workbook
from openpyxl.worksheet import _reader

from bot import i18n
from bot.bankload import load_bank
from bot.bankload.creators import check_document
from bot.bankload.dump import dump_bank
from bot.features.importing import headers
from bot.features.importing.rules import Converted, NoneConverted
from bot.features.importing.sheet_handlers import problem_line, problems_text, template_bytes
from bot.features.importing.sheet_writing import bank_sheet
from bot.features.importing.sheets import (
    MIME_TYPE,
    SheetProblem,
    SheetProblems,
    SheetRefused,
    convert_sheet,
    max_rows,
    read_sheet,
)
from bot.kernel.bank import TRUE_FALSE, Bank
from tests.e2e.test_e2e_documents import quiz_data
from tests.support.sheets import TEMPLATE, book_cells, cells, template, workbook, zip_bomb

LIMIT = 200

ENGLISH = [
    ["Question", "A", "B", "C", "D", "Answer", "Explanation", "Picture", "Kind"],
    ["Capital of France?", "Paris", "Lyon", "Nice", None, "A", "Since 987.", None, None],
    ["Which are prime?", "2", "4", "3", "9", "A, C", "2 and 3 have no other divisors.", None, None],
    ["The Earth orbits the Sun.", None, None, None, None, "True", None, None, None],
    [
        "Which flag is this?",
        "Italy",
        "France",
        None,
        None,
        "b",
        None,
        "https://example.org/flag.png",
        "choice",
    ],
    ["Water boils at 50 °C at sea level.", None, None, None, None, False, None, None, None],
]


def convert(data: bytes, language: str = "en") -> Any:
    return convert_sheet(data, language=language, title="T", description="D", limit=LIMIT)


def checked(data: bytes, language: str = "en") -> Bank:
    """The sheet converted and checked as every created quiz is."""
    converted = convert(data, language)
    assert isinstance(converted, Converted), converted
    bank = check_document(dump_bank(converted.data))
    assert isinstance(bank, Bank), bank
    return bank


def test_a_sheet_of_every_kind_becomes_a_quiz_that_passes_the_check():
    bank = checked(workbook(ENGLISH))
    capital, prime, orbit, flag, water = bank.questions
    assert [q.id for q in bank.questions] == ["row-2", "row-3", "row-4", "row-5", "row-6"]
    assert [(o.text.by_language["en"], o.correct) for o in capital.options] == [
        ("Paris", True),
        ("Lyon", False),
        ("Nice", False),
    ]
    assert [o.correct for o in prime.options] == [True, False, True, False]
    assert orbit.kind is TRUE_FALSE and orbit.options[0].correct
    assert water.kind is TRUE_FALSE and water.options[1].correct  # a FALSE cell (a boolean)
    assert flag.picture == "https://example.org/flag.png" and flag.options[1].correct
    assert capital.explanation is not None and capital.explanation.by_language["en"] == "Since 987."
    assert orbit.explanation is None


def test_a_sheet_in_another_order_with_russian_headers():
    rows = [
        ["Ответ", "Вопрос", "Объяснение", "Вариант B", "Вариант A", "Тип"],
        ["A", "Столица Франции?", "С 987 года.", "Лион", "Париж", "выбор"],
        ["Неверно", "Солнце вращается вокруг Земли.", None, None, None, "верно/неверно"],
    ]
    bank = checked(workbook(rows, title="Лист1"), "ru")
    first, second = bank.questions
    assert [(o.text.by_language["ru"], o.correct) for o in first.options] == [
        ("Париж", True),
        ("Лион", False),
    ]
    assert first.explanation is not None
    assert second.kind is TRUE_FALSE and second.options[1].correct


def test_letters_typed_in_cyrillic_or_greek_name_the_latin_columns():
    rows = [
        ["Вопрос", "А", "В", "С", "Ответ"],  # Cyrillic letters that look like A, B, C
        ["Столица Франции?", "Лион", "Париж", "Ницца", "в)"],
        ["Простые числа?", "2", "4", "3", "а, С"],
    ]
    bank = checked(workbook(rows), "ru")
    assert [[o.correct for o in q.options] for q in bank.questions] == [
        [False, True, False],
        [True, False, True],
    ]
    found = convert(workbook([rows[0], ["Столица?", "Лион", "Париж", "Ницца", "Б"]]))
    assert isinstance(found, SheetProblems)
    assert found.problems[0].code == "answer names no option"


def test_a_sheet_with_arabic_headers():
    rows = [
        ["السؤال", "الخيار A", "الخيار B", "الخيار C", "الإجابة", "الشرح"],
        ["ما عاصمة مصر؟", "القاهرة", "الإسكندرية", "أسوان", "A", "منذ 969."],
        ["الشمس نجم.", None, None, None, "صح", None],
    ]
    bank = checked(workbook(rows), "ar")
    first, second = bank.questions
    assert first.options[0].correct and first.options[0].text.by_language["ar"] == "القاهرة"
    assert second.kind is TRUE_FALSE and second.options[0].correct


def test_every_language_has_its_words_and_reads_its_own_template():
    assert set(headers.VOCABULARY) == {"en", *i18n.SUPPORTED}
    for language in headers.VOCABULARY:
        bank = checked(template_bytes(i18n.catalog(language)), language)
        (question,) = bank.questions
        assert [o.correct for o in question.options] == [False, False, True, False], language


def test_problems_are_named_by_sheet_row_column_and_field_in_the_makers_language():
    rows = [
        ["Question", "A", "B", "Answer", "Kind"],
        ["Fine?", "Yes", "No", "A", None],
        [None, "x", "y", "A", None],
        ["No answer", "x", "y", None, None],
        ["Wrong letter", "x", "y", "D", None],
        ["Bad kind", "x", "y", "A", "essay"],
        ["True/false with options", "x", None, "True", "true-false"],
    ]
    found = convert(workbook(rows, title="Week 1"))
    assert isinstance(found, SheetProblems)
    assert found.sheet == "Week 1" and found.total == 5
    assert [(p.row, p.column, p.field, p.code) for p in found.problems] == [
        (3, "A", "question", "no question"),
        (4, "D", "answer", "no answer"),
        (5, "D", "answer", "answer names no option"),
        (6, "E", "kind", "unknown kind"),
        (7, "B", "A", "true-false options"),
    ]
    ru = i18n.catalog("ru")
    text = problems_text(found, ru)
    assert text.startswith(ru("sheets.problems", sheet="Week 1"))
    assert "Строка 5, столбец D (Ответ): «D» не буква заполненного варианта" in text


def test_a_header_row_naming_unknown_or_repeated_columns_is_refused_by_column():
    found = convert(workbook([["Question", "A", "B", "Answr", "A"], ["Q", "x", "y", "A", "z"]]))
    assert isinstance(found, SheetProblems)
    assert [(p.row, p.column, p.code) for p in found.problems] == [
        (1, "D", "unknown column"),
        (1, "E", "column twice"),
        (1, "", "missing column"),
    ]
    en = i18n.catalog("en")
    assert problem_line(found.problems[0], en) == "Row 1, column D: “Answr” is not a column I know"
    assert problem_line(found.problems[2], en) == "the header row has no “Answer” column"


def test_a_formula_is_refused_never_run_nor_stored_and_text_starting_with_equals_is_text():
    rows = [["Question", "A", "B", "Answer"], ["Sum?", "=1+1", "3", "A"]]
    found = convert(workbook(rows))
    assert isinstance(found, SheetProblems)
    assert found.problems == (SheetProblem(2, "B", "A", "formula", "=1+1"),)
    # a text cell (typed with a leading apostrophe in Excel) is read as the text it is ...
    bank = checked(_text_cells([["Question", "A", "B", "Answer"], ["=2+2?", "=4", "5", "A"]]))
    assert bank.questions[0].options[0].text.by_language["en"] == "=4"
    # ... and written back as text, never as a formula
    data = bank_sheet(bank, "en")
    book = load_workbook(io.BytesIO(data))
    sheet = book.worksheets[0]
    assert sheet["B2"].value == "=4" and sheet["B2"].data_type == "s"
    assert sheet["A2"].data_type == "s"


def _text_cells(rows: list[list[str]]) -> bytes:
    """A sheet whose cells are all text, even those starting with ``=``."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row, start=1):
            cell = sheet.cell(r, c)
            cell.value = value
            cell.data_type = "s"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_a_10000_row_sheet_is_refused_before_it_is_read_in_full(monkeypatch):
    rows = [["Question", "A", "B", "Answer"]] + [
        [f"Question {n}?", "yes", "no", "A"] for n in range(10_000)
    ]
    data = workbook(rows)
    parsed = []
    parse = _reader.WorkSheetParser.parse

    def counting(self):
        for row in parse(self):
            parsed.append(row[0])
            yield row

    monkeypatch.setattr(_reader.WorkSheetParser, "parse", counting)
    with pytest.raises(SheetRefused) as refused:
        read_sheet(data, limit=LIMIT)
    assert refused.value.reason == "too many rows"
    assert max_rows(LIMIT) <= len(parsed) <= max_rows(LIMIT) + 1  # not 10,001
    refusal = convert(data)
    assert refusal == SheetRefused("too many rows", f"more than {max_rows(LIMIT)} rows")
    assert pickle.loads(pickle.dumps(refusal)) == refusal  # it comes from the worker process


def test_a_sheet_of_the_limit_is_read():
    rows = [["Question", "A", "B", "Answer"]] + [
        [f"Question {n}?", "yes", "no", "A"] for n in range(LIMIT)
    ]
    converted = convert(workbook(rows))
    assert isinstance(converted, Converted)
    assert len(converted.data["questions"]) == LIMIT


def test_a_zip_bomb_and_a_file_that_is_no_workbook_are_refused():
    bomb = convert(zip_bomb(workbook(ENGLISH)))
    assert isinstance(bomb, SheetRefused) and bomb.reason == "unsafe"
    assert "padding.xml" in bomb.detail
    garbage = convert(b"PK\x03\x04 not really a zip")
    assert isinstance(garbage, SheetRefused) and garbage.reason == "unsafe"
    text = convert(b"Question,A,B,Answer\n")
    assert isinstance(text, SheetRefused)


def test_an_empty_sheet_and_a_header_only_sheet_convert_nothing():
    assert convert(workbook([])) == SheetRefused("empty", "no rows")
    assert convert(workbook([["Question", "A", "B", "Answer"]])) == NoneConverted(0)


def test_export_then_import_round_trips_every_kind():
    original = checked(workbook(ENGLISH))
    again = checked(bank_sheet(original, "en"))
    assert _questions(again) == _questions(original)
    # in Russian: kind words and true/false answers in Russian, read back the same
    russian = bank_sheet(original, "ru")
    assert cells(russian)[0][:2] == ["Вопрос", "A"]
    assert "Верно" in cells(russian)[3]
    assert _questions(checked(russian, "ru"), "ru") == _questions(original)


def _questions(bank: Bank, language: str = "en") -> list[tuple[object, ...]]:
    fallback = bank.default_language
    return [
        (
            q.kind,
            q.prompt.get(language, fallback),
            tuple((o.text.get(language, fallback), o.correct) for o in q.options),
            q.explanation.get(language, fallback) if q.explanation else None,
            q.picture,
        )
        for q in bank.questions
    ]


def test_the_template_in_the_docs_is_up_to_date():
    """docs/quiz-template.xlsx is what the bot sends in English (`python -m
    tests.support.sheets` writes it again)."""
    assert cells(TEMPLATE.read_bytes()) == cells(template())


def test_the_mime_type_is_the_one_of_xlsx():
    from bot.features.importing.handlers import file_format

    assert file_format("quiz.xlsx") == "xlsx"
    assert file_format("quiz.XLSX", None) == "xlsx"
    assert file_format("quiz", MIME_TYPE) == "xlsx"
    assert file_format("quiz.bin", "application/octet-stream") is None


def test_quizbot_import_format_xlsx(tmp_path):
    """`quizbot import --format xlsx`: the good rows written (placeholders for what a bank file
    wants), the bad ones listed with the sheet, row and column; the bank loads."""
    source = tmp_path / "week.xlsx"
    source.write_bytes(workbook([*ENGLISH, ["Bad", "x", "y", None, None, "Z"]], title="Week"))
    out = tmp_path / "week.yaml"
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "import", str(source), "--format", "xlsx", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
    )
    assert proc.returncode == 0, proc.stderr
    assert "5 of 6 question(s) converted" in proc.stdout
    assert (
        f"{source}:7: skipped: sheet 'Week', column F (answer): answer names no option: 'Z'"
        in proc.stderr
    )
    bank = load_bank(out)
    assert [q.kind for q in bank.questions].count(TRUE_FALSE) == 2
    assert bank.questions[3].picture == "https://example.org/flag.png"


def _everything() -> Bank:
    """A checked quiz with what a YAML export carries: sources, ``shuffle: false``, pictures,
    kinds, per-question marks, waived checks, an exam mode with its settings, a guide."""
    data = quiz_data()
    data["level"] = "hard"
    data["guide"] = {"url": "https://example.org/guide", "label": {"en": "Read the atlas"}}
    data["exam"] = {"minutes": 20, "marks": 2, "penalty": 0.5, "draw": 3}
    france, italy = data["questions"]
    france["shuffle"] = False
    france["picture"] = "https://example.org/france.png"
    italy["marks"] = 4
    italy["waive"] = ["answer-leak", "uneven-lengths"]
    data["questions"] += [
        {
            "id": "sun",
            "kind": "true-false",
            "prompt": {"en": "The Sun is a star."},
            "answer": True,
            "explanation": {"en": "It is a G-type main-sequence star."},
            "source": {"title": "Astronomy primer", "url": "https://example.org/sun"},
            "marks": 1.5,
        },
        {
            "id": "primes",
            "prompt": {"en": "Which of these numbers are prime?"},
            "options": [
                {"text": {"en": "2"}, "correct": True},
                {"text": {"en": "4"}},
                {"text": {"en": "5"}, "correct": True},
                {"text": {"en": "9"}},
            ],
            "explanation": {"en": "2 and 5 have no divisors other than 1 and themselves."},
        },
    ]
    bank = check_document(dump_bank(data))
    assert isinstance(bank, Bank), bank
    return bank


def _carried(bank: Bank) -> tuple[object, ...]:
    """What an Excel export carries of a quiz: all but its id, version and question ids."""
    return (
        bank.title,
        bank.description,
        bank.default_language,
        bank.level,
        bank.exam,
        bank.guide,
        [replace(q, id="") for q in bank.questions],
    )


def test_the_excel_export_carries_what_the_yaml_export_does_and_reads_back_the_same():
    """Sources, shuffle, pictures, kinds, marks, waived checks, the exam mode and the guide,
    the title, description and level go out in the sheet and its settings worksheet and come
    back; export -> import -> export gives the same cells."""
    original = _everything()
    exported = bank_sheet(original, "en")
    sheets = book_cells(exported)
    assert list(sheets) == ["Capitals", "Settings"]
    header, france, italy, sun, _ = sheets["Capitals"]
    assert header[:6] == ["Question", "A", "B", "C", "D", "Answer"]
    assert header[6:] == [
        "Explanation", "Picture", "Kind", "Source", "Source link", "Shuffle", "Marks", "Waive"
    ]  # fmt: skip
    assert france[9:12] == ["World atlas", "https://example.org/atlas", "False"]
    assert italy[12:] == ["4", "answer-leak, uneven-lengths"]
    assert sun[12] == "1.5"
    assert sheets["Settings"] == [
        ["Title", "Capitals"],
        ["Description", "Two capitals."],
        ["Language", "en"],
        ["Level", "hard"],
        ["Minutes", "20"],
        ["Marks", "2"],
        ["Penalty", "0.5"],
        ["Draw", "3"],
        ["Guide", "https://example.org/guide"],
        ["Guide label", "Read the atlas"],
    ]
    again = checked(exported)
    assert _carried(again) == _carried(original)
    assert book_cells(bank_sheet(again, "en")) == sheets


def test_a_russian_export_reads_back_the_same_for_a_maker_of_another_language():
    """The settings worksheet's names and the columns are in the export's language; the sheet
    says its language, so a maker reading in Turkish gets the quiz in Russian."""
    original = _everything()
    data = check_document(dump_bank(with_language_ru(original)))
    assert isinstance(data, Bank), data
    exported = bank_sheet(data, "ru")
    sheets = book_cells(exported)
    assert list(sheets)[1] == "Настройки"
    assert sheets["Настройки"][0] == ["Название", "Столицы"]
    assert cells(exported)[0][9:] == [
        "Источник", "Ссылка на источник", "Перемешивать", "Баллы", "Исключения"
    ]  # fmt: skip
    again = checked(exported, "tr")
    assert again.default_language == "ru"
    assert _carried(again) == _carried(data)
    assert book_cells(bank_sheet(again, "ru")) == sheets


def with_language_ru(bank: Bank) -> dict[str, Any]:
    """``bank`` as the mapping of a quiz in Russian only (its texts kept, its title Russian)."""
    from bot.kernel.bankdata import bank_data

    data = bank_data(bank)

    def russian(value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) == {"en"}:
                return {"ru": value["en"]}
            return {key: russian(item) for key, item in value.items()}
        if isinstance(value, list):
            return [russian(item) for item in value]
        return value

    data = russian(data)
    data["default_language"], data["languages"] = "ru", ["ru"]
    data["title"] = {"ru": "Столицы"}
    return data


def test_a_maker_s_sheet_with_settings_and_the_new_columns_in_any_language():
    """A sheet made by hand: Spanish headers for the source, shuffle and marks, a settings
    worksheet in Turkish; its title, level and exam mode become the quiz's, and a setting the
    bot does not know is refused by row, naming the worksheet."""
    from openpyxl import Workbook

    book = Workbook()
    questions = book.active
    assert questions is not None
    for row in [
        ["Pregunta", "A", "B", "C", "Respuesta", "Fuente", "Enlace", "Mezclar", "Puntos"],
        ["Stage?", "One", "Two", "Three", "B", "Atlas", "https://example.org/a", "Falso", 3],
    ]:
        questions.append(row)
    settings = book.create_sheet("Ayarlar")
    for row in [["Başlık", "Stages"], ["Düzey", "Easy"], ["Dakika", 15], ["Ceza", "0,25"]]:
        settings.append(row)
    out = io.BytesIO()
    book.save(out)
    bank = checked(out.getvalue())
    assert (bank.title.by_language, bank.level) == ({"en": "Stages"}, "easy")
    assert (bank.exam.minutes, bank.exam.penalty) == (15, 0.25)
    (question,) = bank.questions
    assert (question.source.title, question.source.url) == ("Atlas", "https://example.org/a")
    assert (question.shuffle, question.marks) == (False, 3)

    settings.append(["Colour", "blue"])
    out = io.BytesIO()
    book.save(out)
    refused = convert(out.getvalue())
    assert isinstance(refused, SheetProblems)
    assert refused.problems == (SheetProblem(5, "A", "", "unknown setting", "Colour"),)
    line = problem_line(refused.problems[0], i18n.catalog("en"))
    assert line == "Row 5, column A: “Colour” is not a setting I know (worksheet “Settings”)"


def test_every_language_names_every_column_and_setting_apart():
    """No header word names two fields, nor a settings word two settings, across the
    languages (a sheet in one language is read by a maker of any other)."""
    for names, of in ((headers.FIELDS, headers.column_of), (headers.SETTINGS, headers.setting_of)):
        for words in headers.VOCABULARY.values():
            for name in names:
                for word in getattr(words, name):
                    assert of(word) == name, (word, name)
    assert all(headers.is_settings_sheet(w.settings[0]) for w in headers.VOCABULARY.values())


def test_turkish_headers_typed_in_capitals_are_read():
    """Turkish's I/ı and İ/i: "AÇIKLAMA", "DİL" and "BAŞLIK" typed in capitals name the same
    columns and settings as "Açıklama", "Dil" and "Başlık" (Unicode's case folding alone is
    not Turkish's)."""
    for written in ("Açıklama", "AÇIKLAMA", "açiklama"):
        assert headers.column_of(written) == headers.column_of("Açıklama") is not None, written
    for written in ("DİL", "Dil"):
        assert headers.setting_of(written) == headers.setting_of("dil") is not None, written
