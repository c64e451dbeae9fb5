"""End to end: quiz sheets (.xlsx) through the fake Bot API: a maker sends a sheet (by its
name or only its MIME type) and gets the quiz's screen; a sheet with problems is answered with
them by row and column in the maker's language and nothing is stored; a zip bomb is refused;
/template sends the template in the maker's language; /myquizzes' 📊 Excel sends the quiz as a
sheet, which sent back makes the same quiz again."""

from __future__ import annotations

from bot import i18n
from bot.bankload.dump import dump_bank
from bot.features.importing.headers import template_headers
from bot.features.importing.sheet_writing import bank_sheet
from bot.features.importing.sheets import MIME_TYPE, read_sheet
from tests.e2e.test_e2e_documents import quiz_data, stored
from tests.e2e.test_e2e_myquizzes import button, tap_and_see
from tests.support.person import Person
from tests.support.sheets import book_cells, cells, workbook, zip_bomb

EN = i18n.catalog("en")

ROWS = [
    ["Question", "A", "B", "C", "Answer", "Explanation", "Kind"],
    ["Capital of France?", "Paris", "Lyon", "Nice", "A", "Since 987.", None],
    ["Which are prime?", "2", "4", "3", "A, C", None, None],
    ["The Earth orbits the Sun.", None, None, None, "True", None, "true-false"],
]


async def test_a_sheet_sent_makes_a_quiz_and_its_screen_comes(fake, running_bot):
    maker = Person(fake, 801, "Ada")
    saved, screen = await maker.send_document(workbook(ROWS), "week_1.xlsx", replies=2)
    assert fake.calls_to("getFile")
    (record,) = await stored(running_bot, 801)
    assert record.questions == 3
    title = EN("documents.imported_title", name="week 1")
    assert saved["text"] == EN("quizzes.created", title=title, count=3)
    assert f"https://t.me/{fake.bot_username}?start={record.id}" in screen["text"]
    assert any(b["text"] == EN("sheets.button_export") for row in screen["reply_markup"]
               ["inline_keyboard"] for b in row)  # fmt: skip


async def test_a_sheet_known_only_by_its_mime_type_is_read(fake, running_bot):
    maker = Person(fake, 802, "Ada")
    await maker.send_document(workbook(ROWS), "questions", replies=2, mime_type=MIME_TYPE)
    (record,) = await stored(running_bot, 802)
    assert record.questions == 3


async def test_a_sheet_with_problems_is_answered_by_row_in_russian_and_nothing_is_stored(
    fake, running_bot
):
    maker = Person(fake, 803, "Ольга", "ru")
    ru = i18n.catalog("ru")
    rows = [*ROWS, ["Без ответа", "да", "нет", None, None, None, None]]
    (answer,) = await maker.send_document(workbook(rows, title="Неделя"), "w.xlsx")
    assert answer["text"].startswith(ru("sheets.problems", sheet="Неделя"))
    field = template_headers("ru")["answer"]
    assert (
        ru("sheets.at_cell", row=5, column="E", field=field, problem=ru("sheets.no_answer"))
        in answer["text"]
    )
    assert await stored(running_bot, 803) == []


async def test_a_zip_bomb_is_refused_with_a_clear_answer(fake, running_bot):
    maker = Person(fake, 804, "Ada")
    bomb = zip_bomb(workbook(ROWS))
    assert len(bomb) < 1024 * 1024  # under the file limit: refused by the archive check
    (answer,) = await maker.send_document(bomb, "big.xlsx")
    assert answer["text"] == EN("sheets.unreadable")
    assert await stored(running_bot, 804) == []


async def test_template_sends_the_template_in_the_makers_language(fake, running_bot):
    maker = Person(fake, 805, "Aziz", "uz")
    uz = i18n.catalog("uz")
    (sent,) = await maker.say("/template")
    assert sent["document"]["file_name"] == "quiz-template.xlsx"
    assert sent["document"]["mime_type"] == MIME_TYPE
    assert sent["caption"] == uz("sheets.template_caption", true="Toʻgʻri", false="Notoʻgʻri")
    data = fake.documents[sent["document"]["file_id"]]
    header, example = cells(data)
    assert header[0] == "Savol" and "Javob" in header
    assert example[0] == uz("sheets.example_question")
    (question,) = read_sheet(data, limit=200).questions
    assert [right for _, right in question.options] == [False, False, True, False]


async def test_excel_export_sent_back_makes_the_same_quiz(fake, running_bot):
    """📊 Excel sends the quiz as a sheet; sent back, it makes a new quiz with the same
    questions, sources, title, description and level, whose export is the same sheet."""
    maker = Person(fake, 806, "Ada")
    await maker.send_document(dump_bank(quiz_data()).encode(), "q.yaml", replies=2)
    (listing,) = await maker.say("/myquizzes")
    _, screen = await tap_and_see(maker, listing, "1. Capitals")
    (record,) = await stored(running_bot, 806)
    before = len(maker.bot_messages())
    await maker.tap(screen, button(screen, EN("sheets.button_export")))
    sent = await fake.wait_for(
        lambda: next((m for m in maker.bot_messages()[before:] if "document" in m), None)
    )
    assert sent["document"]["file_name"] == f"{record.id}.xlsx"
    assert sent["caption"] == EN(
        "sheets.export_caption", title="Capitals", button=EN("quizzes.button_export")
    )
    data = fake.documents[sent["document"]["file_id"]]
    await maker.send_document(data, f"{record.id}.xlsx", replies=2)
    first, second = sorted(await stored(running_bot, 806), key=lambda r: r.id != record.id)
    assert (first.id, second.questions) == (record.id, 2)
    service = running_bot.app.bot_data.services.quizzes
    old, new = (await service.quiz(806, first.id)).bank, (await service.quiz(806, second.id)).bank
    assert [
        (q.prompt.by_language["en"], [(o.text.by_language["en"], o.correct) for o in q.options])
        for q in new.questions
    ] == [
        (q.prompt.by_language["en"], [(o.text.by_language["en"], o.correct) for o in q.options])
        for q in old.questions
    ]
    assert new.questions[0].explanation == old.questions[0].explanation
    # the sheet carries the quiz's title, description, level and sources: the new quiz has
    # them, and its export is the same sheet
    assert (new.title, new.description, new.level) == (old.title, old.description, old.level)
    assert second.title == "Capitals"
    assert [q.source for q in new.questions] == [q.source for q in old.questions]
    assert book_cells(bank_sheet(new, "en")) == book_cells(data)


async def test_a_spreadsheet_of_another_format_is_asked_for_as_xlsx(fake, running_bot):
    maker = Person(fake, 807, "Eleni", "el")
    (answer,) = await maker.send_document(b"\xd0\xcf\x11\xe0 an old workbook", "marks.xls")
    assert answer["text"] == i18n.catalog("el")("sheets.save_as_xlsx")
    assert await stored(running_bot, 807) == []
