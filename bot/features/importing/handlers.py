"""Files sent to the bot in a private chat (no command): a quiz YAML, GIFT, Aiken, CSV or
.xlsx file (:mod:`bot.features.importing.sheet_handlers`), or a numbered quiz as a text, Word or
PDF file, becomes a created quiz (or, a YAML with the id of one of the sender's quizzes, its
next version), checked as ``quizbot validate --strict`` checks a bank file; nothing is stored
unless it passes.

The file is fetched with ``getFile`` from the Bot API server the bot talks to, and downloaded
from its file URL (``TELEGRAM_BASE_FILE_URL``, PTB's ``base_file_url``). Files over
:data:`MAX_FILE_BYTES` are refused before the download (the Document's ``file_size``) and
after it (a size Telegram did not give, or got wrong).
"""

from __future__ import annotations

import logging
from pathlib import PurePosixPath

from telegram import Document, Message, Update
from telegram.error import NetworkError, TelegramError
from tenacity import AsyncRetrying, retry_if_exception_type, stop_after_attempt, wait_exponential

from bot.features.importing import sheets
from bot.features.importing.readers import READERS, Unreadable
from bot.features.importing.rules import Converted, NoneConverted, TooManyQuestions
from bot.features.importing.service import ImportService
from bot.features.importing.sheet_handlers import sheet_quiz
from bot.features.myquizzes import screens
from bot.features.myquizzes.quiz_handlers import quiz_screen_for
from bot.features.myquizzes.service import (
    MAX_QUIZ_QUESTIONS,
    Published,
    QuizzesService,
    Submitted,
)
from bot.features.preferences.catalogs import catalog_for
from bot.i18n import Catalog
from bot.render.text import HTML
from bot.telegram.common import Context, reach, send

log = logging.getLogger(__name__)

MAX_FILE_BYTES = 1024 * 1024
"""Largest file taken, in bytes (1 MB; as a bank file, ``bot.bankload.MAX_BANK_BYTES``)."""

DOWNLOAD_TRIES = 3
"""Tries of a file download that failed on the network (``getFile`` itself is retried by the
rate limiter, as every Bot API call)."""

FORMATS = {
    ".yaml": "yaml",
    ".yml": "yaml",
    ".gift": "gift",
    ".csv": "csv",
    ".aiken": "aiken",
    ".xlsx": "xlsx",
    ".txt": "txt",
    ".docx": "docx",
    ".pdf": "pdf",
}
"""File name ending -> format; ``.txt`` is a numbered quiz, Aiken or GIFT, as its text tells."""

MIME_FORMATS = {
    "text/plain": "txt",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/pdf": "pdf",
    sheets.MIME_TYPE: "xlsx",
}
"""A file's MIME type -> format, for a file whose name has no ending of :data:`FORMATS`."""

UNREADABLE = {
    "not text": "documents.not_text",
    "damaged": "documents.damaged",
    "too long": "documents.too_long",
    "no text": "documents.pdf_no_text",
    "encrypted": "documents.pdf_encrypted",
}
"""Why a file's text could not be read (:class:`~.readers.Unreadable`) -> the message."""

OTHER_SHEETS = frozenset({".xls", ".xlsm", ".xlsb", ".ods", ".numbers"})
"""Spreadsheets of other formats: the sender is asked to save them as .xlsx."""


def file_format(name: str, mime_type: str | None = None) -> str | None:
    """The format of a file called ``name`` (``txt``: a numbered quiz, Aiken or GIFT, as
    :func:`~bot.features.importing.numbered.txt_kind` tells), else of its ``mime_type``; None
    if it is none of them."""
    found = FORMATS.get(PurePosixPath(name).suffix.lower())
    return found or MIME_FORMATS.get((mime_type or "").split(";")[0].strip().lower())


async def on_document(update: Update, context: Context) -> None:
    """A file in a private chat: make a quiz of it, or say why not."""
    message, user = update.effective_message, update.effective_user
    assert message is not None and user is not None and message.document is not None
    t = await catalog_for(context, user)
    document = message.document
    name = document.file_name or ""
    kind = file_format(name, document.mime_type)
    if kind is None and PurePosixPath(name).suffix.lower() in OTHER_SHEETS:
        await _reply(message, t("sheets.save_as_xlsx"))
        return
    if kind is None:
        await _reply(message, t("documents.formats"))
        return
    if document.file_size is not None and document.file_size > MAX_FILE_BYTES:
        await _reply(message, t("documents.too_large"))
        return
    data = await _download(document)
    if data is None:
        await _reply(message, t("documents.download_failed"))
        return
    if len(data) > MAX_FILE_BYTES:
        await _reply(message, t("documents.too_large"))
        return
    service = reach(context, QuizzesService)
    if kind == "xlsx":
        stem = PurePosixPath(name).stem
        sheet = await sheet_quiz(message, context, t, data, _title(stem))
        if sheet is None:
            return
        await _publish(
            message, context, t, await service.submit(user.id, sheet, language=t.language)
        )
        return
    # off the event loop and off the interpreter: a file is up to a megabyte of anyone's
    # text, and every other chat waits while the interpreter works (the conversion runs in the
    # worker process, as does the YAML's check, by the quiz service)
    if kind == "yaml":
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            await _reply(message, t("documents.not_text"))
            return
        outcome = await service.submit(user.id, text, language=t.language)
    else:
        converted = await _converted(context, kind, name, data, t)
        if isinstance(converted, str):
            await _reply(message, converted)
            return
        if converted.skipped or converted.problems:
            await _reply(message, _left_out(converted, t))
        outcome = await service.submit(user.id, converted.data, language=t.language)
    await _publish(message, context, t, outcome)


def _title(stem: str) -> str:
    """A quiz's title from its file's name (without the ending)."""
    return stem.replace("_", " ").replace("-", " ").strip() or stem


async def _publish(message: Message, context: Context, t: Catalog, outcome: Submitted) -> None:
    """Answer a file's quiz checked: its problems, or saved and its screen."""
    if not isinstance(outcome.result, Published):
        await message.reply_text(screens.problems_text(outcome.result.problems, t, HTML))
        return
    record = outcome.result.record
    if outcome.not_yours is not None:
        await _reply(message, t("documents.new_not_yours", id=outcome.not_yours))
    await message.reply_text(screens.saved_text(record, outcome.result.created, t, HTML))
    await send(context, message.chat_id, await quiz_screen_for(context, record, t))


async def _converted(
    context: Context, kind: str, name: str, data: bytes, t: Catalog
) -> Converted | str:
    """A GIFT, Aiken, CSV, text, Word or PDF file as a created quiz's bank, or the message
    saying why not (in the creator's language)."""
    title = _title(PurePosixPath(name).stem)
    service = reach(context, ImportService)
    language = t.language
    title_text = t("documents.imported_title", name=title)
    description = t("documents.imported_description", name=title)
    converted: Converted | NoneConverted | TooManyQuestions | Unreadable
    if kind in READERS:
        converted = await service.convert_file(
            kind,
            data,
            language=language,
            title=title_text,
            description=description,
            limit=MAX_QUIZ_QUESTIONS,
        )
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return t("documents.not_text")
        converted = await service.convert(
            kind,
            text,
            language=language,
            title=title_text,
            description=description,
            limit=MAX_QUIZ_QUESTIONS,
        )
    if isinstance(converted, Unreadable):
        return t(UNREADABLE[converted.reason])
    if isinstance(converted, NoneConverted):
        return t("documents.none_converted", count=converted.found)
    if isinstance(converted, TooManyQuestions):
        problem = t("problem.too_many_questions", count=converted.count, limit=converted.limit)
        return t("quizzes.problem_file", problem=problem)
    return converted


def _left_out(converted: Converted, t: Catalog) -> str:
    """How many questions of the file were left out, and the first problems by line and
    question, in the maker's language."""
    lines = [t("documents.skipped", count=converted.skipped)] if converted.skipped else []
    for note in converted.problems:
        problem = t(note.key, **dict(note.values))
        if note.question is None:
            lines.append(t("documents.problem_line", line=note.line, problem=problem))
        else:
            lines.append(
                t(
                    "documents.problem_question",
                    line=note.line,
                    question=note.question,
                    problem=problem,
                )
            )
    return "\n".join(lines)


async def _download(document: Document) -> bytes | None:
    """The file's bytes (``getFile``, then the file URL); None if Telegram would not give
    them (the creator is asked to send the file again)."""
    try:
        file = await document.get_file()
        async for attempt in AsyncRetrying(
            retry=retry_if_exception_type(NetworkError),
            stop=stop_after_attempt(DOWNLOAD_TRIES),
            wait=wait_exponential(multiplier=0.5, max=4),
            reraise=True,
        ):
            with attempt:
                return bytes(await file.download_as_bytearray())
    except (TelegramError, OSError) as exc:
        log.warning("could not download document %s: %r", document.file_unique_id, exc)
    return None


async def _reply(message: Message, text: str) -> None:
    await message.reply_text(HTML.escape(text))
