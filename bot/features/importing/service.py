"""Files sent to the bot converted to created quizzes off the bot's interpreter: the
conversion (:func:`bot.features.importing.rules.convert`, and
:func:`bot.features.importing.sheets.convert_sheet` for an .xlsx file's bytes) runs in the
worker process the wiring gives (the created quizzes' checks' own), so that one user's file
holds no one else's taps (issue 31)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.features.importing.readers import Unreadable, convert_file
from bot.features.importing.rules import Converted, NoneConverted, TooManyQuestions, convert
from bot.features.importing.sheet_writing import bank_sheet
from bot.features.importing.sheets import SheetProblems, SheetRefused, convert_sheet
from bot.kernel.bank import Bank

Run = Callable[..., Any]
"""``run(function, *args, **kwargs)``: call a module-level function with picklable arguments
somewhere other than the bot's interpreter (a worker process) and return its result, blocking
the calling thread meanwhile; it may raise what the function raises, or
``concurrent.futures.process.BrokenProcessPool`` when the worker died."""


def _here(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return function(*args, **kwargs)


class ImportService:
    """GIFT, Aiken, CSV and .xlsx files, and numbered quizzes as text, Word and PDF files, as
    created quizzes; and quizzes as .xlsx files.

    Args:
        run: Where the conversion runs (:data:`Run`); by default in the calling thread.
    """

    def __init__(self, run: Run = _here) -> None:
        self._run = run

    async def convert(
        self, kind: str, text: str, *, language: str, title: str, description: str, limit: int
    ) -> Converted | NoneConverted | TooManyQuestions:
        """:func:`~bot.features.importing.rules.convert` of the file, in a thread that waits
        for ``run``.

        Raises:
            BrokenProcessPool: the worker process died converting it.
        """
        result: Converted | NoneConverted | TooManyQuestions = await asyncio.to_thread(
            self._run,
            convert,
            kind,
            text,
            language=language,
            title=title,
            description=description,
            limit=limit,
        )
        return result

    async def convert_sheet(
        self, data: bytes, *, language: str, title: str, description: str, limit: int
    ) -> Converted | NoneConverted | SheetProblems | SheetRefused:
        """:func:`~bot.features.importing.sheets.convert_sheet` of an .xlsx file's bytes, in a
        thread that waits for ``run`` (the worker process: openpyxl's parsing holds no one
        else's taps).

        Raises:
            BrokenProcessPool: the worker process died reading it.
        """
        result: Converted | NoneConverted | SheetProblems | SheetRefused = await asyncio.to_thread(
            self._run,
            convert_sheet,
            data,
            language=language,
            title=title,
            description=description,
            limit=limit,
        )
        return result

    async def convert_file(
        self, kind: str, data: bytes, *, language: str, title: str, description: str, limit: int
    ) -> Converted | NoneConverted | TooManyQuestions | Unreadable:
        """:func:`~bot.features.importing.readers.convert_file` of a ``.txt``, ``.docx`` or
        ``.pdf`` file's bytes (read and converted in the worker), in a thread that waits for
        ``run``.

        Raises:
            BrokenProcessPool: the worker process died reading or converting it.
        """
        result: Converted | NoneConverted | TooManyQuestions | Unreadable = await asyncio.to_thread(
            self._run,
            convert_file,
            kind,
            data,
            language=language,
            title=title,
            description=description,
            limit=limit,
        )
        return result

    async def quiz_sheet(self, bank: Bank, language: str) -> bytes:
        """A quiz as an .xlsx file in ``language``
        (:func:`~bot.features.importing.sheet_writing.bank_sheet`), written in a thread (a bank is
        already checked and at most a few hundred rows)."""
        return await asyncio.to_thread(bank_sheet, bank, language)
