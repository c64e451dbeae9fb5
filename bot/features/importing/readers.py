"""The text of a quiz sent as a plain text, Word (.docx) or PDF file, for the numbered form
(:mod:`bot.features.importing.numbered`).

- Text: UTF-8 (with or without a byte order mark) or UTF-16 with its byte order mark.
- Word: a .docx that :func:`~bot.features.importing.archives.check_archive` let through
  (bounded expansion, no nesting), read with python-docx: the body's paragraphs in order, each
  a line (a line break inside one starts another), a table's cells row by row. The numbers
  and letters Word draws in front of a list paragraph are not in its text: they are made again
  from the paragraph's list (its own or its style's, ``numPr``) and the list's level format
  (decimal, letters, Roman numerals; ``lvlText`` such as ``%1.`` or ``(%1)``). Not made again:
  a list restarted by a ``lvlOverride``/``startOverride``, numbering shared between lists
  of one abstract definition, and text in text boxes, headers, footers and comments (not read).
- PDF: its text layer, read with pypdf, of at most :data:`MAX_PDF_PAGES` pages. A PDF with no
  text (a scan: pictures of pages) and a PDF that needs a password are refused, saying so.
  Right-to-left text that the text layer holds in drawn order is turned back (:func:`_logical`).

Every reader stops collecting lines after :data:`~bot.features.importing.numbered.MAX_LINES`.
Pure: bytes in, text or :class:`Unreadable` out; they run in the worker process with the
conversion (:func:`convert_file`).
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Callable, Iterator
from typing import Any

from bot.features.importing.archives import ArchiveRefused, check_archive
from bot.features.importing.numbered import MAX_LINES, is_answer_line
from bot.features.importing.rules import Converted, NoneConverted, TooManyQuestions, convert

MAX_PDF_PAGES = 100
"""Most pages of a PDF read (a quiz of the most questions a quiz holds fits in far fewer)."""

MAX_DOCX_EXPANDED = 16 * 1024 * 1024
"""Most bytes a .docx's parts may declare once decompressed (16 MiB): a megabyte of Word file
is rarely more than a few megabytes of XML, and python-docx holds all of it as a tree."""


class Unreadable(Exception):
    """A file whose text could not be read.

    Attributes:
        reason: ``"not text"`` (not UTF-8 or UTF-16), ``"damaged"`` (not a .docx or PDF, or
            refused by :func:`~.archives.check_archive`), ``"too long"`` (more than
            :data:`~.numbered.MAX_LINES` lines or :data:`MAX_PDF_PAGES` pages),
            ``"no text"`` (a PDF without a text layer) or ``"encrypted"`` (a PDF that needs a
            password).
        detail: What exactly, in English (for ``quizbot import`` and the log).
    """

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason, detail)  # the arguments: it pickles back from the worker
        self.reason = reason
        self.detail = detail

    def __str__(self) -> str:
        return f"{self.reason}: {self.detail}" if self.detail else self.reason


def read_text(data: bytes) -> str:
    """``data`` as text: UTF-16 when it starts with a UTF-16 byte order mark, else UTF-8
    (a UTF-8 byte order mark dropped).

    Raises:
        Unreadable: ``"not text"``.
    """
    try:
        if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            return data.decode("utf-16")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise Unreadable("not text", str(error)) from error


def read_docx(data: bytes) -> str:
    """A Word file's text: paragraphs and table cells in order, one line each, list numbers
    made again (see the module).

    Raises:
        Unreadable: ``"damaged"`` (refused archive, not a Word document).
    """
    try:
        check_archive(data, max_expanded=MAX_DOCX_EXPANDED)
    except ArchiveRefused as error:
        raise Unreadable("damaged", str(error)) from error
    import docx  # here: only the worker pays for importing it

    try:
        document = docx.Document(io.BytesIO(data))
        lines = _bounded(_docx_lines(document))
    except Exception as error:  # python-docx and lxml raise many kinds on a broken part
        raise Unreadable("damaged", repr(error)) from error
    return "\n".join(lines)


def _bounded(lines: Iterator[str]) -> list[str]:
    """The first lines, one past :data:`MAX_LINES` at most (enough to refuse the rest)."""
    kept: list[str] = []
    for line in lines:
        kept.extend(line.split("\n"))
        if len(kept) > MAX_LINES:
            break
    return kept


def _docx_lines(document: Any) -> Iterator[str]:
    from docx.table import Table

    numbering = _Numbering(document)
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            for row in block.rows:
                for cell in row.cells:
                    for paragraph in cell.paragraphs:
                        yield numbering.label(paragraph) + paragraph.text
        else:
            yield numbering.label(block) + block.text


_ROMAN: tuple[tuple[int, str], ...] = (
    *((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l")),
    *((40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")),
)


def _formatted(value: int, style: str) -> str:
    """A list number in Word's ``numFmt`` ``style``."""
    if style in ("upperLetter", "lowerLetter"):
        letters = chr(ord("a") + (value - 1) % 26) * ((value - 1) // 26 + 1)
        return letters.upper() if style == "upperLetter" else letters
    if style in ("upperRoman", "lowerRoman"):
        roman = ""
        for size, digits in _ROMAN:
            count, value = divmod(value, size)
            roman += digits * count
        return roman.upper() if style == "upperRoman" else roman
    return str(value)


class _Numbering:
    """The numbers Word draws for list paragraphs, counted through the document in order."""

    def __init__(self, document: Any) -> None:
        from docx.oxml.ns import qn

        self._qn = qn
        self._lists: dict[str, dict[int, tuple[str, str, int]]] = {}
        self._counts: dict[str, dict[int, int]] = {}
        self._style_lists = self._styles(document)
        try:
            root = document.part.numbering_part.element
        except (NotImplementedError, KeyError):
            return
        abstract: dict[str, dict[int, tuple[str, str, int]]] = {}
        for definition in root.findall(qn("w:abstractNum")):
            levels = {}
            for level in definition.findall(qn("w:lvl")):
                ilvl = int(level.get(qn("w:ilvl"), "0"))
                levels[ilvl] = (
                    self._value(level, "w:numFmt", "decimal"),
                    self._value(level, "w:lvlText", f"%{ilvl + 1}."),
                    int(self._value(level, "w:start", "1")),
                )
            abstract[definition.get(qn("w:abstractNumId"), "")] = levels
        for num in root.findall(qn("w:num")):
            reference = self._value(num, "w:abstractNumId", "")
            self._lists[num.get(qn("w:numId"), "")] = abstract.get(reference, {})

    def _value(self, element: Any, tag: str, default: str) -> str:
        child = element.find(self._qn(tag))
        value = None if child is None else child.get(self._qn("w:val"))
        return default if value is None else str(value)

    def label(self, paragraph: Any) -> str:
        """The number or letter Word draws before ``paragraph`` and a space, or ``""``."""
        found = self._reference(paragraph)
        if found is None or found[0] not in self._lists:
            return ""
        num_id, ilvl = found
        levels = self._lists[num_id]
        if ilvl not in levels or levels[ilvl][0] in ("bullet", "none"):
            return ""
        counts = self._counts.setdefault(num_id, {})
        counts[ilvl] = counts.get(ilvl, levels[ilvl][2] - 1) + 1
        for deeper in [level for level in counts if level > ilvl]:
            del counts[deeper]
        text = levels[ilvl][1]
        for level in range(ilvl + 1):
            style, _, start = levels.get(level, ("decimal", "", 1))
            text = text.replace(f"%{level + 1}", _formatted(counts.get(level, start), style))
        return text + " "

    def _reference(self, paragraph: Any) -> tuple[str, int] | None:
        """The paragraph's list and level: its own ``numPr``, else its style's."""
        properties = paragraph._p.pPr
        num = None if properties is None else properties.numPr
        if num is None:
            style = (
                None if properties is None or properties.pStyle is None else properties.pStyle.val
            )
            return self._style_lists.get(style if style in self._style_lists else None)
        if num.numId is None:
            return None
        return str(num.numId.val), 0 if num.ilvl is None else int(num.ilvl.val)

    def _styles(self, document: Any) -> dict[str | None, tuple[str, int] | None]:
        """Each paragraph style's list and level (its own ``numPr`` or the styles' it is based
        on), by style id; ``None``: the default paragraph style's. Read once: python-docx's
        ``Paragraph.style`` looks through every style at each call."""
        from docx.enum.style import WD_STYLE_TYPE

        lists: dict[str | None, tuple[str, int] | None] = {}
        for style in document.styles:
            if style.type != WD_STYLE_TYPE.PARAGRAPH:
                continue
            found, seen = None, 0
            current = style
            while found is None and current is not None and seen < 20:
                pPr = current.element.pPr
                found = None if pPr is None else pPr.numPr
                current, seen = current.base_style, seen + 1
            lists[style.style_id] = (
                None
                if found is None or found.numId is None
                else (str(found.numId.val), 0 if found.ilvl is None else int(found.ilvl.val))
            )
        default = document.styles.default(WD_STYLE_TYPE.PARAGRAPH)
        lists[None] = None if default is None else lists.get(default.style_id)
        return lists


def read_pdf(data: bytes) -> str:
    """A PDF's text layer, page by page.

    Raises:
        Unreadable: ``"damaged"``, ``"encrypted"``, ``"too long"`` (more pages than
            :data:`MAX_PDF_PAGES`) or ``"no text"`` (nothing but pictures, as a scan).
    """
    import pypdf
    from pypdf.errors import PyPdfError

    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("")
            except (PyPdfError, NotImplementedError) as error:
                raise Unreadable("encrypted", repr(error)) from error
            if opened == pypdf.PasswordType.NOT_DECRYPTED:
                raise Unreadable("encrypted", "a password is needed")
        if len(reader.pages) > MAX_PDF_PAGES:
            raise Unreadable("too long", f"{len(reader.pages)} pages, at most {MAX_PDF_PAGES}")
        lines = _logical(_bounded(page.extract_text() for page in reader.pages))
    except Unreadable:
        raise
    except Exception as error:  # pypdf raises many kinds on a damaged file
        raise Unreadable("damaged", repr(error)) from error
    if not any(line.strip() for line in lines):
        raise Unreadable("no text", "no page has a text layer")
    return "\n".join(lines)


_RTL = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff"
_RTL_RUN = re.compile(f"(?:^[.!:]+ *)?[{_RTL}](?:[^A-Za-z0-9{_RTL}]*[{_RTL}])*")
"""A run of right-to-left letters and what lies between them; at the start of a line, with
the stop that ends the sentence it drew first."""


def _logical(lines: list[str]) -> list[str]:
    """``lines`` with each run of right-to-left letters turned back into the order it was
    written in, when the PDF's text layer holds them in the order they are drawn (as a PDF
    writer that lays out Arabic itself leaves them: ``ب :ةباجإلا``) and that order finds more
    answer lines (``الإجابة: ب``) than the order it has; else ``lines`` as they are."""
    if not any(_RTL_RUN.search(line) for line in lines):
        return lines
    turned = [_RTL_RUN.sub(lambda run: run[0][::-1], line) for line in lines]
    found = sum(is_answer_line(line.strip()) for line in lines)
    return turned if sum(is_answer_line(line.strip()) for line in turned) > found else lines


READERS: dict[str, Callable[[bytes], str]] = {
    "txt": read_text,
    "docx": read_docx,
    "pdf": read_pdf,
}
"""File format -> reader of its text."""


def read(kind: str, data: bytes) -> str:
    """The text of a ``kind`` file (a key of :data:`READERS`), at most
    :data:`~.numbered.MAX_LINES` lines.

    Raises:
        Unreadable: the reader's reasons, or ``"too long"``.
    """
    text = READERS[kind](data)
    if text.count("\n") >= MAX_LINES:
        raise Unreadable("too long", f"more than {MAX_LINES:,} lines")
    return text


def convert_file(
    kind: str, data: bytes, *, language: str, title: str, description: str, limit: int
) -> Converted | NoneConverted | TooManyQuestions | Unreadable:
    """A ``.txt``, ``.docx`` or ``.pdf`` file (``kind``) as a created quiz, as
    :func:`~bot.features.importing.rules.convert` makes one of text: a text file in the
    numbered form, Aiken or GIFT (:func:`~.rules.txt_kind`), a Word file and a PDF in the
    numbered form. Picklable in and out (it runs in the worker process)."""
    try:
        text = read(kind, data)
    except Unreadable as unreadable:
        return unreadable
    return convert(
        "txt" if kind == "txt" else "numbered",
        text,
        language=language,
        title=title,
        description=description,
        limit=limit,
    )
