"""Quiz sheets (.xlsx) for tests, made with openpyxl as a spreadsheet would write them; and the
template committed for the docs (``python -m tests.support.sheets`` writes it again).
"""

from __future__ import annotations

import io
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path

from openpyxl import Workbook, load_workbook

TEMPLATE = Path(__file__).resolve().parents[2] / "docs" / "quiz-template.xlsx"
"""The English template the docs link to."""


def workbook(rows: Sequence[Sequence[object]], *, title: str = "Quiz") -> bytes:
    """An .xlsx file of one worksheet called ``title`` holding ``rows`` (a ``str`` starting
    with ``=`` is a formula, as openpyxl writes it)."""
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = title
    for row in rows:
        sheet.append(list(row))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def cells(data: bytes) -> list[list[object]]:
    """The first worksheet's values, row by row (formulas as written)."""
    book = load_workbook(io.BytesIO(data), read_only=True)
    try:
        return [list(row) for row in book.worksheets[0].iter_rows(values_only=True)]
    finally:
        book.close()


def book_cells(data: bytes) -> dict[str, list[list[object]]]:
    """Every worksheet's values, row by row, by the worksheet's name."""
    book = load_workbook(io.BytesIO(data), read_only=True)
    try:
        return {
            str(sheet.title): [list(row) for row in sheet.iter_rows(values_only=True)]
            for sheet in book.worksheets
        }
    finally:
        book.close()


def with_part(data: bytes, name: str, content: bytes) -> bytes:
    """``data`` (an .xlsx file) with one more part ``name`` holding ``content``, deflated."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            target.writestr(item, source.read(item.filename))
        target.writestr(name, content, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def zip_bomb(data: bytes, megabytes: int = 64) -> bytes:
    """``data`` with a part of ``megabytes`` zero bytes (some kilobytes compressed)."""
    return with_part(data, "xl/media/padding.xml", bytes(megabytes * 1024 * 1024))


def template() -> bytes:
    """The English template as the bot sends it."""
    from bot import i18n
    from bot.features.importing.sheet_handlers import template_bytes

    return template_bytes(i18n.catalog("en"))


def main() -> None:
    """Write the English template to docs/quiz-template.xlsx."""
    TEMPLATE.write_bytes(template())
    print(f"wrote {TEMPLATE}", file=sys.stderr)


if __name__ == "__main__":
    main()
