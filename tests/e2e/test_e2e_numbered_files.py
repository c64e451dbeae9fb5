"""End to end: a numbered quiz sent as a Word file, a PDF or a text file becomes a created quiz
(read and converted in the worker process); a scanned PDF, a PDF behind a password and a
Word zip bomb are answered with what to do instead, in the maker's language."""

from __future__ import annotations

import io
import zipfile

from bot import i18n
from tests.support.documents import docx_bytes, locked_pdf, pdf_bytes, scan_pdf
from tests.support.person import Person
from tests.support.screens import buttons

RUSSIAN = [
    "1. Какой город — столица Франции?",
    "а) Лион",
    "б) Париж",
    "в) Ницца",
    "Ответ: б",
    "Объяснение: Правительство там с 987 года.",
    "",
    "2. Какие из этих чисел простые?",
    "а) 2",
    "б) 4",
    "в) 5",
    "Ответ: а, в",
    "",
    "3. Москва — столица России.",
    "Ответ: Верно",
]

ENGLISH = [
    "1. Which city is the capital of France?",
    "A) Lyon",
    "B) Paris",
    "Answer: B",
    "Explanation: The seat of government has been there since 987.",
]


async def stored(running_bot, owner_id: int) -> list:
    """The owner's quizzes as stored (the bot's own storage)."""
    return await running_bot.app.bot_data.services.quizzes.quizzes(owner_id)


async def test_a_word_file_in_russian_makes_a_quiz(fake, running_bot):
    """A Russian maker sends a .docx with Ответ lines: the quiz is saved with its three
    questions (one right, several right, true/false) and its screen follows; a player gets
    the first question with its options."""
    maker = Person(fake, 701, "Ирина", language_code="ru")
    saved, screen = await maker.send_document(docx_bytes(RUSSIAN), "Столицы.docx", replies=2)
    ru = i18n.catalog("ru")
    (record,) = await stored(running_bot, 701)
    assert record.questions == 3
    assert saved["text"] == ru("quizzes.created", title=record.title, count=3)
    assert f"https://t.me/{fake.bot_username}?start={record.id}" in screen["text"]
    player = Person(fake, 702, "Олег", language_code="ru")
    fake.follow_link(702, f"https://t.me/{fake.bot_username}?start={record.id}")
    await fake.wait_for(lambda: any("Какой город" in m["text"] for m in player.bot_messages()))


async def test_a_docx_known_by_its_mime_type_and_a_pdf_make_quizzes(fake, running_bot):
    """A Word file whose name has no ending is known by its MIME type; a PDF with a text
    layer is read as well."""
    maker = Person(fake, 703, "Grace")
    await maker.send_document(
        docx_bytes(ENGLISH),
        "capitals",
        mime_type="application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        replies=2,
    )
    await maker.send_document(pdf_bytes(ENGLISH), "capitals.pdf", replies=2)
    quizzes = await stored(running_bot, 703)
    assert [quiz.questions for quiz in quizzes] == [1, 1]


async def test_a_scanned_pdf_gets_advice_not_an_empty_quiz(fake, running_bot):
    """A PDF of pictures only: the maker is told to send the quiz as text or .docx, in their
    language; nothing is stored."""
    maker = Person(fake, 704, "Ada")
    (answer,) = await maker.send_document(scan_pdf(), "scan.pdf")
    assert answer["text"] == i18n.catalog("en")("documents.pdf_no_text")
    assert ".docx" in answer["text"] and not buttons(answer)
    uz = Person(fake, 705, "Dilnoza", language_code="uz")
    (answer,) = await uz.send_document(scan_pdf(), "skan.pdf")
    assert answer["text"] == i18n.catalog("uz")("documents.pdf_no_text")
    assert await stored(running_bot, 704) == [] and await stored(running_bot, 705) == []


async def test_a_locked_pdf_and_a_docx_zip_bomb_are_refused(fake, running_bot):
    maker = Person(fake, 706, "Ada", language_code="es")
    es = i18n.catalog("es")
    (answer,) = await maker.send_document(locked_pdf(pdf_bytes(ENGLISH)), "locked.pdf")
    assert answer["text"] == es("documents.pdf_encrypted")
    buffer = io.BytesIO(docx_bytes(ENGLISH))
    with zipfile.ZipFile(buffer, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/media/bomb.bin", bytes(32 * 1024 * 1024))
    (answer,) = await maker.send_document(buffer.getvalue(), "bomb.docx")
    assert answer["text"] == es("documents.damaged")
    assert await stored(running_bot, 706) == []


async def test_the_questions_left_out_are_named_by_line_in_the_makers_language(fake, running_bot):
    """A Russian .docx with one answer that names no option and an answer line of no
    question: the quiz is made of the rest, and the maker reads which line and question were
    left out, and why, in Russian."""
    maker = Person(fake, 707, "Ирина", language_code="ru")
    lines = [
        *RUSSIAN[:7],
        "2. Какая река самая длинная в Европе?",  # line 8
        "а) Дунай",
        "б) Волга",
        "Ответ: д",  # line 11
        "",
        "Ответ: а",  # line 13: no question
    ]
    left_out, saved, _ = await maker.send_document(docx_bytes(lines), "Реки.docx", replies=3)
    ru = i18n.catalog("ru")
    assert left_out["text"] == "\n".join(
        [
            ru("documents.skipped", count=1),
            ru(
                "documents.problem_question",
                line=11,
                question=2,
                problem=ru("documents.problem.no_option_named", answer="д"),
            ),
            ru("documents.problem_line", line=13, problem=ru("documents.problem.stray")),
        ]
    )
    (record,) = await stored(running_bot, 707)
    assert record.questions == 1
    assert saved["text"] == ru("quizzes.created", title=record.title, count=1)
