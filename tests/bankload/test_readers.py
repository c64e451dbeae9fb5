"""Numbered quizzes read from real files: .txt in UTF-8 and UTF-16, .docx made by python-docx
(Word's own list numbers too), PDFs made by fpdf2 in Latin, Cyrillic and Arabic script; and
the hostile ones: a scan, a password, a zip bomb, a 10,000-line text, a broken file."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bot.bankload import load_bank
from bot.features.importing.numbered import parse_numbered
from bot.features.importing.readers import (
    MAX_PDF_PAGES,
    Unreadable,
    convert_file,
    read,
    read_docx,
    read_pdf,
    read_text,
)
from bot.features.importing.rules import Converted
from tests.support.documents import docx_bytes, locked_pdf, pdf_bytes, scan_pdf

QUIZ = [
    "1. Which city is the capital of France?",
    "A) Lyon",
    "B) Paris",
    "Answer: B",
    "Explanation: The seat of government has been there since 987.",
    "",
    "2. Which of these are prime?",
    "a) 2",
    "b) 4",
    "c) 5",
    "Answer: a, c",
    "",
    "3. The Earth is flat.",
    "Answer: False",
]

RUSSIAN = [
    "1. Какой город — столица Франции?",
    "а) Лион",
    "б) Париж",
    "Ответ: б",
    "Объяснение: Правительство там с 987 года.",
]

ARABIC = [
    "1. ما عاصمة فرنسا؟",
    "أ) ليون",
    "ب) باريس",
    "الإجابة: ب",
    "الشرح: مقر الحكومة هناك.",
]


def check_quiz(text: str) -> None:
    """``text`` holds :data:`QUIZ`: one right, several right, true/false, an explanation."""
    parsed = parse_numbered(text)
    assert parsed.notes == []
    first, primes, flat = parsed.questions
    assert [t for t, right in first.options if right] == ["Paris"]
    assert first.explanation == "The seat of government has been there since 987."
    assert [t for t, right in primes.options if right] == ["2", "5"]
    assert flat.answer is False


def test_text_in_utf8_with_and_without_a_bom_and_in_utf16() -> None:
    text = "\n".join(QUIZ)
    for data in (
        text.encode(),
        b"\xef\xbb\xbf" + text.encode(),
        text.encode("utf-16"),  # a byte order mark, then little-endian
        b"\xfe\xff" + text.encode("utf-16-be"),
    ):
        check_quiz(read_text(data))
    with pytest.raises(Unreadable) as unreadable:
        read_text("Ответ".encode("cp1251"))
    assert unreadable.value.reason == "not text"


def test_a_docx_made_by_python_docx() -> None:
    check_quiz(read_docx(docx_bytes(QUIZ)))
    parsed = parse_numbered(read_docx(docx_bytes(RUSSIAN)))
    assert parsed.notes == [] and parsed.questions[0].explanation == (
        "Правительство там с 987 года."
    )


def test_a_docx_whose_numbers_word_draws() -> None:
    """Questions in Word's "List Number" style carry no number in their text: it is made
    again from the list's format, so each question starts where Word shows it does."""
    lines = [
        "# Which city is the capital of France?",
        "A) Lyon",
        "B) Paris",
        "Answer: B",
        "# Which city is the capital of Italy?",
        "A) Rome",
        "B) Milan",
        "Answer: A",
    ]
    text = read_docx(docx_bytes(lines, list_style="List Number"))
    assert text.splitlines()[0] == "1. Which city is the capital of France?"
    assert text.splitlines()[4] == "2. Which city is the capital of Italy?"
    parsed = parse_numbered(text)
    assert parsed.notes == [] and [len(q.options) for q in parsed.questions] == [2, 2]


def test_a_docx_zip_bomb_is_refused_before_it_is_read() -> None:
    """A real .docx with one more part of 64 MiB of zeros (about 64 KiB compressed)."""
    buffer = io.BytesIO(docx_bytes(QUIZ))
    with zipfile.ZipFile(buffer, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/media/bomb.bin", bytes(64 * 1024 * 1024))
    with pytest.raises(Unreadable) as unreadable:
        read_docx(buffer.getvalue())
    assert unreadable.value.reason == "damaged"
    assert "word/media/bomb.bin" in unreadable.value.detail


def test_a_file_that_is_not_a_docx_or_pdf_is_damaged() -> None:
    for reader, data in (
        (read_docx, b"1. Q?\nA) a\n"),
        (read_docx, _zip({"hello.txt": b"not Word"})),
        (read_pdf, b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\n"),
    ):
        with pytest.raises(Unreadable) as unreadable:
            reader(data)
        assert unreadable.value.reason == "damaged"


def _zip(parts: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, body in parts.items():
            archive.writestr(name, body)
    return buffer.getvalue()


def test_a_pdf_with_a_text_layer() -> None:
    check_quiz(read_pdf(pdf_bytes(QUIZ)))
    parsed = parse_numbered(read_pdf(pdf_bytes(RUSSIAN)))
    assert parsed.notes == [] and [t for t, r in parsed.questions[0].options if r] == ["Париж"]


def test_an_arabic_pdf_whose_text_layer_holds_the_drawn_order() -> None:
    """fpdf2 lays the Arabic out itself and its text layer holds the letters right to left
    as drawn; the reader turns each run back to the order it was written in."""
    parsed = parse_numbered(read_pdf(pdf_bytes(ARABIC, language="ar")))
    assert parsed.notes == []
    (question,) = parsed.questions
    assert question.prompt == "ما عاصمة فرنسا؟"
    assert [t for t, right in question.options if right] == ["باريس"]
    assert question.explanation == "مقر الحكومة هناك."


def test_a_scanned_pdf_is_refused_with_no_text() -> None:
    with pytest.raises(Unreadable) as unreadable:
        read_pdf(scan_pdf())
    assert unreadable.value.reason == "no text"


def test_a_pdf_behind_a_password_is_refused_as_encrypted() -> None:
    with pytest.raises(Unreadable) as unreadable:
        read_pdf(locked_pdf(pdf_bytes(QUIZ)))
    assert unreadable.value.reason == "encrypted"


def test_a_pdf_of_too_many_pages_is_refused_before_its_text_is_read() -> None:
    with pytest.raises(Unreadable) as unreadable:
        read_pdf(pdf_bytes(["x"] * (MAX_PDF_PAGES + 1), per_page=1))
    assert unreadable.value.reason == "too long"


def test_a_text_of_ten_thousand_lines_is_refused() -> None:
    data = ("1. Q?\nA) a\nB) b\nAnswer: A\n" * 2_500).encode()
    with pytest.raises(Unreadable) as unreadable:
        read("txt", data)
    assert unreadable.value.reason == "too long"
    outcome = convert_file("txt", data, language="en", title="T", description="D.", limit=200)
    assert isinstance(outcome, Unreadable) and outcome.reason == "too long"


@pytest.mark.parametrize("kind", ["txt", "docx", "pdf"])
def test_each_file_becomes_a_created_quiz(kind: str) -> None:
    data = {
        "txt": "\n".join(QUIZ).encode(),
        "docx": docx_bytes(QUIZ),
        "pdf": pdf_bytes(QUIZ),
    }[kind]
    outcome = convert_file(kind, data, language="en", title="T", description="D.", limit=200)
    assert isinstance(outcome, Converted) and outcome.skipped == 0
    assert len(outcome.data["questions"]) == 3  # type: ignore[arg-type]


def test_quizbot_import_reads_a_docx_and_a_pdf(tmp_path: Path) -> None:
    """``quizbot import --format docx`` and ``--format pdf`` write banks that load."""
    for kind, data in (("docx", docx_bytes(QUIZ)), ("pdf", pdf_bytes(QUIZ))):
        source = tmp_path / f"capitals.{kind}"
        source.write_bytes(data)
        out = tmp_path / f"capitals-{kind}.yaml"
        run = subprocess.run(
            [sys.executable, "-m", "bot", "import", str(source), "--format", kind],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert run.returncode == 2 and "--out" in run.stderr  # --out is required
        run = subprocess.run(
            [sys.executable, "-m", "bot", "import", str(source), "--format", kind, "--out", out],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert run.returncode == 0, run.stderr
        bank = load_bank(out)
        assert [q.kind for q in bank.questions] == ["choice", "choice", "true-false"]
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(scan_pdf())
    run = subprocess.run(
        [sys.executable, "-m", "bot", "import", str(scan), "--format", "pdf", "--out", "x.yaml"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
    )
    assert run.returncode == 2 and "no text" in run.stderr
