"""Quiz sheets (.xlsx) in a private chat: a sheet sent as a file (through
:func:`bot.features.importing.handlers.on_document`), ``/template`` (the template in the
sender's language) and /myquizzes' 📊 Excel button (a quiz as a sheet).

The sheet is read in the worker process (:meth:`ImportService.convert_sheet`); every problem is
named by row, column and field in the sender's language, and nothing is stored unless the
whole sheet passes (then the quiz goes through the same check as every created quiz).
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, InputFile, Message, Update

from bot.features.importing.headers import (
    kind_word,
    settings_words,
    template_headers,
    truth_word,
)
from bot.features.importing.rules import NoneConverted
from bot.features.importing.service import ImportService
from bot.features.importing.sheet_writing import template_sheet
from bot.features.importing.sheets import SheetProblem, SheetProblems, SheetRefused
from bot.features.myquizzes.problems import NotYourQuiz, QuizGone
from bot.features.myquizzes.service import MAX_QUIZ_QUESTIONS, QuizzesService
from bot.features.preferences.catalogs import catalog_for
from bot.i18n import Catalog
from bot.render.callbacks import SheetButton
from bot.render.text import HTML, clip
from bot.telegram.common import Context, reach, toast

log = logging.getLogger(__name__)

TEMPLATE_NAME = "quiz-template.xlsx"
"""The file name of the template the bot sends."""

MAX_CAPTION_TITLE = 64
"""Characters of a quiz's title shown in the export's caption."""


async def sheet_quiz(
    message: Message, context: Context, t: Catalog, data: bytes, title: str
) -> dict[str, object] | None:
    """The created quiz's bank mapping of an .xlsx file's ``data`` (titled ``title``), or None
    when the sheet was refused (the sender has been told why, by row and column)."""
    converted = await reach(context, ImportService).convert_sheet(
        data,
        language=t.language,
        title=t("documents.imported_title", name=title),
        description=t("documents.imported_description", name=title),
        limit=MAX_QUIZ_QUESTIONS,
    )
    if isinstance(converted, SheetRefused):
        log.info("sheet refused: %s", converted)
        await message.reply_text(HTML.escape(refused_text(converted, t, MAX_QUIZ_QUESTIONS)))
        return None
    if isinstance(converted, SheetProblems):
        await message.reply_text(HTML.escape(problems_text(converted, t)))
        return None
    if isinstance(converted, NoneConverted):
        await message.reply_text(HTML.escape(t("documents.none_converted", count=converted.found)))
        return None
    return converted.data


def refused_text(refused: SheetRefused, t: Catalog, limit: int) -> str:
    """Why a sheet could not be read, in ``t``'s language (plain text)."""
    if refused.reason == "too many rows":
        return t("sheets.too_many_rows", count=limit)
    if refused.reason == "empty":
        return t("documents.none_converted", count=0)
    return t("sheets.unreadable")


def problems_text(found: SheetProblems, t: Catalog) -> str:
    """A refused sheet's problems, one a line, by row, column and field (plain text)."""
    lines = [t("sheets.problems", sheet=found.sheet)]
    lines += [f"• {problem_line(problem, t)}" for problem in found.problems]
    if found.total > len(found.problems):
        lines.append(t("sheets.more_problems", count=found.total - len(found.problems)))
    return "\n".join(lines)


def problem_line(problem: SheetProblem, t: Catalog) -> str:
    """One problem in ``t``'s language: where (row, column, the column's header as the
    template writes it) and what."""
    language = t.language
    field = template_headers(language).get(problem.field, problem.field)
    what = {
        "formula": lambda: t("sheets.formula"),
        "no question": lambda: t("sheets.no_question"),
        "no answer": lambda: t("sheets.no_answer"),
        "answer names no option": lambda: t("sheets.answer_names_no_option", value=problem.value),
        "true-false answer": lambda: t(
            "sheets.true_false_answer",
            true=truth_word(language, True),
            false=truth_word(language, False),
        ),
        "true-false options": lambda: t("sheets.true_false_options"),
        "unknown kind": lambda: t(
            "sheets.unknown_kind",
            value=problem.value,
            choice=kind_word(language, true_false=False),
            true_false=kind_word(language, true_false=True),
        ),
        "unknown column": lambda: t("sheets.unknown_column", value=problem.value),
        "column twice": lambda: t("sheets.column_twice", value=problem.value),
        "missing column": lambda: t("sheets.missing_column", field=field),
        "unknown setting": lambda: t(
            "sheets.unknown_setting", value=problem.value, sheet=settings_words(language)[0]
        ),
    }[problem.code]()
    if not problem.column:
        return what
    if not problem.field:
        return t("sheets.at_column", row=problem.row, column=problem.column, problem=what)
    return t("sheets.at_cell", row=problem.row, column=problem.column, field=field, problem=what)


def template_bytes(t: Catalog) -> bytes:
    """The template in ``t``'s language: its headers and one worked example (which of 4, 6, 7
    and 9 is prime)."""
    example = {
        "question": t("sheets.example_question"),
        "A": "4",
        "B": "6",
        "C": "7",
        "D": "9",
        "answer": "C",
        "explanation": t("sheets.example_explanation"),
        "kind": kind_word(t.language, true_false=False),
    }
    return template_sheet(t.language, example)


def template_caption(t: Catalog) -> str:
    """The template's caption (plain text)."""
    return t(
        "sheets.template_caption",
        true=truth_word(t.language, True),
        false=truth_word(t.language, False),
    )


async def cmd_template(update: Update, context: Context) -> None:
    """/template: the quiz sheet template, in the sender's language, as a document."""
    message, user = update.effective_message, update.effective_user
    assert message is not None and user is not None
    t = await catalog_for(context, user)
    await message.reply_document(
        InputFile(template_bytes(t), filename=TEMPLATE_NAME),
        caption=HTML.escape(template_caption(t)),
    )


async def on_sheet_export(
    query: CallbackQuery, context: Context, button: SheetButton, t: Catalog
) -> None:
    """/myquizzes' 📊 Excel: the creator's quiz, latest version, as an .xlsx document in the
    creator's language (else the quiz's own); a quiz that is not theirs, or gone, sends
    nothing."""
    await toast(query)
    user_id = query.from_user.id
    try:
        owned = await reach(context, QuizzesService).quiz(user_id, button.quiz_id)
    except (QuizGone, NotYourQuiz):
        return
    bank = owned.bank
    language = t.language if t.language in bank.languages else bank.default_language
    data = await reach(context, ImportService).quiz_sheet(bank, language)
    caption = t(
        "sheets.export_caption",
        title=clip(owned.record.title, MAX_CAPTION_TITLE),
        button=t("quizzes.button_export"),
    )
    await context.bot.send_document(
        user_id, InputFile(data, filename=f"{owned.record.id}.xlsx"), caption=HTML.escape(caption)
    )
